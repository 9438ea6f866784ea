internal import CLibGit2
import Foundation

extension Repository {
    /// Every reference whose name starts with `prefix` (e.g. `refs/heads/`) and the commit it
    /// points at, sorted by name; symbolic references and those not pointing at a commit are
    /// left out (`git_reference_list` + `git_reference_name_to_id`).
    package func references(withPrefix prefix: String) throws -> [(name: String, target: ObjectID)] {
        var array = git_strarray()
        try check("listing references") { git_reference_list(&array, pointer) }
        defer { git_strarray_dispose(&array) }
        var out: [(name: String, target: ObjectID)] = []
        for index in 0..<array.count {
            guard let raw = array.strings[index] else { continue }
            let name = String(cString: raw)
            guard name.hasPrefix(prefix) else { continue }
            var handle: OpaquePointer?
            guard git_reference_lookup(&handle, pointer, name) == 0 else { continue }
            let symbolic = git_reference_type(handle) == GIT_REFERENCE_SYMBOLIC
            git_reference_free(handle)
            guard !symbolic, let target = try reference(named: name) else { continue }
            var object: OpaquePointer?
            var oid = target.raw
            guard git_object_lookup(&object, pointer, &oid, GIT_OBJECT_COMMIT) == 0 else { continue }
            git_object_free(object)
            out.append((name, target))
        }
        return out.sorted { $0.name < $1.name }
    }

    /// Commits reachable from `tips`, parents before children (`git_revwalk` with
    /// `GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE`): the order a history rewrite needs.
    package func commitsParentsFirst(from tips: [ObjectID]) throws -> [Commit] {
        var walker: OpaquePointer?
        try check("starting a history walk") { git_revwalk_new(&walker, pointer) }
        defer { git_revwalk_free(walker) }
        try check("sorting the history walk") {
            git_revwalk_sorting(walker, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue)
        }
        for tip in tips {
            var oid = tip.raw
            try check("walking history from \(tip)") { git_revwalk_push(walker, &oid) }
        }
        var commits: [Commit] = []
        var oid = git_oid()
        while true {
            let result = git_revwalk_next(&oid, walker)
            if result == GIT_ITEROVER.rawValue { break }
            if result < 0 { throw GitError.last(result, "walking history") }
            commits.append(try commit(ObjectID(oid)))
        }
        return commits
    }

    /// Deletes the reflog of a reference, so it no longer keeps old commits reachable
    /// (`git_reflog_delete`). A reference without a reflog is fine.
    package func deleteReflog(of name: String) throws {
        let result = git_reflog_delete(pointer, name)
        if result < 0, result != GIT_ENOTFOUND.rawValue {
            throw GitError.last(result, "deleting the reflog of \(name)")
        }
    }

    /// Deletes a reference (`git_reference_remove`); a missing one is fine.
    package func deleteReference(named name: String) throws {
        let result = git_reference_remove(pointer, name)
        if result < 0, result != GIT_ENOTFOUND.rawValue { throw GitError.last(result, "deleting reference \(name)") }
    }
}

extension Commit {
    /// A copy of the author signature, name, e-mail, time and UTC offset kept
    /// (`git_signature_dup`), for re-creating a commit as it was.
    package func authorSignature() throws -> Signature {
        try Signature(copying: git_commit_author(pointer))
    }

    package func committerSignature() throws -> Signature {
        try Signature(copying: git_commit_committer(pointer))
    }

    /// The raw message bytes as stored, for re-creating a commit byte for byte.
    package var rawMessage: String { String(cString: git_commit_message_raw(pointer)) }
}

extension Signature {
    convenience init(copying source: UnsafePointer<git_signature>?) throws {
        var handle: UnsafeMutablePointer<git_signature>?
        try check("copying a signature") { git_signature_dup(&handle, source) }
        self.init(owning: handle!)
    }
}
