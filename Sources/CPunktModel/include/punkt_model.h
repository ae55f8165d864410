// NLTK's English Punkt model as bytes in the binary: english-punkt.txt (beside punkt_model.c),
// which scripts/generate-punkt-model.py writes. Imported by ChatEvalPunktModel only, which parses it.
#ifndef CHATEVAL_PUNKT_MODEL_H
#define CHATEVAL_PUNKT_MODEL_H

#include <stddef.h>

/// The first byte of english-punkt.txt as committed (UTF-8; not NUL-terminated). Never NULL.
const unsigned char *chateval_punkt_english_bytes(void);

/// The number of bytes of english-punkt.txt.
size_t chateval_punkt_english_count(void);

#endif
