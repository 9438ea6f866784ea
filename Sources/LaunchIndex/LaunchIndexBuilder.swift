import Foundation
import LibGit
import RoteModel
import RoteStore
import Study

extension LaunchIndex {
    /// Lays rows out as index bytes: the one way an index is made, whether from a full load
    /// or from an old index patched with the files that changed.
    public convenience init(rows: LaunchRows) throws {
        try self.init(storage: MappedFile(bytes: LaunchIndex.encode(rows)))
    }

    static func encode(_ rows: LaunchRows) -> [UInt8] {
        // The file records are laid out on the other core, with strings of their own that
        // go after the rest: the same bytes as interning their paths last.
        let (sections, files) = inParallel({ entrySections(rows) }, { fileSections(rows.files) })
        let strings = sections.strings + files.strings
        var records = files.records
        let base = UInt32(sections.strings.count)
        records.withUnsafeMutableBytes { raw in
            for at in stride(from: 0, to: raw.count, by: Stride.file) {
                let path = UInt32(littleEndian: raw.load(fromByteOffset: at, as: UInt32.self))
                raw.storeBytes(of: (path + base).littleEndian, toByteOffset: at, as: UInt32.self)
            }
        }

        let settings = (try? JSONEncoder().encode(rows.settings)) ?? Data()
        let bodies: [(Section, [UInt8], Int)] = [
            (.settings, Array(settings), settings.count), (.strings, strings, strings.count), (.entries, sections.entries, rows.entries.count),
            (.entryForms, sections.entryForms, sections.formCount), (.progress, sections.progress, sections.progressCount),
            (.slots, sections.slots, sections.slotCount), (.lemmaLists, sections.lemmaLists, sections.lemmaCount), (.files, records, rows.files.count),
        ]
        var output = ByteWriter()
        output.append(contentsOf: LaunchIndex.magic)
        output.append(UInt64(0))  // checksum, filled in last
        output.append(UInt64(0))  // length
        let table = output.bytes.count
        for _ in Section.allCases {
            output.append(UInt64(0))
            output.append(UInt64(0))
        }
        for (section, bytes, count) in bodies {
            output.align(16)
            output.set(UInt64(output.bytes.count), at: table + section.rawValue * 16)
            output.set(UInt64(count), at: table + section.rawValue * 16 + 8)
            output.append(contentsOf: bytes)
        }
        output.set(UInt64(output.bytes.count), at: 16)
        let sum = output.bytes.withUnsafeBytes { IndexHash.checksum(UnsafeRawBufferPointer(rebasing: $0[16...])) }
        output.set(sum, at: 8)
        return output.bytes
    }

    /// Every section but the files' and settings: entries, their forms and progress rows,
    /// the forms table and its lemma lists, and the strings they point into.
    struct EntrySections: Sendable {
        var strings: [UInt8], entries: [UInt8], entryForms: [UInt8], progress: [UInt8], slots: [UInt8], lemmaLists: [UInt8]
        var formCount: Int, progressCount: Int, slotCount: Int, lemmaCount: Int
    }

    /// The file records, their paths' offsets counted from the start of their own strings.
    static func fileSections(_ records: [FileRecord]) -> (records: [UInt8], strings: [UInt8]) {
        var strings = ByteWriter(), files = ByteWriter()
        for record in records {
            let offset = UInt32(strings.bytes.count)
            strings.append(contentsOf: record.path.utf8)
            encode(record, path: (offset, record.path.utf8.count), into: &files)
        }
        return (files.bytes, strings.bytes)
    }

