#ifndef ROTE_CZSTD_SHIM_H
#define ROTE_CZSTD_SHIM_H
// zstd's C API, for the compressed collection and media of Anki 2.1.50+ packages (AnkiImport only).
#include <zstd.h>
#endif
