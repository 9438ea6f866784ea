import Foundation
import RoteModel
import RoteStore
import Scheduling
import TestSupport
import Testing

@testable import Study

/// The recorder with `load_balance` on: each answer's day is picked by the workload and
/// written into the review, and the file replays to that day.
@Suite struct BalancedRecordingTests {
    let directory = TemporaryDirectory()
    static let entry = "words/run"
    static let start = Date(timeIntervalSince1970: 1_793_577_600)  // 2026-11-02T00:00:00Z, a Monday

    func recorder(loadBalance: Bool?) -> ReviewRecorder {
        var profile = Profile(user: "ana")
        profile.settings.loadBalance = loadBalance
        return ReviewRecorder(root: directory.url, user: "ana", device: "phone", decks: [:], profile: profile)
    }

    /// Learnt, then passed three days later: the next pass lands in review with a fuzz window.
    func learn(_ recorder: ReviewRecorder) throws {
        try recorder.record(entry: Self.entry, grade: .good, at: Self.start, ms: 900, id: "r1")
        try recorder.record(entry: Self.entry, grade: .good, at: Self.start.addingTimeInterval(600), ms: 900, id: "r2")
        try recorder.record(
            entry: Self.entry, grade: .good, at: Self.start.addingTimeInterval(3 * 86_400), ms: 900, id: "r3")
    }

    @Test func theAnswerGoesToTheEmptyDayOfItsWindowAndTheFileReplaysToIt() throws {
        var recorder = recorder(loadBalance: true)
        let answeredAt = Self.start.addingTimeInterval(14 * 86_400)
        // Which days fuzz allows the fourth answer, from the file as it will be.
        try learn(recorder)
        let file = try recorder.current(Self.entry)
        let next = ReviewEvent(id: "r4", at: answeredAt, grade: .good)
        let scheduler = Scheduler(settings: .default)
        let window = try #require(
            scheduler.fuzzWindow(after: scheduler.replay(file.scheduledReviews, entryID: Self.entry), review: next))
        #expect(window.count >= 3, "\(window)")
        // Every day of the window is full but one.
        let empty = window.lowerBound + 1
        let dues = window.filter { $0 != empty }.flatMap { days in
            Array(repeating: answeredAt.addingTimeInterval(Double(days) * 86_400), count: 60)
        }
        try recorder.balance { dues }
        let workload = try #require(recorder.workload)

        let written = try recorder.record(entry: Self.entry, grade: .good, at: answeredAt, ms: 900, id: "r4")
        let review = try #require(written.file.reviews.last)
        #expect(review.balancedInterval == empty)
        #expect(written.file.state?.due == answeredAt.addingTimeInterval(Double(empty) * 86_400))
        #expect(String(decoding: written.data, as: UTF8.self).contains("balanced_interval: \(empty)}"))
        #expect(workload.load(on: answeredAt.addingTimeInterval(Double(empty) * 86_400)) == 1, "the day now holds it")

        // What any device replays from the file: the same day.
        let decoded = try #require(ProgressFile.decode(written.data, path: "p.yaml").0)
        #expect(scheduler.replay(decoded.scheduledReviews, entryID: Self.entry) == written.file.state)
    }

    @Test func withoutLoadBalanceNothingIsChosenNorWritten() throws {
        var recorder = recorder(loadBalance: nil)
        try recorder.balance {
            Issue.record("the due dates are read only when balancing")
            return []
        }
        #expect(recorder.workload == nil)
        try learn(recorder)
        let written = try recorder.record(
            entry: Self.entry, grade: .good, at: Self.start.addingTimeInterval(14 * 86_400), ms: 900, id: "r4")
        #expect(written.file.reviews.allSatisfy { $0.balancedInterval == nil })
        #expect(!String(decoding: written.data, as: UTF8.self).contains("balanced_interval"))
    }

    @Test func practiceAnswersAreNeverBalanced() throws {
        var recorder = recorder(loadBalance: true)
        try recorder.balance { [] }
        try learn(recorder)
        recorder.practice = true
        let written = try recorder.record(
            entry: Self.entry, grade: .good, at: Self.start.addingTimeInterval(14 * 86_400), ms: 900, id: "p1")
        #expect(written.file.reviews.last?.practice == true && written.file.reviews.last?.balancedInterval == nil)
    }
}
