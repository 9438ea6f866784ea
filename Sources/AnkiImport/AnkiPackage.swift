import Foundation
import ZIPFoundation

/// An Anki `.apkg` (a deck) or `.colpkg` (a whole collection): a zip archive holding the
/// collection database and numbered media files with a `media` index.
///
/// Rote reads the legacy layout every Anki can write — `collection.anki21` or
/// `collection.anki2` plus a JSON `media` index. Anki 2.1.50 and later write by default a
/// zstd-compressed `collection.anki21b` with a protobuf media index instead; such a package
/// is refused with a message that says to export it again with "Support older Anki versions".
public struct AnkiPackage: Sendable {
    public var collection: AnkiCollection
    /// Media files by the name notes use for them (`[sound:bonjour.mp3]`).
    public var media: [String: Data]
    /// The package's file name, for messages and commit messages.
    public var fileName: String

    /// Anything bigger is refused rather than unpacked (a zip bomb, or not a deck).
    public static let maximumUnpackedSize: UInt64 = 2 << 30

    /// Reads the package at `url`. Throws `AnkiImportError` for a file that is not a zip,
    /// a zip with a path that escapes its folder, a missing or damaged collection.
    public static func read(_ url: URL) throws -> AnkiPackage {
        let name = url.lastPathComponent
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw AnkiImportError(.notAnArchive, "\(url.path): no such file")
        }
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw AnkiImportError(.notAnArchive, "\(name) is not a zip archive (an .apkg or .colpkg is one); the file is truncated or not an Anki export — export it from Anki again")
        }
        var entries: [String: Entry] = [:]
        var total: UInt64 = 0
        for entry in archive {
            let path = entry.path
            guard isSafeName(path) else {
                throw AnkiImportError(.unsafePath, "\(name) holds '\(path)', a path that would land outside the folder it is unpacked into; refusing the package (Anki never writes such paths)")
            }
            guard entry.type == .file else { continue }
            total += entry.uncompressedSize
            guard total <= maximumUnpackedSize else {
                throw AnkiImportError(.notAnArchive, "\(name) unpacks to more than \(maximumUnpackedSize >> 30) GiB; refusing it")
            }
            entries[path] = entry
        }

        func contents(_ path: String) throws -> Data {
            guard let entry = entries[path] else { return Data() }
            var data = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
            } catch {
                throw AnkiImportError(.notAnArchive, "\(name): '\(path)' cannot be unpacked (\(error)); the file is truncated or damaged — export it from Anki again")
            }
            return data
        }

        guard let collectionName = ["collection.anki21", "collection.anki2"].first(where: { entries[$0] != nil }) else {
            if entries["collection.anki21b"] != nil {
                throw AnkiImportError(.unsupportedFormat, "\(name) is in Anki's newer format (collection.anki21b, compressed with zstd), which Rote does not read; in Anki choose File › Export, tick \"Support older Anki versions\", and import that file")
            }
            throw AnkiImportError(.missingCollection, "\(name) holds no Anki collection (collection.anki2 or collection.anki21); is it an Anki export?")
        }
        if collectionName == "collection.anki2", entries["collection.anki21b"] != nil {
            // Newer Anki puts a placeholder collection.anki2 ("please update Anki") beside
            // the real, zstd-compressed one.
            throw AnkiImportError(.unsupportedFormat, "\(name) is in Anki's newer format (collection.anki21b, compressed with zstd), which Rote does not read; in Anki choose File › Export, tick \"Support older Anki versions\", and import that file")
        }

        let scratch = FileManager.default.temporaryDirectory.appending(path: "rote-anki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let databaseURL = scratch.appending(path: collectionName)
        try contents(collectionName).write(to: databaseURL)
        let collection = try AnkiCollection.read(SQLiteDatabase(path: databaseURL.path, label: "\(collectionName) in \(name)"))

        var media: [String: Data] = [:]
        let index = try contents("media")
        if !index.isEmpty {
            guard let names = try? JSONSerialization.jsonObject(with: index) as? [String: String] else {
                throw AnkiImportError(.unsupportedFormat, "\(name): its media index is not the JSON list older Anki writes; in Anki, export again with \"Support older Anki versions\" ticked")
            }
            for (number, mediaName) in names.sorted(by: { $0.key < $1.key }) {
                guard isSafeName(mediaName), !mediaName.contains("/"), !mediaName.hasPrefix(".") else {
                    throw AnkiImportError(.unsafePath, "\(name) names a media file '\(mediaName)', which would land outside the deck folder; refusing the package")
                }
                guard entries[number] != nil else { continue }
                media[mediaName] = try contents(number)
            }
        }
        return AnkiPackage(collection: collection, media: media, fileName: name)
    }

    /// A relative path that stays inside the folder it is unpacked into: not absolute, no
    /// `..` segment, no backslash (a Windows separator), no NUL.
    static func isSafeName(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." }
    }
}
