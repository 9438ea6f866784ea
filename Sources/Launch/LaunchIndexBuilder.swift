import Foundation
import Git
import Parallelism
import RoteModel
import RoteStore
import StudyData

extension LaunchIndex {
    /// Lays rows out as index bytes: the one way an index is made, whether from a full load
    /// or from an old index patched with the files that changed.
    public convenience init(rows: LaunchRows) throws {
        try self.init(storage: LaunchIndex.encode(rows))
    }

    /// The index's bytes, in memory that the index can read as it reads a mapped file. The
    /// entries are laid out in `runs` runs (eight a core unless said); the bytes are the same
    /// however many.
    static func encode(_ rows: LaunchRows, runs: Int? = nil) -> MappedFile {
        // The file records are laid out on the other core, with strings of their own that
        // go after the rest: the same bytes as interning their paths last.
        let runCount = runs ?? 8 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        let (sections, files) = inParallel({ entrySections(rows, runs: runCount) }, { fileSections(rows.files) })
        // Keys sorted: the same rows give the same bytes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let settings = Array((try? encoder.encode(rows.settings)) ?? Data())
        // Each section's parts, joined as they are copied into place, and its count.
        let bodies: [(Section, [[UInt8]], Int)] = [
            (.settings, [settings], settings.count),
            (.strings, [sections.strings, files.strings], sections.strings.count + files.strings.count),
            (.entries, [sections.entries], rows.entries.count),
            (.entryForms, [sections.entryForms], sections.formCount),
            (.progress, [sections.progress], sections.progressCount), (.slots, [sections.slots], sections.slotCount),
            (.lemmaLists, [sections.lemmaLists], sections.lemmaCount), (.files, [files.records], rows.files.count),
            (.marks, [sections.marks], sections.marks.count / 8),
        ]
        var starts: [Int] = []
        var length = LaunchIndex.headerSize
        for (_, parts, _) in bodies {
            length = (length + 15) & ~15
            starts.append(length)
            length += parts.reduce(0) { $0 + $1.count }
        }
        return MappedFile(building: length) { output in
            func store<Value: FixedWidthInteger>(_ value: Value, at offset: Int) {
                output.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Value.self)
            }
            output.copyBytes(from: LaunchIndex.magic)
            var end = 24
            for ((section, parts, count), start) in zip(bodies, starts) {
                // Padding before a section is zero, as the checksum expects.
                output[end..<start].initializeMemory(as: UInt8.self, repeating: 0)
                store(UInt64(start), at: 24 + section.rawValue * 16)
                store(UInt64(count), at: 32 + section.rawValue * 16)
                end = start
                for part in parts {
                    UnsafeMutableRawBufferPointer(rebasing: output[end..<(end + part.count)]).copyBytes(from: part)
                    end += part.count
                }
            }
            // The files' paths were counted from the start of their own strings.
            let base = UInt32(sections.strings.count)
            let files = starts[bodies.firstIndex { $0.0 == .files }!]
            for record in 0..<rows.files.count {
                let at = files + record * Stride.file
                store(UInt32(littleEndian: output.load(fromByteOffset: at, as: UInt32.self)) + base, at: at)
            }
            LaunchIndex.seal(output)
        }
    }

    /// Every section but the files' and settings: entries, their forms and progress rows,
    /// the forms table and its lemma lists, and the strings they point into.
    struct EntrySections: Sendable {
        var strings: [UInt8], entries: [UInt8], entryForms: [UInt8], progress: [UInt8], slots: [UInt8],
            lemmaLists: [UInt8], marks: [UInt8]
        var formCount: Int, progressCount: Int, slotCount: Int, lemmaCount: Int
    }

    /// The file records, their paths' offsets counted from the start of their own strings.
    static func fileSections(_ records: [FileRecord]) -> (records: [UInt8], strings: [UInt8]) {
        var strings = ByteWriter()
        var files = ByteWriter()
        for record in records {
            let offset = UInt32(strings.bytes.count)
            strings.append(contentsOf: record.path.utf8)
            encode(record, path: (offset, record.path.utf8.count), into: &files)
        }
        return (files.bytes, strings.bytes)
    }

    static func entrySections(_ rows: LaunchRows, runs runCount: Int) -> EntrySections {
        // The entries are laid out in runs on every core; several a core, as entries with
        // progress cost more and come early in study order. A first pass counts each run's
        // string bytes, forms and progress rows, so every run knows where its bytes will go
        // and writes final offsets: the runs' sections are then joined end to end.
        let runs = (0..<runCount).map { run in
            (rows.entries.count * run / runCount)..<(rows.entries.count * (run + 1) / runCount)
        }
        let counts = runs.concurrentMap { run -> RunCounts in
            var counts = RunCounts()
            counts.progress.reserveCapacity(run.count)
            for entry in rows.entries[run] {
                let progress = rows.progress.index(forKey: entry.id)
                counts.progress.append(progress)
                counts.progressRows += progress == nil ? 0 : 1
                counts.marks += progress.map { rows.progress[$0].value.digest?.marks.count ?? 0 } ?? 0
                counts.forms += entry.forms.count
                counts.stringBytes +=
                    entry.id.utf8.count + entry.path.utf8.count + (entry.headword?.utf8.count ?? 0)
                    + entry.gloss.utf8.count
                    + (entry.root?.utf8.count ?? 0) + (entry.topics.isEmpty ? 0 : entry.joinedTopics.utf8.count)
                for form in entry.forms { counts.stringBytes += form.utf8.count }
            }
            return counts
        }
        var starts: [RunStart] = [RunStart()]
        for count in counts.dropLast() {
            let last = starts[starts.count - 1]
            starts.append(
                RunStart(
                    string: last.string + count.stringBytes, form: last.form + count.forms,
                    progress: last.progress + count.progressRows,
                    marks: last.marks + count.marks))
        }
        let deckNumbers = Dictionary(
            rows.settings.decks.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let ignored = Set(rows.settings.ignoredWords)
        let laidOut = Array(runs.indices).concurrentMap { [starts] run in
            layOut(
                rows: rows, run: runs[run], progress: counts[run].progress, start: starts[run],
                deckNumbers: deckNumbers, ignored: ignored)
        }

        func joined(_ part: (EntryRun) -> [UInt8]) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(laidOut.reduce(0) { $0 + part($1).count })
            for run in laidOut { bytes += part(run) }
            return bytes
        }
        var strings = ByteWriter(bytes: joined(\.strings))
        var progress = ByteWriter(bytes: joined(\.progress))
        var marks = ByteWriter(bytes: joined(\.marks))
        let entries = joined(\.entries)
        let entryForms = joined(\.entryForms)
        let formPlaces = laidOut.flatMap(\.formPlaces)
        let formHashes = laidOut.flatMap(\.formHashes)
        let statuses = laidOut.flatMap(\.statuses)
        let formCount = formPlaces.count
        var progressCount = counts.reduce(0) { $0 + $1.progressRows }
        func intern(_ text: String) -> (UInt32, Int) {
            let offset = UInt32(strings.bytes.count)
            strings.append(contentsOf: text.utf8)
            return (offset, text.utf8.count)
        }
        // Progress of entries not in the library stays, unreferenced: the entry may come back.
        if progressCount < rows.progress.count {
            let present = Set(rows.entries.map(\.id))
            for (id, summary) in rows.progress.sorted(by: { $0.key < $1.key }) where !present.contains(id) {
                progressCount += 1
                encode(summary, entry: intern(id), firstMark: marks.bytes.count / 8, into: &progress)
                append(summary.digest, to: &marks)
            }
        }

        // Forms → entries, most frequent first: rank order, then study order. Most forms
        // belong to one entry; only the others get a list.
        // Forms are told apart by their interned bytes, hashed once (the hash the slots
        // keep) in a table of form numbers: no `String` is hashed.
        var formFirst: [Int] = []
        var formPlace: [(UInt32, Int)] = []
        var distinctHashes: [UInt64] = []
        var shared: [Int: [Int]] = [:]
        let stringsBytes = strings.bytes
        stringsBytes.withUnsafeBytes { stringBytes in
            func bytes(_ place: (UInt32, Int)) -> UnsafeRawBufferPointer {
                UnsafeRawBufferPointer(rebasing: stringBytes[Int(place.0)..<Int(place.0) + place.1])
            }
            // A power of two at least twice the forms: probes stay short.
            var table = [Int32](repeating: -1, count: 1 << max(4, Int.bitWidth - (formCount * 2).leadingZeroBitCount))
            let mask = table.count - 1
            var placeNumber = 0
            for (number, entry) in rows.entries.enumerated() {
                for formNumber in placeNumber..<(placeNumber + entry.forms.count) {
                    let place = formPlaces[formNumber]
                    let hash = formHashes[formNumber]
                    var slot = Int(truncatingIfNeeded: hash >> 40) & mask
                    while table[slot] >= 0 {
                        let known = Int(table[slot])
                        if distinctHashes[known] == hash, bytes(formPlace[known]).elementsEqual(bytes(place)) { break }
                        slot = (slot + 1) & mask
                    }
                    if table[slot] >= 0 {
                        let known = Int(table[slot])
                        shared[known, default: [formFirst[known]]].append(number)
                    } else {
                        table[slot] = Int32(formFirst.count)
                        formFirst.append(number)
                        formPlace.append(place)
                        distinctHashes.append(hash)
                    }
                }
                placeNumber += entry.forms.count
            }
        }
        // About seven in ten slots used: probes stay short without a sparse table.
        let slotCount = max(16, formFirst.count * 10 / 7 + 1)
        var slots = [UInt8](repeating: 0, count: slotCount * Stride.slot)
        var lemmaLists = ByteWriter()
        var lemmaCount = 0
        stringsBytes.withUnsafeBytes { stringBytes in
            slots.withUnsafeMutableBytes { table in
                for form in 0..<formFirst.count {
                    // Most forms have one lemma, which needs no list.
                    var first = formFirst[form]
                    var lemmas = 1
                    var reference = UInt32(first)
                    if var numbers = shared[form] {
                        numbers.sort { (rows.entries[$0].sortKey, $0) < (rows.entries[$1].sortKey, $1) }
                        first = numbers[0]
                        lemmas = numbers.count
                        reference = UInt32(lemmaCount)
                        for number in numbers { lemmaLists.append(UInt32(number)) }
                        lemmaCount += numbers.count
                    }
                    let (formOffset, formLength) = formPlace[form]
                    let bytes = UnsafeRawBufferPointer(
                        rebasing: stringBytes[Int(formOffset)..<Int(formOffset) + formLength])
                    let hash = distinctHashes[form]
                    var slot = LaunchIndex.home(of: hash, in: slotCount)
                    while table.load(fromByteOffset: slot * Stride.slot + 14, as: UInt16.self) != 0 {
                        slot = slot + 1 == slotCount ? 0 : slot + 1
                    }
                    // The layout `findSlot` reads; a long form's full bytes are found
                    // through its first lemma's forms.
                    let at = slot * Stride.slot
                    table.storeBytes(
                        of: UInt32(truncatingIfNeeded: hash >> 32).littleEndian, toByteOffset: at, as: UInt32.self)
                    table.storeBytes(of: reference.littleEndian, toByteOffset: at + 4, as: UInt32.self)
                    table.storeBytes(
                        of: (rows.entries[first].rank.map { Int32(clamping: $0) } ?? Int32.min).littleEndian,
                        toByteOffset: at + 8, as: Int32.self)
                    table.storeBytes(of: UInt8(min(formLength, 255)), toByteOffset: at + 12, as: UInt8.self)
                    table.storeBytes(of: statuses[first], toByteOffset: at + 13, as: UInt8.self)
                    table.storeBytes(
                        of: UInt16(min(lemmas, Int(UInt16.max))).littleEndian, toByteOffset: at + 14, as: UInt16.self)
                    (table.baseAddress! + at + 16).copyMemory(
                        from: bytes.baseAddress!, byteCount: min(formLength, Stride.inlineForm))
                }
            }
        }

        return EntrySections(
            strings: strings.bytes, entries: entries, entryForms: entryForms, progress: progress.bytes, slots: slots,
            lemmaLists: lemmaLists.bytes, marks: marks.bytes, formCount: formCount, progressCount: progressCount,
            slotCount: slotCount, lemmaCount: lemmaCount)
    }

    /// What a run of entries adds up to, found before it is laid out, with where each
    /// entry's progress summary is.
    struct RunCounts: Sendable {
        var stringBytes = 0, forms = 0, progressRows = 0, marks = 0
        var progress: [Dictionary<String, ProgressSummary>.Index?] = []
    }

    /// Where a run's strings, forms and progress rows start in the whole index.
    struct RunStart: Sendable {
        var string = 0, form = 0, progress = 0, marks = 0
    }

    /// A run of entries laid out: its part of each section, and of the forms' places,
    /// hashes and statuses the forms table is built from.
    struct EntryRun: Sendable {
        var strings: [UInt8], entries: [UInt8], entryForms: [UInt8], progress: [UInt8], marks: [UInt8]
        var formPlaces: [(UInt32, Int)], formHashes: [UInt64], statuses: [UInt8]
    }

    /// One run of entries with the offsets it was given: its strings, entry records, forms
    /// and progress rows, as they will sit in the whole index.
    static func layOut(
        rows: LaunchRows, run: Range<Int>, progress progressIndices: [Dictionary<String, ProgressSummary>.Index?],
        start: RunStart,
        deckNumbers: [String: Int], ignored: Set<String>
    ) -> EntryRun {
        var strings = ByteWriter()
        var entries = ByteWriter()
        var entryForms = ByteWriter()
        var progress = ByteWriter()
        var marks = ByteWriter()
        func intern(_ text: String) -> (UInt32, Int) {
            let offset = UInt32(start.string + strings.bytes.count)
            strings.append(contentsOf: text.utf8)
            return (offset, text.utf8.count)
        }
        var formCount = start.form
        var progressCount = start.progress
        var formPlaces: [(UInt32, Int)] = []
        var formHashes: [UInt64] = []
        var statuses: [UInt8] = []
        statuses.reserveCapacity(run.count)
        for (entry, progressIndex) in zip(rows.entries[run], progressIndices) {
            let id = intern(entry.id)
            let path = intern(entry.path)
            let headword = entry.headword.map(intern) ?? (0, 0)
            let gloss = intern(entry.gloss)
            let root = entry.root.map(intern) ?? (0, 0)
            let topics = entry.topics.isEmpty ? (0, 0) : intern(entry.joinedTopics)
            for form in entry.forms {
                let place = intern(form)
                formPlaces.append(place)
                let local = Int(place.0) - start.string
                formHashes.append(
                    strings.bytes.withUnsafeBytes {
                        IndexHash.form(UnsafeRawBufferPointer(rebasing: $0[local..<(local + place.1)]))
                    })
            }
            var progressRow = UInt32.max
            let summary = progressIndex.map { rows.progress[$0].value }
            if let summary {
                progressRow = UInt32(progressCount)
                progressCount += 1
                encode(summary, entry: id, firstMark: start.marks + marks.bytes.count / 8, into: &progress)
                append(summary.digest, to: &marks)
            }
            let status = LaunchIndex.code(
                of: LaunchRows.status(headword: entry.headword, progress: summary, ignored: ignored))
            statuses.append(status)
            entries.append(id.0)
            entries.append(UInt16(min(id.1, Int(UInt16.max))))
            entries.append(UInt16(deckNumbers[entry.deck] ?? 0))
            entries.append(path.0)
            entries.append(UInt16(min(path.1, Int(UInt16.max))))
            entries.append(entry.kind.rawValue)
            entries.append(
                UInt8(
                    (entry.published ? 1 : 0) | (entry.locked ? 2 : 0) | (entry.headword != nil ? 4 : 0)
                        | (entry.root != nil ? 8 : 0) | (entry.topics.isEmpty ? 0 : 16)))
            entries.append(status)
            entries.append(contentsOf: [0, 0, 0])
            entries.append(entry.rank.map { Int32(clamping: $0) } ?? Int32.min)
            entries.append(Int64(entry.sortKey))
            entries.append(headword.0)
            entries.append(UInt16(headword.1))
            entries.append(UInt16(entry.forms.count))
            entries.append(UInt32(formCount))
            entries.append(progressRow)
            entries.append(gloss.0)
            entries.append(UInt16(min(gloss.1, Int(UInt16.max))))
            entries.append(UInt16(0))
            entries.append(root.0)
            entries.append(UInt16(min(root.1, Int(UInt16.max))))
            entries.append(UInt16(0))
            entries.append(topics.0)
            entries.append(UInt16(min(topics.1, Int(UInt16.max))))
            entries.append(UInt16(0))
            for place in formPlaces.suffix(entry.forms.count) {
                entryForms.append(place.0)
                entryForms.append(UInt32(place.1))
            }
            formCount += entry.forms.count
        }
        return EntryRun(
            strings: strings.bytes, entries: entries.bytes, entryForms: entryForms.bytes, progress: progress.bytes,
            marks: marks.bytes,
            formPlaces: formPlaces, formHashes: formHashes, statuses: statuses)
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

    /// A progress row: the layout `summary(_:at:marksSection:)` reads. Its digest's marks
    /// are not in it: they go to the marks section (numbered from `firstMark`), or right after
    /// the row in a delta (`append(_:to:)` writes them either way).
    static func encode(_ summary: ProgressSummary, entry: (UInt32, Int), firstMark: Int, into writer: inout ByteWriter)
    {
        let nothing = Double.nan
        writer.append(entry.0)
        writer.append(UInt16(entry.1))
        writer.append(UInt8(ProgressFile.Status.allCases.firstIndex(of: summary.status)!))
        writer.append(
            UInt8(
                (summary.state != nil ? 1 : 0) | (summary.ladderStarted ? 2 : 0) | (summary.hasScheduledReviews ? 4 : 0)
            ))
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
        appendTimesAndNumbers(of: state, to: &writer)
        writer.append(summary.firstReviewAt?.timeIntervalSinceReferenceDate ?? nothing)
        for slot in 0..<ProgressSummary.recentLimit {
            writer.append(slot < recent.count ? recent[recent.startIndex + slot].timeIntervalSinceReferenceDate : 0)
        }
        for slot in 0..<ProgressSummary.millisecondsLimit {
            writer.append(
                slot < milliseconds.count
                    ? milliseconds[milliseconds.startIndex + slot].map { Int32(clamping: $0) } ?? Int32.min : 0)
        }
        writer.append(UInt32(0))
        // The digest: whether there is one, its replayed state, and where its marks are.
        let digest = summary.digest
        let replayed = digest?.replayed
        writer.append(UInt8((digest != nil ? 1 : 0) | (replayed != nil ? 2 : 0)))
        writer.append(UInt8(replayed.map { MemoryState.Phase.allCases.firstIndex(of: $0.phase)! } ?? 0))
        writer.append(UInt16(0))
        writer.append(UInt32(clamping: digest?.marks.count ?? 0))
        writer.append(UInt32(clamping: firstMark))
        writer.append(UInt32(clamping: replayed?.reps ?? 0))
        writer.append(UInt32(clamping: replayed?.lapses ?? 0))
        writer.append(replayed?.step.map { Int32(clamping: $0) } ?? Int32.min)
        appendTimesAndNumbers(of: replayed, to: &writer)
    }

    /// A state's due time, stability, difficulty, ease, interval and last review, NaN for none
    /// (`StateLayout` says where they are read).
    static func appendTimesAndNumbers(of state: MemoryState?, to writer: inout ByteWriter) {
        let nothing = Double.nan
        writer.append(state?.due.timeIntervalSinceReferenceDate ?? nothing)
        writer.append(state?.stability ?? nothing)
        writer.append(state?.difficulty ?? nothing)
        writer.append(state?.ease ?? nothing)
        writer.append(state?.interval ?? nothing)
        writer.append(state?.lastReview?.timeIntervalSinceReferenceDate ?? nothing)
    }

    /// A digest's marks, eight bytes each.
    static func append(_ digest: ReviewDigest?, to writer: inout ByteWriter) {
        for mark in digest?.marks ?? [] { writer.append(mark.raw) }
    }
}
