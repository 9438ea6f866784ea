internal import CLibGit2

/// An error reported by libgit2: its numeric code (`GIT_ENOTFOUND`, `GIT_ELOCKED`, ...), the
/// error class it came from, and the message libgit2 recorded, plus what Rote was doing.
public struct GitError: Error, CustomStringConvertible, Sendable {
    /// libgit2's return code, e.g. `GIT_ENOTFOUND.rawValue` (-3) or `GIT_ELOCKED.rawValue` (-14).
    public let code: Int32
    /// libgit2's `git_error_t` class (e.g. `GIT_ERROR_OS`), 0 when none was recorded.
    public let errorClass: Int32
    /// libgit2's own message, when it left one.
    public let message: String
    /// What Rote was doing, e.g. "opening repository at /tmp/x".
    public let operation: String
    /// For a push the remote refused: each rejected reference with the remote's reason, e.g.
    /// `["refs/heads/main": "non-fast-forward"]`. Empty for every other error.
    public let rejectedReferences: [String: String]

    public init(
        code: Int32, errorClass: Int32 = 0, message: String, operation: String,
        rejectedReferences: [String: String] = [:]
    ) {
        self.code = code
        self.errorClass = errorClass
        // libgit2's messages and Rote's operations both quote remote URLs; a password in
        // one must not reach whoever reads the error.
        self.message = RemoteURL.redactingUserinfo(message)
        self.operation = RemoteURL.redactingUserinfo(operation)
        self.rejectedReferences = rejectedReferences
    }

    /// Builds the error from libgit2's thread-local last error.
    static func last(_ code: Int32, _ operation: String) -> GitError {
        if let error = git_error_last(), let text = error.pointee.message {
            return GitError(
                code: code, errorClass: error.pointee.klass, message: String(cString: text), operation: operation)
        }
        return GitError(code: code, message: "libgit2 error \(code)", operation: operation)
    }

    public var isNotFound: Bool { code == GIT_ENOTFOUND.rawValue }
    public var isLocked: Bool { code == GIT_ELOCKED.rawValue }

    /// The push was refused: libgit2 saw the remote branch is not an ancestor of ours
    /// (`GIT_ENONFASTFORWARD`), or the remote reported a status for a reference. When the
    /// code is `GIT_ENONFASTFORWARD` someone else pushed first: fetch, merge and push again.
    public var isRejectedPush: Bool { code == GIT_ENONFASTFORWARD.rawValue || !rejectedReferences.isEmpty }

    /// The remote has commits this side lacks (`GIT_ENONFASTFORWARD`, or a server status such
    /// as "fetch first"): fetching, merging and pushing again can succeed. A push refused for
    /// any other reason — a hook, a protected branch — is `isRejectedPush` but not this, and
    /// retrying it only repeats the refusal.
    public var isNonFastForward: Bool { code == GIT_ENONFASTFORWARD.rawValue }

    /// No credential was accepted (`GIT_EAUTH`).
    public var isAuthenticationFailure: Bool { code == GIT_EAUTH.rawValue }

    /// The server's host key or certificate was refused (`GIT_ECERTIFICATE`).
    public var isCertificateFailure: Bool { code == GIT_ECERTIFICATE.rawValue }

    /// A checkout stopped because it would overwrite uncommitted work (`GIT_ECONFLICT`).
    public var isCheckoutConflict: Bool { code == GIT_ECONFLICT.rawValue }

    public var description: String { "\(operation): \(message)" }
}

/// Runs a libgit2 call and throws `GitError` when it returns a negative code.
@discardableResult
func check(_ operation: @autoclosure () -> String, _ call: () -> Int32) throws -> Int32 {
    let result = call()
    if result < 0 { throw GitError.last(result, operation()) }
    return result
}
