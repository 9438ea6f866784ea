import Foundation

/// Why a library could not be found, opened or created, with what to do about it.
public struct LibraryError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        case notALibrary, notAGitRepository, alreadyExists, unreadable, invalidUser, gitFailure, notFound
        /// A name given to something other than a learner (a device) that Rote cannot keep.
        case invalidName
        /// A value out of its range (an interest's weight).
        case invalidValue
        /// The learner has not agreed to Rote keeping this kind of data (seed 004's consent).
        case consentRequired
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
