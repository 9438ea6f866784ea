import Foundation
import Git
import RoteModel
import RoteStore
import StudyData

/// What changed since the base index was written — progress files, file stamps and entries —
/// kept in a small delta file (`launch-<user>.delta`) beside the base, so a launch after a
/// session, a sync or a content update writes kilobytes instead of the whole index. It names
/// its base by checksum; a delta for another base is ignored, which is safe — the stat check
/// then finds the same changes again. Configuration changes, or a delta grown past `limit`,
/// fold everything into a new base.
///
/// An entry the base holds differently now (a new rank or new forms), or not at all, is
/// masked in the base and comes back among `addedEntries`; the index merges those into study
/// order and into every lookup.
struct Overlay: Sendable {
    /// Progress of base entries by entry number; nil: the file was removed.
    var progress: [Int: ProgressSummary?] = [:]
    /// Progress of ids with no live entry; nil: the file was removed.
    var orphanProgress: [String: ProgressSummary?] = [:]
    /// File records by base record number; nil: the file was removed.
    var files: [Int: FileRecord?] = [:]
    /// Records of files the base does not have.
    var addedFiles: [FileRecord] = []
    /// Base entries whose file was removed or whose row changed (a changed row is among
    /// `addedEntries` again). Their progress lives in `orphanProgress` or with the added row.
    var removedEntries: Set<Int> = []
    /// Entries the base does not hold as they are now, by id, each with its progress.
    var addedEntries: [String: AddedEntry] = [:]

    struct AddedEntry: Sendable, Equatable {
        var row: EntryRow
        var progress: ProgressSummary?
    }

    // Worked out once at load (`settle`), for the index to read per entry and per lookup.
    /// Statuses of base entries whose progress changed.
    private(set) var statuses: [Int: LibraryIndex.Status] = [:]
    /// One bit per base entry: set when the overlay has its progress, so the entries it
    /// does not have (nearly all) skip the dictionaries.
    private(set) var changedEntries: [UInt64] = []
    /// One bit per base entry: set when it is removed.
    private(set) var removedBits: [UInt64] = []
    /// The added entries in study order (the index numbers them after the base's), their
    /// statuses, and their forms → positions in `added`.
    private(set) var added: [AddedEntry] = []
    private(set) var addedStatuses: [LibraryIndex.Status] = []
    private(set) var addedForms: [String: [Int]] = [:]
    /// Hashes (`IndexHash.form`) of the added forms: a lookup of any other form stays on the
    /// base's fast path.
    private(set) var addedFormHashes: Set<UInt64> = []

    @inline(__always) func changes(entry: Int) -> Bool { Overlay.test(changedEntries, entry) }
    @inline(__always) func removes(entry: Int) -> Bool { Overlay.test(removedBits, entry) }
    var changesEntries: Bool { !removedEntries.isEmpty || !addedEntries.isEmpty }

    @inline(__always) private static func test(_ bits: [UInt64], _ entry: Int) -> Bool {
        let word = entry >> 6
        return word < bits.count && bits[word] & (1 << UInt64(entry & 63)) != 0
    }

    var count: Int {
        progress.count + orphanProgress.count + files.count + addedFiles.count + removedEntries.count
            + addedEntries.count
    }

    /// Changes past this many rows fold into a new base.
    static func limit(entries: Int) -> Int { max(2_000, entries / 20) }

    static let magic: [UInt8] = Array("ROTEDLT7".utf8)

    /// Works out what the index reads per entry: statuses as the base builder works them
    /// out, the masks, and the added entries in study order with their forms.
    mutating func settle(base: LaunchIndex) {
        let words = (base.baseEntryCount + 63) / 64
        changedEntries = [UInt64](repeating: 0, count: words)
        removedBits = [UInt64](repeating: 0, count: words)
        for entry in progress.keys where entry >= 0 && entry < base.baseEntryCount {
            changedEntries[entry >> 6] |= 1 << UInt64(entry & 63)
        }
        for entry in removedEntries where entry >= 0 && entry < base.baseEntryCount {
            removedBits[entry >> 6] |= 1 << UInt64(entry & 63)
        }
        let ignored = Set(base.settings.ignoredWords)
        func status(headword: String?, _ summary: ProgressSummary?) -> LibraryIndex.Status {
            if let headword, ignored.contains(headword) { return .ignored }
            return summary?.indexStatus ?? .new
        }
        statuses = [:]
        for (entry, summary) in progress {
            statuses[entry] = status(headword: base.headword(reference: entry), summary)
        }
        added = LibraryLoader.sortedInStudyOrder(Array(addedEntries.values), deckOrder: base.settings.decks) {
            ($0.row.deck, $0.row.sortKey, $0.row.id)
        }
        addedStatuses = added.map { status(headword: $0.row.headword, $0.progress) }
        addedForms = [:]
        addedFormHashes = []
        for (position, entry) in added.enumerated() {
            for form in entry.row.forms {
                addedForms[form, default: []].append(position)
                var bytes = form
                addedFormHashes.insert(bytes.withUTF8 { IndexHash.form(UnsafeRawBufferPointer($0)) })
            }
        }
    }

