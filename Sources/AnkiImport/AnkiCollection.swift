import Foundation

/// What Rote reads from an Anki collection (schema 11, the legacy format every Anki can
/// export, or schema 15–18, what Anki 2.1.50+ exports by default): note types, decks, notes,
/// cards and the review log.
public struct AnkiCollection: Sendable {
    public struct NoteType: Sendable, Equatable {
        public var id: Int64
        public var name: String
        /// Anki's cloze note types (`type: 1`); all others are standard.
        public var isCloze: Bool
        /// Field names in order.
        public var fields: [String]
    }

    public struct Note: Sendable, Equatable {
        public var id: Int64
        public var noteTypeID: Int64
        /// Field values in the note type's field order (HTML, as Anki stores them).
        public var fields: [String]
        public var tags: [String]
    }

    public struct Card: Sendable, Equatable {
        public var id: Int64
        public var noteID: Int64
        public var deckID: Int64
        /// -1 suspended, -2/-3 buried, 0 new, 1/3 learning, 2 review.
        public var queue: Int
        /// Last change, seconds since 1970.
        public var modified: Int64
    }

    /// One line of Anki's `revlog`.
    public struct Review: Sendable, Equatable {
        /// Milliseconds since 1970 when the card was answered; unique in a collection.
        public var id: Int64
        public var cardID: Int64
        /// 1 again, 2 hard, 3 good, 4 easy; 0 for a manual reschedule (not an answer).
        public var ease: Int
        /// Milliseconds the answer took.
        public var milliseconds: Int
    }

    public var noteTypes: [Int64: NoteType] = [:]
    public var decks: [Int64: String] = [:]
    public var notes: [Note] = []
    public var cards: [Card] = []
    public var reviews: [Review] = []

    public init() {}

    /// Reads a collection database. `label` names it in messages.
    static func read(_ database: SQLiteDatabase) throws -> AnkiCollection {
        var collection = AnkiCollection()
        for table in ["col", "notes", "cards", "revlog"] where try !database.hasTable(table) {
            throw AnkiImportError(
                .notSQLite, "\(database.label) has no '\(table)' table, so it is not an Anki collection")
        }
        let version = Int(try database.scalar("SELECT ver FROM col") ?? "") ?? 0
        if version > 18 {
            throw AnkiImportError(
                .unsupportedFormat,
                "\(database.label) uses Anki's collection schema \(version), newer than Rote reads (up to 18); in Anki, export again with \"Support older Anki versions\" ticked"
            )
        }
        if try database.hasTable("notetypes"), try database.hasTable("fields"), try database.hasTable("decks") {
            try collection.readTables(database)
        } else {
            try collection.readJSON(database)
        }
        try database.forEachRow("SELECT id, mid, flds, tags FROM notes ORDER BY id") { row in
            let fields = (row.text(2) ?? "").split(separator: "\u{1f}", omittingEmptySubsequences: false).map(
                String.init)
            let tags = (row.text(3) ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            collection.notes.append(Note(id: row.int(0), noteTypeID: row.int(1), fields: fields, tags: tags))
        }
        try database.forEachRow("SELECT id, nid, did, queue, mod FROM cards ORDER BY id") { row in
            collection.cards.append(
                Card(
                    id: row.int(0), noteID: row.int(1), deckID: row.int(2), queue: Int(row.int(3)), modified: row.int(4)
                ))
        }
        try database.forEachRow("SELECT id, cid, ease, time FROM revlog ORDER BY id") { row in
            collection.reviews.append(
                Review(id: row.int(0), cardID: row.int(1), ease: Int(row.int(2)), milliseconds: Int(row.int(3))))
        }
        return collection
    }

    /// Schema 11 (legacy): note types and decks are JSON in the `col` row.
    private mutating func readJSON(_ database: SQLiteDatabase) throws {
        let modelsJSON = try database.scalar("SELECT models FROM col") ?? "{}"
        let decksJSON = try database.scalar("SELECT decks FROM col") ?? "{}"
        guard let models = try? JSONSerialization.jsonObject(with: Data(modelsJSON.utf8)) as? [String: Any],
            let decks = try? JSONSerialization.jsonObject(with: Data(decksJSON.utf8)) as? [String: Any]
        else {
            throw AnkiImportError(
                .notSQLite,
                "\(database.label): the note types or decks in its 'col' table are not valid JSON; the package is damaged"
            )
        }
        for (key, value) in models {
            guard let model = value as? [String: Any], let id = Int64(key) else { continue }
            let fields = (model["flds"] as? [[String: Any]] ?? [])
                .sorted { ($0["ord"] as? Int ?? 0) < ($1["ord"] as? Int ?? 0) }
                .compactMap { $0["name"] as? String }
            noteTypes[id] = NoteType(
                id: id, name: model["name"] as? String ?? "note type \(key)", isCloze: (model["type"] as? Int) == 1,
                fields: fields)
        }
        for (key, value) in decks {
            guard let deck = value as? [String: Any], let id = Int64(key) else { continue }
            self.decks[id] = deck["name"] as? String ?? "deck \(key)"
        }
    }

    /// Schema 15–18 (what Anki 2.1.50+ exports by default): tables `notetypes` (whose
    /// protobuf `config` has the kind in field 1, 1 = cloze), `fields` and `decks` (whose
    /// names separate levels with U+001F where the JSON had `::`).
    private mutating func readTables(_ database: SQLiteDatabase) throws {
        var damaged: [String] = []
        try database.forEachRow("SELECT id, name, config FROM notetypes") { row in
            let id = row.int(0)
            let name = row.text(1) ?? "note type \(id)"
            guard let config = try? ProtobufMessage(row.blob(2)) else {
                damaged.append(name)
                return
            }
            noteTypes[id] = NoteType(id: id, name: name, isCloze: config.integer(1) == 1, fields: [])
        }
        if let name = damaged.first {
            throw AnkiImportError(
                .notSQLite,
                "\(database.label): the settings of note type '\(name)' cannot be read; the package is damaged — export it from Anki again"
            )
        }
        try database.forEachRow("SELECT ntid, name FROM fields ORDER BY ntid, ord") { row in
            noteTypes[row.int(0)]?.fields.append(row.text(1) ?? "")
        }
        try database.forEachRow("SELECT id, name FROM decks") { row in
            decks[row.int(0)] = (row.text(1) ?? "deck \(row.int(0))").replacingOccurrences(of: "\u{1f}", with: "::")
        }
    }
}
