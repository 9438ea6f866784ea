internal import CLibGit2
package import Foundation

extension Repository {
    /// Paths that differ in the work tree or the staging index from HEAD: modified, added
    /// (including untracked files, but not ignored ones), deleted, renamed or changed in type;
    /// sorted (`git_status_list_new`). `pathspecs` limits the answer, e.g. `["profiles/ana"]`
    /// for a folder or `["*.yaml"]`; empty means everything.
    ///
    /// With `refreshingIndex` (for a caller that holds the library's lock) the stat data of
    /// files found unchanged is written back to the staging index, as `git status` does: after
    /// a copy of the library (`cp -a`, a restore) every file's times and inode differ from the
    /// index's, and without this each scan would read and hash every file again.
    package func statusPaths(pathspecs: [String] = [], refreshingIndex: Bool = false) throws -> [String] {
        var options = git_status_options()
        try check("preparing status options") { git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)) }
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags =
            GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue | (refreshingIndex ? GIT_STATUS_OPT_UPDATE_INDEX.rawValue : 0)
        var list: OpaquePointer?
        try withStringArray(pathspecs) { array in
            options.pathspec = array
            try check("reading the work tree status") { git_status_list_new(&list, pointer, &options) }
        }
        defer { git_status_list_free(list) }
        var paths = Set<String>()
        for position in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, position), entry.pointee.status != GIT_STATUS_CURRENT else {
                continue
            }
            for delta in [entry.pointee.head_to_index, entry.pointee.index_to_workdir] {
                guard let delta else { continue }
                if let path = delta.pointee.old_file.path { paths.insert(String(cString: path)) }
                if let path = delta.pointee.new_file.path { paths.insert(String(cString: path)) }
            }
        }
        return paths.sorted()
    }

    /// Makes the work tree and staging index match `tree` (`git_checkout_tree`).
    ///
    /// Safe by default (`GIT_CHECKOUT_SAFE`): a file is only written or deleted when the work
    /// tree still has `baseline`'s version of it (default: HEAD's tree), so uncommitted edits
    /// are never lost; a clash fails with `isCheckoutConflict`. `force` overwrites instead.
    /// `paths` (pathspecs; a folder covers its files) limits what is touched. After a merge or
    /// fast-forward, check out the new tree first, then move the branch with `setReference`.
    package func checkoutTree(_ tree: Tree, paths: [String] = [], force: Bool = false, baseline: Tree? = nil) throws {
        try checkout(operation: "checking out tree \(tree.id)", paths: paths, force: force, baseline: baseline) {
            options in
            git_checkout_tree(pointer, tree.pointer, &options)
        }
    }

    /// Makes the work tree and staging index match HEAD (`git_checkout_head`); with `force`,
    /// local changes to `paths` (everything when empty) are discarded.
    package func checkoutHead(force: Bool = false, paths: [String] = []) throws {
        try checkout(operation: "checking out HEAD", paths: paths, force: force, baseline: nil) { options in
            git_checkout_head(pointer, &options)
        }
    }

    private func checkout(
        operation: String, paths: [String], force: Bool, baseline: Tree?,
        _ call: (inout git_checkout_options) -> Int32
    ) throws {
        var options = git_checkout_options()
        try check("preparing checkout options") {
            git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION))
        }
        options.checkout_strategy = (force ? GIT_CHECKOUT_FORCE : GIT_CHECKOUT_SAFE).rawValue
        options.baseline = baseline?.pointer
        let result = withStringArray(paths) { array in
            options.paths = array
            return withExtendedLifetime(baseline) { call(&options) }
        }
        if result < 0 { throw GitError.last(result, operation) }
    }

    /// Every `*.lock` file git left under the `.git` folder (`index.lock`, `HEAD.lock`,
    /// `refs/**/*.lock`, `config.lock`, ...), sorted. A lock file belongs to a git process
    /// that is running, or that crashed and left it stale; while one exists, commits and
    /// reference updates fail with `isLocked`. Rote's own `.git/rote/` and `objects/` are
    /// not searched.
    package func staleLockFiles() -> [URL] {
        let top = gitDirectory.standardizedFileURL
        guard
            let walker = FileManager.default.enumerator(
                at: top, includingPropertiesForKeys: [.isDirectoryKey], options: [])
        else { return [] }
        var locks: [URL] = []
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(top.path.count))
                .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            if relative == "objects" || relative == "rote" {
                walker.skipDescendants()
                continue
            }
            if url.lastPathComponent.hasSuffix(".lock"),
                (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true
            {
                locks.append(url)
            }
        }
        return locks.sorted { $0.path < $1.path }
    }
}
