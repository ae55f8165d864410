// libexttextcat's C API, as installed by Debian's libexttextcat-dev (pkg-config `libexttextcat`);
// its fingerprints come from libexttextcat-data (/usr/share/libexttextcat). Nothing is added here.
#include <libexttextcat/textcat.h>
