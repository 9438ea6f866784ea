import Foundation
import RoteModel
import Scheduling
import Testing

/// FSRS-6 rules one at a time, with default parameters and fuzz off. The 300 reference
/// histories (`FSRSVectorTests`) check the same code against py-fsrs in bulk.
@Suite struct FSRSTests {
    let fsrs = FSRS(settings: .unfuzzed)

    @Test func defaultSettingsArePyFSRSDefaults() {
        let settings = SchedulerSettings.default
        #expect(settings.scheduler == .fsrs)
        #expect(settings.parameters.values == FSRSParameters.defaultValues)
        #expect(settings.parameters.values.count == 21)
        #expect(settings.parameters[20] == 0.1542)
        #expect(settings.desiredRetention == 0.9)
        #expect(settings.learningSteps == [60, 600])
        #expect(settings.relearningSteps == [600])
        #expect(settings.maximumInterval == 36_500)
        #expect(settings.enableFuzzing)
    }

    /// Numbers printed by py-fsrs 6.3.2 (`Scheduler(enable_fuzzing=False)`) for this history.
    @Test func aDefaultParameterHistoryMatchesPyFSRS() {
        let events = [
            review("a", 0, .good), review("b", 600, .good), review("c", 600 + 3 * day, .good),
            review("d", 600 + 3 * day + 3600, .again), review("e", 600 + 3 * day + 4200, .good),
            review("f", 600 + 20 * day, .hard),
        ]
        let expected: [(MemoryState.Phase, Int?, Double, Double, String)] = [
            (.learning, 1, 2.3065, 2.118103970459016, "2026-01-01T00:10:00Z"),
            (.review, nil, 2.3065, 2.111214235785395, "2026-01-03T00:10:00Z"),
            (.review, nil, 13.835840133660218, 2.1043313908464483, "2026-01-18T00:10:00Z"),
            (.relearning, 0, 4.132425302304223, 7.389975788014609, "2026-01-04T01:20:00Z"),
            (.review, nil, 4.132425302304223, 7.377814181523433, "2026-01-08T01:20:00Z"),
            (.review, nil, 12.747171551814036, 8.244499229132952, "2026-02-03T00:10:00Z"),
        ]
        let states = Scheduler(settings: .unfuzzed).history(events, entryID: "x")
        #expect(states.count == expected.count)
        for (state, (phase, step, stability, difficulty, due)) in zip(states, expected) {
            #expect(state.phase == phase)
            #expect(state.step == step)
            #expect(relativeError(state.stability, stability) <= 1e-12)
            #expect(relativeError(state.difficulty, difficulty) <= 1e-12)
            #expect(Timestamp.format(state.due) == due)
        }
        // py-fsrs: get_card_retrievability(card, t0 + 40 days) = 0.870330610418369
        let recall = fsrs.retrievability(of: states.last!, at: t0 + 40 * day)
        #expect(relativeError(recall, 0.870330610418369) <= 1e-12)
        #expect(states.last?.lapses == 1)
        #expect(states.last?.reps == 6)
    }

    @Test func aNewEntryStartsFromTheInitialStabilityAndDifficulty() {
        // S0 = w[grade − 1]; D0 = w4 − e^(w5·(grade − 1)) + 1: again → 6.4133 − 1 + 1
        let again = fsrs.next(after: nil, grade: .again, at: t0)
        #expect(again.stability == 0.212)
        #expect(again.difficulty == 6.4133)
        #expect(fsrs.next(after: nil, grade: .hard, at: t0).stability == 1.2931)
        #expect(fsrs.next(after: nil, grade: .easy, at: t0).stability == 8.2956)
    }

