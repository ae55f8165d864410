#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// OpenSSL's libcrypto (Debian's libssl-dev): its SHA-256 functions.
//
// The low-level ones (SHA256_Init/Update/Final), deprecated since OpenSSL 3.0 but exported and
// computing the same digest with the same assembly as the EVP interface. EVP fetches the digest
// from the default provider, and that first fetch initialises the provider machinery: one digest
// made 1.9 MiB more of libcrypto resident (1.4 MiB for the library linked, 3.3 MiB after one
// EVP SHA-256, 1.5 MiB after one low-level SHA-256 of 256 MiB, at 1,181 against 1,227 MB/s;
// measured 2026-11-30 on a 2-core Intel Xeon, OpenSSL 3.0 of Debian 12). ChatEval computes
// nothing else with libcrypto, so a run no longer pays for the providers.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#endif
