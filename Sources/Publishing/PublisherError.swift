import Foundation
import Git
public import RoteModel

/// Why a publisher deck could not be added, checked or updated, with what to do. When one of
/// these is thrown the library is unchanged.
public struct PublisherError: RoteError {
    public struct Code: RoteErrorCode {
        public typealias Failure = PublisherError
        private enum Wrapped: String, Sendable {
            case unreachable, unknownRef, noDeck, deckExists, notAPublisherDeck, unknownDeck, pendingEdits, conflicts,
                missingBase
            case invalidName, unsafePath, credentialInURL
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
        public var description: String { wrapped.rawValue }

        /// The publisher's repository did not answer (wrong URL, offline, no access).
        public static let unreachable = Code(.unreachable)
        /// No tag, branch or commit by that name.
        public static let unknownRef = Code(.unknownRef)
        /// No deck.yaml where one was expected.
        public static let noDeck = Code(.noDeck)
        public static let deckExists = Code(.deckExists)
        public static let notAPublisherDeck = Code(.notAPublisherDeck)
        public static let unknownDeck = Code(.unknownDeck)
        /// Uncommitted edits in the deck's folder.
        public static let pendingEdits = Code(.pendingEdits)
        /// The update's three-way merge met lines changed on both sides.
        public static let conflicts = Code(.conflicts)
        /// The commit imported last is gone from the publisher's history.
        public static let missingBase = Code(.missingBase)
        public static let invalidName = Code(.invalidName)
        /// A path in the publisher's tree would land outside the deck folder.
        public static let unsafePath = Code(.unsafePath)
        /// The publisher's address holds a password or token, which deck.yaml would share.
        public static let credentialInURL = Code(.credentialInURL)
    }

    public let code: Code
    public let message: String
    public let cause: (any Error)?

    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        // Messages quote the publisher's URL; a password in it stays hidden.
        self.message = RemoteURL.redactingUserinfo(message)
        self.cause = cause
    }
}
