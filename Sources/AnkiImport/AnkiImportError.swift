import Foundation
public import RoteModel

/// Why an Anki package could not be imported, with what to do. Nothing in the library has
/// changed when one of these is thrown: every check runs before the first write.
public struct AnkiImportError: RoteError {
    public struct Code: RoteErrorCode {
        public typealias Failure = AnkiImportError
        private enum Wrapped: String, Sendable {
            case notAnArchive, unsafePath, missingCollection, unsupportedFormat, notSQLite, empty, deckExists,
                badMapping, invalidName
            case unreadableLibraryFile
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
        public var description: String { wrapped.rawValue }

        /// The file is not a zip archive, or a damaged one.
        public static let notAnArchive = Code(.notAnArchive)
        /// A path inside the archive, or a media file name, would land outside its folder.
        public static let unsafePath = Code(.unsafePath)
        /// No collection inside.
        public static let missingCollection = Code(.missingCollection)
        /// A package or collection format newer than Rote knows, or a damaged index.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// The collection is not an SQLite database, or a damaged one.
        public static let notSQLite = Code(.notSQLite)
        /// The package holds no notes that can be imported.
        public static let empty = Code(.empty)
        /// The deck name is taken by a deck that did not come from this Anki deck.
        public static let deckExists = Code(.deckExists)
        /// `--fields` or the mapping file is wrong.
        public static let badMapping = Code(.badMapping)
        public static let invalidName = Code(.invalidName)
        /// A library file the import must merge into cannot be read.
        public static let unreadableLibraryFile = Code(.unreadableLibraryFile)
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
