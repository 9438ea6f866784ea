import Foundation
import RoteModel
import Scheduling
import Testing

/// A memory state or interval no integer can hold — NaN, an infinity, 1e300, as a damaged
/// or hand-edited progress file may say — schedules at the maximum interval instead of
/// trapping where days become an Int (issue #31, item 2).
@Suite struct UnreadableNumberTests {
    @Test func fsrsGivesTheMaximumIntervalForAStabilityNoIntCanHold() {
        let fsrs = FSRS(settings: .unfuzzed)
        let maximum = SchedulerSettings.unfuzzed.maximumInterval
        for stability in [Double.nan, .infinity, 1e300] {
            #expect(fsrs.nextInterval(stability: stability) == maximum, "\(stability)")
        }
    }

    @Test func sm2ReplaysAStateWithAnEaseAndIntervalNoIntCanHold() {
        let sm2 = SM2(settings: .sm2Unfuzzed)
        let maximum = SchedulerSettings.sm2Unfuzzed.maximumInterval
        for value in [Double.nan, 1e300, -1e300] {
            let state = MemoryState(
                phase: .review, ease: value, interval: value, due: t0 + day, reps: 4, lapses: 0, lastReview: t0)
            let next = sm2.next(after: state, grade: .good, at: t0 + day)
            #expect(next.interval.map { $0 >= 1 && $0 <= Double(maximum) } == true, "\(value): \(next)")
        }
    }

    @Test func fuzzBoundsOfANaNIntervalAreTheMaximum() {
        #expect(Fuzz.bounds(forInterval: .nan, maximum: 100) == 100...100)
        #expect(Fuzz.bounds(forInterval: 1e300, maximum: 100) == 100...100)
    }
}
