import Foundation
public import RoteModel

/// Why a library could not be found, opened or created, with what to do about it.
public struct LibraryError: RoteError {
    public struct Code: RoteErrorCode {
        public typealias Failure = LibraryError
        private enum Wrapped: String, Sendable {
            case notALibrary, notAGitRepository, alreadyExists, unreadable, invalidUser, gitFailure, notFound,
                invalidName, invalidValue, consentRequired
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
        public var description: String { wrapped.rawValue }

        public static let notALibrary = Code(.notALibrary)
        public static let notAGitRepository = Code(.notAGitRepository)
        public static let alreadyExists = Code(.alreadyExists)
        public static let unreadable = Code(.unreadable)
        public static let invalidUser = Code(.invalidUser)
        public static let gitFailure = Code(.gitFailure)
        public static let notFound = Code(.notFound)
        /// A name given to something other than a learner (a device) that Rote cannot keep.
        public static let invalidName = Code(.invalidName)
        /// A value out of its range (an interest's weight).
        public static let invalidValue = Code(.invalidValue)
        /// The learner has not agreed to Rote keeping this kind of data (seed 004's consent).
        public static let consentRequired = Code(.consentRequired)
    }

    public let code: Code
    public let message: String
    public let cause: (any Error)?

    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