    // MARK: The delta file

    func encode(base: LaunchIndex) -> [UInt8] {
        var writer = ByteWriter()
        writer.append(contentsOf: Overlay.magic)
        writer.append(UInt64(0))  // checksum
        writer.append(UInt64(0))  // length
        writer.append(base.checksum)
        writer.append(UInt32(progress.count + orphanProgress.count))
        writer.append(UInt32(files.count + addedFiles.count))
        writer.append(UInt32(removedEntries.count))
        writer.append(UInt32(addedEntries.count))
        // An item: its base number (-1 for none), the text naming it otherwise, whether it is
        // present, then its row — the layout `decode`'s `item()` reads.
        func item(_ number: Int, _ text: String, _ row: ((inout ByteWriter) -> Void)?) {
            writer.append(Int32(number))
            writer.append(UInt16(text.utf8.count))
            writer.append(UInt8(row == nil ? 0 : 1))
            writer.append(UInt8(0))
            writer.append(contentsOf: text.utf8)
            row?(&writer)
        }
        func progressRow(_ summary: ProgressSummary?) -> ((inout ByteWriter) -> Void)? {
            summary.map { summary in
                { writer in
                    LaunchIndex.encode(summary, entry: (0, 0), firstMark: 0, into: &writer)
                    LaunchIndex.append(summary.digest, to: &writer)
                }
            }
        }
        func fileRow(_ record: FileRecord?) -> ((inout ByteWriter) -> Void)? {
            record.map { record in { LaunchIndex.encode(record, path: (0, 0), into: &$0) } }
        }
        for (entry, summary) in progress.sorted(by: { $0.key < $1.key }) { item(entry, "", progressRow(summary)) }
        for (id, summary) in orphanProgress.sorted(by: { $0.key < $1.key }) { item(-1, id, progressRow(summary)) }
        for (number, record) in files.sorted(by: { $0.key < $1.key }) { item(number, "", fileRow(record)) }
        for record in addedFiles { item(-1, record.path, fileRow(record)) }
        for entry in removedEntries.sorted() { writer.append(Int32(entry)) }
        for id in addedEntries.keys.sorted() { Overlay.encode(addedEntries[id]!, into: &writer) }
        writer.set(UInt64(writer.bytes.count), at: 16)
        writer.set(
            writer.bytes.withUnsafeBytes { IndexHash.checksum(UnsafeRawBufferPointer(rebasing: $0[16...])) }, at: 8)
        return writer.bytes
    }

    /// An added entry: its row's fields, strings as length and bytes, then its progress row.
    private static func encode(_ entry: AddedEntry, into writer: inout ByteWriter) {
        let row = entry.row
        func text(_ value: String) {
            writer.append(UInt16(min(value.utf8.count, Int(UInt16.max))))
            writer.append(contentsOf: value.utf8.prefix(Int(UInt16.max)))
        }
        text(row.id)
        text(row.deck)
        text(row.path)
        text(row.gloss)
        writer.append(row.kind.rawValue)
        writer.append(
            UInt8(
                (row.published ? 1 : 0) | (row.locked ? 2 : 0) | (row.headword != nil ? 4 : 0)
                    | (entry.progress != nil ? 8 : 0) | (row.root != nil ? 16 : 0) | (row.topics.isEmpty ? 0 : 32)))
        writer.append(row.rank.map { Int32(clamping: $0) } ?? Int32.min)
        writer.append(Int64(row.sortKey))
        if let headword = row.headword { text(headword) }
        if let root = row.root { text(root) }
        if !row.topics.isEmpty { text(row.joinedTopics) }
        writer.append(UInt16(min(row.forms.count, Int(UInt16.max))))
        for form in row.forms.prefix(Int(UInt16.max)) { text(form) }
        if let progress = entry.progress {
            LaunchIndex.encode(progress, entry: (0, 0), firstMark: 0, into: &writer)
            LaunchIndex.append(progress.digest, to: &writer)
        }
    }

