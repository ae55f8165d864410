#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// OpenSSL's libcrypto (Debian's libssl-dev): its EVP digest interface, for SHA-256.
#include <openssl/evp.h>

#endif
