import Foundation
import LibGit
import RoteModel
import RoteStore
import StudyData

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
public final class LaunchIndex: @unchecked Sendable {
    static let magic: [UInt8] = Array("ROTEIDXC".utf8)

    enum Section: Int, CaseIterable {
        case settings, strings, entries, entryForms, progress, slots, lemmaLists, files, marks
    }

    enum Stride {
        static let entry = 72, entryForm = 8, progress = 248, slot = 32, lemma = 4, file = 64, mark = 8
        /// Bytes of a form kept in its slot: a form this short is matched without reading the strings.
        static let inlineForm = 16
    }

    static let headerSize = 24 + Section.allCases.count * 16

    let storage: MappedFile
    var reader: ByteReader { storage.reader }
    /// Changes since the base was written, kept in a small delta file beside it.
    let overlay: Overlay
    /// The base's checksum: a delta names the base it applies to by it.
    var checksum: UInt64 { reader.u64(8) }
    public let settings: LaunchRows.Settings
    /// Entries as the index numbers them: by study position, the overlay's changes merged in.
    public let entryCount: Int
    /// Entries in the base file. Inside, an entry is named by its reference: a base entry
    /// number, or `baseEntryCount + i` for the overlay's i-th added entry.
    let baseEntryCount: Int
    /// Study position ↔ reference; nil while the overlay changes no entry (positions are
    /// then base numbers).
    private let order: EntryOrder?
    public let progressCount: Int
    public let fileCount: Int
    let sections: [(offset: Int, count: Int)]
    private let slotCount: Int
    let entriesBase: Int, slotsBase: Int, stringsBase: Int, lemmasBase: Int

    /// Why bytes are not a usable index.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the length and checksum fields of a whole index in memory, last, once every
    /// other byte is in place — the builder's final step, and how the fuzz harness and its
    /// regression tests make damaged bytes reach the sections behind the checksum.
    static func seal(_ bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= headerSize else { return }
        bytes.storeBytes(of: UInt64(bytes.count).littleEndian, toByteOffset: 16, as: UInt64.self)
        bytes.storeBytes(of: IndexHash.checksum(UnsafeRawBufferPointer(rebasing: bytes[16...])).littleEndian, toByteOffset: 8, as: UInt64.self)
    }

