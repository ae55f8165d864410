#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift does not import.
// These wrappers bind text and blobs that SQLite copies before returning. Each returns SQLite's
// result code.

static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

static inline int csqlite_bind_blob(sqlite3_stmt *statement, int index, const void *data, int bytes) {
    return sqlite3_bind_blob(statement, index, data, bytes, SQLITE_TRANSIENT);
}

#endif
