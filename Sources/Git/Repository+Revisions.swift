internal import CLibGit2
import Foundation

extension Repository {
    /// The commit a revision names — a tag (annotated tags are peeled), a branch, a
    /// remote-tracking branch, a full or abbreviated commit id, `HEAD` — or nil when nothing
    /// by that name exists (`git_revparse_single`, then `git_object_peel` to a commit).
    ///
    /// ```swift
    /// let released = try repository.resolveCommit("v1.2.0")
    /// ```
    package func resolveCommit(_ revision: String) throws -> ObjectID? {
        var object: OpaquePointer?
        let result = git_revparse_single(&object, pointer, revision)
        if result == GIT_ENOTFOUND.rawValue || result == GIT_EAMBIGUOUS.rawValue || result == GIT_EINVALIDSPEC.rawValue
        {
            return nil
        }
        if result < 0 { throw GitError.last(result, "resolving revision \(revision)") }
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        let peeled = git_object_peel(&commit, object, GIT_OBJECT_COMMIT)
        if peeled == GIT_ENOTFOUND.rawValue || peeled == GIT_EINVALIDSPEC.rawValue || peeled == GIT_EPEEL.rawValue {
            return nil
        }
        if peeled < 0 { throw GitError.last(peeled, "finding the commit of \(revision)") }
        defer { git_object_free(commit) }
        return ObjectID(git_object_id(commit).pointee)
    }

    /// The names of the repository's tags, without `refs/tags/` (`git_tag_list`).
    package func tagNames() throws -> [String] {
        var array = git_strarray()
        try check("listing tags") { git_tag_list(&array, pointer) }
        return takeStrings(&array)
    }
}

extension Remote {
    /// Fetches with explicit `refspecs` instead of the configured ones, e.g.
    /// `["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]` to mirror a remote's
    /// branches and tags into a bare cache (`git_remote_fetch`).
    package func fetch(refspecs: [String], credentials: Credentials = Credentials()) throws {
        try fetch(credentials: credentials, progress: nil, refspecs: refspecs)
    }
}
