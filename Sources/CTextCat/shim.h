// libexttextcat's C API, as installed by Debian's libexttextcat-dev (pkg-config `libexttextcat`):
// the fingerprint functions (fp_*), with which grading compares a text against the languages it
// chooses. Its fingerprints come from libexttextcat-data (/usr/share/libexttextcat). Nothing is
// added here.
#include <libexttextcat/textcat.h>
#include <libexttextcat/fingerprint.h>
