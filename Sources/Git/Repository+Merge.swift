internal import CLibGit2
import Foundation

/// What merging a commit into HEAD would take (`git_merge_analysis`). At most one of
/// `upToDate`, `fastForward` and `normal` is true. (libgit2 also sets its NORMAL flag when a
/// fast-forward is possible; here `normal` means the histories diverged.)
package struct MergeAnalysis: Hashable, Sendable {
    /// Their commit is already in HEAD's history: nothing to do.
    package var upToDate: Bool
    /// HEAD is in their history: moving the branch to their commit is enough.
    package var fastForward: Bool
    /// Both sides have commits the other lacks: a real merge is needed.
    package var normal: Bool
    /// HEAD's branch has no commit yet (then `fastForward` is also true).
    package var unborn: Bool

    package init(upToDate: Bool, fastForward: Bool, normal: Bool, unborn: Bool = false) {
        self.upToDate = upToDate
        self.fastForward = fastForward
        self.normal = normal
        self.unborn = unborn
    }
}

extension Repository {
    /// How their commit relates to HEAD (`git_annotated_commit_lookup` + `git_merge_analysis`).
    ///
    /// ```swift
    /// let analysis = try repository.mergeAnalysis(theirs: remoteHead)
    /// if analysis.fastForward { ... } else if analysis.normal { ... }
    /// ```
    package func mergeAnalysis(theirs: ObjectID) throws -> MergeAnalysis {
        var oid = theirs.raw
        var annotated: OpaquePointer?
        try check("looking up commit \(theirs) to merge") { git_annotated_commit_lookup(&annotated, pointer, &oid) }
        defer { git_annotated_commit_free(annotated) }
        var analysis = git_merge_analysis_t(rawValue: 0)
        var preference = git_merge_preference_t(rawValue: 0)
        var heads: [OpaquePointer?] = [annotated]
        try check("analysing a merge of \(theirs) into HEAD") {
            git_merge_analysis(&analysis, &preference, pointer, &heads, 1)
        }
        func has(_ flag: git_merge_analysis_t) -> Bool { analysis.rawValue & flag.rawValue != 0 }
        return MergeAnalysis(
            upToDate: has(GIT_MERGE_ANALYSIS_UP_TO_DATE), fastForward: has(GIT_MERGE_ANALYSIS_FASTFORWARD),
            normal: has(GIT_MERGE_ANALYSIS_NORMAL) && !has(GIT_MERGE_ANALYSIS_FASTFORWARD),
            unborn: has(GIT_MERGE_ANALYSIS_UNBORN))
    }

    /// Three-way merges two commits over their merge base into an in-memory index, without
    /// touching HEAD, the staging index or the work tree (`git_merge_commits`).
    ///
    /// Paths both sides changed go to the merge driver their `merge` attribute names (see
    /// `MergeDriver.register`), read from the work tree's `.gitattributes` and
    /// `.git/info/attributes`; `defaultDriver` serves paths without one (and is the way to
    /// pick a driver in a bare repository). What no driver settles stays a conflict in the
    /// result: see `Index.conflicts()`; then `Index.writeTree()` gives the merged tree.
    package func mergeCommits(ours: ObjectID, theirs: ObjectID, defaultDriver: String? = nil) throws -> Index {
        let ourCommit = try commit(ours)
        let theirCommit = try commit(theirs)
        var options = git_merge_options()
        try check("preparing merge options") { git_merge_options_init(&options, UInt32(GIT_MERGE_OPTIONS_VERSION)) }
        var handle: OpaquePointer?
        let operation = "merging \(theirs) into \(ours)"
        if let defaultDriver {
            try defaultDriver.withCString { name in
                options.default_driver = name
                try check(operation) {
                    git_merge_commits(&handle, pointer, ourCommit.pointer, theirCommit.pointer, &options)
                }
            }
        } else {
            try check(operation) {
                git_merge_commits(&handle, pointer, ourCommit.pointer, theirCommit.pointer, &options)
            }
        }
        return Index(pointer: handle!, repository: self)
    }
}
