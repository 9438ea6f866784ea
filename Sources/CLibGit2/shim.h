#ifndef ROTE_CLIBGIT2_SHIM_H
#define ROTE_CLIBGIT2_SHIM_H
// libgit2's public API plus the pluggable merge-driver API (git2/sys/merge.h), which the
// umbrella header leaves out.
#include <git2.h>
#include <git2/sys/merge.h>

// git_libgit2_opts is variadic, which Swift cannot call.
static inline int rote_git_set_tree_cache_limit(size_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, bytes);
}

// The most memory libgit2's object cache may hold, for every repository of the process.
static inline int rote_git_set_cache_max_size(ssize_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, bytes);
}

// Replaces the certificate authorities libgit2 trusts for https with those in `file`.
static inline int rote_git_set_ssl_cert_file(const char *file) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, NULL);
}
#endif