    static func entrySections(_ rows: LaunchRows) -> EntrySections {
        var strings = ByteWriter()
        func intern(_ text: String) -> (UInt32, Int) {
            let offset = UInt32(strings.bytes.count)
            strings.append(contentsOf: text.utf8)
            return (offset, text.utf8.count)
        }
        let deckNumbers = Dictionary(rows.settings.decks.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let ignored = Set(rows.settings.ignoredWords)

        // Entries, their forms and progress rows.
        var entries = ByteWriter(), entryForms = ByteWriter(), progress = ByteWriter()
        var formCount = 0, progressCount = 0
        // Every entry's forms' places in the strings, one entry after another.
        var formPlaces: [(UInt32, Int)] = []
        formPlaces.reserveCapacity(rows.entries.count * 4)
        // Each entry's status code, worked out once: every form of the entry's carries it.
        var statuses: [UInt8] = []
        statuses.reserveCapacity(rows.entries.count)
        for entry in rows.entries {
            let id = intern(entry.id), path = intern(entry.path)
            let headword = entry.headword.map(intern) ?? (0, 0)
            let forms = entry.forms.map(intern)
            formPlaces += forms
            var progressRow = UInt32.max
            let summary = rows.progress[entry.id]
            if let summary {
                progressRow = UInt32(progressCount)
                progressCount += 1
                encode(summary, entry: id, into: &progress)
            }
            statuses.append(LaunchIndex.code(of: LaunchRows.status(headword: entry.headword, progress: summary, ignored: ignored)))
            entries.append(id.0)
            entries.append(UInt16(min(id.1, Int(UInt16.max))))
            entries.append(UInt16(deckNumbers[entry.deck] ?? 0))
            entries.append(path.0)
            entries.append(UInt16(min(path.1, Int(UInt16.max))))
            entries.append(entry.kind.rawValue)
            entries.append(UInt8((entry.published ? 1 : 0) | (entry.locked ? 2 : 0) | (entry.headword != nil ? 4 : 0)))
            entries.append(statuses[statuses.count - 1])
            entries.append(contentsOf: [0, 0, 0])
            entries.append(entry.rank.map { Int32(clamping: $0) } ?? Int32.min)
            entries.append(Int64(entry.sortKey))
            entries.append(headword.0)
            entries.append(UInt16(headword.1))
            entries.append(UInt16(forms.count))
            entries.append(UInt32(formCount))
            entries.append(progressRow)
            for form in forms {
                entryForms.append(form.0)
                entryForms.append(UInt32(form.1))
            }
            formCount += forms.count
        }
        // Progress of entries not in the library stays, unreferenced: the entry may come back.
        if progressCount < rows.progress.count {
            let present = Set(rows.entries.map(\.id))
            for (id, summary) in rows.progress.sorted(by: { $0.key < $1.key }) where !present.contains(id) {
                progressCount += 1
                encode(summary, entry: intern(id), into: &progress)
            }
        }

        // Forms → entries, most frequent first: rank order, then study order. Most forms
        // belong to one entry; only the others get a list.
        // Forms are told apart by their interned bytes, hashed once (the hash the slots
        // keep) in a table of form numbers: no `String` is hashed.
        var formFirst: [Int] = [], formPlace: [(UInt32, Int)] = [], formHashes: [UInt64] = []
        var shared: [Int: [Int]] = [:]
        let stringsBytes = strings.bytes
        stringsBytes.withUnsafeBytes { stringBytes in
            func bytes(_ place: (UInt32, Int)) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: stringBytes[Int(place.0)..<Int(place.0) + place.1]) }
            // A power of two at least twice the forms: probes stay short.
            var table = [Int32](repeating: -1, count: 1 << max(4, Int.bitWidth - (formCount * 2).leadingZeroBitCount))
            let mask = table.count - 1
            var placeNumber = 0
            for (number, entry) in rows.entries.enumerated() {
                for place in formPlaces[placeNumber..<(placeNumber + entry.forms.count)] {
                    let form = bytes(place), hash = IndexHash.form(form)
                    var slot = Int(truncatingIfNeeded: hash >> 40) & mask
                    while table[slot] >= 0 {
                        let known = Int(table[slot])
                        if formHashes[known] == hash, bytes(formPlace[known]).elementsEqual(form) { break }
                        slot = (slot + 1) & mask
                    }
                    if table[slot] >= 0 {
                        let known = Int(table[slot])
                        shared[known, default: [formFirst[known]]].append(number)
                    } else {
                        table[slot] = Int32(formFirst.count)
                        formFirst.append(number)
                        formPlace.append(place)
                        formHashes.append(hash)
                    }
                }
                placeNumber += entry.forms.count
            }
        }
        // About seven in ten slots used: probes stay short without a sparse table.
        let slotCount = max(16, formFirst.count * 10 / 7 + 1)
        var slots = [UInt8](repeating: 0, count: slotCount * Stride.slot)
        var lemmaLists = ByteWriter(), lemmaCount = 0
        stringsBytes.withUnsafeBytes { stringBytes in
            slots.withUnsafeMutableBytes { table in
                for form in 0..<formFirst.count {
                    var numbers = shared[form] ?? [formFirst[form]]
                    if numbers.count > 1 {
                        numbers.sort { (rows.entries[$0].sortKey, $0) < (rows.entries[$1].sortKey, $1) }
                    }
                    let first = numbers[0]
                    let (formOffset, formLength) = formPlace[form]
                    let bytes = UnsafeRawBufferPointer(rebasing: stringBytes[Int(formOffset)..<Int(formOffset) + formLength])
                    let hash = formHashes[form]
                    var slot = LaunchIndex.home(of: hash, in: slotCount)
                    while table.load(fromByteOffset: slot * Stride.slot + 14, as: UInt16.self) != 0 { slot = slot + 1 == slotCount ? 0 : slot + 1 }
                    var reference = UInt32(first)
                    if numbers.count > 1 {
                        reference = UInt32(lemmaCount)
                        for number in numbers { lemmaLists.append(UInt32(number)) }
                        lemmaCount += numbers.count
                    }
                    // The layout `findSlot` reads; a long form's full bytes are found
                    // through its first lemma's forms.
                    let at = slot * Stride.slot
                    table.storeBytes(of: UInt32(truncatingIfNeeded: hash >> 32).littleEndian, toByteOffset: at, as: UInt32.self)
                    table.storeBytes(of: reference.littleEndian, toByteOffset: at + 4, as: UInt32.self)
                    table.storeBytes(of: (rows.entries[first].rank.map { Int32(clamping: $0) } ?? Int32.min).littleEndian, toByteOffset: at + 8, as: Int32.self)
                    table.storeBytes(of: UInt8(min(formLength, 255)), toByteOffset: at + 12, as: UInt8.self)
                    table.storeBytes(of: statuses[first], toByteOffset: at + 13, as: UInt8.self)
                    table.storeBytes(of: UInt16(min(numbers.count, Int(UInt16.max))).littleEndian, toByteOffset: at + 14, as: UInt16.self)
                    (table.baseAddress! + at + 16).copyMemory(from: bytes.baseAddress!, byteCount: min(formLength, Stride.inlineForm))
                }
            }
        }

