import Foundation
import Git
import Parallelism
import RoteModel
import RoteStore
import StudyData

extension LaunchIndex {
    /// Lays rows out as index bytes: the one way an index is made, whether from a full load
    /// or from an old index patched with the files that changed.
    package convenience init(rows: LaunchRows) throws {
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
            (.marks, [sections.marks], sections.marks.count / Layout.Mark.stride),
        ]
        var starts: [Int] = []
        var length = Layout.Header.size
        for (_, parts, _) in bodies {
            length = (length + Layout.Header.sectionAlignment - 1) & ~(Layout.Header.sectionAlignment - 1)
            starts.append(length)
            length += parts.reduce(0) { $0 + $1.count }
        }
        return MappedFile(building: length) { output in
            func store<Value: FixedWidthInteger>(_ value: Value, at offset: Int) {
                output.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Value.self)
            }
            output.copyBytes(from: LaunchIndex.magic)
            var end = Layout.Header.sections
            for ((section, parts, count), start) in zip(bodies, starts) {
                // Padding before a section is zero, as the checksum expects.
                output[end..<start].initializeMemory(as: UInt8.self, repeating: 0)
                store(UInt64(start), at: Layout.Header.offset(of: section))
                store(UInt64(count), at: Layout.Header.count(of: section))
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
                let at = files + record * Layout.File.stride + Layout.File.path + Layout.Text.offset
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
                encode(summary, entry: intern(id), firstMark: marks.bytes.count / Layout.Mark.stride, into: &progress)
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
        var slots = [UInt8](repeating: 0, count: slotCount * Layout.Slot.stride)
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
                    typealias Field = Layout.Slot
                    while table.load(fromByteOffset: slot * Field.stride + Field.lemmaCount, as: UInt16.self) != 0 {
                        slot = slot + 1 == slotCount ? 0 : slot + 1
                    }
                    // The layout `findSlot` reads; a long form's full bytes are found
                    // through its first lemma's forms.
                    let row = RowWriter(
                        bytes: UnsafeMutableRawBufferPointer(
                            rebasing: table[(slot * Field.stride)..<((slot + 1) * Field.stride)]))
                    row.set(UInt32(truncatingIfNeeded: hash >> 32), at: Field.tag)
                    row.set(reference, at: Field.lemmas)
                    row.set(rows.entries[first].rank.map { Int32(clamping: $0) } ?? Int32.min, at: Field.rank)
                    row.set(UInt8(min(formLength, Int(UInt8.max))), at: Field.formLength)
                    row.set(statuses[first], at: Field.status)
                    row.set(UInt16(min(lemmas, Int(UInt16.max))), at: Field.lemmaCount)
                    row.set(bytes: bytes.prefix(Field.inlineFormSize), at: Field.inlineForm)
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
                encode(
                    summary, entry: id, firstMark: start.marks + marks.bytes.count / Layout.Mark.stride, into: &progress
                )
                append(summary.digest, to: &marks)
            }
            let status = LaunchIndex.code(
                of: LaunchRows.status(headword: entry.headword, progress: summary, ignored: ignored))
            statuses.append(status)
            var flags: Layout.EntryFlags = []
            if entry.published { flags.insert(.published) }
            if entry.locked { flags.insert(.locked) }
            if entry.headword != nil { flags.insert(.headword) }
            if entry.root != nil { flags.insert(.root) }
            if !entry.topics.isEmpty { flags.insert(.topics) }
            entries.appendRow(Layout.Entry.stride) { row in
                typealias Field = Layout.Entry
                row.set(text: id, at: Field.id)
                row.set(UInt16(deckNumbers[entry.deck] ?? 0), at: Field.deck)
                row.set(text: path, at: Field.path)
                row.set(entry.kind.rawValue, at: Field.kind)
                row.set(flags.rawValue, at: Field.flags)
                row.set(status, at: Field.status)
                row.set(entry.rank.map { Int32(clamping: $0) } ?? Int32.min, at: Field.rank)
                row.set(Int64(entry.sortKey), at: Field.sortKey)
                row.set(text: headword, at: Field.headword)
                row.set(UInt16(entry.forms.count), at: Field.formCount)
                row.set(UInt32(formCount), at: Field.firstForm)
                row.set(progressRow, at: Field.progressRow)
                row.set(text: gloss, at: Field.gloss)
                row.set(text: root, at: Field.root)
                row.set(text: topics, at: Field.topics)
            }
            for place in formPlaces.suffix(entry.forms.count) {
                entryForms.appendRow(Layout.EntryForm.stride) { row in
                    row.set(place.0, at: Layout.EntryForm.offset)
                    row.set(UInt32(place.1), at: Layout.EntryForm.length)
                }
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
        writer.appendRow(Layout.File.stride) { row in
            typealias Field = Layout.File
            row.set(text: path, at: Field.path)
            row.set(record.role.rawValue, at: Field.role)
            row.set(UInt8(record.blob == nil ? 0 : 1), at: Field.hasBlob)
            row.set(record.stamp.size, at: Field.size)
            row.set(record.stamp.modified, at: Field.modified)
            row.set(record.stamp.changed, at: Field.changed)
            row.set(record.stamp.inode, at: Field.inode)
            if let blob = record.blob { row.set(bytes: blob.bytes.prefix(Field.blobSize), at: Field.blob) }
        }
    }

