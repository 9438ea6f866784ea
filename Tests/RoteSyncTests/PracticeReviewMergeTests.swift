import Foundation
import RoteModel
import Scheduling
import Testing

@testable import RoteSync

/// Practice reviews (`practice: true`, `rote study --practice`) merge by id like any review,
/// keep their mark, and stay out of the replayed state on every device.
@Suite struct PracticeReviewMergeTests {
    static func file(_ lines: [String]) -> Data { ReviewMergeFixture.file(entry: "words/run", lines) }

    static let first = "{id: real-1, at: 2026-11-01T09:00:00Z, grade: good, ms: 900, device: d1}"
    static let second = "{id: real-2, at: 2026-11-04T09:00:00Z, grade: good, ms: 800, device: d1}"
    static let oursPractice =
        "{id: prac-a, at: 2026-11-05T09:00:00Z, grade: again, ms: 700, device: d1, practice: true}"
    static let theirsPractice =
        "{id: prac-b, at: 2026-11-05T10:00:00Z, grade: hard, ms: 600, device: d2, practice: true}"

    static func merged(base: Data?, _ ours: Data, _ theirs: Data) throws -> ProgressFile {
        try ReviewMergeFixture.mergedBothWays(base: base, ours, theirs)
    }

    @Test func bothSidesPracticeAndTheMergeKeepsBothAsPractice() throws {
        let base = Self.file([Self.first, Self.second])
        let merged = try Self.merged(
            base: base, Self.file([Self.first, Self.second, Self.oursPractice]),
            Self.file([Self.first, Self.second, Self.theirsPractice]))
        #expect(merged.reviews.map(\.id) == ["real-1", "real-2", "prac-a", "prac-b"])
        #expect(merged.reviews.map(\.practice) == [false, false, true, true])
        #expect(merged.render().components(separatedBy: "practice: true}").count == 3)
        // The state is what the two real reviews give: an `again` practised on either device
        // moved nothing.
        let realOnly = try #require(ProgressFile.decode(base, path: "p.yaml").0)
        let expected = Scheduler(settings: .default).replay(realOnly.reviews, entryID: "words/run")
        #expect(merged.state == expected)
        #expect(merged.state?.lapses == 0)
    }

    /// Two copies of one id that differ only in the practice mark (a hand edit) merge to the
    /// same one whichever side is ours: the one that schedules.
    @Test func aSameIDTieKeepsTheSchedulingCopyOnBothSides() throws {
        let plain = "{id: same, at: 2026-11-05T09:00:00Z, grade: good, ms: 700, device: d1}"
        let practised = "{id: same, at: 2026-11-05T09:00:00Z, grade: good, ms: 700, device: d1, practice: true}"
        let merged = try Self.merged(base: nil, Self.file([Self.first, plain]), Self.file([Self.first, practised]))
        #expect(merged.reviews.map(\.id) == ["real-1", "same"])
        #expect(merged.reviews.map(\.practice) == [false, false])
        let reviews = [
            ReviewEvent(id: "x", at: Date(timeIntervalSince1970: 0), grade: .good, practice: true),
            ReviewEvent(id: "x", at: Date(timeIntervalSince1970: 0), grade: .good),
        ]
        #expect(ProgressMerge.precedes(reviews[1], reviews[0]) && !ProgressMerge.precedes(reviews[0], reviews[1]))
    }
}