    /// Reads a delta for `base`; nil when it is damaged, foreign or for another base.
    static func decode(_ data: Data, base: LaunchIndex) -> Overlay? {
        data.withUnsafeBytes { raw -> Overlay? in
            guard raw.count >= 48, Array(raw.prefix(8)) == magic, let address = raw.baseAddress else { return nil }
            let reader = ByteReader(base: address, count: raw.count)
            guard reader.u64(16) == UInt64(raw.count),
                IndexHash.checksum(reader.bytes(16, raw.count - 16)) == reader.u64(8),
                reader.u64(24) == base.checksum
            else { return nil }
            var overlay = Overlay()
            var at = 48
            func item() -> (number: Int, text: String, present: Bool, body: Int)? {
                guard at + 8 <= raw.count else { return nil }
                let number = Int(reader.i32(at))
                let length = Int(reader.u16(at + 4))
                let present = reader.u8(at + 6) == 1
                guard at + 8 + length <= raw.count else { return nil }
                let text = reader.string(at + 8, length)
                let body = at + 8 + length
                return (number, text, present, body)
            }
            for _ in 0..<Int(reader.u32(32)) {
                guard let (number, id, present, body) = item(), number < base.baseEntryCount,
                    !present
                        || (body + LaunchIndex.Stride.progress <= raw.count
                            && body + LaunchIndex.inlineRowLength(reader, at: body) <= raw.count)
                else { return nil }
                let summary = present ? LaunchIndex.summary(reader, at: body, marksSection: nil) : nil
                if number >= 0 {
                    overlay.progress[number] = .some(summary)
                } else {
                    overlay.orphanProgress[id] = .some(summary)
                }
                at = body + (present ? LaunchIndex.inlineRowLength(reader, at: body) : 0)
            }
            for _ in 0..<Int(reader.u32(36)) {
                guard let (number, path, present, body) = item(), number < base.fileCount,
                    !present || body + LaunchIndex.Stride.file <= raw.count, number >= 0 || present
                else { return nil }
                let record =
                    present
                    ? LaunchIndex.fileRecord(reader, at: body, path: number >= 0 ? base.fileRecord(number).path : path)
                    : nil
                if number >= 0 {
                    overlay.files[number] = .some(record)
                } else if let record {
                    overlay.addedFiles.append(record)
                }
                at = body + (present ? LaunchIndex.Stride.file : 0)
            }
            for _ in 0..<Int(reader.u32(40)) {
                guard at + 4 <= raw.count else { return nil }
                let number = Int(reader.i32(at))
                guard number >= 0, number < base.baseEntryCount else { return nil }
                overlay.removedEntries.insert(number)
                at += 4
            }
            for _ in 0..<Int(reader.u32(44)) {
                guard let entry = decodeAddedEntry(reader, at: &at, decks: base.settings.decks),
                    overlay.addedEntries[entry.row.id] == nil
                else { return nil }
                overlay.addedEntries[entry.row.id] = entry
            }
            guard at == raw.count else { return nil }
            overlay.settle(base: base)
            return overlay
        }
    }

    /// The layout `encode(_:into:)` writes, every length checked against the bytes left.
    private static func decodeAddedEntry(_ reader: ByteReader, at: inout Int, decks: [String]) -> AddedEntry? {
        func text() -> String? {
            guard at + 2 <= reader.count else { return nil }
            let length = Int(reader.u16(at))
            guard at + 2 + length <= reader.count else { return nil }
            defer { at += 2 + length }
            return reader.string(at + 2, length)
        }
        guard let id = text(), let deck = text(), decks.contains(deck), let path = text(), let gloss = text(),
            at + 14 <= reader.count,
            let kind = EntryRow.Kind(rawValue: reader.u8(at))
        else { return nil }
        let flags = reader.u8(at + 1)
        let rank = reader.i32(at + 2)
        let sortKey = Int(reader.i64(at + 6))
        at += 14
        var headword: String?
        if flags & 4 != 0 {
            guard let text = text() else { return nil }
            headword = text
        }
        var root: String?
        if flags & 16 != 0 {
            guard let text = text() else { return nil }
            root = text
        }
        var topics: [String] = []
        if flags & 32 != 0 {
            guard let text = text() else { return nil }
            topics = EntryRow.topics(joined: text)
        }
        guard at + 2 <= reader.count else { return nil }
        let formCount = Int(reader.u16(at))
        at += 2
        var forms: [String] = []
        for _ in 0..<formCount {
            guard let form = text() else { return nil }
            forms.append(form)
        }
        var progress: ProgressSummary?
        if flags & 8 != 0 {
            guard at + LaunchIndex.Stride.progress <= reader.count,
                at + LaunchIndex.inlineRowLength(reader, at: at) <= reader.count
            else { return nil }
            progress = LaunchIndex.summary(reader, at: at, marksSection: nil)
            at += LaunchIndex.inlineRowLength(reader, at: at)
        }
        let row = EntryRow(
            id: id, deck: deck, path: path, kind: kind, rank: rank == Int32.min ? nil : Int(rank), sortKey: sortKey,
            published: flags & 1 != 0, locked: flags & 2 != 0, headword: headword, forms: forms, gloss: gloss,
            root: root, topics: topics)
        return AddedEntry(row: row, progress: progress)
    }
}
