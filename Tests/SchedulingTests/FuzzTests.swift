import Foundation
import RoteModel
import Scheduling
import Testing

/// Fuzz is deterministic (a hash of entry id and review id) and stays inside FSRS's ranges.
@Suite struct FuzzTests {
    /// Values computed independently (a Python FNV-1a 64 + SplitMix64 finaliser); they must
    /// never change, or devices running different versions would disagree on due dates.
    @Test(arguments: [
        ("english-a1/run", "0193a4f2-0000-7000-8000-000000000000", 0.26682320484612754),
        ("kjv/mat-5-44", "r1", 0.9006925317368538),
        ("", "", 0.3805047004330069),
        ("ab", "c", 0.7324665003622096),
        ("a", "bc", 0.03090499314709838),
    ])
    func drawIsAFixedFunctionOfTheIDs(entry: String, reviewID: String, expected: Double) {
        #expect(Fuzz.unit(entryID: entry, reviewID: reviewID) == expected)
    }

    @Test func drawsAreInTheUnitIntervalAndSpreadOut() {
        var buckets = [Int](repeating: 0, count: 10)
        for index in 0..<10_000 {
            let unit = Fuzz.unit(entryID: "deck/entry-\(index % 97)", reviewID: "review-\(index)")
            #expect(unit >= 0 && unit < 1)
            buckets[Int(unit * 10)] += 1
        }
        // 1000 expected per bucket; a fair hash stays well within ±150.
        #expect(buckets.allSatisfy { (850...1150).contains($0) }, "\(buckets)")
    }

    /// delta = 1 + 0.15·overlap(2.5…7) + 0.10·overlap(7…20) + 0.05·overlap(20…∞), bounds round
    /// half to even, lower bound at least 2, upper at most the maximum.
    @Test(arguments: [
        (2.0, 36_500, 2...2),  // under 2.5 days: no fuzz
        (3.0, 36_500, 2...4),  // δ = 1 + 0.15 × 0.5 = 1.075: 1.925 → 2, 4.075 → 4
        (7.0, 36_500, 5...9),  // δ = 1 + 0.15 × 4.5 = 1.675: 5.325 → 5, 8.675 → 9
        (10.0, 36_500, 8...12),  // δ = 1.675 + 0.1 × 3 = 1.975: 8.025 → 8, 11.975 → 12
        (100.0, 36_500, 93...107),  // δ = 1.675 + 1.3 + 0.05 × 80 = 6.975: 93.025 → 93, 106.975 → 107
        (100.0, 100, 93...100),  // the maximum caps the upper bound
        (36_500.0, 36_500, 34_673...36_500),  // δ = 2.975 + 0.05 × 36480 = 1826.975: 34673.025 → 34673
    ])
    func boundsFollowFSRSRanges(interval: Double, maximum: Int, expected: ClosedRange<Int>) {
        #expect(Fuzz.bounds(forInterval: interval, maximum: maximum) == expected)
    }

    @Test func deltaGrowsByBand() {
        #expect(Fuzz.delta(forInterval: 2.4) == 0)
        #expect(abs(Fuzz.delta(forInterval: 20) - 2.975) < 1e-12)  // 1 + 0.675 + 1.3
        #expect(Fuzz.ranges.map(\.factor) == [0.15, 0.1, 0.05])
    }

    @Test func everyDayInTheBoundsCanBePickedAndNoOther() {
        let bounds = Fuzz.bounds(forInterval: 10, maximum: 36_500)
        #expect(Fuzz.interval(10, unit: 0, maximum: 36_500) == bounds.lowerBound)
        #expect(Fuzz.interval(10, unit: 0.999_999_999, maximum: 36_500) == bounds.upperBound)
        var seen = Set<Int>()
        for index in 0..<1_000 {
            let picked = Fuzz.interval(10, unit: Fuzz.unit(entryID: "e", reviewID: "\(index)"), maximum: 36_500)
            #expect(bounds.contains(picked))
            seen.insert(picked)
        }
        #expect(seen == Set(bounds))
    }

