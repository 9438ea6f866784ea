import Foundation

/// Why a library could not be found, opened or created, with what to do about it.
public struct LibraryError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        case notALibrary, notAGitRepository, alreadyExists, unreadable, invalidUser, gitFailure, notFound
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