        return EntrySections(
            strings: strings.bytes, entries: entries.bytes, entryForms: entryForms.bytes, progress: progress.bytes, slots: slots,
            lemmaLists: lemmaLists.bytes, formCount: formCount, progressCount: progressCount, slotCount: slotCount, lemmaCount: lemmaCount)
    }

    /// A file record: the layout `fileRecord(_:)` reads.
    static func encode(_ record: FileRecord, path: (UInt32, Int), into writer: inout ByteWriter) {
        writer.append(path.0)
        writer.append(UInt16(path.1))
        writer.append(record.role.rawValue)
        writer.append(UInt8(record.blob == nil ? 0 : 1))
        writer.append(record.stamp.size)
        writer.append(record.stamp.modified)
        writer.append(record.stamp.changed)
        writer.append(record.stamp.inode)
        writer.append(contentsOf: record.blob?.bytes ?? [UInt8](repeating: 0, count: 20))
        writer.append(contentsOf: [0, 0, 0, 0])
    }

    /// A progress row: the layout `summary(_:at:)` reads.
    static func encode(_ summary: ProgressSummary, entry: (UInt32, Int), into writer: inout ByteWriter) {
        let nothing = Double.nan
        writer.append(entry.0)
        writer.append(UInt16(entry.1))
        writer.append(UInt8(ProgressFile.Status.allCases.firstIndex(of: summary.status)!))
        writer.append(UInt8((summary.state != nil ? 1 : 0) | (summary.ladderStarted ? 2 : 0) | (summary.hasScheduledReviews ? 4 : 0)))
        writer.append(UInt32(clamping: summary.reviewCount))
        let state = summary.state
        writer.append(UInt8(state.map { MemoryState.Phase.allCases.firstIndex(of: $0.phase)! } ?? 0))
        let recent = summary.recentReviewTimes.suffix(ProgressSummary.recentLimit)
        let milliseconds = summary.recentMilliseconds.suffix(ProgressSummary.millisecondsLimit)
        writer.append(UInt8(recent.count))
        writer.append(UInt8(milliseconds.count))
        writer.append(UInt8(0))
        writer.append(UInt32(clamping: state?.reps ?? 0))
        writer.append(UInt32(clamping: state?.lapses ?? 0))
        writer.append(state?.step.map { Int32(clamping: $0) } ?? Int32.min)
        writer.append(UInt32(0))
        writer.append(state?.due.timeIntervalSinceReferenceDate ?? nothing)
        writer.append(state?.stability ?? nothing)
        writer.append(state?.difficulty ?? nothing)
        writer.append(state?.ease ?? nothing)
        writer.append(state?.interval ?? nothing)
        writer.append(state?.lastReview?.timeIntervalSinceReferenceDate ?? nothing)
        writer.append(summary.firstReviewAt?.timeIntervalSinceReferenceDate ?? nothing)
        for slot in 0..<ProgressSummary.recentLimit {
            writer.append(slot < recent.count ? recent[recent.startIndex + slot].timeIntervalSinceReferenceDate : 0)
        }
        for slot in 0..<ProgressSummary.millisecondsLimit {
            writer.append(slot < milliseconds.count ? milliseconds[milliseconds.startIndex + slot].map { Int32(clamping: $0) } ?? Int32.min : 0)
        }
        writer.append(UInt32(0))
    }
}

