import Foundation

/// Why an Anki package could not be imported, with what to do. Nothing in the library has
/// changed when one of these is thrown: every check runs before the first write.
public struct AnkiImportError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        /// The file is not a zip archive, or a damaged one.
        case notAnArchive
        /// A path inside the archive, or a media file name, would land outside its folder.
        case unsafePath
        /// No collection inside.
        case missingCollection
        /// A package or collection format newer than Rote knows, or a damaged index.
        case unsupportedFormat
        /// The collection is not an SQLite database, or a damaged one.
        case notSQLite
        /// The package holds no notes that can be imported.
        case empty
        /// The deck name is taken by a deck that did not come from this Anki deck.
        case deckExists
        /// `--fields` or the mapping file is wrong.
        case badMapping
        case invalidName
        /// A library file the import must merge into cannot be read.
        case unreadableLibraryFile
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
