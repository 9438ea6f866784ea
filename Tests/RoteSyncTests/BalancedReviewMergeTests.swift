import Foundation
import RoteModel
import Scheduling
import Testing

@testable import RoteSync

/// Load-balanced reviews (`balanced_interval:`) chosen on devices that each see a different
/// workload: whatever order the devices' histories merge in, every device computes the same
/// due dates, because the choice travels in the review.
@Suite struct BalancedReviewMergeTests {
    static let entry = "words/run"
    static let start = Date(timeIntervalSince1970: 1_796_601_600)  // 2026-12-07T00:00:00Z

    /// A device's view: a workload of its own, drawn from `random`.
    struct Device {
        var name: String
        var load: DueLoad

        init(name: String, random: inout SeededGenerator) {
            self.name = name
            let dues = (0..<200).map { _ in
                start.addingTimeInterval(Double(random.next() % 120) * 86_400 + Double(random.next() % 86_400))
            }
            load = DueLoad(
                dueDates: dues, easyDays: EasyDays(reduced: [Int(random.next() % 7)]),
                timeZone: TimeZone(identifier: "UTC")!, now: start)
        }

        /// Answers `grade` at `at` after `history`, choosing the interval as the recorder does.
        mutating func answer(_ grade: Grade, at: Date, after history: [ReviewEvent], id: String) -> ReviewEvent {
            let scheduler = Scheduler(settings: .default)
            var review = ReviewEvent(id: id, at: at, grade: grade, device: name)
            let before = scheduler.replay(history, entryID: BalancedReviewMergeTests.entry)
            if let window = scheduler.fuzzWindow(after: before, review: review), window.count > 1 {
                review.balancedInterval = load.interval(
                    in: window, reviewedAt: at, unit: Fuzz.unit(entryID: BalancedReviewMergeTests.entry, reviewID: id))
            }
            let after = scheduler.replay(history + [review], entryID: BalancedReviewMergeTests.entry)
            load.move(from: before?.due, to: after?.due)
            return review
        }
    }

    static func file(_ reviews: [ReviewEvent]) -> Data {
        var file = ProgressFile(entry: entry)
        file.reviews = reviews
        file.state = Scheduler(settings: .default).replay(reviews, entryID: entry)
        return Data(file.render().utf8)
    }

    static func merged(base: Data, _ ours: Data, _ theirs: Data) throws -> Data {
        guard case let .merged(data) = ProgressMerge.merge(base: base, ours: ours, theirs: theirs, settings: .default)
        else { throw ReviewMergeFixture.MergeFailed() }
        return data
    }

    static func dueDate(_ data: Data) throws -> Date? {
        let file = try #require(ProgressFile.decode(data, path: "p.yaml").0)
        let replayed = Scheduler(settings: .default).replay(file.reviews, entryID: entry)
        #expect(file.state == replayed, "the merged file's state is its replay")
        return replayed?.due
    }

    @Test(
        "three devices, each balancing against its own workload, merge to one due date in every order",
        arguments: 1...25)
    func everyMergeOrderGivesTheSameDueDate(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var devices = ["phone", "laptop", "tablet"].map { Device(name: $0, random: &random) }
        // A shared start: learnt and passed once, on the phone.
        var shared: [ReviewEvent] = []
        var clock = Self.start.addingTimeInterval(9 * 3_600)
        for (index, grade) in [Grade.good, .good, .good].enumerated() {
            shared.append(devices[0].answer(grade, at: clock, after: shared, id: "shared-\(index)"))
            clock.addTimeInterval(index == 0 ? 600 : 4 * 86_400)
        }
        let base = Self.file(shared)
        // Then each device answers on its own, unsynced, at times that interleave.
        var histories: [[ReviewEvent]] = []
        for device in devices.indices {
            var history = shared
            var at = clock.addingTimeInterval(Double(device) * 3_600)
            for answer in 0..<(1 + Int(random.next() % 3)) {
                let grade: Grade = random.next() % 5 == 0 ? .hard : .good
                history.append(devices[device].answer(grade, at: at, after: history, id: "\(device)-\(answer)-\(seed)"))
                at.addTimeInterval(Double(5 + random.next() % 20) * 86_400)
            }
            histories.append(history)
        }
        let files = histories.map(Self.file)
        #expect(histories.joined().contains { $0.balancedInterval != nil }, "the balancer chose somewhere")

        // Every order of merging the three into one.
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        var dues: Set<Date?> = []
        var results: Set<Data> = []
        for order in orders {
            let first = try Self.merged(base: base, files[order[0]], files[order[1]])
            let all = try Self.merged(base: base, first, files[order[2]])
            dues.insert(try Self.dueDate(all))
            results.insert(all)
        }
        #expect(dues.count == 1, "one due date whatever the order: \(dues)")
        #expect(results.count == 1, "and byte for byte the same file")

        // The last answer's choice stands where it still lies in the fuzz bounds the merged
        // history gives it (another device's reviews before it may have moved them); else
        // the hashed fuzz picks, as for any review.
        let merged = try #require(ProgressFile.decode(results.first!, path: "p.yaml").0)
        let last = try #require(merged.reviews.last)
        let scheduler = Scheduler(settings: .default)
        let window = scheduler.fuzzWindow(
            after: scheduler.replay(Array(merged.reviews.dropLast()), entryID: Self.entry), review: last)
        if let chosen = last.balancedInterval, let due = try Self.dueDate(results.first!), let window {
            let days = Int((due.timeIntervalSince(last.at) / 86_400).rounded())
            #expect(window.contains(chosen) ? days == chosen : window.contains(days), "\(days) in \(window)")
        }
    }

    @Test func theChoiceSurvivesTheFileAndATieOfOneIDIsDecidedTheSameOnBothSides() throws {
        let plain = "{id: same, at: 2026-11-05T09:00:00Z, grade: good, ms: 700, device: d1}"
        let balanced = "{id: same, at: 2026-11-05T09:00:00Z, grade: good, ms: 700, device: d1, balanced_interval: 9}"
        let first = "{id: real-1, at: 2026-11-01T09:00:00Z, grade: good, ms: 900, device: d1}"
        let merged = try ReviewMergeFixture.mergedBothWays(
            base: nil, ReviewMergeFixture.file(entry: Self.entry, [first, plain]),
            ReviewMergeFixture.file(entry: Self.entry, [first, balanced]))
        #expect(merged.reviews.map(\.id) == ["real-1", "same"])
        let decoded = try #require(
            ProgressFile.decode(ReviewMergeFixture.file(entry: Self.entry, [first, balanced]), path: "p.yaml").0)
        #expect(decoded.reviews.last?.balancedInterval == 9)
        #expect(decoded.render().contains("balanced_interval: 9}"))
        #expect(ProgressFile.decodeCanonical(Data(decoded.render().utf8))?.reviews == decoded.reviews)
    }

    @Test func aBalancedIntervalBelowOneDayIsReportedAtItsLine() {
        let bad = ReviewMergeFixture.file(
            entry: Self.entry, ["{id: x, at: 2026-11-01T09:00:00Z, grade: good, balanced_interval: 0}"])
        let (file, log) = ProgressFile.decode(bad, path: "p.yaml")
        #expect(file?.reviews.first?.balancedInterval == nil)
        #expect(
            log.contains { $0.message.contains("balanced_interval must be a whole number of days") && $0.line == 4 })
    }
}