    @Test func everyDayInTheBoundsIsEquallyLikely() {
        // 10 days → 8…12: five days, 2000 of 10 000 draws each (±300 for a fair hash).
        var counts: [Int: Int] = [:]
        for index in 0..<10_000 {
            let unit = Fuzz.unit(entryID: "deck/e\(index % 101)", reviewID: "r\(index)")
            counts[Fuzz.interval(10, unit: unit, maximum: 36_500), default: 0] += 1
        }
        #expect(counts.keys.sorted() == [8, 9, 10, 11, 12])
        #expect(counts.values.allSatisfy { (1700...2300).contains($0) }, "\(counts)")
    }

    @Test func aMinimumRaisesTheLowerBound() {
        // SM-2's "at least ivl + 1": 10 days with minimum 11 → 11…12
        #expect(Fuzz.bounds(forInterval: 10, minimum: 11, maximum: 36_500) == 11...12)
    }

    /// Fuzz moves due dates only: stability and difficulty depend on when reviews happened,
    /// not on when they were due, so a fuzzed replay has exactly the unfuzzed memory, and each
    /// review-phase due date lies within the fuzz bounds of the unfuzzed interval.
    @Test func fuzzedReplayKeepsMemoryAndStaysInBounds() throws {
        var generator = SeededGenerator(seed: 11)
        var moved = 0
        for entry in 0..<200 {
            let maximum = [36_500, 3650, 365][entry % 3]
            let fuzzed = try SchedulerSettings(maximumInterval: maximum, enableFuzzing: true)
            let plain = fuzzed.withFuzzing(false)
            var time = t0
            let events = (0..<25).map { index in
                time += Double(generator.next(upperBound: UInt64(60 * day)))
                return ReviewEvent(
                    id: "e\(entry)-r\(index)", at: time,
                    grade: Grade(rawValue: Int(generator.next(upperBound: UInt64(4))) + 1)!)
            }
            let entryID = "deck/\(entry)"
            let withFuzz = Scheduler(settings: fuzzed).history(events, entryID: entryID)
            let without = Scheduler(settings: plain).history(events, entryID: entryID)
            for (index, (a, b)) in zip(withFuzz, without).enumerated() {
                #expect(a.stability == b.stability && a.difficulty == b.difficulty)
                #expect(a.phase == b.phase && a.step == b.step)
                guard a.phase == .review else {
                    #expect(a.due == b.due)
                    continue
                }
                let at = events[index].at
                let fuzzedDays = Int(((a.due.timeIntervalSince(at)) / day).rounded())
                let plainDays = Double(Int(((b.due.timeIntervalSince(at)) / day).rounded()))
                let bounds = Fuzz.bounds(forInterval: plainDays, maximum: maximum)
                if plainDays >= 2.5 {
                    #expect(bounds.contains(fuzzedDays), "\(entryID) review \(index)")
                    #expect(fuzzedDays >= 2 && fuzzedDays <= maximum)
                } else {
                    #expect(fuzzedDays == Int(plainDays))
                }
                if fuzzedDays != Int(plainDays) { moved += 1 }
            }
        }
        #expect(moved > 500)  // fuzz is on by default and does move intervals
    }

    @Test func fuzzIsOnByDefaultAndTheSameOnEveryReplay() {
        let events = reviews([.good, .good, .good, .good, .good], every: 9 * day)
        let first = Scheduler.replay(events, entryID: "english-a1/run", settings: .default)
        let second = Scheduler.replay(events.reversed(), entryID: "english-a1/run", settings: .default)
        #expect(first == second)
        // Another entry with the same history draws other fuzz.
        let others = (0..<20).map {
            Scheduler.replay(events, entryID: "english-a1/word-\($0)", settings: .default)!.due
        }
        #expect(Set(others).count > 1)
    }
}
