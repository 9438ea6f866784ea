import Foundation
import RoteModel
import Scheduling
import Testing

/// SM-2 as Anki runs it, one hand-checked case per rule; the arithmetic is beside each case.
/// Defaults: steps 1m 10m, relearning 10m, graduating 1 d, easy 4 d, ease 2.5 (floor 1.3),
/// hard ×1.2, easy ×1.3, lapse keeps 0 % with a 1-day minimum; fuzz off.
@Suite struct SM2Tests {
    let sm2 = SM2(settings: .sm2Unfuzzed)

    /// A review-phase entry last reviewed at t0 with `interval` days and `ease`.
    func reviewState(interval: Double, ease: Double, lapses: Int = 0) -> MemoryState {
        MemoryState(
            phase: .review, ease: ease, interval: interval, due: t0 + interval * day, reps: 4, lapses: lapses,
            lastReview: t0)
    }

    // MARK: Learning steps

    @Test func newEntryGoodMovesToSecondStep() {
        // good on step 0 of [1m, 10m] → step 1, due in 10m; ease starts at 2.5, interval 0
        let state = sm2.next(after: nil, grade: .good, at: t0)
        #expect(state.phase == .learning)
        #expect(state.step == 1)
        #expect(state.due == t0 + 10 * minute)
        #expect(state.ease == 2.5)
        #expect(state.interval == 0)
    }

    @Test func againReturnsToFirstStep() {
        // again → step 0, due in 1m
        let first = sm2.next(after: nil, grade: .good, at: t0)
        let state = sm2.next(after: first, grade: .again, at: t0 + 10 * minute)
        #expect(state.step == 0)
        #expect(state.due == t0 + 11 * minute)
    }

    @Test func hardOnFirstStepWaitsTheMeanOfTheFirstTwoSteps() {
        // (60 s + 600 s) / 2 = 330 s = 5m30s
        let state = sm2.next(after: nil, grade: .hard, at: t0)
        #expect(state.step == 0)
        #expect(state.due == t0 + 330)
    }

    @Test func hardOnALoneStepWaitsOneAndAHalfSteps() throws {
        // steps [10m]: 600 s × 1.5 = 900 s
        let settings = try SchedulerSettings(scheduler: .sm2, learningSteps: [600], enableFuzzing: false)
        let state = SM2(settings: settings).next(after: nil, grade: .hard, at: t0)
        #expect(state.due == t0 + 900)
    }

    @Test func hardOnALaterStepRepeatsIt() {
        // step 1 (10m) hard → stays on step 1, due in 600 s
        let first = sm2.next(after: nil, grade: .good, at: t0)
        let state = sm2.next(after: first, grade: .hard, at: t0 + 10 * minute)
        #expect(state.step == 1)
        #expect(state.due == t0 + 20 * minute)
    }

    @Test func goodOnLastStepGraduatesWithTheGraduatingInterval() {
        // good, good → review, interval 1 d, due 1 d after the second answer
        let first = sm2.next(after: nil, grade: .good, at: t0)
        let state = sm2.next(after: first, grade: .good, at: t0 + 10 * minute)
        #expect(state.phase == .review)
        #expect(state.step == nil)
        #expect(state.interval == 1)
        #expect(state.ease == 2.5)
        #expect(state.due == t0 + 10 * minute + day)
    }

    @Test func easyGraduatesAtOnceWithTheEasyInterval() {
        // easy on a new entry → review, 4 d
        let state = sm2.next(after: nil, grade: .easy, at: t0)
        #expect(state.phase == .review)
        #expect(state.interval == 4)
        #expect(state.due == t0 + 4 * day)
    }

    // MARK: Review answers, on time and late

    @Test func hardMultipliesByOnePointTwoAndLowersEase() {
        // 10 d × 1.2 = 12 d (≥ 10 + 1); ease 2.5 − 0.15 = 2.35
        let state = sm2.next(after: reviewState(interval: 10, ease: 2.5), grade: .hard, at: t0 + 10 * day)
        #expect(state.interval == 12)
        #expect(state.ease == 2.35)
        #expect(state.due == t0 + 22 * day)
    }

    /// A review answer: from `interval` days at `ease`, answered `answeredAfter` seconds after
    /// the last review, the next interval (and ease, when the case is about it).
    struct ReviewCase: Sendable, CustomTestStringConvertible {
        var rule: String
        var interval: Double
        var ease: Double
        var grade: Grade
        var answeredAfter: TimeInterval
        var expectedInterval: Double
        var expectedEase: Double?
        var testDescription: String { rule }
    }

