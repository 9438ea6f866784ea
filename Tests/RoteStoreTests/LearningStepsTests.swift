import Foundation
import RoteModel
import Scheduling
import Testing

@testable import RoteStore

/// Learning and relearning steps as settings (#22): a deck's own, a learner's over it.
@Suite struct LearningStepsTests {
    static func deck(_ extra: String) -> DeckManifest? {
        DeckManifest.decode("kind: vocabulary\ntitle: T\nversion: 1.0.0\n" + extra, path: "corpus/t/deck.yaml").0
    }

    static func profile(_ settings: String) -> Profile? {
        Profile.decode("user: ana\nsettings:\n" + settings, path: "profiles/ana/profile.yaml").0
    }

    @Test func theDecksStepsAreReadInMinutesAndUsed() throws {
        let deck = try #require(Self.deck("learning_steps: [0, 10, 45]\nrelearning_steps: [5]\n"))
        #expect(deck.learningSteps == [0, 600, 2700] && deck.relearningSteps == [300])
        let settings = SchedulerSettings.forDeck(deck, profile: nil)
        #expect(settings.learningSteps == [0, 600, 2700] && settings.relearningSteps == [300])
        #expect(deck.render().contains("learning_steps: [0, 10, 45]"), "written back in minutes")
        #expect(
            SchedulerSettings.forDeck(Self.deck(""), profile: nil).learningSteps
                == SchedulerSettings.defaultLearningSteps)
    }

    @Test func theLearnersStepsTakeThePlaceOfTheDecks() throws {
        let deck = try #require(Self.deck("learning_steps: [0, 10, 45]\n"))
        let profile = try #require(Self.profile("  learning_steps: [1, 20]\n"))
        #expect(profile.settings.learningSteps == [60, 1200])
        #expect(SchedulerSettings.forDeck(deck, profile: profile).learningSteps == [60, 1200])
        #expect(profile.render().contains("learning_steps: [1, 20]"))
    }

    @Test func aStepBelowZeroIsReportedWithItsLine() {
        let (deck, problems) = DeckManifest.decode(
            "kind: vocabulary\ntitle: T\nversion: 1.0.0\nlearning_steps: [10, -1]\n", path: "corpus/t/deck.yaml")
        #expect(deck?.learningSteps == nil)
        #expect(
            problems.contains { $0.line == 4 && $0.message.contains("'learning_steps[2]' must be 0 or more minutes") },
            "\(problems)")
    }

    /// Seed 000: again at once, then 10 minutes, then 45, then review.
    @Test func theSeedsStepsScheduleZeroTenFortyFive() throws {
        let settings = try SchedulerSettings(learningSteps: [0, 600, 2700])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func due(_ grades: [Grade]) -> TimeInterval? {
            let events = grades.enumerated().map { ReviewEvent(id: "r\($0.offset)", at: start, grade: $0.element) }
            return Scheduler.replay(events, entryID: "t/x", settings: settings)?.due.timeIntervalSince(start)
        }
        #expect(due([.again]) == 0)
        #expect(due([.good]) == 600)
        #expect(due([.good, .good]) == 2700)
        #expect((due([.good, .good, .good]) ?? 0) >= 86_400, "then it graduates")
    }
}
