internal import CLibGit2
import Foundation

extension Repository {
    /// The commit a reference points at, following symbolic references such as `HEAD`; nil
    /// when the reference does not exist or HEAD's branch is unborn (`git_reference_name_to_id`).
    ///
    /// ```swift
    /// let theirs = try repository.reference(named: "refs/remotes/origin/main")
    /// ```
    package func reference(named name: String) throws -> ObjectID? {
        var oid = git_oid()
        let result = git_reference_name_to_id(&oid, pointer, name)
        if result == GIT_ENOTFOUND.rawValue || result == GIT_EUNBORNBRANCH.rawValue { return nil }
        if result < 0 { throw GitError.last(result, "reading reference \(name)") }
        return ObjectID(oid)
    }

    /// Points a reference at `id`, creating it if needed (`git_reference_create`, or
    /// `git_reference_create_matching` with `expected`). A symbolic name such as `HEAD` moves
    /// the branch it points to, as a commit does, even an unborn one. With `expected`, the
    /// update happens only while the reference still points there, so a concurrent writer is
    /// noticed instead of overwritten; `expected` nil means "whatever it points at".
    ///
    /// Moving a branch does not touch the work tree: check the new tree out first
    /// (`checkoutTree`), then move the branch.
    package func setReference(named name: String, to id: ObjectID, message: String, expected: ObjectID? = nil) throws {
        let target = try directReferenceName(for: name)
        var oid = id.raw
        var handle: OpaquePointer?
        if var current = expected?.raw {
            try check("moving \(target) to \(id) (expected at \(expected!))") {
                git_reference_create_matching(&handle, pointer, target, &oid, 1, &current, message)
            }
        } else {
            try check("moving \(target) to \(id)") { git_reference_create(&handle, pointer, target, &oid, 1, message) }
        }
        git_reference_free(handle)
    }

    /// Follows symbolic references from `name` to the direct reference they end at, which may
    /// not exist yet (an unborn branch).
    private func directReferenceName(for name: String) throws -> String {
        var current = name
        for _ in 0..<8 {
            var handle: OpaquePointer?
            let result = git_reference_lookup(&handle, pointer, current)
            if result == GIT_ENOTFOUND.rawValue { return current }
            if result < 0 { throw GitError.last(result, "reading reference \(current)") }
            defer { git_reference_free(handle) }
            guard git_reference_type(handle) == GIT_REFERENCE_SYMBOLIC,
                let target = git_reference_symbolic_target(handle)
            else { return current }
            current = String(cString: target)
        }
        throw GitError(
            code: GIT_ERROR.rawValue, message: "symbolic references nest too deeply", operation: "resolving \(name)")
    }

    /// The short name of the branch HEAD points to, e.g. "main", even before its first commit;
    /// nil when HEAD is detached (`git_reference_symbolic_target` on HEAD).
    package var headBranchName: String? {
        var handle: OpaquePointer?
        guard git_reference_lookup(&handle, pointer, "HEAD") == 0 else { return nil }
        defer { git_reference_free(handle) }
        guard git_reference_type(handle) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(handle)
        else { return nil }
        let name = String(cString: target)
        return name.hasPrefix("refs/heads/") ? String(name.dropFirst("refs/heads/".count)) : nil
    }

    /// The best common ancestor of two commits, nil when their histories are unrelated
    /// (`git_merge_base`).
    package func mergeBase(_ one: ObjectID, _ two: ObjectID) throws -> ObjectID? {
        var base = git_oid()
        var first = one.raw
        var second = two.raw
        let result = git_merge_base(&base, pointer, &first, &second)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        if result < 0 { throw GitError.last(result, "finding the merge base of \(one) and \(two)") }
        return ObjectID(base)
    }

    /// True when `commit` has `ancestor` in its history. A commit is not its own descendant
    /// (`git_graph_descendant_of`).
    package func isDescendant(_ commit: ObjectID, of ancestor: ObjectID) throws -> Bool {
        var descendant = commit.raw
        var older = ancestor.raw
        let result = try check("checking whether \(commit) descends from \(ancestor)") {
            git_graph_descendant_of(pointer, &descendant, &older)
        }
        return result == 1
    }

    /// Commits reachable from `start` but not from `hiding`, newest first by commit time
    /// (`git_revwalk` with `GIT_SORT_TIME`, `git_revwalk_hide`), at most `limit` of them.
    package func log(from start: ObjectID, hiding: ObjectID? = nil, limit: Int? = nil) throws -> [Commit] {
        var walker: OpaquePointer?
        try check("starting a history walk") { git_revwalk_new(&walker, pointer) }
        defer { git_revwalk_free(walker) }
        try check("sorting the history walk") { git_revwalk_sorting(walker, GIT_SORT_TIME.rawValue) }
        var first = start.raw
        try check("walking history from \(start)") { git_revwalk_push(walker, &first) }
        if let hiding {
            var hidden = hiding.raw
            try check("walking history from \(start) without \(hiding)") { git_revwalk_hide(walker, &hidden) }
        }
        var commits: [Commit] = []
        var oid = git_oid()
        while limit.map({ commits.count < $0 }) ?? true {
            let result = git_revwalk_next(&oid, walker)
            if result == GIT_ITEROVER.rawValue { break }
            if result < 0 { throw GitError.last(result, "walking history from \(start)") }
            commits.append(try commit(ObjectID(oid)))
        }
        return commits
    }
}
