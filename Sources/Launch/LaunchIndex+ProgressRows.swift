import Foundation
import Git
import RoteModel
import RoteStore
package import StudyData

/// Progress rows: what planning reads of an entry's progress, in place or from the overlay,
/// and the layout of a row that the builder writes (`encode(_:entry:firstMark:into:)`).
extension LaunchIndex {
    /// A base entry's progress row.
    func progressRow(reference entry: Int) -> Int? {
        let row = reader.u32(entryOffset(entry) + Layout.Entry.progressRow)
        return row == UInt32.max ? nil : Int(row)
    }

    @inline(__always) func progressOffset(_ row: Int) -> Int {
        sections[Section.progress.rawValue].0 + row * Layout.Progress.stride
    }

    func summary(row: Int) -> ProgressSummary {
        LaunchIndex.summary(reader, at: progressOffset(row), marksSection: sections[Section.marks.rawValue].0)
    }

    /// The bytes of a progress row in a delta, where its marks follow it.
    static func inlineRowLength(_ reader: ByteReader, at: Int) -> Int {
        Layout.Progress.stride + Int(reader.u32(at + Layout.Progress.markCount)) * Layout.Mark.stride
    }

    @inline(__always) static func progressFlags(_ reader: ByteReader, at: Int) -> Layout.ProgressFlags {
        Layout.ProgressFlags(rawValue: reader.u8(at + Layout.Progress.flags))
    }

    @inline(__always) static func digestFlags(_ reader: ByteReader, at: Int) -> Layout.DigestFlags {
        Layout.DigestFlags(rawValue: reader.u8(at + Layout.Progress.digestFlags))
    }

    /// The progress file's status in the row at `at`.
    @inline(__always) static func progressStatus(_ reader: ByteReader, at: Int) -> ProgressFile.Status {
        ProgressFile.Status.allCases[Int(reader.u8(at + Layout.Progress.status)) % 3]
    }

    /// A progress row at `at` (the layout `encode(_:entry:firstMark:into:)` writes), its
    /// marks in the section at `marksSection`, or right after it (a delta's rows) when nil.
    static func summary(_ reader: ByteReader, at: Int, marksSection: Int?) -> ProgressSummary {
        func date(_ offset: Int) -> Date? {
            let value = reader.f64(at + offset)
            return value.isNaN ? nil : Date(timeIntervalSinceReferenceDate: value)
        }
        typealias Field = Layout.Progress
        let flags = progressFlags(reader, at: at)
        let state = storedState(reader, at: at)
        return ProgressSummary(
            status: progressStatus(reader, at: at), reviewCount: Int(reader.u32(at + Field.reviewCount)),
            firstReviewAt: date(Field.firstReview),
            recentReviewTimes: (0..<min(Int(reader.u8(at + Field.recentCount)), ProgressSummary.recentLimit)).map {
                Date(timeIntervalSinceReferenceDate: reader.f64(at + Field.recentTime($0)))
            },
            recentMilliseconds: (0..<min(
                Int(reader.u8(at + Field.millisecondsCount)), ProgressSummary.millisecondsLimit))
                .map { slot in
                    let value = reader.i32(at + Field.milliseconds(slot))
                    return value == Int32.min ? nil : Int(value)
                },
            ladderStarted: flags.contains(.ladderStarted), hasScheduledReviews: flags.contains(.scheduledReviews),
            state: state,
            digest: digest(reader, at: at, marksSection: marksSection))
    }

    /// A progress row's digest, nil when it was built without one.
    private static func digest(_ reader: ByteReader, at: Int, marksSection: Int?) -> ReviewDigest? {
        guard let marks = marks(reader, at: at, marksSection: marksSection) else { return nil }
        return ReviewDigest(marks: Array(marks), replayed: replayed(reader, at: at))
    }

    /// The state the row's progress file stores; nil when it stores none.
    static func storedState(_ reader: ByteReader, at: Int) -> MemoryState? {
        progressFlags(reader, at: at).contains(.state) ? memoryState(reader, at: at, .stored) : nil
    }

    /// The state a row's digest replays to.
    static func replayed(_ reader: ByteReader, at: Int) -> MemoryState? {
        digestFlags(reader, at: at).contains(.replayed) ? memoryState(reader, at: at, .replayed) : nil
    }

