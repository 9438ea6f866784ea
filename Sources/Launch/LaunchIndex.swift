import Foundation
import Git
import RoteModel
package import RoteStore
package import StudyData

/// The launch index: a compact binary summary of one learner's library — entries in study
/// order, every word form → lemma in an open-addressing table, each entry's rank and status,
/// the progress summaries planning needs, and every file's stamp and blob id — laid out so
/// that it is used where it lies in a memory-mapped file. Opening it reads nothing but the
/// header; a lookup touches a slot, the form's bytes and two small arrays.
///
/// Layout (all integers little-endian): a header (magic, checksum of everything after it,
/// length, then offset and count of each section) and the sections — settings (JSON),
/// strings, entries, entry forms, progress, form slots, lemma lists, files, and the review
/// marks of the progress rows' digests (what `rote stats` adds up).
package final class LaunchIndex: @unchecked Sendable {
    let storage: MappedFile
    var reader: ByteReader { storage.reader }
    /// Changes since the base was written, kept in a small delta file beside it.
    let overlay: Overlay
    /// The base's checksum: a delta names the base it applies to by it.
    var checksum: UInt64 { reader.u64(Layout.Header.checksum) }
    package let settings: LaunchRows.Settings
    /// Entries as the index numbers them: by study position, the overlay's changes merged in.
    package let entryCount: Int
    /// Entries in the base file. Inside, an entry is named by its reference: a base entry
    /// number, or `baseEntryCount + i` for the overlay's i-th added entry.
    let baseEntryCount: Int
    /// Study position ↔ reference; nil while the overlay changes no entry (positions are
    /// then base numbers).
    let order: EntryOrder?
    package let progressCount: Int
    package let fileCount: Int
    let sections: [(offset: Int, count: Int)]
    let slotCount: Int
    let entriesBase: Int, slotsBase: Int, stringsBase: Int, lemmasBase: Int

    /// Checks the bytes through and through (magic, length, checksum, every section inside
    /// the file) before anything is read from them.
    init(storage: MappedFile, overlay: Overlay = Overlay()) throws {
        self.storage = storage
        self.overlay = overlay
        let reader = storage.reader
        let sections = try LaunchIndex.checkedSections(reader)
        self.sections = sections
        let settingsSection = sections[Section.settings.rawValue]
        guard
            let settings = try? JSONDecoder().decode(
                LaunchRows.Settings.self, from: Data(reader.bytes(settingsSection.0, settingsSection.1))),
            settings.deckKinds.count == settings.decks.count
        else { throw Invalid(description: "its settings do not read") }
        self.settings = settings
        let entryCount = sections[Section.entries.rawValue].1
        self.entryCount = entryCount
        baseEntryCount = entryCount
        order = nil
        progressCount = sections[Section.progress.rawValue].1
        fileCount = sections[Section.files.rawValue].1
        let slots = sections[Section.slots.rawValue].1
        guard slots > 0 else { throw Invalid(description: "the forms table is empty") }
        slotCount = slots
        entriesBase = sections[Section.entries.rawValue].0
        slotsBase = sections[Section.slots.rawValue].0
        stringsBase = sections[Section.strings.rawValue].0
        lemmasBase = sections[Section.lemmaLists.rawValue].0
        try checkReferences()
    }

    /// A validated base with another overlay: nothing to check again.
    private init(overlay: Overlay, over base: LaunchIndex) {
        storage = base.storage
        self.overlay = overlay
        settings = base.settings
        baseEntryCount = base.baseEntryCount
        progressCount = base.progressCount
        fileCount = base.fileCount
        sections = base.sections
        slotCount = base.slotCount
        entriesBase = base.entriesBase
        slotsBase = base.slotsBase
        stringsBase = base.stringsBase
        lemmasBase = base.lemmasBase
        order = overlay.changesEntries ? EntryOrder(base: base, overlay: overlay) : nil
        entryCount = order?.references.count ?? base.baseEntryCount
    }

    /// The base's live entries merged with the overlay's added ones, in study order.
    struct EntryOrder {
        let references: [Int32]
        /// By reference; -1 for a removed base entry.
        let positions: [Int32]

        init(base: LaunchIndex, overlay: Overlay) {
            let deckOrder = Dictionary(
                base.settings.decks.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let added = overlay.added
            let addedDecks = added.map { deckOrder[$0.row.deck] ?? Int.max }
            // Study order (as `LibraryLoader.sortedInStudyOrder` sorts) of an added row against
            // a base entry, reading the base's fields in place (its id only on a tie).
            func precedes(_ index: Int, _ number: Int) -> Bool {
                let at = base.entryOffset(number)
                let deck = Int(base.reader.u16(at + Layout.Entry.deck))
                if addedDecks[index] != deck { return addedDecks[index] < deck }
                let sortKey = Int(base.reader.i64(at + Layout.Entry.sortKey))
                if added[index].row.sortKey != sortKey { return added[index].row.sortKey < sortKey }
                return added[index].row.id < base.id(reference: number)
            }
            var references: [Int32] = []
            references.reserveCapacity(base.baseEntryCount + added.count)
            var next = 0
            for number in 0..<base.baseEntryCount where !overlay.removes(entry: number) {
                while next < added.count, precedes(next, number) {
                    references.append(Int32(base.baseEntryCount + next))
                    next += 1
                }
                references.append(Int32(number))
            }
            while next < added.count {
                references.append(Int32(base.baseEntryCount + next))
                next += 1
            }
            var positions = [Int32](repeating: -1, count: base.baseEntryCount + added.count)
            for (position, reference) in references.enumerated() { positions[Int(reference)] = Int32(position) }
            self.references = references
            self.positions = positions
        }
    }

    @inline(__always) func reference(_ position: Int) -> Int {
        guard let order else { return position }
        return Int(order.references[position])
    }

    @inline(__always) func position(_ reference: Int) -> Int {
        guard let order else { return reference }
        return Int(order.positions[reference])
    }

    /// The overlay's added entry a reference names; nil for a base entry.
    @inline(__always) func added(_ reference: Int) -> Overlay.AddedEntry? {
        reference >= baseEntryCount ? overlay.added[reference - baseEntryCount] : nil
    }

    /// The bytes of the index, to write to the cache.
    var bytes: UnsafeRawBufferPointer { reader.bytes(0, reader.count) }

    // MARK: Entries

    @inline(__always) func entryOffset(_ entry: Int) -> Int { entriesBase + entry * Layout.Entry.stride }
    @inline(__always) func string(_ offset: Int, _ length: Int) -> String {
        reader.string(stringsBase + offset, length)
    }

    /// The string of the `Layout.Text` at `field`.
    @inline(__always) func string(at field: Int) -> String {
        let (offset, length) = reader.text(field)
        return string(offset, length)
    }

    @inline(__always) func entryFlags(_ at: Int) -> Layout.EntryFlags {
        Layout.EntryFlags(rawValue: reader.u8(at + Layout.Entry.flags))
    }

    // Public accessors take study positions; the `reference:` ones below them read the base
    // or the overlay.

    package func id(ofEntry entry: Int) -> String { id(reference: reference(entry)) }

    func id(reference: Int) -> String {
        if let added = added(reference) { return added.row.id }
        return string(at: entryOffset(reference) + Layout.Entry.id)
    }

    package func deck(ofEntry entry: Int) -> String { settings.decks[deckNumber(reference: reference(entry))] }

    func deckNumber(reference: Int) -> Int {
        if let added = added(reference) { return settings.decks.firstIndex(of: added.row.deck) ?? 0 }
        return Int(reader.u16(entryOffset(reference) + Layout.Entry.deck))
    }

    /// A vocabulary entry's lemma, normalised (`LibraryIndex.normalize`); nil for other kinds.
    package func headword(ofEntry entry: Int) -> String? { headword(reference: reference(entry)) }

    func headword(reference: Int) -> String? {
        if let added = added(reference) { return added.row.headword }
        let at = entryOffset(reference)
        return entryFlags(at).contains(.headword) ? string(at: at + Layout.Entry.headword) : nil
    }

    /// A vocabulary entry's word family (`root:`, trimmed and lower-cased), without reading
    /// its file; nil when it names none.
    package func root(ofEntry entry: Int) -> String? { root(reference: reference(entry)) }

    func root(reference: Int) -> String? {
        if let added = added(reference) { return added.row.root }
        let at = entryOffset(reference)
        return entryFlags(at).contains(.root) ? string(at: at + Layout.Entry.root) : nil
    }

    /// A vocabulary entry's topics (its examples' `context`s), without reading its file.
    package func topics(ofEntry entry: Int) -> [String] { topics(reference: reference(entry)) }

    func topics(reference: Int) -> [String] {
        if let added = added(reference) { return added.row.topics }
        let at = entryOffset(reference)
        guard entryFlags(at).contains(.topics) else { return [] }
        return EntryRow.topics(joined: string(at: at + Layout.Entry.topics))
    }

    /// The entry's line in a list (`Entry.gloss`), without reading its file.
    package func gloss(ofEntry entry: Int) -> String { gloss(reference: reference(entry)) }

    func gloss(reference: Int) -> String {
        if let added = added(reference) { return added.row.gloss }
        return string(at: entryOffset(reference) + Layout.Entry.gloss)
    }

    /// The same base with another overlay.
    func with(overlay: Overlay) -> LaunchIndex { LaunchIndex(overlay: overlay, over: self) }

    package func path(ofEntry entry: Int) -> String {
        let reference = reference(entry)
        if let added = added(reference) { return added.row.path }
        return string(at: entryOffset(reference) + Layout.Entry.path)
    }

    @inline(__always) package func rank(ofEntry entry: Int) -> Int? { rank(reference: reference(entry)) }

    @inline(__always) func rank(reference: Int) -> Int? {
        if let added = added(reference) { return added.row.rank }
        let rank = reader.i32(entryOffset(reference) + Layout.Entry.rank)
        return rank == Int32.min ? nil : Int(rank)
    }

    func sortKey(reference: Int) -> Int {
        if let added = added(reference) { return added.row.sortKey }
        return Int(reader.i64(entryOffset(reference) + Layout.Entry.sortKey))
    }

    @inline(__always) package func status(ofEntry entry: Int) -> LibraryIndex.Status {
        status(reference: reference(entry))
    }

    @inline(__always) func status(reference: Int) -> LibraryIndex.Status {
        if reference >= baseEntryCount { return overlay.addedStatuses[reference - baseEntryCount] }
        if overlay.changes(entry: reference), let changed = overlay.statuses[reference] { return changed }
        return LaunchIndex.status(code: reader.u8(entryOffset(reference) + Layout.Entry.status))
    }

    /// Statuses as one byte; a switch, not a static array, which would check its lazy
    /// initialisation on every lookup.
    @inline(__always) static func status(code: UInt8) -> LibraryIndex.Status {
        switch code {
        case 1: .learning
        case 2: .review
        case 3: .relearning
        case 4: .suspended
        case 5: .ignored
        default: .new
        }
    }

    /// The highest status code: a byte above it is damage.
    static let lastStatusCode: UInt8 = 5

    static func code(of status: LibraryIndex.Status) -> UInt8 {
        switch status {
        case .new: 0
        case .learning: 1
        case .review: 2
        case .relearning: 3
        case .suspended: 4
        case .ignored: 5
        }
    }

    // MARK: Back to rows

    /// Every file the index stands for: the base's records with the overlay's changes.
    package var files: [FileRecord] {
        var records: [FileRecord] = []
        records.reserveCapacity(fileCount + overlay.addedFiles.count)
        for record in 0..<fileCount {
            if let changed = overlay.files[record] {
                if let changed { records.append(changed) }
            } else {
                records.append(fileRecord(record))
            }
        }
        return records + overlay.addedFiles
    }

    /// Entry files the index records that gave no entry: files that do not read, which a
    /// full load would report. Usually there are none, which a count of roles shows at once.
    package func entryFilesWithoutEntries() -> [String] {
        if overlay.files.isEmpty, overlay.addedFiles.isEmpty {
            var entryFiles = 0
            for record in 0..<fileCount
            where reader.u8(fileOffset(record) + Layout.File.role) == FileRecord.Role.entry.rawValue {
                entryFiles += 1
            }
            if entryFiles == entryCount { return [] }
        }
        let entryPaths = Set((0..<entryCount).map(path(ofEntry:)))
        return files.filter { $0.role == .entry && !entryPaths.contains($0.path) }.map(\.path)
    }

    @inline(__always) private func fileOffset(_ record: Int) -> Int {
        sections[Section.files.rawValue].0 + record * Layout.File.stride
    }

    /// A record's path bytes and stamp, read in place.
    @inline(__always) func fileStamp(_ record: Int) -> (UnsafeRawBufferPointer, FileStamp) {
        let at = fileOffset(record)
        let (path, length) = reader.text(at + Layout.File.path)
        return (reader.bytes(stringsBase + path, length), LaunchIndex.fileStamp(reader, at: at))
    }

    /// The stamp of the file record at `at`.
    @inline(__always) static func fileStamp(_ reader: ByteReader, at: Int) -> FileStamp {
        FileStamp(
            size: reader.u64(at + Layout.File.size), modified: reader.i64(at + Layout.File.modified),
            changed: reader.i64(at + Layout.File.changed), inode: reader.u64(at + Layout.File.inode))
    }

    func fileRecord(_ record: Int) -> FileRecord {
        let (path, _) = fileStamp(record)
        return LaunchIndex.fileRecord(reader, at: fileOffset(record), path: String(decoding: path, as: UTF8.self))
    }

    /// A file record at `at` (the layout `encode(_:path:into:)` writes).
    static func fileRecord(_ reader: ByteReader, at: Int, path: String) -> FileRecord {
        FileRecord(
            path: path, role: FileRecord.Role(rawValue: reader.u8(at + Layout.File.role)) ?? .configuration,
            stamp: fileStamp(reader, at: at),
            blob: reader.u8(at + Layout.File.hasBlob) == 1
                ? ObjectID(bytes: reader.bytes(at + Layout.File.blob, Layout.File.blobSize)) : nil)
    }

    /// References of the live entries with these ids, found by hashing id bytes in place
    /// rather than making a string per base entry.
    /// `baseNumbers`, when given, are `baseEntryNumbers(of:)` of at least these ids, already
    /// looked up.
    func entryReferences(of ids: Set<String>, baseNumbers: [String: Int]? = nil) -> [String: Int] {
        var found: [String: Int] = [:]
        for (offset, entry) in overlay.added.enumerated() where ids.contains(entry.row.id) {
            found[entry.row.id] = baseEntryCount + offset
        }
        let numbers = baseNumbers ?? baseEntryNumbers(of: ids.subtracting(found.keys))
        for id in ids where found[id] == nil {
            if let entry = numbers[id], !overlay.removes(entry: entry) { found[id] = entry }
        }
        return found
    }

    /// Numbers of the base's entries with these ids, removed by the overlay or not.
    func baseEntryNumbers(of ids: Set<String>) -> [String: Int] {
        LaunchIndex.firstMatches(
            of: ids, in: 0..<baseEntryCount, id: { entryOffset($0) + Layout.Entry.id }, reader: reader,
            strings: stringsBase)
    }

    /// The base's progress rows for these ids, whether their entries are live, removed or
    /// were never there.
    func baseProgress(of ids: Set<String>) -> [String: ProgressSummary] {
        let rows = LaunchIndex.firstMatches(
            of: ids, in: 0..<progressCount, id: { progressOffset($0) + Layout.Progress.id }, reader: reader,
            strings: stringsBase)
        return rows.mapValues(summary(row:))
    }

    /// For each id, the first item whose id (the `Layout.Text` at `id(item)`) it is.
    private static func firstMatches(
        of ids: Set<String>, in items: some Sequence<Int>, id: (Int) -> Int, reader: ByteReader, strings: Int
    ) -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        var wanted: [UInt64: [String]] = [:]
        for id in ids {
            var copy = id
            wanted[copy.withUTF8 { IndexHash.form(UnsafeRawBufferPointer($0)) }, default: []].append(id)
        }
        var found: [String: Int] = [:]
        for item in items {
            let (offset, length) = reader.text(id(item))
            let bytes = reader.bytes(strings + offset, length)
            guard let matches = wanted[IndexHash.form(bytes)] else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if matches.contains(text), found[text] == nil { found[text] = item }
        }
        return found
    }

    /// The answer times of every progress file's last `count` reviews (at most five), read in
    /// place.
    package func recentAnswerTimes(last count: Int) -> [Int] {
        var times: [Int] = []
        forEachProgress(
            base: { at in
                let kept = min(
                    Int(reader.u8(at + Layout.Progress.millisecondsCount)), ProgressSummary.millisecondsLimit)
                for slot in max(0, kept - count)..<kept {
                    let value = reader.i32(at + Layout.Progress.milliseconds(slot))
                    if value != Int32.min { times.append(Int(value)) }
                }
            },
            kept: { _, summary in
                times += summary.recentMilliseconds.suffix(count).compactMap { $0 }
            })
        return times
    }

    /// Every progress summary by entry id, orphans included, with the overlay's changes.
    package func progressSummaries() -> [String: ProgressSummary] {
        var progress: [String: ProgressSummary] = [:]
        progress.reserveCapacity(progressCount)
        for row in 0..<progressCount {
            progress[string(at: progressOffset(row) + Layout.Progress.id)] = summary(row: row)
        }
        for (entry, summary) in overlay.progress { progress[id(reference: entry)] = summary }
        for (id, summary) in overlay.orphanProgress { progress[id] = summary }
        for entry in overlay.added { progress[entry.row.id] = entry.progress }
        return progress
    }

    /// The rows this index was built from, to patch and build again.
    package func rows() -> LaunchRows {
        LaunchRows(
            settings: settings, entries: (0..<entryCount).map { entryRow($0) }, progress: progressSummaries(),
            files: files)
    }

    /// One entry's row, as it was built.
    func entryRow(_ position: Int) -> EntryRow { entryRow(reference: reference(position)) }

    func entryRow(reference entry: Int) -> EntryRow {
        if let added = added(entry) { return added.row }
        let formsBase = sections[Section.entryForms.rawValue].0
        let at = entryOffset(entry)
        let flags = entryFlags(at)
        let formsStart = Int(reader.u32(at + Layout.Entry.firstForm))
        return EntryRow(
            id: id(reference: entry), deck: settings.decks[deckNumber(reference: entry)],
            path: string(at: at + Layout.Entry.path),
            kind: EntryRow.Kind(rawValue: reader.u8(at + Layout.Entry.kind)) ?? .vocabulary,
            rank: rank(reference: entry), sortKey: sortKey(reference: entry),
            published: flags.contains(.published), locked: flags.contains(.locked),
            headword: headword(reference: entry),
            forms: (0..<Int(reader.u16(at + Layout.Entry.formCount))).map { form in
                let formAt = formsBase + (formsStart + form) * Layout.EntryForm.stride
                return string(
                    Int(reader.u32(formAt + Layout.EntryForm.offset)), Int(reader.u32(formAt + Layout.EntryForm.length))
                )
            },
            gloss: gloss(reference: entry), root: root(reference: entry), topics: topics(reference: entry))
    }
}