    /// A progress row: the layout `summary(_:at:marksSection:)` reads. Its digest's marks
    /// are not in it: they go to the marks section (numbered from `firstMark`), or right after
    /// the row in a delta (`append(_:to:)` writes them either way).
    static func encode(_ summary: ProgressSummary, entry: (UInt32, Int), firstMark: Int, into writer: inout ByteWriter)
    {
        var flags: Layout.ProgressFlags = []
        if summary.state != nil { flags.insert(.state) }
        if summary.ladderStarted { flags.insert(.ladderStarted) }
        if summary.hasScheduledReviews { flags.insert(.scheduledReviews) }
        let recent = summary.recentReviewTimes.suffix(ProgressSummary.recentLimit)
        let milliseconds = summary.recentMilliseconds.suffix(ProgressSummary.millisecondsLimit)
        // The digest: whether there is one, its replayed state, and where its marks are.
        let digest = summary.digest
        var digestFlags: Layout.DigestFlags = []
        if digest != nil { digestFlags.insert(.digest) }
        if digest?.replayed != nil { digestFlags.insert(.replayed) }
        writer.appendRow(Layout.Progress.stride) { row in
            typealias Field = Layout.Progress
            row.set(text: entry, at: Field.id)
            row.set(UInt8(ProgressFile.Status.allCases.firstIndex(of: summary.status)!), at: Field.status)
            row.set(flags.rawValue, at: Field.flags)
            row.set(UInt32(clamping: summary.reviewCount), at: Field.reviewCount)
            row.set(UInt8(recent.count), at: Field.recentCount)
            row.set(UInt8(milliseconds.count), at: Field.millisecondsCount)
            set(summary.state, .stored, in: row)
            row.set(summary.firstReviewAt?.timeIntervalSinceReferenceDate ?? .nan, at: Field.firstReview)
            for (slot, time) in recent.enumerated() {
                row.set(time.timeIntervalSinceReferenceDate, at: Field.recentTime(slot))
            }
            for (slot, time) in milliseconds.enumerated() {
                row.set(time.map { Int32(clamping: $0) } ?? Int32.min, at: Field.milliseconds(slot))
            }
            row.set(digestFlags.rawValue, at: Field.digestFlags)
            row.set(UInt32(clamping: digest?.marks.count ?? 0), at: Field.markCount)
            row.set(UInt32(clamping: firstMark), at: Field.firstMark)
            set(digest?.replayed, .replayed, in: row)
        }
    }

    /// A memory state's fields at `layout` (the layout `memoryState` reads): a missing state
    /// has no phase, reps or lapses, no step (`Int32.min`) and NaN for each number.
    private static func set(_ state: MemoryState?, _ layout: Layout.State, in row: RowWriter) {
        row.set(UInt8(state.map { MemoryState.Phase.allCases.firstIndex(of: $0.phase)! } ?? 0), at: layout.phase)
        row.set(UInt32(clamping: state?.reps ?? 0), at: layout.reps)
        row.set(UInt32(clamping: state?.lapses ?? 0), at: layout.lapses)
        row.set(state?.step.map { Int32(clamping: $0) } ?? Int32.min, at: layout.step)
        row.set(state?.due.timeIntervalSinceReferenceDate ?? .nan, at: layout.due)
        row.set(state?.stability ?? .nan, at: layout.stability)
        row.set(state?.difficulty ?? .nan, at: layout.difficulty)
        row.set(state?.ease ?? .nan, at: layout.ease)
        row.set(state?.interval ?? .nan, at: layout.interval)
        row.set(state?.lastReview?.timeIntervalSinceReferenceDate ?? .nan, at: layout.lastReview)
    }

    /// A digest's marks, eight bytes each.
    static func append(_ digest: ReviewDigest?, to writer: inout ByteWriter) {
        for mark in digest?.marks ?? [] { writer.append(mark.raw) }
    }
}