    @Test func recallIsNinetyPercentAfterStabilityDays() {
        // FSRS defines stability as the days until retrievability falls to 0.9.
        let state = MemoryState(phase: .review, stability: 10, difficulty: 5, due: t0, lastReview: t0)
        #expect(abs(fsrs.retrievability(of: state, at: t0 + 10 * day) - 0.9) < 1e-12)
        #expect(fsrs.retrievability(of: state, at: t0) == 1)
        #expect(fsrs.retrievability(of: state, at: t0 + 5 * day) > 0.9)
        // Whole days only: 9 days 23 hours is still 9 days.
        #expect(
            fsrs.retrievability(of: state, at: t0 + 10 * day - 3600) == fsrs.retrievability(of: state, at: t0 + 9 * day)
        )
    }

    @Test func anEntryNeverReviewedHasNoRecall() {
        #expect(Scheduler(settings: .unfuzzed).retrievability(of: nil, at: t0) == 0)
        #expect(fsrs.retrievability(of: MemoryState(phase: .learning, step: 0, due: t0), at: t0) == 0)
    }

    @Test func intervalsAreAtLeastOneDayAndAtMostTheMaximum() throws {
        #expect(fsrs.nextInterval(stability: 0.01) == 1)
        #expect(fsrs.nextInterval(stability: 1_000_000) == 36_500)
        let short = FSRS(settings: try SchedulerSettings(maximumInterval: 365, enableFuzzing: false))
        #expect(short.nextInterval(stability: 1_000) == 365)
        // At retention 0.9 the interval is the stability, rounded.
        #expect(fsrs.nextInterval(stability: 10.3) == 10)
        #expect(fsrs.nextInterval(stability: 10.7) == 11)
    }

    @Test func intervalsRoundHalfToEven() {
        // At retention 0.9 the interval is S / FACTOR × FACTOR, which is exactly S for these.
        #expect(fsrs.nextInterval(stability: 2.5) == 2)
        #expect(fsrs.nextInterval(stability: 3.5) == 4)
        #expect(fsrs.nextInterval(stability: 10.5) == 10)
        #expect(fsrs.nextInterval(stability: 11.5) == 12)
    }

    @Test func lowerRetentionGivesLongerIntervals() throws {
        let relaxed = FSRS(settings: try SchedulerSettings(desiredRetention: 0.8, enableFuzzing: false))
        #expect(relaxed.nextInterval(stability: 10) > fsrs.nextInterval(stability: 10))
    }

    @Test func elapsedTimeIsCountedInWhole24HourPeriods() {
        // A review-phase entry reviewed again 23:59:59 later is a same-day review (short-term
        // stability, independent of the time elapsed); 24:00:00 later it is a day later.
        let start = MemoryState(phase: .review, stability: 5, difficulty: 5, due: t0 + 5 * day, lastReview: t0)
        let oneSecond = fsrs.next(after: start, grade: .good, at: t0 + 1)
        let almostADay = fsrs.next(after: start, grade: .good, at: t0 + day - 1)
        let aDay = fsrs.next(after: start, grade: .good, at: t0 + day)
        #expect(oneSecond.stability == almostADay.stability)
        #expect(aDay.stability != almostADay.stability)
    }

    @Test func sameDayAgainLowersStabilityAndPassingNeverDoes() {
        let start = MemoryState(phase: .review, stability: 5, difficulty: 5, due: t0 + 5 * day, lastReview: t0)
        #expect(fsrs.next(after: start, grade: .again, at: t0 + 3600).stability! < 5)
        for grade in [Grade.hard, .good, .easy] {
            #expect(fsrs.next(after: start, grade: grade, at: t0 + 3600).stability! >= 5)
        }
    }

    @Test func hardOnTheFirstStepWaitsTheMeanOfTheFirstTwoSteps() throws {
        // (60 + 600) / 2 = 330 s; with a lone 600 s step: 600 × 1.5 = 900 s
        #expect(fsrs.next(after: nil, grade: .hard, at: t0).due == t0 + 330)
        let lone = FSRS(settings: try SchedulerSettings(learningSteps: [600], enableFuzzing: false))
        #expect(lone.next(after: nil, grade: .hard, at: t0).due == t0 + 900)
    }

    @Test func aStepPastTheLastStepGraduatesUnlessAgain() {
        // Settings changed from three steps to two: step 2 no longer exists.
        let stranded = MemoryState(phase: .learning, step: 2, stability: 3, difficulty: 5, due: t0, lastReview: t0)
        let good = fsrs.next(after: stranded, grade: .hard, at: t0 + 600)
        #expect(good.phase == .review)
        #expect(good.step == nil)
        let again = fsrs.next(after: stranded, grade: .again, at: t0 + 600)
        #expect(again.phase == .learning)
        #expect(again.step == 0)
        #expect(again.due == t0 + 660)
    }

    @Test func withoutLearningStepsTheFirstAnswerGraduates() throws {
        let settings = try SchedulerSettings(learningSteps: [], enableFuzzing: false)
        let state = FSRS(settings: settings).next(after: nil, grade: .again, at: t0)
        #expect(state.phase == .review)
        #expect(state.due == t0 + day)  // S = 0.212 → round(0.212) = 0 → at least 1 day
    }

    @Test func aLapseGoesToRelearningOrStaysInReviewWithoutRelearningSteps() throws {
        let start = MemoryState(phase: .review, stability: 20, difficulty: 5, due: t0 + 20 * day, lastReview: t0)
        let lapsed = fsrs.next(after: start, grade: .again, at: t0 + 20 * day)
        #expect(lapsed.phase == .relearning)
        #expect(lapsed.step == 0)
        #expect(lapsed.lapses == 1)
        #expect(lapsed.due == t0 + 20 * day + 600)
        let noSteps = FSRS(settings: try SchedulerSettings(relearningSteps: [], enableFuzzing: false))
        let stays = noSteps.next(after: start, grade: .again, at: t0 + 20 * day)
        #expect(stays.phase == .review)
        #expect(stays.lapses == 1)
        #expect(stays.stability == lapsed.stability)
    }

    @Test func difficultyIsClampedToOneThroughTen() throws {
        // w4 = 1: D0(easy) = 1 − e^(0.8334 × 3) + 1 ≈ −10.2 → clamped to 1.
        // w4 = 10: D0(again) = 10 − 1 + 1 = 10; again after again stays just under 10, as mean
        // reversion pulls 0.1 % (w7) toward D0(easy) = 10 − e^2.5 + 1 ≈ −1.18.
        var low = FSRSParameters.defaultValues
        low[4] = 1
        #expect(
            FSRS(settings: try SchedulerSettings(parameters: low)).next(after: nil, grade: .easy, at: t0).difficulty
                == 1)
        var high = FSRSParameters.defaultValues
        high[4] = 10
        let hard = FSRS(settings: try SchedulerSettings(parameters: high, enableFuzzing: false))
        var state = hard.next(after: nil, grade: .again, at: t0)
        #expect(state.difficulty == 10)
        var time = t0
        for _ in 0..<30 {
            time += 2 * day
            state = hard.next(after: state, grade: .again, at: time)
            #expect(state.difficulty! <= 10)
            #expect(state.difficulty! > 9.9)
        }
    }
}
