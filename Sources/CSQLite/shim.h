#ifndef ROTE_CSQLITE_SHIM_H
#define ROTE_CSQLITE_SHIM_H
// SQLite's C API, for reading Anki collections (AnkiImport only).
#include <sqlite3.h>
#endif
