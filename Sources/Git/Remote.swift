internal import CLibGit2
import Foundation

/// A named remote of a repository (`git_remote`), for fetching and pushing.
///
/// ```swift
/// let origin = try repository.remote(named: "origin")!
/// try origin.fetch(credentials: Credentials())
/// try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: Credentials())
/// ```
package final class Remote {
    let pointer: OpaquePointer
    // Keeps the repository alive while the remote is in use.
    private let repository: Repository

    init(pointer: OpaquePointer, repository: Repository) {
        self.pointer = pointer
        self.repository = repository
    }

    deinit { git_remote_free(pointer) }

    /// The remote's name, e.g. "origin" (`git_remote_name`).
    package var name: String { git_remote_name(pointer).map { String(cString: $0) } ?? "" }

    /// The fetch URL (`git_remote_url`). It may hold a password: show it to people only
    /// through `RemoteURL.redactingUserinfo`.
    package var url: String { git_remote_url(pointer).map { String(cString: $0) } ?? "" }

    /// Where pushes go: the push URL when one is set, else `url` (`git_remote_pushurl`).
    package var pushURL: String { git_remote_pushurl(pointer).map { String(cString: $0) } ?? url }

    /// Downloads what the remote has and updates `refs/remotes/<name>/*` through the remote's
    /// configured refspecs (`git_remote_fetch`). Local branches and the work tree are untouched.
    package func fetch(credentials: Credentials = Credentials(), progress: ((TransferProgress) -> Void)? = nil) throws {
        try fetch(credentials: credentials, progress: progress, refspecs: nil)
    }

    func fetch(credentials: Credentials, progress: ((TransferProgress) -> Void)?, refspecs: [String]?) throws {
        let session = RemoteSession(
            credentials: credentials, operation: "fetching from \(name) (\(url))",
            helperDirectory: repository.workTree ?? repository.gitDirectory, progress: progress)
        var options = git_fetch_options()
        try check("preparing fetch options") { git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION)) }
        session.install(into: &options.callbacks)
        let result = withExtendedLifetime(session) {
            if let refspecs {
                return withStringArray(refspecs) { array in git_remote_fetch(pointer, &array, &options, nil) }
            }
            return git_remote_fetch(pointer, nil, &options, nil)
        }
        if result < 0 {
            throw session.failure ?? LocalRemote.missingFolderError(url: url, operation: session.operation)
                ?? session.error(result)
        }
    }

    /// Pushes `refspecs` (e.g. `"refs/heads/main:refs/heads/main"`) and updates the matching
    /// remote-tracking references (`git_remote_push`).
    ///
    /// Fails with a `GitError` whose `isRejectedPush` is true when the remote's branch has
    /// commits this repository lacks (code `GIT_ENONFASTFORWARD`: fetch, merge and push again),
    /// or when the remote refused a reference: libgit2 then returns success and only reports
    /// the refusal through `push_update_reference`, which this method turns into an error
    /// listing each reference and the remote's reason in `rejectedReferences`. The code is
    /// `GIT_ENONFASTFORWARD` when the reason shows someone else updated the branch, else
    /// `GIT_ERROR` (e.g. a hook declined).
    ///
    /// libgit2 pushes to a folder remote by writing into it, without running its hooks; when
    /// the folder's repository has receive hooks (`pre-receive`, `update`, …) the push runs
    /// the system `git push` instead, so the hooks run and can refuse it as they would for
    /// plain git. Without `git` such a push fails rather than bypass them.
    package func push(refspecs: [String], credentials: Credentials = Credentials()) throws {
        let operation = "pushing \(refspecs.joined(separator: ", ")) to \(name) (\(pushURL))"
        if let path = RemoteURL.localPath(of: pushURL) {
            if let missing = LocalRemote.missingFolderError(url: pushURL, operation: operation) { throw missing }
            let hooks = LocalRemote.receiveHooks(at: path)
            if !hooks.isEmpty {
                let result = try LocalRemote.pushWithGit(
                    gitDirectory: repository.gitDirectory, remoteName: name, refspecs: refspecs, hooks: hooks,
                    operation: operation)
                let said =
                    result.remoteLines.isEmpty ? "" : " (remote said: \(result.remoteLines.joined(separator: " / ")))"
                try Self.throwIfRejected(result.rejected, remoteSaid: said, operation: operation)
                return
            }
        }
        let session = RemoteSession(
            credentials: credentials, operation: operation,
            helperDirectory: repository.workTree ?? repository.gitDirectory)
        var options = git_push_options()
        try check("preparing push options") { git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION)) }
        session.install(into: &options.callbacks)
        let result = withExtendedLifetime(session) {
            withStringArray(refspecs) { array in git_remote_push(pointer, &array, &options) }
        }
        if result == GIT_ENONFASTFORWARD.rawValue, session.failure == nil {
            let cause = GitError.last(result, operation)
            throw GitError(
                code: result, errorClass: cause.errorClass,
                message:
                    "\(cause.message): the remote has commits this repository does not; fetch, merge and push again",
                operation: operation)
        }
        if result < 0 { throw session.error(result) }
        try Self.throwIfRejected(session.rejectedReferences, remoteSaid: session.remoteSaid, operation: operation)
    }

    /// The error for references the remote refused, each with its reason, plus what the
    /// remote said (a hook's own explanation); nothing when `rejected` is empty.
    static func throwIfRejected(_ rejected: [String: String], remoteSaid: String, operation: String) throws {
        guard !rejected.isEmpty else { return }
        let reasons = rejected.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        let someoneElsePushed = rejected.values.contains { Self.meansSomeoneElsePushed($0) }
        throw GitError(
            code: someoneElsePushed ? GIT_ENONFASTFORWARD.rawValue : GIT_ERROR.rawValue,
            errorClass: Int32(GIT_ERROR_REFERENCE.rawValue),
            message: "the remote rejected \(reasons)\(remoteSaid)"
                + (someoneElsePushed ? "; someone else pushed first: fetch, merge and push again" : ""),
            operation: operation, rejectedReferences: rejected)
    }

    /// True for the statuses `git receive-pack` gives when the branch moved under us, and for
    /// libgit2's own when it writes into a folder remote whose branch another push holds
    /// locked ("failed to create locked file '…/main.lock': File exists").
    static func meansSomeoneElsePushed(_ status: String) -> Bool {
        let lowered = status.lowercased()
        return [
            "non-fast-forward", "fetch first", "stale info", "failed to lock", "cannot lock", "failed to update ref",
            "failed to create locked file",
        ]
        .contains { lowered.contains($0) }
    }
}

@available(*, unavailable)
extension Remote: Sendable {}
