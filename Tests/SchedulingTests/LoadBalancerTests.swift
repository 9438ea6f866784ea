import Foundation
import RoteModel
import Testing

@testable import Scheduling

/// The workload balancer (profile `load_balance`, `easy_days`): which day it picks, that the
/// replay keeps its pick only inside the fuzz bounds, and what it buys on a simulated year.
@Suite struct LoadBalancerTests {
    static let monday = Date(timeIntervalSince1970: 1_796_601_600)  // 2026-12-07T00:00:00Z, a Monday

    /// Due dates: `count` reviews on each day `days` from `monday`, noon UTC.
    static func dues(_ counts: [Int: Int]) -> [Date] {
        counts.flatMap { day, count in
            Array(repeating: monday.addingTimeInterval(Double(day) * 86_400 + 43_200), count: count)
        }
    }

    @Test func theEmptyDayOfTheWindowIsPickedWhateverTheDraw() {
        let load = DueLoad(
            dueDates: Self.dues([8: 40, 9: 40, 10: 40, 11: 0, 12: 40]), easyDays: EasyDays(),
            timeZone: TimeZone(identifier: "UTC")!, now: Self.monday)
        let picks = stride(from: 0.0, to: 1, by: 0.01).compactMap {
            load.interval(in: 8...12, reviewedAt: Self.monday, unit: $0)
        }
        #expect(picks.count == 100)
        #expect(picks.filter { $0 == 11 }.count >= 95, "\(picks)")
    }

    @Test func evenDaysSpreadTheDrawOverTheWholeWindowNearerDaysSlightlyMore() {
        let load = DueLoad(
            dueDates: Self.dues([3: 10, 4: 10, 5: 10]), easyDays: EasyDays(), timeZone: TimeZone(identifier: "UTC")!,
            now: Self.monday)
        let picks = stride(from: 0.0, to: 1, by: 0.001).compactMap {
            load.interval(in: 3...5, reviewedAt: Self.monday, unit: $0)
        }
        let counts = (3...5).map { day in picks.filter { $0 == day }.count }
        #expect(counts.allSatisfy { $0 > 200 }, "\(counts)")
        #expect(counts[0] > counts[1] && counts[1] > counts[2], "\(counts)")
    }

    @Test func anEasyDayWithNoShareIsNeverPickedWhileAnotherDayIsAllowed() {
        var easy = EasyDays()
        easy.setShare(0, ofWeekday: 6)  // Sunday
        let load = DueLoad(dueDates: [], easyDays: easy, timeZone: TimeZone(identifier: "UTC")!, now: Self.monday)
        // From Monday, 5…7 days out are Saturday, Sunday and Monday.
        let picks = Set(
            stride(from: 0.0, to: 1, by: 0.01).compactMap {
                load.interval(in: 5...7, reviewedAt: Self.monday, unit: $0)
            })
        #expect(picks == [5, 7])
        #expect(load.interval(in: 6...6, reviewedAt: Self.monday, unit: 0.5) == nil)
    }

    @Test func movingADueDateMovesItsCount() {
        var load = DueLoad(
            dueDates: Self.dues([2: 3]), easyDays: EasyDays(), timeZone: TimeZone(identifier: "UTC")!,
            now: Self.monday)
        let tuesday = Self.monday.addingTimeInterval(2 * 86_400 + 3_600)
        let friday = Self.monday.addingTimeInterval(4 * 86_400)
        #expect(load.load(on: tuesday) == 3)
        load.move(from: tuesday, to: friday)
        #expect(load.load(on: tuesday) == 2 && load.load(on: friday) == 1)
    }

