public import Foundation
import RoteModel
import ZIPFoundation

/// An Anki `.apkg` (a deck) or `.colpkg` (a whole collection): a zip archive holding the
/// collection database and numbered media files with a `media` index.
///
/// Both layouts are read: the legacy one every Anki can write (`collection.anki21` or
/// `collection.anki2`, a JSON `media` index, media stored as is) and the one Anki 2.1.50 and
/// later write by default (a `meta` file saying so, `collection.anki21b`, and a protobuf
/// `media` index, all three and every media file compressed with zstd). See `Layout`.
public struct AnkiPackage: Sendable {
    public var collection: AnkiCollection
    /// Media files by the name notes use for them (`[sound:bonjour.mp3]`).
    public var media: [String: Data]
    /// The package's file name, for messages and commit messages.
    public var fileName: String
    /// What was left out of the package and why, for the import report.
    public var warnings: [String] = []

    /// Anything bigger is refused rather than unpacked (a zip bomb, or not a deck).
    public static let maximumUnpackedSize: UInt64 = 2 << 30

    /// Reads the package at `url`. Throws `AnkiImportError` for a file that is not a zip,
    /// a zip with a path that escapes its folder, a missing or damaged collection, or one
    /// that unpacks to more than `limit` bytes.
    public static func read(_ url: URL, limit: UInt64 = maximumUnpackedSize) throws -> AnkiPackage {
        let name = url.lastPathComponent
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw AnkiImportError(.notAnArchive, "\(url.path): no such file")
        }
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw AnkiImportError(
                .notAnArchive,
                "\(name) is not a zip archive (an .apkg or .colpkg is one); the file is truncated or not an Anki export — export it from Anki again",
                cause: error)
        }
        let tooBig = AnkiImportError(
            .notAnArchive,
            "\(name) unpacks to more than \(describeSize(limit)); refusing it (a damaged or hostile package, or not one deck)"
        )
        var entries: [String: ZIPFoundation.Entry] = [:]
        var links: Set<String> = []
        var declared: UInt64 = 0
        for entry in archive {
            let path = entry.path
            guard isSafeName(path) else {
                throw AnkiImportError(
                    .unsafePath,
                    "\(name) holds '\(path)', a path that would land outside the folder it is unpacked into; refusing the package (Anki never writes such paths)"
                )
            }
            guard entry.type == .file else {
                if entry.type == .symlink { links.insert(path) }
                continue
            }
            // The sizes a zip declares cost nothing to add up and refuse most oversized
            // packages before any work, but they are only claims: `contents` counts for real.
            declared += entry.uncompressedSize
            guard declared <= limit else { throw tooBig }
            entries[path] = entry
        }

        // Bytes actually inflated so far, across the whole package. A zip's header may claim
        // 100 bytes for a member that inflates to gigabytes, and ZIPFoundation inflates until
        // the deflate stream ends whatever the header says, so every chunk is counted as it
        // arrives and the extraction stops at the limit.
        var inflated: UInt64 = 0
        func contents(_ path: String) throws -> Data {
            guard let entry = entries[path] else { return Data() }
            var data = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    inflated += UInt64(chunk.count)
                    guard inflated <= limit else { throw tooBig }
                    data.append(chunk)
                }
            } catch let error as AnkiImportError {
                throw error
            } catch {
                throw AnkiImportError(
                    .notAnArchive,
                    "\(name): '\(path)' cannot be unpacked (\(error)); the file is truncated or damaged — export it from Anki again",
                    cause: error)
            }
            return data
        }

        let layout = try Layout(metadata: contents("meta"), hasEntry: { entries[$0] != nil }, packageName: name)
        guard entries[layout.collectionName] != nil else {
            throw AnkiImportError(
                .missingCollection,
                "\(name) holds no Anki collection (collection.anki21b, collection.anki21 or collection.anki2); is it an Anki export?"
            )
        }
        // Compressed data may unpack to more than the zip says; the whole package stays under the limit.
        var budget = limit
        func unpacked(_ path: String, label: String) throws -> Data {
            let data = try contents(path)
            guard layout.isCompressed else { return data }
            let plain = try Zstd.decompress(data, label: label, limit: budget)
            budget -= UInt64(plain.count)
            return plain
        }

        let scratch = FileManager.default.temporaryDirectory.appending(path: "rote-anki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let label = "\(layout.collectionName) in \(name)"
        let databaseURL = scratch.appending(path: "collection.sqlite")
        try unpacked(layout.collectionName, label: label).write(to: databaseURL)
        let collection = try AnkiCollection.read(SQLiteDatabase(path: databaseURL.path, label: label))

        var media: [String: Data] = [:]
        var warnings: [String] = []
        for file in try layout.mediaFiles(try contents("media"), packageName: name) {
            guard isSafeName(file.name), !file.name.contains("/"), !file.name.hasPrefix(".") else {
                throw AnkiImportError(
                    .unsafePath,
                    "\(name) names a media file '\(file.name)', which would land outside the deck folder; refusing the package"
                )
            }
            // The file system refuses a name this long when the import writes it (after the
            // checks, half-way through the commit): refused here, before anything is written.
            guard file.name.utf8.count <= Slug.maximumNameBytes else {
                throw AnkiImportError(
                    .invalidName,
                    "\(name) holds a media file whose name is \(file.name.utf8.count) bytes ('\(ControlCharacters.visible(String(file.name.prefix(40))))…'); the limit is \(Slug.maximumNameBytes) (file systems allow 255 bytes, and Rote adds a temporary suffix while it writes); rename it in Anki's media folder and export again"
                )
            }
            // Entries refer to media by name, so a name cannot be cleaned the way a field is.
            guard !ControlCharacters.contains(file.name) else {
                throw AnkiImportError(
                    .unsafePath,
                    "\(name) names a media file '\(ControlCharacters.visible(file.name))', which holds control characters no file of a library should; rename it in Anki's media folder and export again"
                )
            }
            // A link is never followed (it could name any file on this machine), but a media
            // file that silently goes missing leaves entries pointing at nothing: say so.
            if links.contains(file.zipEntry) {
                warnings.append(
                    "media file '\(file.name)' (zip entry '\(file.zipEntry)') is a symbolic link, not a file; it was left out — Anki never writes links, so export the deck again or copy the file into the deck's folder yourself"
                )
                continue
            }
            guard entries[file.zipEntry] != nil else { continue }
            let data = try unpacked(file.zipEntry, label: "media file '\(file.name)' in \(name)")
            if let size = file.size, size != data.count {
                throw AnkiImportError(
                    .notAnArchive,
                    "\(name): media file '\(file.name)' holds \(data.count) bytes where its index says \(size); the package is damaged — export it from Anki again"
                )
            }
            media[file.name] = data
        }
        return AnkiPackage(collection: collection, media: media, fileName: name, warnings: warnings)
    }

    /// `2 GiB`, `64 MiB`, or a number of bytes: the limit as a person would write it.
    static func describeSize(_ bytes: UInt64) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }

    /// A relative path that stays inside the folder it is unpacked into: not absolute, no
    /// `..` segment, no backslash (a Windows separator), no NUL.
    static func isSafeName(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." }
    }

    /// Which layout a package has, from its `meta` file (protobuf `PackageMetadata`, `version`
    /// field 1: 1 legacy `collection.anki2`, 2 legacy `collection.anki21`, 3 latest
    /// `collection.anki21b`), or — when there is none, as in packages from older Anki and
    /// genanki — from the collection file present.
    struct Layout: Equatable {
        var collectionName: String
        /// The latest layout: collection, media index and media files are zstd-compressed and
        /// the media index is protobuf.
        var isCompressed: Bool

        /// One media file: the name notes use, the zip entry holding it, its size when known.
        struct MediaFile: Equatable {
            var name: String
            var zipEntry: String
            var size: Int?
        }

        init(collectionName: String, isCompressed: Bool) {
            self.collectionName = collectionName
            self.isCompressed = isCompressed
        }

        init(metadata: Data, hasEntry: (String) -> Bool, packageName: String) throws {
            guard !metadata.isEmpty else {
                // Newer Anki writes a placeholder collection.anki2 ("please update Anki")
                // beside the real collection.anki21b, so the compressed one comes first.
                let name =
                    ["collection.anki21b", "collection.anki21", "collection.anki2"].first(where: hasEntry)
                    ?? "collection.anki2"
                self.init(collectionName: name, isCompressed: name == "collection.anki21b")
                return
            }
            guard let version = (try? ProtobufMessage(metadata))?.integer(1) else {
                throw AnkiImportError(
                    .unsupportedFormat,
                    "\(packageName): its 'meta' file is not the package description Anki writes; the package is damaged — export it from Anki again"
                )
            }
            switch version {
            case 1: self.init(collectionName: "collection.anki2", isCompressed: false)
            case 2: self.init(collectionName: "collection.anki21", isCompressed: false)
            case 3: self.init(collectionName: "collection.anki21b", isCompressed: true)
            default:
                throw AnkiImportError(
                    .unsupportedFormat,
                    "\(packageName) is in a package format newer than Rote knows (version \(version)); in Anki choose File › Export, tick \"Support older Anki versions\", and import that file"
                )
            }
        }

        /// The media files the index lists. Legacy: JSON `{"0": "name.mp3", …}`. Latest:
        /// zstd-compressed `MediaEntries { repeated MediaEntry entries = 1 }`, `MediaEntry
        /// { name = 1; size = 2; sha1 = 3; legacy_zip_filename = 4 }`, the file of entry *i*
        /// being zip entry `i` unless `legacy_zip_filename` says otherwise.
        func mediaFiles(_ index: Data, packageName: String) throws -> [MediaFile] {
            guard !index.isEmpty else { return [] }
            guard isCompressed else {
                guard let names = try? JSONSerialization.jsonObject(with: index) as? [String: String] else {
                    throw AnkiImportError(
                        .unsupportedFormat,
                        "\(packageName): its media index is not the JSON list Anki writes; the package is damaged — export it from Anki again"
                    )
                }
                return names.sorted { $0.key < $1.key }.map { MediaFile(name: $0.value, zipEntry: $0.key, size: nil) }
            }
            let plain = try Zstd.decompress(index, label: "the media index in \(packageName)", limit: 64 << 20)
            let damaged = AnkiImportError(
                .unsupportedFormat,
                "\(packageName): its media index is not the list Anki writes; the package is damaged — export it from Anki again"
            )
            guard let entries = try? ProtobufMessage(plain) else { throw damaged }
            return try entries.bytes(1).enumerated().map { position, data in
                guard let entry = try? ProtobufMessage(data), let name = entry.string(1) else { throw damaged }
                let zipEntry = entry.integer(4).map(String.init) ?? String(position)
                // Clamped: a varint may say up to 2^64 - 1, where `Int(_:)` traps; so large a
                // size then fails the check against the file's real size, as any wrong one does.
                return MediaFile(name: name, zipEntry: zipEntry, size: entry.integer(2).map { Int(clamping: $0) })
            }
        }
    }
}