    /// A row's digest marks where they lie; nil when the row has no digest.
    static func marks(_ reader: ByteReader, at: Int, marksSection: Int?) -> ReviewMarks? {
        guard digestFlags(reader, at: at).contains(.digest) else { return nil }
        let first =
            marksSection.map { $0 + Int(reader.u32(at + Layout.Progress.firstMark)) * Layout.Mark.stride }
            ?? at + Layout.Progress.stride
        return ReviewMarks(unsafeBytes: reader.base + first, count: Int(reader.u32(at + Layout.Progress.markCount)))
    }

    /// The memory state at `layout` in the row at `at` (the layout `encode` writes).
    static func memoryState(_ reader: ByteReader, at: Int, _ layout: Layout.State) -> MemoryState {
        func number(_ offset: Int) -> Double? {
            let value = reader.f64(at + offset)
            return value.isNaN ? nil : value
        }
        let step = reader.i32(at + layout.step)
        return MemoryState(
            phase: MemoryState.Phase.allCases[Int(reader.u8(at + layout.phase)) % 3],
            step: step == Int32.min ? nil : Int(step),
            stability: number(layout.stability), difficulty: number(layout.difficulty), ease: number(layout.ease),
            interval: number(layout.interval),
            due: number(layout.due).map(Date.init(timeIntervalSinceReferenceDate:)) ?? .distantPast,
            reps: Int(reader.u32(at + layout.reps)), lapses: Int(reader.u32(at + layout.lapses)),
            lastReview: number(layout.lastReview).map(Date.init(timeIntervalSinceReferenceDate:)))
    }

    /// An entry's progress: the overlay's when it has one, else the base row.
    package func progress(ofEntry entry: Int) -> ProgressSummary? { progress(reference: reference(entry)) }

    func progress(reference entry: Int) -> ProgressSummary? {
        if let added = added(entry) { return added.progress }
        if overlay.changes(entry: entry), let changed = overlay.progress[entry] { return changed }
        return progressRow(reference: entry).map(summary(row:))
    }

    /// Planning facts of an entry's progress, read in place (or from the overlay).
    private func planningProgress(reference entry: Int) -> PlanningProgress? {
        if let added = added(entry) { return added.progress.map(PlanningProgress.init) }
        if overlay.changes(entry: entry), let changed = overlay.progress[entry] {
            return changed.map(PlanningProgress.init)
        }
        guard let row = progressRow(reference: entry) else { return nil }
        let at = progressOffset(row)
        let first = reader.f64(at + Layout.Progress.firstReview)
        let state = LaunchIndex.storedState(reader, at: at)
        return PlanningProgress(
            reviewCount: Int(reader.u32(at + Layout.Progress.reviewCount)),
            firstReviewAt: first.isNaN ? nil : Date(timeIntervalSinceReferenceDate: first),
            ladderStarted: LaunchIndex.progressFlags(reader, at: at).contains(.ladderStarted), state: state)
    }

    /// Reviews at or after `time` as far as the kept review times tell; nil when all kept
    /// ones are that recent and there were more.
    func reviews(ofEntry position: Int, since time: Date) -> Int? {
        let entry = reference(position)
        if let added = added(entry) { return added.progress?.reviews(since: time) ?? 0 }
        if overlay.changes(entry: entry), let changed = overlay.progress[entry] {
            return changed?.reviews(since: time) ?? 0
        }
        guard let row = progressRow(reference: entry) else { return 0 }
        let at = progressOffset(row)
        let kept = min(Int(reader.u8(at + Layout.Progress.recentCount)), ProgressSummary.recentLimit)
        let bound = time.timeIntervalSinceReferenceDate
        var count = 0
        for slot in 0..<kept where reader.f64(at + Layout.Progress.recentTime(slot)) >= bound { count += 1 }
        if count == kept, Int(reader.u32(at + Layout.Progress.reviewCount)) > kept { return nil }
        return count
    }

    func facts(ofEntry position: Int) -> EntryFacts {
        let entry = reference(position)
        if let added = added(entry) {
            return EntryFacts(
                deck: deckNumber(reference: entry), published: added.row.published, locked: added.row.locked,
                status: status(reference: entry),
                progress: planningProgress(reference: entry))
        }
        let at = entryOffset(entry)
        let flags = entryFlags(at)
        return EntryFacts(
            deck: Int(reader.u16(at + Layout.Entry.deck)), published: flags.contains(.published),
            locked: flags.contains(.locked),
            status: status(reference: entry),
            progress: planningProgress(reference: entry))
    }
}
