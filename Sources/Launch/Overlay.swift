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

    typealias Layout = LaunchIndex.Layout

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
        typealias Header = Layout.DeltaHeader
        var writer = ByteWriter()
        writer.appendRow(Header.size) { header in
            header.set(bytes: Header.magic, at: 0)
            header.set(base.checksum, at: Header.base)
            header.set(UInt32(progress.count + orphanProgress.count), at: Header.progressCount)
            header.set(UInt32(files.count + addedFiles.count), at: Header.fileCount)
            header.set(UInt32(removedEntries.count), at: Header.removedCount)
            header.set(UInt32(addedEntries.count), at: Header.addedCount)
        }
        // An item: its base number (-1 for none), the text naming it otherwise, whether it is
        // present, then its row — the layout `decode`'s `item()` reads.
        func item(_ number: Int, _ text: String, _ row: ((inout ByteWriter) -> Void)?) {
            writer.appendRow(Layout.DeltaItem.text) { item in
                item.set(Int32(number), at: Layout.DeltaItem.number)
                item.set(UInt16(text.utf8.count), at: Layout.DeltaItem.textLength)
                item.set(UInt8(row == nil ? 0 : 1), at: Layout.DeltaItem.present)
            }
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
        writer.set(UInt64(writer.bytes.count), at: Header.length)
        writer.set(
            writer.bytes.withUnsafeBytes { IndexHash.checksum(UnsafeRawBufferPointer(rebasing: $0[Header.length...])) },
            at: Header.checksum)
        return writer.bytes
    }

    /// An added entry: its row's fields, strings as length and bytes, then its progress row.
    private static func encode(_ entry: AddedEntry, into writer: inout ByteWriter) {
        typealias Field = Layout.DeltaEntry
        let row = entry.row
        func text(_ value: String) {
            let length = min(value.utf8.count, Int(UInt16.max))
            writer.append(UInt16(length))
            writer.append(contentsOf: value.utf8.prefix(length))
        }
        text(row.id)
        text(row.deck)
        text(row.path)
        text(row.gloss)
        var flags: Layout.DeltaEntryFlags = []
        if row.published { flags.insert(.published) }
        if row.locked { flags.insert(.locked) }
        if row.headword != nil { flags.insert(.headword) }
        if entry.progress != nil { flags.insert(.progress) }
        if row.root != nil { flags.insert(.root) }
        if !row.topics.isEmpty { flags.insert(.topics) }
        writer.appendRow(Field.size) { fields in
            fields.set(row.kind.rawValue, at: Field.kind)
            fields.set(flags.rawValue, at: Field.flags)
            fields.set(row.rank.map { Int32(clamping: $0) } ?? Int32.min, at: Field.rank)
            fields.set(Int64(row.sortKey), at: Field.sortKey)
        }
        if let headword = row.headword { text(headword) }
        if let root = row.root { text(root) }
        if !row.topics.isEmpty { text(row.joinedTopics) }
        let forms = row.forms.prefix(Int(UInt16.max))
        writer.append(UInt16(forms.count))
        for form in forms { text(form) }
        if let progress = entry.progress {
            LaunchIndex.encode(progress, entry: (0, 0), firstMark: 0, into: &writer)
            LaunchIndex.append(progress.digest, to: &writer)
        }
    }

    /// Reads a delta for `base`; nil when it is damaged, foreign or for another base.
    static func decode(_ data: Data, base: LaunchIndex) -> Overlay? {
        typealias Header = Layout.DeltaHeader
        typealias Item = Layout.DeltaItem
        return data.withUnsafeBytes { raw -> Overlay? in
            guard raw.count >= Header.size, Array(raw.prefix(Header.magic.count)) == Header.magic,
                let address = raw.baseAddress
            else { return nil }
            let reader = ByteReader(base: address, count: raw.count)
            guard reader.u64(Header.length) == UInt64(raw.count),
                IndexHash.checksum(reader.bytes(Header.length, raw.count - Header.length))
                    == reader.u64(Header.checksum),
                reader.u64(Header.base) == base.checksum
            else { return nil }
            var overlay = Overlay()
            var at = Header.size
            func item() -> (number: Int, text: String, present: Bool, body: Int)? {
                guard at + Item.text <= raw.count else { return nil }
                let number = Int(reader.i32(at + Item.number))
                let length = Int(reader.u16(at + Item.textLength))
                let present = reader.u8(at + Item.present) == 1
                let body = at + Item.text + length
                guard body <= raw.count else { return nil }
                return (number, reader.string(at + Item.text, length), present, body)
            }
            for _ in 0..<Int(reader.u32(Header.progressCount)) {
                guard let (number, id, present, body) = item(), number < base.baseEntryCount,
                    !present
                        || (body + Layout.Progress.stride <= raw.count
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
            for _ in 0..<Int(reader.u32(Header.fileCount)) {
                guard let (number, path, present, body) = item(), number < base.fileCount,
                    !present || body + Layout.File.stride <= raw.count, number >= 0 || present
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
                at = body + (present ? Layout.File.stride : 0)
            }
            for _ in 0..<Int(reader.u32(Header.removedCount)) {
                guard at + Header.removedEntry <= raw.count else { return nil }
                let number = Int(reader.i32(at))
                guard number >= 0, number < base.baseEntryCount else { return nil }
                overlay.removedEntries.insert(number)
                at += Header.removedEntry
            }
            for _ in 0..<Int(reader.u32(Header.addedCount)) {
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
        typealias Field = Layout.DeltaEntry
        func text() -> String? {
            guard at + Field.textLength <= reader.count else { return nil }
            let length = Int(reader.u16(at))
            guard at + Field.textLength + length <= reader.count else { return nil }
            defer { at += Field.textLength + length }
            return reader.string(at + Field.textLength, length)
        }
        guard let id = text(), let deck = text(), decks.contains(deck), let path = text(), let gloss = text(),
            at + Field.size <= reader.count,
            let kind = EntryRow.Kind(rawValue: reader.u8(at + Field.kind))
        else { return nil }
        let flags = Layout.DeltaEntryFlags(rawValue: reader.u8(at + Field.flags))
        let rank = reader.i32(at + Field.rank)
        let sortKey = Int(reader.i64(at + Field.sortKey))
        at += Field.size
        var headword: String?
        if flags.contains(.headword) {
            guard let text = text() else { return nil }
            headword = text
        }
        var root: String?
        if flags.contains(.root) {
            guard let text = text() else { return nil }
            root = text
        }
        var topics: [String] = []
        if flags.contains(.topics) {
            guard let text = text() else { return nil }
            topics = EntryRow.topics(joined: text)
        }
        guard at + Field.formCount <= reader.count else { return nil }
        let formCount = Int(reader.u16(at))
        at += Field.formCount
        var forms: [String] = []
        for _ in 0..<formCount {
            guard let form = text() else { return nil }
            forms.append(form)
        }
        var progress: ProgressSummary?
        if flags.contains(.progress) {
            guard at + Layout.Progress.stride <= reader.count,
                at + LaunchIndex.inlineRowLength(reader, at: at) <= reader.count
            else { return nil }
            progress = LaunchIndex.summary(reader, at: at, marksSection: nil)
            at += LaunchIndex.inlineRowLength(reader, at: at)
        }
        let row = EntryRow(
            id: id, deck: deck, path: path, kind: kind, rank: rank == Int32.min ? nil : Int(rank), sortKey: sortKey,
            published: flags.contains(.published), locked: flags.contains(.locked), headword: headword, forms: forms,
            gloss: gloss,
            root: root, topics: topics)
        return AddedEntry(row: row, progress: progress)
    }
}
