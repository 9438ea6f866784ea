import Foundation
import RoteModel
import Scheduling
import Testing

/// confidence = round(100 × R × (0.7 × min(1, S/30) + 0.3 × passes/10)), levels by the seed.
@Suite struct MasteryTests {
    let scheduler = Scheduler(settings: .unfuzzed)

    @Test(arguments: [
        (0, MasteryLevel.starting), (29, .starting), (30, .learning), (59, .learning),
        (60, .gettingThere), (79, .gettingThere), (80, .strong), (89, .strong), (90, .mastered),
        (100, .mastered), (-5, .starting), (150, .mastered),
    ])
    func levelsFollowTheSeedBands(confidence: Int, level: MasteryLevel) {
        #expect(MasteryLevel(confidence: confidence) == level)
        #expect(Mastery(confidence: confidence).level == level)
    }

    @Test func levelNamesAreTheSeedNames() {
        #expect(
            MasteryLevel.allCases.map(\.rawValue) == ["starting", "learning", "getting_there", "strong", "mastered"])
        #expect(MasteryLevel.starting < .mastered)
    }

    @Test func aNewEntryHasNoConfidence() {
        let mastery = Mastery(events: [], entryID: "x", at: t0, scheduler: scheduler)
        #expect(mastery.confidence == 0)
        #expect(mastery.level == .starting)
    }

    @Test func oneGoodAnswerIsStarting() {
        // R = 1, S = 2.3065: 100 × (0.7 × 2.3065/30 + 0.3 × 1/10) = 100 × (0.0538 + 0.03) = 8.4 → 8
        let mastery = Mastery(events: [review("a", 0, .good)], entryID: "x", at: t0, scheduler: scheduler)
        #expect(mastery.confidence == 8)
        #expect(mastery.level == .starting)
    }

    @Test func aMonthOfStabilityAndTenPassesIsMasteredWhenReviewedOnTime() {
        // R = 1 at the last review, S ≥ 30, 10 passes: 100 × (0.7 + 0.3) = 100
        let state = MemoryState(phase: .review, stability: 45, difficulty: 5, due: t0 + 45 * day, lastReview: t0)
        let grades = [Grade](repeating: .good, count: 10)
        let mastery = Mastery(state: state, recentGrades: grades, at: t0, scheduler: scheduler)
        #expect(mastery.confidence == 100)
        #expect(mastery.level == .mastered)
    }

    @Test func confidenceFadesWhileAnEntryIsOverdue() {
        // S = 30, R(30 d) = 0.9: 100 × 0.9 × 1 = 90; R(120 d) = (1 + 0.9805 × 4)^−0.1542 ≈ 0.782 → 78
        let state = MemoryState(phase: .review, stability: 30, difficulty: 5, due: t0 + 30 * day, lastReview: t0)
        let grades = [Grade](repeating: .good, count: 10)
        let onTime = Mastery(state: state, recentGrades: grades, at: t0 + 30 * day, scheduler: scheduler)
        let late = Mastery(state: state, recentGrades: grades, at: t0 + 120 * day, scheduler: scheduler)
        #expect(onTime.confidence == 90)
        #expect(late.confidence == 78)
        #expect(late.level == .gettingThere)
    }

    @Test func recentFailuresLowerConfidence() {
        // S = 15: 0.7 × 0.5 = 0.35; 10 passes → 0.35 + 0.3 = 65; 7 passes → 0.35 + 0.21 = 56
        let state = MemoryState(phase: .review, stability: 15, difficulty: 5, due: t0 + 15 * day, lastReview: t0)
        let clean = [Grade](repeating: .good, count: 10)
        let shaky: [Grade] = [.good, .again, .good, .good, .again, .good, .hard, .again, .good, .easy]
        #expect(Mastery(state: state, recentGrades: clean, at: t0, scheduler: scheduler).confidence == 65)
        #expect(Mastery(state: state, recentGrades: shaky, at: t0, scheduler: scheduler).confidence == 56)
    }

    @Test func onlyTheLastTenGradesCount() {
        let state = MemoryState(phase: .review, stability: 15, difficulty: 5, due: t0 + 15 * day, lastReview: t0)
        let old = [Grade](repeating: .again, count: 10) + [Grade](repeating: .good, count: 10)
        let recent = [Grade](repeating: .good, count: 10)
        #expect(
            Mastery(state: state, recentGrades: old, at: t0, scheduler: scheduler)
                == Mastery(state: state, recentGrades: recent, at: t0, scheduler: scheduler))
    }

    @Test func reviewsAfterNowAreIgnored() {
        let events = [review("a", 0, .good), review("b", 10 * day, .again)]
        let before = Mastery(events: events, entryID: "x", at: t0 + day, scheduler: scheduler)
        let onlyFirst = Mastery(events: [events[0]], entryID: "x", at: t0 + day, scheduler: scheduler)
        #expect(before == onlyFirst)
    }

    @Test func sm2EntriesUseTheirInterval() {
        // interval 30 d stands for stability: at the last review 100 × (0.7 + 0.3) = 100
        let state = MemoryState(phase: .review, ease: 2.5, interval: 30, due: t0 + 30 * day, lastReview: t0)
        let mastery = Mastery(
            state: state, recentGrades: [Grade](repeating: .good, count: 10), at: t0,
            scheduler: Scheduler(settings: .sm2Unfuzzed))
        #expect(mastery.confidence == 100)
    }
}
