#ifndef ROTE_CLIBGIT2_SHIM_H
#define ROTE_CLIBGIT2_SHIM_H
// libgit2's public API plus the pluggable merge-driver API (git2/sys/merge.h), which the
// umbrella header leaves out.
#include <git2.h>
#include <git2/sys/merge.h>
#endif