    @Test func theReplayKeepsABalancedIntervalOnlyInsideTheFuzzBounds() {
        // 10 days may become 8…12.
        #expect(Fuzz.interval(10, draw: Fuzz.Draw(unit: 0.99, balancedInterval: 8), maximum: 36_500) == 8)
        #expect(
            Fuzz.interval(10, draw: Fuzz.Draw(unit: 0.99, balancedInterval: 30), maximum: 36_500)
                == Fuzz.interval(10, unit: 0.99, maximum: 36_500))
        #expect(
            Fuzz.interval(10, draw: Fuzz.Draw(unit: 0.3), maximum: 36_500)
                == Fuzz.interval(10, unit: 0.3, maximum: 36_500))
    }

    @Test func aRecordedChoiceSetsTheReplayedDueDateAndMovesNothingElse() throws {
        let scheduler = Scheduler(settings: .default)
        let start = Self.monday
        let earlier = [
            ReviewEvent(id: "a", at: start, grade: .good),
            ReviewEvent(id: "b", at: start.addingTimeInterval(600), grade: .good),
            ReviewEvent(id: "c", at: start.addingTimeInterval(3 * 86_400), grade: .good),
        ]
        let next = ReviewEvent(id: "d", at: start.addingTimeInterval(12 * 86_400), grade: .good)
        let before = scheduler.replay(earlier, entryID: "w/x")
        let window = try #require(scheduler.fuzzWindow(after: before, review: next))
        #expect(window.count > 2, "\(window)")
        for chosen in window {
            var balanced = next
            balanced.balancedInterval = chosen
            let state = try #require(scheduler.replay(earlier + [balanced], entryID: "w/x"))
            #expect(state.due == next.at.addingTimeInterval(Double(chosen) * 86_400))
            let plain = try #require(scheduler.replay(earlier + [next], entryID: "w/x"))
            #expect(state.stability == plain.stability && state.difficulty == plain.difficulty)
            #expect(scheduler.next(after: before, review: balanced, entryID: "w/x") == state)
        }
        // Fuzz off has no window to balance in.
        #expect(Scheduler(settings: try .init(enableFuzzing: false)).fuzzWindow(after: before, review: next) == nil)
    }

    // MARK: - What it buys on a simulated year

    static func year(_ spread: WorkloadSimulator.Configuration.Spread) -> [WorkloadSimulator.Result] {
        var configuration = WorkloadSimulator.Configuration()
        configuration.deckSize = 3_000
        configuration.learnLimit = 15
        configuration.spread = spread
        return WorkloadSimulator.simulations(
            parameters: .default, desiredRetention: 0.9, configuration: configuration, count: 4)
    }

    /// The measure `rote simulate` prints: reviews per day over the last three quarters of the
    /// year (the first months only grow), averaged over seeds.
    static func deviation(_ runs: [WorkloadSimulator.Result]) -> Double {
        runs.reduce(0) { $0 + $1.reviewDeviation(from: 90) } / Double(runs.count)
    }

    static func recall(_ runs: [WorkloadSimulator.Result]) -> Double {
        runs.reduce(0) { $0 + $1.recallRate(from: 90) } / Double(runs.count)
    }

    @Test func balancingSmoothsTheDailyLoadAndLeavesRecallAlone() {
        let fuzzed = Self.year(.fuzz)
        let balanced = Self.year(.balanced(EasyDays()))
        #expect(
            Self.deviation(balanced) < 0.8 * Self.deviation(fuzzed),
            "\(Self.deviation(balanced)) vs \(Self.deviation(fuzzed))")
        #expect(abs(Self.recall(balanced) - Self.recall(fuzzed)) < 0.01)
        let total = { (runs: [WorkloadSimulator.Result]) in
            runs.reduce(0) { $0 + $1.days.reduce(0) { $0 + $1.reviews } }
        }
        #expect(abs(Double(total(balanced)) / Double(total(fuzzed)) - 1) < 0.03, "the same work, spread differently")
    }

    @Test func easyDaysTakeAboutTheirShare() {
        let sundays = EasyDays(reduced: [6])
        let runs = Self.year(.balanced(sundays))
        var sunday = 0.0
        var other = 0.0
        for run in runs {
            for (day, result) in run.days.enumerated().dropFirst(90) {
                if day % 7 == 6 {
                    sunday += Double(result.reviews)
                } else {
                    other += Double(result.reviews)
                }
            }
        }
        // The simulation starts on a Monday; six other days for each Sunday.
        let ratio = sunday / (other / 6)
        // Not half: learning steps, lapses and short intervals have no other day to go to.
        #expect(ratio < 0.8, "Sundays take \(ratio) of another day's reviews")
    }
}
