import LibGit

/// Why sync could not go on, with what to do.
public struct SyncError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        case notARepository, noRemote, locked, network, mergeFailed, busy, uncommittedChanges
        /// Every round's push met newer commits on the remote, up to the limit of rounds.
        case pushRejected
        /// The remote refused the push for a reason other than newer commits (a hook, a
        /// protected branch); not retried.
        case pushRefused
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        // Messages quote remote URLs; a password in one stays hidden.
        self.message = RemoteURL.redactingUserinfo(message)
    }

    public var description: String { message }
}
