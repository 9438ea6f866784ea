internal import CLibGit2
package import Foundation

/// Process-wide libgit2 set-up. Every handle calls `LibGit.ensureInitialized()` before its
/// first libgit2 call; libgit2 counts init calls, so initialising once for the process and
/// never shutting down is correct and cheap.
package enum LibGit {
    private static let initialized: Bool = {
        git_libgit2_init()
        // libgit2 caches no tree over 4 KiB by default, so every path looked up in a folder
        // of 50 000 progress files inflated and parsed its 2.5 MB tree again (a 200-review
        // commit took 9 s). Trees up to 64 MiB stay cached…
        rote_git_set_tree_cache_limit(64 << 20)
        // …within 64 MiB in all, not libgit2's 256 MiB: a folder of 50 000 files is a 4 MiB
        // parsed tree, and a walk over many commits' trees filled the cache to a `rote serve`
        // of 450 MB. A commit needs only the trees along its paths, the last commit's.
        rote_git_set_cache_max_size(64 << 20)
        return true
    }()

    package static func ensureInitialized() {
        _ = initialized
    }

    /// Trusts the certificate authorities in `file` (PEM) for https instead of the system's,
    /// for the whole process (`GIT_OPT_SET_SSL_CERT_LOCATIONS`): for a server with a private
    /// certificate authority, such as the tests' own on 127.0.0.1. Call it before any https
    /// operation starts; libgit2 swaps its store without a lock.
    package static func trustCertificates(inFile file: URL) throws {
        ensureInitialized()
        try check("trusting the certificates in \(file.path)") { rote_git_set_ssl_cert_file(file.path) }
    }

    /// The libgit2 version linked in, e.g. "1.5.1".
    package static var version: String {
        ensureInitialized()
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        git_libgit2_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }
}
