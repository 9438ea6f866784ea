import Git
public import RoteModel

/// Why sync could not go on, with what to do; `cause` holds the `GitError` when libgit2
/// failed (an authentication failure stays one, whatever the code).
public struct SyncError: RoteError {
    public struct Code: RoteErrorCode {
        public typealias Failure = SyncError
        private enum Wrapped: String, Sendable {
            case noRemote, network, mergeFailed, pushRejected, pushRefused
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
        public var description: String { wrapped.rawValue }

        public static let noRemote = Code(.noRemote)
        /// The remote could not be reached or refused us (`cause` says how).
        public static let network = Code(.network)
        public static let mergeFailed = Code(.mergeFailed)
        /// Every round's push met newer commits on the remote, up to the limit of rounds.
        public static let pushRejected = Code(.pushRejected)
        /// The remote refused the push for a reason other than newer commits (a hook, a
        /// protected branch); not retried.
        public static let pushRefused = Code(.pushRefused)
    }

    public let code: Code
    public let message: String
    public let cause: (any Error)?

    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        // Messages quote remote URLs; a password in one stays hidden.
        self.message = RemoteURL.redactingUserinfo(message)
        self.cause = cause
    }
}
