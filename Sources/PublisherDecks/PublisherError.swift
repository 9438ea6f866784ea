import Foundation
import LibGit

/// Why a publisher deck could not be added, checked or updated, with what to do. When one of
/// these is thrown the library is unchanged.
public struct PublisherError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        /// The publisher's repository did not answer (wrong URL, offline, no access).
        case unreachable
        /// No tag, branch or commit by that name.
        case unknownRef
        /// No deck.yaml where one was expected.
        case noDeck
        case deckExists
        case notAPublisherDeck
        case unknownDeck
        /// Uncommitted edits in the deck's folder.
        case pendingEdits
        /// The update's three-way merge met lines changed on both sides.
        case conflicts
        /// The commit imported last is gone from the publisher's history.
        case missingBase
        case invalidName
        /// A path in the publisher's tree would land outside the deck folder.
        case unsafePath
        /// The publisher's address holds a password or token, which deck.yaml would share.
        case credentialInURL
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        // Messages quote the publisher's URL; a password in it stays hidden.
        self.message = RemoteURL.redactingUserinfo(message)
    }

    public var description: String { message }
}
