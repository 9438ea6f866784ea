internal import CSQLite
import Foundation

/// A read-only SQLite database (`sqlite3`): just enough to read an Anki collection.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    /// How messages name the database, e.g. `collection.anki21 in french.apkg`.
    let label: String

    /// Opens `path` read-only (`sqlite3_open_v2`) and checks that it is an SQLite database by
    /// reading its schema, which fails at once on any other file.
    init(path: String, label: String) throws {
        self.label = label
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw AnkiImportError(
                .notSQLite,
                "\(label) cannot be opened as an SQLite database (\(message)); the package is damaged — export it from Anki again"
            )
        }
        handle = db
        _ = try scalar("SELECT count(*) FROM sqlite_master")
    }

    deinit { sqlite3_close(handle) }

    /// Runs `sql` and calls `body` for each row (`sqlite3_prepare_v2`, `sqlite3_step`).
    func forEachRow(_ sql: String, _ body: (Row) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        defer { sqlite3_finalize(statement) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw failure(sql) }
            try body(Row(statement: statement))
        }
    }

    /// The first column of the first row, as text.
    func scalar(_ sql: String) throws -> String? {
        var value: String?
        try forEachRow(sql) { row in if value == nil { value = row.text(0) } }
        return value
    }

    /// True when the database has a table called `name`.
    func hasTable(_ name: String) throws -> Bool {
        try scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(name.replacingOccurrences(of: "'", with: "''"))'"
        ) != "0"
    }

    private func failure(_ sql: String) -> AnkiImportError {
        let code = sqlite3_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        if code == SQLITE_NOTADB || code == SQLITE_CORRUPT {
            return AnkiImportError(
                .notSQLite,
                "\(label) is not a readable SQLite database (\(message)); the package is truncated or damaged — export it from Anki again"
            )
        }
        return AnkiImportError(
            .notSQLite,
            "\(label) could not be read (\(message) while running `\(sql.prefix(60))`); is it an Anki collection?")
    }

    /// One result row, valid only inside the `forEachRow` callback.
    struct Row {
        let statement: OpaquePointer

        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func blob(_ column: Int32) -> Data {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
            return Data(bytes: bytes, count: count)
        }

        func text(_ column: Int32) -> String? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL,
                let bytes = sqlite3_column_text(statement, column)
            else { return nil }
            return String(cString: bytes)
        }
    }
}

@available(*, unavailable)
extension SQLiteDatabase: Sendable {}
