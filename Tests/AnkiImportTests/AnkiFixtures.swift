import CSQLite
import Foundation
import TestSupport
import ZIPFoundation

/// Anki decks made by the real tools: `genanki` 0.13.1 for a Basic + Cloze deck, the `anki`
/// 26.9.3 package for a collection with review history. They are committed in
/// Tests/AnkiImportTests/Fixtures/decks/, made once by
/// Tests/AnkiImportTests/Fixtures/make_anki_decks.py (its README says how to remake them), so
/// the tests need neither pip nor the network, and never skip.
enum AnkiFixtures {
    static let folder = Checkout.root.appending(path: "Tests/AnkiImportTests/Fixtures/decks")

    static func file(_ name: String) -> URL { folder.appending(path: name) }

    /// The review log Anki stored, as the fixture script saw it.
    struct Expected: Decodable {
        struct Review: Decodable {
            var id: Int64
            var cid: Int64
            var ease: Int
            var time: Int
            var front: String
        }

        var revlog: [Review]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: file("expected.json")))
    }
}

/// Hand-made packages for the tests of bad input and of the import's rules, built with
/// SQLite and ZIPFoundation directly so they run everywhere.
enum HandMadePackage {
    /// A minimal schema-11 collection: one Basic note type (with `cloze`, a Cloze one of Text
    /// and Extra), one deck, `notes` as (id, front, back), one card per note (card id = note
    /// id + 1000) and the given review log
    /// (revlog id ms, note id, ease). Notes in `reversed` have a second card (id = note id +
    /// 2000), answered by `reversedReviews` (revlog id ms, note id, ease).
    static func collection(
        notes: [(Int64, String, String)], reviews: [(Int64, Int64, Int)] = [], reversed: [Int64] = [],
        reversedReviews: [(Int64, Int64, Int)] = [], deckName: String = "Tiny", deckID: Int64 = 20, cloze: Bool = false
    ) throws -> Data {
        let folder = TemporaryDirectory("anki-collection")
        let path = folder.url.appending(path: "collection.anki2").path
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw CocoaError(.fileWriteUnknown) }
        defer { sqlite3_close(db) }
        func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        var sql = """
            CREATE TABLE col (id integer primary key, crt integer, mod integer, scm integer, ver integer, dty integer, usn integer, ls integer, conf text, models text, decks text, dconf text, tags text);
            CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld integer, csum integer, flags integer, data text);
            CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, mod integer, usn integer, type integer, queue integer, due integer, ivl integer, factor integer, reps integer, lapses integer, left integer, odue integer, odid integer, flags integer, data text);
            CREATE TABLE revlog (id integer primary key, cid integer, usn integer, ease integer, ivl integer, lastIvl integer, factor integer, time integer, type integer);
            INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', '\(cloze ? #"{"10": {"name": "Cloze", "type": 1, "flds": [{"name": "Text", "ord": 0}, {"name": "Extra", "ord": 1}]}}"# : #"{"10": {"name": "Basic", "type": 0, "flds": [{"name": "Front", "ord": 0}, {"name": "Back", "ord": 1}]}}"#)', '{"\(deckID)": {"name": \(quote(deckName).replacingOccurrences(of: "'", with: "\""))}}', '{}', '{}');

            """
        for (id, front, back) in notes {
            sql +=
                "INSERT INTO notes VALUES (\(id), 'g\(id)', 10, 0, 0, '', \(quote(front)) || char(31) || \(quote(back)), \(quote(front)), 0, 0, '');\n"
            sql +=
                "INSERT INTO cards VALUES (\(id + 1000), \(id), \(deckID), 0, 0, 0, 2, 2, 0, 1, 2500, 1, 0, 0, 0, 0, 0, '');\n"
        }
        for note in reversed {
            sql +=
                "INSERT INTO cards VALUES (\(note + 2000), \(note), \(deckID), 1, 0, 0, 2, 2, 0, 1, 2500, 1, 0, 0, 0, 0, 0, '');\n"
        }
        for (id, note, ease) in reviews {
            sql += "INSERT INTO revlog VALUES (\(id), \(note + 1000), 0, \(ease), 1, 0, 2500, 2000, 1);\n"
        }
        for (id, note, ease) in reversedReviews {
            sql += "INSERT INTO revlog VALUES (\(id), \(note + 2000), 0, \(ease), 1, 0, 2500, 2000, 1);\n"
        }
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw NSError(
                domain: "sqlite", code: 1, userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(db))])
        }
        sqlite3_close(db)
        db = nil
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A zip with the given entries, in order; `deflated` ones are compressed, and each of
    /// `links` is a symbolic link whose data is the path it points to.
    static func zip(_ entries: [(String, Data)], deflated: Set<String> = [], links: Set<String> = [], to url: URL)
        throws
    {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(
                with: path, type: links.contains(path) ? .symlink : .file, uncompressedSize: Int64(data.count),
                compressionMethod: deflated.contains(path) ? .deflate : .none,
                provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
        }
    }

    /// The zip at `url` rewritten so that `member`'s local header and central directory
    /// record both claim `claimed` bytes unpacked, whatever its data inflates to — the lie
    /// of a zip bomb. Only the two 4-byte size fields change; the deflate stream is intact.
    static func understate(_ member: String, claiming claimed: UInt32, in url: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        let name = Array(member.utf8)
        func uint32(_ offset: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) } }
        func uint16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        var patched = 0
        // Local header: signature 0x04034b50, uncompressed size at +22, name length at +26,
        // name at +30. Central record: 0x02014b50, size at +24, name length at +28, name at +46.
        for (signature, sizeAt, nameLengthAt, nameAt) in [
            (UInt32(0x0403_4b50), 22, 26, 30), (UInt32(0x0201_4b50), 24, 28, 46),
        ] {
            var offset = 0
            while offset + nameAt <= bytes.count {
                if uint32(offset) == signature, uint16(offset + nameLengthAt) == name.count,
                    offset + nameAt + name.count <= bytes.count,
                    Array(bytes[(offset + nameAt)..<(offset + nameAt + name.count)]) == name
                {
                    for byte in 0..<4 {
                        bytes[offset + sizeAt + byte] = UInt8(truncatingIfNeeded: claimed >> (8 * byte))
                    }
                    patched += 1
                }
                offset += 1
            }
        }
        guard patched == 2 else { throw CocoaError(.fileReadCorruptFile) }
        try Data(bytes).write(to: url)
    }
}
