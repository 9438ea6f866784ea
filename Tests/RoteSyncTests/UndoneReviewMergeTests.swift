import Foundation
import RoteModel
import Scheduling
import Testing

@testable import RoteSync

/// `rote undo`'s mark (`undone:`) merges monotonically: once either side has it the merged
/// review is undone, whichever side is ours, in any order, and nothing is dropped.
@Suite struct UndoneReviewMergeTests {
    static func file(_ lines: [String]) -> Data { ReviewMergeFixture.file(entry: "english-a1/run", lines) }

    static let first = "{id: r1, at: 2026-11-01T10:00:00Z, grade: good, device: d1}"
    static let session = "{id: r2, at: 2026-11-05T10:00:00Z, grade: again, device: d1}"
    static let sessionUndone =
        "{id: r2, at: 2026-11-05T10:00:00Z, grade: again, device: d1, undone: 2026-11-05T11:00:00Z}"
    static let sessionUndoneLater =
        "{id: r2, at: 2026-11-05T10:00:00Z, grade: again, device: d1, undone: 2026-11-06T08:00:00Z}"
    static let other = "{id: r3, at: 2026-11-07T10:00:00Z, grade: hard, device: d2}"

    static func merged(base: Data?, _ ours: Data, _ theirs: Data) throws -> ProgressFile {
        try ReviewMergeFixture.mergedBothWays(base: base, ours, theirs)
    }

    @Test func anUndoOnOneSideStaysUndoneBesideAnUnrelatedReviewOnTheOther() throws {
        let base = Self.file([Self.first, Self.session])
        let undone = Self.file([Self.first, Self.sessionUndone])
        let reviewed = Self.file([Self.first, Self.session, Self.other])
        let merged = try Self.merged(base: base, undone, reviewed)
        #expect(merged.reviews.map(\.id) == ["r1", "r2", "r3"], "no review is dropped")
        #expect(merged.reviews.map { $0.undone != nil } == [false, true, false])
        #expect(merged.scheduledReviews.map(\.id) == ["r1", "r3"])
        // The state replays without the undone review: what r1 then r3 give.
        let expected = Scheduler(settings: .default).replay(
            try #require(ProgressFile.decode(Self.file([Self.first, Self.other]), path: "p.yaml").0).reviews,
            entryID: "english-a1/run")
        #expect(merged.state == expected)
        #expect(merged.render().contains("undone: 2026-11-05T11:00:00Z}"))
    }

    @Test func twoUndoMarksKeepTheEarlierAndMergingAgainChangesNothing() throws {
        let base = Self.file([Self.first, Self.session])
        let merged = try Self.merged(
            base: base, Self.file([Self.first, Self.sessionUndoneLater]), Self.file([Self.first, Self.sessionUndone]))
        #expect(merged.reviews.last?.undone == Timestamp.parse("2026-11-05T11:00:00Z"))
        let data = Data(merged.render().utf8)
        for side in [base, Self.file([Self.first, Self.sessionUndoneLater]), Self.file([Self.first, Self.session])] {
            let again = try Self.merged(base: base, data, side)
            #expect(again == merged, "idempotent: an undone review never comes back")
        }
    }
}