    static let reviewCases: [ReviewCase] = [
        // 1 d × 1.2 = 1.2 → 1, raised to the minimum 1 + 1 = 2
        ReviewCase(
            rule: "hard is at least one day more", interval: 1, ease: 2.5, grade: .hard, answeredAfter: day,
            expectedInterval: 2),
        // (10 + 0/2) × 2.5 = 25 d; ease unchanged
        ReviewCase(
            rule: "good multiplies by ease and keeps ease", interval: 10, ease: 2.5, grade: .good,
            answeredAfter: 10 * day, expectedInterval: 25, expectedEase: 2.5),
        // ease 1.3: hard 2 × 1.2 = 2.4 → 2 → minimum 3; good 2 × 1.3 = 2.6 → 3 → minimum hard + 1 = 4
        ReviewCase(
            rule: "good is at least hard + 1", interval: 2, ease: 1.3, grade: .good, answeredAfter: 2 * day,
            expectedInterval: 4),
        // 45 × 1.3 = 58.499996 in Float (Anki's f32) → 58; Double would give 58.5 → 59
        ReviewCase(
            rule: "good rounds in single precision as Anki does", interval: 45, ease: 1.3, grade: .good,
            answeredAfter: 45 * day, expectedInterval: 58),
        // 10 × 2.5 × 1.3 = 32.5 → 33 (half away from zero); ease 2.5 + 0.15 = 2.65
        ReviewCase(
            rule: "easy multiplies by ease and bonus and raises ease", interval: 10, ease: 2.5, grade: .easy,
            answeredAfter: 10 * day, expectedInterval: 33, expectedEase: 2.65),
        // ease 1.3, 1 d: hard 1.2 → 1 → min 2; good 1.3 → 1 → min 3; easy 1 × 1.3 × 1.3 = 1.69 → 2 → min 4
        ReviewCase(
            rule: "easy is at least good + 1", interval: 1, ease: 1.3, grade: .easy, answeredAfter: day,
            expectedInterval: 4),
        // 4 days late: (10 + 4/2) × 2.5 = 30 d
        ReviewCase(
            rule: "good when late adds half the delay", interval: 10, ease: 2.5, grade: .good, answeredAfter: 14 * day,
            expectedInterval: 30),
        // 4 days late: (10 + 4) × 2.5 × 1.3 = 45.5 → 46 d
        ReviewCase(
            rule: "easy when late adds the whole delay", interval: 10, ease: 2.5, grade: .easy, answeredAfter: 14 * day,
            expectedInterval: 46),
        // 4 days late: still 10 × 1.2 = 12 d
        ReviewCase(
            rule: "hard ignores lateness", interval: 10, ease: 2.5, grade: .hard, answeredAfter: 14 * day,
            expectedInterval: 12),
        // 3 d 23 h late is 3 whole days: (10 + 3/2) × 2.5 = 28.75 → 29 d
        ReviewCase(
            rule: "lateness counts whole days", interval: 10, ease: 2.5, grade: .good,
            answeredAfter: 13 * day + 23 * 3600, expectedInterval: 29),
    ]