    /// Checks the bytes through and through (magic, length, checksum, every section inside
    /// the file) before anything is read from them.
    init(storage: MappedFile, overlay: Overlay = Overlay()) throws {
        self.storage = storage
        self.overlay = overlay
        let reader = storage.reader
        guard reader.count >= LaunchIndex.headerSize, Array(reader.bytes(0, 8)) == LaunchIndex.magic else {
            throw Invalid(description: "not a launch index of this version")
        }
        guard reader.u64(16) == UInt64(reader.count) else { throw Invalid(description: "truncated: \(reader.count) bytes, header says \(reader.u64(16))") }
        let sum = IndexHash.checksum(reader.bytes(16, reader.count - 16))
        guard sum == reader.u64(8) else { throw Invalid(description: "checksum mismatch (a torn or damaged write)") }
        var sections: [(Int, Int)] = []
        for section in Section.allCases {
            // Checked as the unsigned words they are before any arithmetic: a damaged length
            // near 2^64 must be refused, not overflow (found by fuzzing).
            let rawOffset = reader.u64(24 + section.rawValue * 16), rawCount = reader.u64(32 + section.rawValue * 16)
            let stride = [1, 1, Stride.entry, Stride.entryForm, Stride.progress, Stride.slot, Stride.lemma, Stride.file, Stride.mark][section.rawValue]
            guard rawOffset >= UInt64(LaunchIndex.headerSize), rawOffset <= UInt64(reader.count), rawCount <= UInt64(reader.count) / UInt64(stride),
                Int(rawOffset) + Int(rawCount) * stride <= reader.count
            else {
                throw Invalid(description: "section \(section) lies outside the file")
            }
            let offset = Int(rawOffset), count = Int(rawCount)
            sections.append((offset, count))
        }
        self.sections = sections
        let settingsSection = sections[Section.settings.rawValue]
        guard let settings = try? JSONDecoder().decode(LaunchRows.Settings.self, from: Data(reader.bytes(settingsSection.0, settingsSection.1))),
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
        // Every reference into the strings and lists must land inside them: a damaged file
        // that passed the checksum by chance still cannot make a read go astray.
        let stringsEnd = sections[Section.strings.rawValue].1
        let formsCount = sections[Section.entryForms.rawValue].1
        let lemmaCount = sections[Section.lemmaLists.rawValue].1
        for entry in 0..<entryCount {
            let at = entriesBase + entry * Stride.entry
            guard Int(reader.u32(at)) + Int(reader.u16(at + 4)) <= stringsEnd, Int(reader.u32(at + 8)) + Int(reader.u16(at + 12)) <= stringsEnd,
                Int(reader.u32(at + 32)) + Int(reader.u16(at + 36)) <= stringsEnd, Int(reader.u16(at + 6)) < settings.decks.count,
                Int(reader.u32(at + 48)) + Int(reader.u16(at + 52)) <= stringsEnd,
                Int(reader.u32(at + 56)) + Int(reader.u16(at + 60)) <= stringsEnd,
                Int(reader.u32(at + 64)) + Int(reader.u16(at + 68)) <= stringsEnd,
                Int(reader.u32(at + 40)) + Int(reader.u16(at + 38)) <= formsCount,
                reader.u32(at + 44) == UInt32.max || Int(reader.u32(at + 44)) < progressCount, reader.u8(at + 16) <= 5
            else { throw Invalid(description: "entry \(entry) points outside the file") }
        }
        // Each inflected form names its text in the strings (found by fuzzing: unchecked, a
        // damaged one sent a read past the end of the file).
        let formsBase = sections[Section.entryForms.rawValue].0
        for form in 0..<formsCount {
            let at = formsBase + form * Stride.entryForm
            guard Int(reader.u32(at)) + Int(reader.u32(at + 4)) <= stringsEnd else { throw Invalid(description: "inflected form \(form) points outside the file") }
        }
        // A look-up probes until it meets a free slot: a table without one would never end
        // (found by fuzzing).
        var freeSlots = 0
        for slot in 0..<slots {
            let at = slotsBase + slot * Stride.slot
            let count = Int(reader.u16(at + 14))
            if count == 0 { freeSlots += 1 }
            guard count == 0 || (reader.u8(at + 13) <= 5
                && (count == 1 ? Int(reader.u32(at + 4)) < entryCount : Int(reader.u32(at + 4)) + count <= lemmaCount))
            else { throw Invalid(description: "form slot \(slot) points outside the file") }
        }
        guard freeSlots > 0 else { throw Invalid(description: "the forms table has no free slot") }
        for lemma in 0..<lemmaCount where Int(reader.u32(lemmasBase + lemma * 4)) >= entryCount {
            throw Invalid(description: "lemma list \(lemma) points outside the file")
        }
        for record in 0..<fileCount {
            let at = sections[Section.files.rawValue].0 + record * Stride.file
            guard Int(reader.u32(at)) + Int(reader.u16(at + 4)) <= stringsEnd else { throw Invalid(description: "file record \(record) points outside the file") }
        }
        for row in 0..<progressCount {
            let at = sections[Section.progress.rawValue].0 + row * Stride.progress
            guard Int(reader.u32(at)) + Int(reader.u16(at + 4)) <= stringsEnd, reader.u8(at + 13) <= ProgressSummary.recentLimit,
                reader.u8(at + 14) <= ProgressSummary.millisecondsLimit,
                Int(reader.u32(at + 184)) + Int(reader.u32(at + 180)) <= sections[Section.marks.rawValue].1
            else { throw Invalid(description: "progress row \(row) points outside the file") }
        }
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
            let deckOrder = Dictionary(base.settings.decks.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let added = overlay.added
            let addedDecks = added.map { deckOrder[$0.row.deck] ?? Int.max }
            // Study order (as `LibraryLoader.sortedInStudyOrder` sorts) of an added row against
            // a base entry, reading the base's fields in place (its id only on a tie).
            func precedes(_ index: Int, _ number: Int) -> Bool {
                let at = base.entryOffset(number)
                let deck = Int(base.reader.u16(at + 6))
                if addedDecks[index] != deck { return addedDecks[index] < deck }
                let sortKey = Int(base.reader.i64(at + 24))
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
    @inline(__always) private func added(_ reference: Int) -> Overlay.AddedEntry? {
        reference >= baseEntryCount ? overlay.added[reference - baseEntryCount] : nil
    }

    /// The bytes of the index, to write to the cache.
    var bytes: UnsafeRawBufferPointer { reader.bytes(0, reader.count) }

    // MARK: Entries

    @inline(__always) fileprivate func entryOffset(_ entry: Int) -> Int { entriesBase + entry * Stride.entry }
    @inline(__always) private func string(_ offset: Int, _ length: Int) -> String { reader.string(stringsBase + offset, length) }

    // Public accessors take study positions; the `reference:` ones below them read the base
    // or the overlay.

    public func id(ofEntry entry: Int) -> String { id(reference: reference(entry)) }

    func id(reference: Int) -> String {
        if let added = added(reference) { return added.row.id }
        let at = entryOffset(reference)
        return string(Int(reader.u32(at)), Int(reader.u16(at + 4)))
    }

    public func deck(ofEntry entry: Int) -> String { settings.decks[deckNumber(reference: reference(entry))] }

    private func deckNumber(reference: Int) -> Int {
        if let added = added(reference) { return settings.decks.firstIndex(of: added.row.deck) ?? 0 }
        return Int(reader.u16(entryOffset(reference) + 6))
    }

    /// A vocabulary entry's lemma, normalised (`LibraryIndex.normalize`); nil for other kinds.
    public func headword(ofEntry entry: Int) -> String? { headword(reference: reference(entry)) }

    func headword(reference: Int) -> String? {
        if let added = added(reference) { return added.row.headword }
        let at = entryOffset(reference)
        return reader.u8(at + 15) & 4 != 0 ? string(Int(reader.u32(at + 32)), Int(reader.u16(at + 36))) : nil
    }

    /// A vocabulary entry's word family (`root:`, trimmed and lower-cased), without reading
    /// its file; nil when it names none.
    public func root(ofEntry entry: Int) -> String? { root(reference: reference(entry)) }

    func root(reference: Int) -> String? {
        if let added = added(reference) { return added.row.root }
        let at = entryOffset(reference)
        return reader.u8(at + 15) & 8 != 0 ? string(Int(reader.u32(at + 56)), Int(reader.u16(at + 60))) : nil
    }

    /// A vocabulary entry's topics (its examples' `context`s), without reading its file.
    public func topics(ofEntry entry: Int) -> [String] { topics(reference: reference(entry)) }

    func topics(reference: Int) -> [String] {
        if let added = added(reference) { return added.row.topics }
        let at = entryOffset(reference)
        guard reader.u8(at + 15) & 16 != 0 else { return [] }
        return EntryRow.topics(joined: string(Int(reader.u32(at + 64)), Int(reader.u16(at + 68))))
    }

    /// The entry's line in a list (`Entry.gloss`), without reading its file.
    public func gloss(ofEntry entry: Int) -> String { gloss(reference: reference(entry)) }

    func gloss(reference: Int) -> String {
        if let added = added(reference) { return added.row.gloss }
        let at = entryOffset(reference)
        return string(Int(reader.u32(at + 48)), Int(reader.u16(at + 52)))
    }

    /// The same base with another overlay.
    func with(overlay: Overlay) -> LaunchIndex { LaunchIndex(overlay: overlay, over: self) }

    public func path(ofEntry entry: Int) -> String {
        let reference = reference(entry)
        if let added = added(reference) { return added.row.path }
        let at = entryOffset(reference)
        return string(Int(reader.u32(at + 8)), Int(reader.u16(at + 12)))
    }

    @inline(__always) public func rank(ofEntry entry: Int) -> Int? { rank(reference: reference(entry)) }

    @inline(__always) func rank(reference: Int) -> Int? {
        if let added = added(reference) { return added.row.rank }
        let rank = reader.i32(entryOffset(reference) + 20)
        return rank == Int32.min ? nil : Int(rank)
    }

    private func sortKey(reference: Int) -> Int {
        if let added = added(reference) { return added.row.sortKey }
        return Int(reader.i64(entryOffset(reference) + 24))
    }

    @inline(__always) public func status(ofEntry entry: Int) -> LibraryIndex.Status { status(reference: reference(entry)) }

    @inline(__always) func status(reference: Int) -> LibraryIndex.Status {
        if reference >= baseEntryCount { return overlay.addedStatuses[reference - baseEntryCount] }
        if overlay.changes(entry: reference), let changed = overlay.statuses[reference] { return changed }
        return LaunchIndex.status(code: reader.u8(entryOffset(reference) + 16))
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

    // MARK: Lookups

    /// What a reader shows for a word in running text: the entry of its most frequent lemma,
    /// the lemma's rank and the learner's status.
    public struct Lookup: Sendable, Equatable {
        public let entry: Int
        public let rank: Int?
        public let status: LibraryIndex.Status
    }

    public func lookUp(_ token: String) -> Lookup? {
        // A plain lower-case word (what running text mostly holds) is already normal: look
        // its bytes up where they lie, without making a new string.
        if let found = token.utf8.withContiguousStorageIfAvailable({ bytes -> Lookup?? in
            guard let words = LaunchIndex.plainWordPrefix(bytes) else { return .none }
            return .some(lookUp(bytes: UnsafeRawBufferPointer(bytes), prefix: words))
        }), let found {
            return found
        }
        var normal = LibraryIndex.normalize(token)
        return normal.withUTF8 { lookUp(bytes: UnsafeRawBufferPointer($0), prefix: nil) }
    }

    @inline(__always) private func lookUp(bytes: UnsafeRawBufferPointer, prefix: (UInt64, UInt64)?) -> Lookup? {
        let slot = findSlot(bytes, prefix: prefix)
        if order != nil, overlayChangesLemmas(of: bytes, slot: slot) {
            guard let first = lemmaReferences(bytes, prefix: prefix).first else { return nil }
            return Lookup(entry: position(first), rank: rank(reference: first), status: status(reference: first))
        }
        guard let slot else { return nil }
        // The first lemma's rank and status live in the slot: one cache line per lookup.
        let entry = firstLemma(slot)
        let rank = reader.i32(slot + 8)
        var status = LaunchIndex.status(code: reader.u8(slot + 13))
        if overlay.changes(entry: entry), let changed = overlay.statuses[entry] { status = changed }
        return Lookup(entry: position(entry), rank: rank == Int32.min ? nil : Int(rank), status: status)
    }

    /// Whether the overlay removed one of the base's lemmas of a form or added one.
    private func overlayChangesLemmas(of form: UnsafeRawBufferPointer, slot: Int?) -> Bool {
        if let slot {
            let count = Int(reader.u16(slot + 14)), reference = Int(reader.u32(slot + 4))
            if count == 1 ? overlay.removes(entry: reference) : (0..<count).contains(where: { overlay.removes(entry: Int(reader.u32(lemmasBase + (reference + $0) * 4))) }) {
                return true
            }
        }
        return overlay.addedFormHashes.contains(IndexHash.form(form))
    }

    /// For a plain word — lower-case ASCII letters with inner apostrophes or hyphens, which
    /// `LibraryIndex.normalize` returns unchanged — its first 16 bytes as the two zero-padded
    /// words a slot keeps, gathered in the same pass that checks it; nil for anything else.
    @inline(__always) static func plainWordPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard let first = bytes.first, let last = bytes.last, first != 0x27, first != 0x2D, last != 0x27, last != 0x2D else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for offset in 0..<bytes.count {
            let byte = bytes[offset]
            guard (byte &- 0x61) < 26 || byte == 0x27 || byte == 0x2D else { return nil }
            if offset < 8 {
                words.0 |= UInt64(byte) << UInt64(offset &* 8)
            } else if offset < 16 {
                words.1 |= UInt64(byte) << UInt64((offset &- 8) &* 8)
            }
        }
        return words
    }

    /// Every entry a form belongs to, most frequent first.
    public func lemmas(of token: String) -> [Int] {
        var token = LibraryIndex.normalize(token)
        return token.withUTF8 { lemmaReferences(UnsafeRawBufferPointer($0), prefix: nil).map(position) }
    }

    /// The references of a form's lemmas, most frequent first: the base's that the overlay
    /// keeps and the overlay's added ones, ordered as the builder orders a lemma list.
    private func lemmaReferences(_ form: UnsafeRawBufferPointer, prefix: (UInt64, UInt64)?) -> [Int] {
        var references: [Int] = []
        if let slot = findSlot(form, prefix: prefix) {
            let count = Int(reader.u16(slot + 14)), reference = Int(reader.u32(slot + 4))
            references = count == 1 ? [reference] : (0..<count).map { Int(reader.u32(lemmasBase + (reference + $0) * 4)) }
        }
        guard order != nil else { return references }
        references.removeAll { overlay.removes(entry: $0) }
        if let added = overlay.addedForms[String(decoding: form, as: UTF8.self)] {
            references += added.map { baseEntryCount + $0 }
            references.sort { (sortKey(reference: $0), position($0)) < (sortKey(reference: $1), position($1)) }
        }
        return references
    }

    /// The slot of a form: the hash picks where to start (scaled to the table, not masked,
    /// so the table need not be a power of two) and its top half is a tag that rules out
    /// nearly every other form without comparing bytes.
    @inline(__always) private func firstLemma(_ slot: Int) -> Int {
        let count = Int(reader.u16(slot + 14)), reference = Int(reader.u32(slot + 4))
        return count == 1 ? reference : Int(reader.u32(lemmasBase + reference * 4))
    }

    @inline(__always) private func findSlot(_ form: UnsafeRawBufferPointer, prefix: (UInt64, UInt64)?) -> Int? {
        // The form's first 16 bytes, zero-padded as the slot keeps them, as two words.
        var inline: (UInt64, UInt64) = prefix ?? (0, 0)
        if prefix == nil {
            withUnsafeMutableBytes(of: &inline) { $0.baseAddress!.copyMemory(from: form.baseAddress!, byteCount: min(form.count, Stride.inlineForm)) }
        }
        let hash = IndexHash.form(inline, form)
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = LaunchIndex.home(of: hash, in: slotCount)
        let length = UInt8(min(form.count, 255))
        while true {
            let at = slotsBase + slot * Stride.slot
            if reader.u16(at + 14) == 0 { return nil }
            if reader.u32(at) == tag, reader.u8(at + 12) == length, reader.u64(at + 16) == inline.0, reader.u64(at + 24) == inline.1,
                form.count <= Stride.inlineForm || lemmaHasForm(firstLemma(at), form)
            {
                return at
            }
            slot += 1
            if slot == slotCount { slot = 0 }
        }
    }

    /// A form longer than a slot keeps, compared in full with the first lemma's forms.
    private func lemmaHasForm(_ entry: Int, _ form: UnsafeRawBufferPointer) -> Bool {
        let at = entryOffset(entry)
        let formsBase = sections[Section.entryForms.rawValue].0, start = Int(reader.u32(at + 40))
        for number in 0..<Int(reader.u16(at + 38)) {
            let formAt = formsBase + (start + number) * Stride.entryForm
            if Int(reader.u32(formAt + 4)) == form.count, memcmp(reader.base + stringsBase + Int(reader.u32(formAt)), form.baseAddress!, form.count) == 0 {
                return true
            }
        }
        return false
    }

    @inline(__always) static func home(of hash: UInt64, in slots: Int) -> Int {
        Int((UInt64(UInt32(truncatingIfNeeded: hash)) &* UInt64(slots)) >> 32)
    }

    // MARK: Planning

    /// A base entry's progress row.
    func progressRow(reference entry: Int) -> Int? {
        let row = reader.u32(entryOffset(entry) + 44)
        return row == UInt32.max ? nil : Int(row)
    }

    func summary(row: Int) -> ProgressSummary {
        LaunchIndex.summary(reader, at: sections[Section.progress.rawValue].0 + row * Stride.progress, marksSection: sections[Section.marks.rawValue].0)
    }

    /// The bytes of a progress row in a delta, where its marks follow it.
    static func inlineRowLength(_ reader: ByteReader, at: Int) -> Int { Stride.progress + Int(reader.u32(at + 180)) * Stride.mark }

    /// A progress row at `at` (the layout `encode(_:entry:firstMark:into:)` writes), its
    /// marks in the section at `marksSection`, or right after it (a delta's rows) when nil.
    static func summary(_ reader: ByteReader, at: Int, marksSection: Int?) -> ProgressSummary {
        func date(_ offset: Int) -> Date? {
            let value = reader.f64(at + offset)
            return value.isNaN ? nil : Date(timeIntervalSinceReferenceDate: value)
        }
        let flags = reader.u8(at + 7)
        let state = flags & 1 != 0 ? memoryState(reader, at: at, .stored) : nil
        return ProgressSummary(
            status: ProgressFile.Status.allCases[Int(reader.u8(at + 6)) % 3], reviewCount: Int(reader.u32(at + 8)), firstReviewAt: date(80),
            recentReviewTimes: (0..<min(Int(reader.u8(at + 13)), ProgressSummary.recentLimit)).map { Date(timeIntervalSinceReferenceDate: reader.f64(at + 88 + $0 * 8)) },
            recentMilliseconds: (0..<min(Int(reader.u8(at + 14)), ProgressSummary.millisecondsLimit)).map { slot in
                let value = reader.i32(at + 152 + slot * 4)
                return value == Int32.min ? nil : Int(value)
            },
            ladderStarted: flags & 2 != 0, hasScheduledReviews: flags & 4 != 0, state: state,
            digest: digest(reader, at: at, marksSection: marksSection))
    }

    /// A progress row's digest, nil when it was built without one.
    private static func digest(_ reader: ByteReader, at: Int, marksSection: Int?) -> ReviewDigest? {
        guard let marks = marks(reader, at: at, marksSection: marksSection) else { return nil }
        return ReviewDigest(marks: Array(marks), replayed: replayed(reader, at: at))
    }

    /// The state a row's digest replays to.
    static func replayed(_ reader: ByteReader, at: Int) -> MemoryState? {
        reader.u8(at + 176) & 2 != 0 ? memoryState(reader, at: at, .replayed) : nil
    }

    /// A row's digest marks where they lie; nil when the row has no digest.
    static func marks(_ reader: ByteReader, at: Int, marksSection: Int?) -> ReviewMarks? {
        guard reader.u8(at + 176) & 1 != 0 else { return nil }
        let first = marksSection.map { $0 + Int(reader.u32(at + 184)) * Stride.mark } ?? at + Stride.progress
        return ReviewMarks(unsafeBytes: reader.base + first, count: Int(reader.u32(at + 180)))
    }

    /// Where a memory state's fields lie in a progress row: the file's stored state, or the
    /// digest's replayed one.
    struct StateLayout {
        let phase, reps, lapses, step, due, stability, difficulty, ease, interval, lastReview: Int
        static let stored = StateLayout(
            phase: 12, reps: 16, lapses: 20, step: 24, due: 32, stability: 40, difficulty: 48, ease: 56, interval: 64, lastReview: 72)
        static let replayed = StateLayout(
            phase: 177, reps: 188, lapses: 192, step: 196, due: 200, stability: 208, difficulty: 216, ease: 224, interval: 232, lastReview: 240)
    }

    /// The memory state at `layout` in the row at `at` (the layout `encode` writes).
    static func memoryState(_ reader: ByteReader, at: Int, _ layout: StateLayout) -> MemoryState {
        func number(_ offset: Int) -> Double? {
            let value = reader.f64(at + offset)
            return value.isNaN ? nil : value
        }
        let step = reader.i32(at + layout.step)
        return MemoryState(
            phase: MemoryState.Phase.allCases[Int(reader.u8(at + layout.phase)) % 3], step: step == Int32.min ? nil : Int(step),
            stability: number(layout.stability), difficulty: number(layout.difficulty), ease: number(layout.ease), interval: number(layout.interval),
            due: number(layout.due).map(Date.init(timeIntervalSinceReferenceDate:)) ?? .distantPast,
            reps: Int(reader.u32(at + layout.reps)), lapses: Int(reader.u32(at + layout.lapses)),
            lastReview: number(layout.lastReview).map(Date.init(timeIntervalSinceReferenceDate:)))
    }

    /// An entry's progress: the overlay's when it has one, else the base row.
    func progress(ofEntry entry: Int) -> ProgressSummary? { progress(reference: reference(entry)) }

    func progress(reference entry: Int) -> ProgressSummary? {
        if let added = added(entry) { return added.progress }
        if overlay.changes(entry: entry), let changed = overlay.progress[entry] { return changed }
        return progressRow(reference: entry).map(summary(row:))
    }

    /// Planning facts of an entry's progress, read in place (or from the overlay).
    private func planningProgress(reference entry: Int) -> PlanningProgress? {
        if let added = added(entry) { return added.progress.map(PlanningProgress.init) }
        if overlay.changes(entry: entry), let changed = overlay.progress[entry] { return changed.map(PlanningProgress.init) }
        guard let row = progressRow(reference: entry) else { return nil }
        let at = sections[Section.progress.rawValue].0 + row * Stride.progress
        let first = reader.f64(at + 80)
        let flags = reader.u8(at + 7)
        let state = flags & 1 != 0 ? LaunchIndex.memoryState(reader, at: at, .stored) : nil
        return PlanningProgress(
            reviewCount: Int(reader.u32(at + 8)), firstReviewAt: first.isNaN ? nil : Date(timeIntervalSinceReferenceDate: first),
            ladderStarted: flags & 2 != 0, state: state)
    }

    /// Reviews at or after `time` as far as the kept review times tell; nil when all kept
    /// ones are that recent and there were more.
    func reviews(ofEntry position: Int, since time: Date) -> Int? {
        let entry = reference(position)
        if let added = added(entry) { return added.progress?.reviews(since: time) ?? 0 }
        if overlay.changes(entry: entry), let changed = overlay.progress[entry] { return changed?.reviews(since: time) ?? 0 }
        guard let row = progressRow(reference: entry) else { return 0 }
        let at = sections[Section.progress.rawValue].0 + row * Stride.progress
        let kept = min(Int(reader.u8(at + 13)), ProgressSummary.recentLimit)
        let bound = time.timeIntervalSinceReferenceDate
        var count = 0
        for slot in 0..<kept where reader.f64(at + 88 + slot * 8) >= bound { count += 1 }
        if count == kept, Int(reader.u32(at + 8)) > kept { return nil }
        return count
    }

    func facts(ofEntry position: Int) -> EntryFacts {
        let entry = reference(position)
        if let added = added(entry) {
            return EntryFacts(
                deck: deckNumber(reference: entry), published: added.row.published, locked: added.row.locked, status: status(reference: entry),
                progress: planningProgress(reference: entry))
        }
        let at = entryOffset(entry)
        let flags = reader.u8(at + 15)
        return EntryFacts(
            deck: Int(reader.u16(at + 6)), published: flags & 1 != 0, locked: flags & 2 != 0, status: status(reference: entry),
            progress: planningProgress(reference: entry))
    }

    // MARK: Back to rows

    /// Every file the index stands for: the base's records with the overlay's changes.
    public var files: [FileRecord] {
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
    public func entryFilesWithoutEntries() -> [String] {
        if overlay.files.isEmpty, overlay.addedFiles.isEmpty {
            var entryFiles = 0
            for record in 0..<fileCount where reader.u8(fileOffset(record) + 6) == FileRecord.Role.entry.rawValue { entryFiles += 1 }
            if entryFiles == entryCount { return [] }
        }
        let entryPaths = Set((0..<entryCount).map(path(ofEntry:)))
        return files.filter { $0.role == .entry && !entryPaths.contains($0.path) }.map(\.path)
    }

    @inline(__always) private func fileOffset(_ record: Int) -> Int { sections[Section.files.rawValue].0 + record * Stride.file }

    /// A record's path bytes and stamp, read in place.
    @inline(__always) func fileStamp(_ record: Int) -> (UnsafeRawBufferPointer, FileStamp) {
        let at = fileOffset(record)
        let stamp = FileStamp(size: reader.u64(at + 8), modified: reader.i64(at + 16), changed: reader.i64(at + 24), inode: reader.u64(at + 32))
        return (reader.bytes(stringsBase + Int(reader.u32(at)), Int(reader.u16(at + 4))), stamp)
    }

    func fileRecord(_ record: Int) -> FileRecord {
        let (path, _) = fileStamp(record)
        return LaunchIndex.fileRecord(reader, at: fileOffset(record), path: String(decoding: path, as: UTF8.self))
    }

    /// A file record at `at` (the layout `encode(_:path:into:)` writes).
    static func fileRecord(_ reader: ByteReader, at: Int, path: String) -> FileRecord {
        let stamp = FileStamp(size: reader.u64(at + 8), modified: reader.i64(at + 16), changed: reader.i64(at + 24), inode: reader.u64(at + 32))
        return FileRecord(
            path: path, role: FileRecord.Role(rawValue: reader.u8(at + 6)) ?? .configuration,
            stamp: stamp, blob: reader.u8(at + 7) == 1 ? ObjectID(bytes: reader.bytes(at + 40, 20)) : nil)
    }

    /// References of the live entries with these ids, found by hashing id bytes in place
    /// rather than making a string per base entry.
    /// `baseNumbers`, when given, are `baseEntryNumbers(of:)` of at least these ids, already
    /// looked up.
    func entryReferences(of ids: Set<String>, baseNumbers: [String: Int]? = nil) -> [String: Int] {
        var found: [String: Int] = [:]
        for (offset, entry) in overlay.added.enumerated() where ids.contains(entry.row.id) { found[entry.row.id] = baseEntryCount + offset }
        let numbers = baseNumbers ?? baseEntryNumbers(of: ids.subtracting(found.keys))
        for id in ids where found[id] == nil {
            if let entry = numbers[id], !overlay.removes(entry: entry) { found[id] = entry }
        }
        return found
    }

    /// Numbers of the base's entries with these ids, removed by the overlay or not.
    func baseEntryNumbers(of ids: Set<String>) -> [String: Int] {
        LaunchIndex.firstMatches(of: ids, in: 0..<baseEntryCount, id: { entryOffset($0) }, reader: reader, strings: stringsBase)
    }

    /// The base's progress rows for these ids, whether their entries are live, removed or
    /// were never there.
    func baseProgress(of ids: Set<String>) -> [String: ProgressSummary] {
        let progressBase = sections[Section.progress.rawValue].0
        let rows = LaunchIndex.firstMatches(of: ids, in: 0..<progressCount, id: { progressBase + $0 * Stride.progress }, reader: reader, strings: stringsBase)
        return rows.mapValues(summary(row:))
    }

    /// For each id, the first item whose id (a string reference at `id(item)`) it is.
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
            let at = id(item)
            let bytes = reader.bytes(strings + Int(reader.u32(at)), Int(reader.u16(at + 4)))
            guard let matches = wanted[IndexHash.form(bytes)] else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if matches.contains(text), found[text] == nil { found[text] = item }
        }
        return found
    }

    /// The answer times of every progress file's last `count` reviews (at most five), read in
    /// place.
    public func recentAnswerTimes(last count: Int) -> [Int] {
        var times: [Int] = []
        forEachProgress(base: { at in
            let kept = min(Int(reader.u8(at + 14)), ProgressSummary.millisecondsLimit)
            for slot in max(0, kept - count)..<kept {
                let value = reader.i32(at + 152 + slot * 4)
                if value != Int32.min { times.append(Int(value)) }
            }
        }, kept: { _, summary in
            times += summary.recentMilliseconds.suffix(count).compactMap { $0 }
        })
        return times
    }

    /// Every progress summary by entry id, orphans included, with the overlay's changes.
    public func progressSummaries() -> [String: ProgressSummary] {
        var progress: [String: ProgressSummary] = [:]
        progress.reserveCapacity(progressCount)
        let progressBase = sections[Section.progress.rawValue].0
        for row in 0..<progressCount {
            let at = progressBase + row * Stride.progress
            progress[string(Int(reader.u32(at)), Int(reader.u16(at + 4)))] = summary(row: row)
        }
        for (entry, summary) in overlay.progress { progress[id(reference: entry)] = summary }
        for (id, summary) in overlay.orphanProgress { progress[id] = summary }
        for entry in overlay.added { progress[entry.row.id] = entry.progress }
        return progress
    }

    /// The rows this index was built from, to patch and build again.
    public func rows() -> LaunchRows {
        LaunchRows(settings: settings, entries: (0..<entryCount).map { entryRow($0) }, progress: progressSummaries(), files: files)
    }

    /// One entry's row, as it was built.
    func entryRow(_ position: Int) -> EntryRow { entryRow(reference: reference(position)) }

    func entryRow(reference entry: Int) -> EntryRow {
        if let added = added(entry) { return added.row }
        let formsBase = sections[Section.entryForms.rawValue].0
        let at = entryOffset(entry)
        let flags = reader.u8(at + 15)
        let formsStart = Int(reader.u32(at + 40))
        return EntryRow(
            id: id(reference: entry), deck: settings.decks[deckNumber(reference: entry)], path: string(Int(reader.u32(at + 8)), Int(reader.u16(at + 12))),
            kind: EntryRow.Kind(rawValue: reader.u8(at + 14)) ?? .vocabulary, rank: rank(reference: entry), sortKey: Int(reader.i64(at + 24)),
            published: flags & 1 != 0, locked: flags & 2 != 0, headword: headword(reference: entry),
            forms: (0..<Int(reader.u16(at + 38))).map { form in
                let formAt = formsBase + (formsStart + form) * Stride.entryForm
                return string(Int(reader.u32(formAt)), Int(reader.u32(formAt + 4)))
            },
            gloss: gloss(reference: entry), root: root(reference: entry), topics: topics(reference: entry))
    }
}
