import Foundation
import Git
import RoteModel
import RoteStore
import StudyData
import Testing

@testable import Launch

/// The bytes of a known index and delta, pinned: the formats `ROTEIDXD` and `ROTEDLT8` name.
/// A change to either must bump its magic (old files are then rebuilt), never reuse it.
@Suite struct LaunchFormatTests {
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

    /// Rows that set every field and flag of every kind of row.
    static func knownRows() -> LaunchRows {
        let state = MemoryState(
            phase: .relearning, step: 1, stability: 3.5, difficulty: 6.25, ease: nil, interval: 2, due: date(9_000),
            reps: 7, lapses: 2, lastReview: date(8_000))
        let replayed = MemoryState(
            phase: .review, step: nil, stability: 12, difficulty: 5, ease: 2.5, interval: 10, due: date(9_500),
            reps: 8, lapses: 2, lastReview: date(8_100))
        let studied = ProgressSummary(
            status: .active, reviewCount: 11, firstReviewAt: date(100),
            recentReviewTimes: (0..<8).map { date(1_000 + Double($0) * 10) },
            recentMilliseconds: [3_100, nil, 900, 1_200, 800], ladderStarted: false, hasScheduledReviews: true,
            state: state,
            digest: ReviewDigest(marks: [.init(raw: 0x1234), .init(raw: 0xABCD_EF01)], replayed: replayed))
        let paused = ProgressSummary(
            status: .suspended, reviewCount: 0, firstReviewAt: nil, recentReviewTimes: [], recentMilliseconds: [],
            ladderStarted: true, hasScheduledReviews: false, state: nil, digest: ReviewDigest(marks: [], replayed: nil))
        let orphan = ProgressSummary(
            status: .active, reviewCount: 1, firstReviewAt: date(50), recentReviewTimes: [date(50)],
            recentMilliseconds: [nil], ladderStarted: false, hasScheduledReviews: true, state: nil, digest: nil)
        let entries = [
            EntryRow(
                id: "words/run", deck: "words", path: "corpus/words/run.yaml", kind: .vocabulary, rank: 42,
                sortKey: 42, published: true, locked: false, headword: "run",
                forms: ["run", "ran", "running", "a-very-long-form-past-sixteen-bytes"], gloss: "run: يجري",
                root: "run", topics: ["sport", "daily life"]),
            EntryRow(
                id: "words/runs", deck: "words", path: "corpus/words/runs.yaml", kind: .vocabulary, rank: nil,
                sortKey: 90, published: true, locked: false, headword: "runs", forms: ["runs", "ran"], gloss: "runs",
                root: nil, topics: []),
            EntryRow(
                id: "letters/a", deck: "letters", path: "corpus/letters/a.yaml", kind: .letter, rank: nil, sortKey: 1,
                published: false, locked: true, headword: nil, forms: [], gloss: "a", root: nil, topics: []),
        ]
        let blob = ObjectID(hex: "0123456789abcdef0123456789abcdef01234567")
        let files = [
            FileRecord(
                path: "corpus/words/run.yaml", role: .entry,
                stamp: FileStamp(size: 300, modified: 1_700_000_000_123, changed: -5, inode: 77), blob: blob),
            FileRecord(
                path: "profiles/ana/progress/words/run.yaml", role: .progress,
                stamp: FileStamp(size: 90, modified: 2, changed: 3, inode: 4), blob: nil),
            FileRecord(
                path: "corpus/words", role: .folder, stamp: FileStamp(size: 0, modified: 5, changed: 6, inode: 7),
                blob: nil),
        ]
        return LaunchRows(
            settings: .init(
                user: "ana", root: "/library", decks: ["words", "letters"], deckKinds: ["vocabulary", "letters"],
                ignoredWords: ["runs"], schedulers: "fsrs"),
            entries: entries, progress: ["words/run": studied, "letters/a": paused, "words/gone": orphan],
            files: files)
    }

    /// A delta that holds every kind of item.
    static func knownOverlay(base: LaunchIndex) -> Overlay {
        var overlay = Overlay()
        let rows = knownRows()
        overlay.progress[0] = .some(rows.progress["letters/a"])
        overlay.progress[2] = .some(nil)
        overlay.orphanProgress["words/gone"] = .some(rows.progress["words/run"])
        overlay.files[1] = .some(nil)
        overlay.files[0] = .some(rows.files[1])
        overlay.addedFiles = [rows.files[2]]
        overlay.removedEntries = [1]
        var changed = rows.entries[1]
        changed.rank = 7
        changed.root = "run"
        changed.topics = ["sport"]
        overlay.addedEntries[changed.id] = Overlay.AddedEntry(row: changed, progress: rows.progress["words/run"])
        overlay.addedEntries["letters/b"] = Overlay.AddedEntry(
            row: EntryRow(
                id: "letters/b", deck: "letters", path: "corpus/letters/b.yaml", kind: .letter, rank: nil, sortKey: 2,
                published: true, locked: true, headword: nil, forms: [], gloss: "b", root: nil, topics: []),
            progress: nil)
        overlay.settle(base: base)
        return overlay
    }

    /// The length and checksum of the bytes the known rows and delta give, and the rows read
    /// back out of them.
    @Test func theKnownRowsGiveTheBytesTheirMagicsName() throws {
        let rows = Self.knownRows()
        let index = try LaunchIndex(rows: rows)
        #expect(index.rows().entries == rows.entries)
        #expect(index.progressSummaries() == rows.progress)
        #expect(index.files == rows.files)
        // Recorded from the builder before the row layouts were named (`LaunchIndex.Layout`).
        #expect((index.bytes.count, index.checksum) == (2_352, 15_810_908_281_420_590_727))
        let overlay = Self.knownOverlay(base: index)
        let delta = overlay.encode(base: index)
        let decoded = try #require(Overlay.decode(Data(delta), base: index))
        #expect(decoded.encode(base: index) == delta)
        #expect(decoded.addedEntries == overlay.addedEntries && decoded.progress == overlay.progress)
        let deltaSum = delta.withUnsafeBytes { IndexHash.checksum($0) }
        #expect((delta.count, deltaSum) == (1_182, 693_358_149_308_127_472))
    }
}
