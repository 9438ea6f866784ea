import Foundation
import RoteModel
import Scheduling
import Testing

@testable import RoteSync

/// Seed 002's warm-start reviews (`synthetic: calibration`) sync and merge like any review,
/// and an undo or a recalibration on one device stays done when the other merges.
@Suite struct SyntheticReviewMergeTests {
    static func file(_ lines: [String]) -> Data { ReviewMergeFixture.file(entry: "lex/w7", lines) }

    static let s1 = "{id: cal-a-1, at: 2026-09-21T10:00:00Z, grade: easy, device: d1, synthetic: calibration}"
    static let s2 = "{id: cal-a-2, at: 2026-11-19T10:00:00Z, grade: easy, device: d1, synthetic: calibration}"
    static let t1 = "{id: cal-b-1, at: 2026-09-22T10:00:00Z, grade: easy, device: d1, synthetic: calibration}"
    static let t2 = "{id: cal-b-2, at: 2026-11-20T10:00:00Z, grade: easy, device: d1, synthetic: calibration}"
    static let real = "{id: real-1, at: 2026-11-21T09:00:00Z, grade: again, ms: 900, device: d2}"

    static func merged(base: Data?, _ ours: Data, _ theirs: Data) throws -> ProgressFile {
        try ReviewMergeFixture.mergedBothWays(base: base, ours, theirs)
    }

    @Test func syntheticReviewsMergeWithRealOnesAndKeepTheirMark() throws {
        let merged = try Self.merged(base: nil, Self.file([Self.s1, Self.s2]), Self.file([Self.real]))
        #expect(merged.reviews.map(\.id) == ["cal-a-1", "cal-a-2", "real-1"])
        #expect(merged.reviews.map(\.synthetic) == ["calibration", "calibration", nil])
        #expect(merged.state?.phase == .relearning, "the real review, later, takes over")
        #expect(merged.render().contains("synthetic: calibration}"))
    }

    @Test func anUndoOnOneSideStaysUndoneAndRealReviewsSurvive() throws {
        let base = Self.file([Self.s1, Self.s2])
        let undone = Data("entry: lex/w7\nstatus: active\nreviews: []\n".utf8)
        let reviewed = Self.file([Self.s1, Self.s2, Self.real])
        let merged = try Self.merged(base: base, undone, reviewed)
        #expect(merged.reviews.map(\.id) == ["real-1"])
    }

    @Test func aRecalibrationReplacesTheOldSyntheticReviewsOnBothSides() throws {
        let base = Self.file([Self.s1, Self.s2])
        let recalibrated = Self.file([Self.t1, Self.t2])
        let reviewed = Self.file([Self.s1, Self.s2, Self.real])
        let merged = try Self.merged(base: base, recalibrated, reviewed)
        #expect(merged.reviews.map(\.id) == ["cal-b-1", "cal-b-2", "real-1"])
        // Merging the result again with either side changes nothing more.
        let again = try Self.merged(base: base, Data(merged.render().utf8), reviewed)
        #expect(again.reviews.map(\.id) == merged.reviews.map(\.id))
    }

    @Test func aRealReviewMissingOnOneSideIsNeverDropped() throws {
        let base = Self.file([Self.real])
        let merged = try Self.merged(base: base, Data("entry: lex/w7\nstatus: active\nreviews: []\n".utf8), base)
        #expect(merged.reviews.map(\.id) == ["real-1"], "only synthetic reviews can be undone")
    }
}