    @Test(arguments: reviewCases)
    func reviewAnswer(_ review: ReviewCase) {
        let state = sm2.next(
            after: reviewState(interval: review.interval, ease: review.ease), grade: review.grade,
            at: t0 + review.answeredAfter)
        #expect(state.interval == review.expectedInterval)
        if let ease = review.expectedEase { #expect(state.ease == ease) }
    }

    // MARK: Early

    @Test func earlyReviewGrowsFromTheElapsedTime() {
        // 4 of 10 days elapsed, ease 2.5:
        // hard max(4 × 1.2, 10 × 0.6) = 6; good max(4 × 2.5, 10) = 10; easy 10 × (1.3 − 0.15) = 11.5 → 12
        let early = t0 + 4 * day
        let start = reviewState(interval: 10, ease: 2.5)
        #expect(sm2.next(after: start, grade: .hard, at: early).interval == 6)
        #expect(sm2.next(after: start, grade: .good, at: early).interval == 10)
        #expect(sm2.next(after: start, grade: .easy, at: early).interval == 12)
    }

    // MARK: Ease floor and maximum

    @Test func easeNeverFallsBelowOnePointThree() {
        // 1.4 − 0.15 = 1.25 → 1.3; 1.3 − 0.20 = 1.1 → 1.3
        #expect(sm2.next(after: reviewState(interval: 10, ease: 1.4), grade: .hard, at: t0 + 10 * day).ease == 1.3)
        #expect(sm2.next(after: reviewState(interval: 10, ease: 1.3), grade: .again, at: t0 + 10 * day).ease == 1.3)
    }

    @Test func easeStepsDoNotDrift() {
        // 2.5 + 0.15 × 3 − 0.15 × 3 = 2.5 exactly (kept in thousandths, as Anki stores it)
        var state = reviewState(interval: 1, ease: 2.5)
        var time = t0
        for grade in [Grade.easy, .easy, .easy, .hard, .hard, .hard] {
            time += (state.interval ?? 1) * day
            state = sm2.next(after: state, grade: grade, at: time)
        }
        #expect(state.ease == 2.5)
    }

    @Test func intervalsStopAtTheMaximum() throws {
        // 80 × 2.5 = 200 → maximum 100
        let settings = try SchedulerSettings(scheduler: .sm2, maximumInterval: 100, enableFuzzing: false)
        let state = SM2(settings: settings).next(
            after: reviewState(interval: 80, ease: 2.5), grade: .good, at: t0 + 80 * day)
        #expect(state.interval == 100)
    }

    // MARK: Lapses and relearning

    @Test func lapseGoesToRelearningWithOneDayAndLowerEase() {
        // again in review: lapses 0 → 1, ease 2.5 − 0.2 = 2.3, interval max(1, 10 × 0) = 1, step 0 due in 10m
        let state = sm2.next(after: reviewState(interval: 10, ease: 2.5), grade: .again, at: t0 + 10 * day)
        #expect(state.phase == .relearning)
        #expect(state.step == 0)
        #expect(state.lapses == 1)
        #expect(state.ease == 2.3)
        #expect(state.interval == 1)
        #expect(state.due == t0 + 10 * day + 10 * minute)
    }

    @Test func relearningGoodReturnsToReviewWithTheLapseInterval() {
        // after the 10m step, good → review, 1 d
        let lapsed = sm2.next(after: reviewState(interval: 10, ease: 2.5), grade: .again, at: t0 + 10 * day)
        let back = t0 + 10 * day + 10 * minute
        let state = sm2.next(after: lapsed, grade: .good, at: back)
        #expect(state.phase == .review)
        #expect(state.interval == 1)
        #expect(state.due == back + day)
        #expect(state.ease == 2.3)
    }

    @Test func relearningEasyAddsADay() {
        // easy in relearning → review, 1 + 1 = 2 d
        let lapsed = sm2.next(after: reviewState(interval: 10, ease: 2.5), grade: .again, at: t0 + 10 * day)
        let state = sm2.next(after: lapsed, grade: .easy, at: t0 + 10 * day + 10 * minute)
        #expect(state.interval == 2)
    }

    @Test func relearningHardOnALoneStepWaitsOneAndAHalfSteps() {
        // relearning steps [10m]: hard → 600 × 1.5 = 900 s, still relearning
        let lapsed = sm2.next(after: reviewState(interval: 10, ease: 2.5), grade: .again, at: t0 + 10 * day)
        let at = t0 + 10 * day + 10 * minute
        let state = sm2.next(after: lapsed, grade: .hard, at: at)
        #expect(state.phase == .relearning)
        #expect(state.due == at + 900)
    }

    @Test func relearningAgainNeitherCountsALapseNorLowersEase() {
        let lapsed = sm2.next(after: reviewState(interval: 10, ease: 2.5), grade: .again, at: t0 + 10 * day)
        let state = sm2.next(after: lapsed, grade: .again, at: t0 + 10 * day + 10 * minute)
        #expect(state.lapses == 1)
        #expect(state.ease == 2.3)
        #expect(state.step == 0)
    }

    @Test func lapseKeepsAFractionWhenTheNewIntervalMultiplierIsSet() throws {
        // multiplier 0.5: 10 × 0.5 = 5 d
        var knobs = SM2Settings.anki
        knobs.newIntervalMultiplier = 0.5
        let settings = try SchedulerSettings(scheduler: .sm2, enableFuzzing: false, sm2: knobs)
        let state = SM2(settings: settings).next(
            after: reviewState(interval: 10, ease: 2.5), grade: .again, at: t0 + 10 * day)
        #expect(state.interval == 5)
    }

    @Test func lapseWithoutRelearningStepsStaysInReview() throws {
        let settings = try SchedulerSettings(scheduler: .sm2, relearningSteps: [], enableFuzzing: false)
        let state = SM2(settings: settings).next(
            after: reviewState(interval: 10, ease: 2.5), grade: .again, at: t0 + 10 * day)
        #expect(state.phase == .review)
        #expect(state.due == t0 + 11 * day)
    }

    // MARK: Leeches

    @Test func eighthLapseMakesALeech() {
        // lapses 7 → again → 8 = Anki's threshold
        let seventh = reviewState(interval: 1, ease: 1.3, lapses: 7)
        #expect(!seventh.isLeech())
        let eighth = sm2.next(after: seventh, grade: .again, at: t0 + day)
        #expect(eighth.lapses == 8)
        #expect(eighth.isLeech())
    }

    @Test(arguments: [(7, false), (8, true), (9, false), (11, false), (12, true), (16, true)])
    func leechIsFlaggedAtTheThresholdAndEveryHalfThresholdAfter(lapses: Int, flagged: Bool) {
        #expect(MemoryState.isLeechMilestone(lapses: lapses) == flagged)
    }

    @Test func aWholeHistoryReplaysThroughTheScheduler() {
        // good (→ 10m), good (graduate, 1 d), good 1 d later (1 × 2.5 = 2.5 → 3 d), again 3 d later
        let events = [
            review("a", 0, .good), review("b", 10 * minute, .good), review("c", 10 * minute + day, .good),
            review("d", 10 * minute + 4 * day, .again),
        ]
        let state = Scheduler.replay(events, entryID: "deck/word", settings: .sm2Unfuzzed)
        #expect(state?.phase == .relearning)
        #expect(state?.lapses == 1)
        #expect(state?.ease == 2.3)
        #expect(state?.interval == 1)
        let states = Scheduler(settings: .sm2Unfuzzed).history(events, entryID: "deck/word")
        #expect(states.map(\.interval) == [0, 1, 3, 1])
    }
}
