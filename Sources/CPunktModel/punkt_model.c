// english-punkt.txt, embedded at compile time with C23 #embed (clang 21 in the Swift 6.3
// toolchain; -std=c23 in Package.swift).
//
// Why bytes in the binary rather than the alternatives:
// - A package resource needs `Bundle.module`, which on Linux looks beside the executable, then at
//   the absolute path of the build folder, and traps (SIGILL, "could not load resource bundle")
//   when neither holds the bundle: a `chateval` copied elsewhere with its build folder gone
//   (checked with Swift 6.3.1 on 2026-11-27). Embedded, the binary stays self-contained.
// - A Swift string literal (what ChatEvalPunktModel was: 20,628 generated lines) is code the
//   formatter rewrites: it re-indented the tables, and the generator no longer reproduced them.
// The data file stays the generator's byte-for-byte output, which a test checks. clang writes the
// embedded file into this object's dependency file, so editing it rebuilds this object.
#include "punkt_model.h"

static const unsigned char english_model[] = {
#embed "english-punkt.txt"
};

const unsigned char *chateval_punkt_english_bytes(void) { return english_model; }

size_t chateval_punkt_english_count(void) { return sizeof english_model; }
