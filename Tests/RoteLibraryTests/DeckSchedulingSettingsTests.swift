import Foundation
import Launch
import RoteLibrary
import RoteModel
import RoteStore
import Scheduling
import StudyData
import TestSupport
import Testing

/// Issue #37 items 1 and 4: retention, maximum interval, steps and the leech rule per deck,
/// with the learner's overrides per deck, and a leech suspended when its deck says so.
@Suite struct DeckSchedulingSettingsTests {
    static func word(_ name: String) -> String {
        "word: \(name)\npos: noun\ntranslation: t\nforms: {base: \(name)}\nrank: 10\n"
    }

    /// Two decks holding the same word; `exam` wants 0.95 and suspends a leech at 1 lapse,
    /// `trivia` wants 0.80 and only tags it.
    static func library(profileExtra: String = "") async throws -> (TemporaryDirectory, Library) {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "rote.yaml": "format: 1\ndefault_user: ana\ndecks: [exam, trivia]\n",
                "corpus/exam/deck.yaml":
                    "kind: vocabulary\ntitle: Exam\nversion: 1.0.0\ndesired_retention: 0.95\nleech_threshold: 1\nleech_action: suspend\n",
                "corpus/trivia/deck.yaml":
                    "kind: vocabulary\ntitle: Trivia\nversion: 1.0.0\ndesired_retention: 0.8\nleech_threshold: 1\n",
                "corpus/exam/cell.yaml": word("cell"),
                "corpus/trivia/cell.yaml": word("cell"),
                "profiles/ana/profile.yaml":
                    "user: ana\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nsettings:\n  fuzz: false\n"
                    + profileExtra,
            ])
        return (directory, try Library(root: directory.url, user: "ana"))
    }

    /// Good, good (out of learning), then good three days later: the same answers in each deck.
    static func answer(_ library: Library, _ id: String, start: Date, grades: [Grade] = [.good, .good, .good])
        throws -> ProgressFile?
    {
        let offsets: [TimeInterval] = [0, 600, 3 * 86_400, 10 * 86_400, 20 * 86_400]
        var last: ProgressFile?
        for (grade, offset) in zip(grades, offsets) {
            let recorded = try library.recordReview(
                of: try library.entry(named: id), grade: grade, ms: 2000, reviewID: nil, now: start + offset)
            if case let .recorded(file) = recorded.outcome { last = file }
        }
        return last
    }

    @Test func twoDecksWithDifferentRetentionsGiveDifferentIntervalsAfterTheSameAnswers() async throws {
        let (directory, library) = try await Self.library()
        defer { withExtendedLifetime(directory) {} }
        let start = Date() - 30 * 86_400
        let exam = try #require(try Self.answer(library, "exam/cell", start: start)?.state)
        let trivia = try #require(try Self.answer(library, "trivia/cell", start: start)?.state)
        #expect(exam.stability == trivia.stability, "memory is the same; only the interval it is asked for differs")
        let examDays = exam.due.timeIntervalSince(try #require(exam.lastReview)) / 86_400
        let triviaDays = trivia.due.timeIntervalSince(try #require(trivia.lastReview)) / 86_400
        #expect(examDays < triviaDays / 2, "0.95 asks back much sooner than 0.80: \(examDays) vs \(triviaDays) days")
        let examSettings = SchedulerSettings.forDeck(library.decks["exam"], profile: library.profile, deckName: "exam")
        #expect(examSettings.desiredRetention == 0.95)
    }

    @Test func theLearnersChoiceForADeckWinsOverTheirOwnWhichWinsOverTheDecks() async throws {
        let (directory, library) = try await Self.library(
            profileExtra:
                "  desired_retention: 0.85\n  maximum_interval: 400\ndeck_settings:\n  exam: {desired_retention: 0.97, leech_action: tag}\n"
        )
        defer { withExtendedLifetime(directory) {} }
        let exam = DeckSchedule(library.decks["exam"], profile: library.profile, deckName: "exam")
        #expect(exam.settings.desiredRetention == 0.97)
        #expect(exam.retention == .learnerForDeck)
        #expect(exam.settings.maximumInterval == 400)
        #expect(exam.maximumInterval == .learner)
        #expect(exam.settings.leechThreshold == 1, "the deck's threshold stays; only the action is overridden")
        #expect(exam.settings.leechAction == .tag)
        #expect(exam.leech == .learnerForDeck)
        #expect(exam.learningSteps == .standard)
        let trivia = DeckSchedule(library.decks["trivia"], profile: library.profile, deckName: "trivia")
        #expect(trivia.settings.desiredRetention == 0.85, "the learner's own retention is over the deck's 0.80")
        #expect(trivia.retention == .learner)
        #expect(trivia.leech == .deck)
        #expect(trivia.parameters == .standard)
    }

    @Test func aChangedRetentionReplaysTheWholeHistoryAtTheNextAnswer() async throws {
        let (directory, library) = try await Self.library()
        defer { withExtendedLifetime(directory) {} }
        let start = Date() - 30 * 86_400
        _ = try Self.answer(library, "trivia/cell", start: start, grades: [.good, .good])
        let path = "profiles/ana/progress/trivia/cell.yaml"
        let bytes = try Data(contentsOf: directory.url.appending(path: path))
        directory.write(
            "corpus/trivia/deck.yaml",
            "kind: vocabulary\ntitle: Trivia\nversion: 1.0.0\ndesired_retention: 0.95\nleech_threshold: 1\n")
        let reopened = try Library(root: directory.url, user: "ana")
        #expect(try Data(contentsOf: directory.url.appending(path: path)) == bytes, "opening rewrites nothing")
        let next = try #require(try Self.answer(reopened, "trivia/cell", start: start + 3 * 86_400, grades: [.good]))
        let file = try #require(ProgressFile.decode(bytes, path: path).0)
        var settings = SchedulerSettings.forDeck(
            reopened.decks["trivia"], profile: reopened.profile, deckName: "trivia")
        #expect(settings.desiredRetention == 0.95)
        #expect(next.state == Scheduler.replay(next.reviews, entryID: "trivia/cell", settings: settings))
        settings = try SchedulerSettings(desiredRetention: 0.8, enableFuzzing: false, leechThreshold: 1)
        #expect(
            next.state != Scheduler.replay(next.reviews, entryID: "trivia/cell", settings: settings),
            "the old retention would schedule it otherwise")
        #expect(file.reviews.count == 2)
    }

    @Test func aLeechIsSuspendedOnTheLapseThatCrossesItsDecksThreshold() async throws {
        let (directory, library) = try await Self.library()
        defer { withExtendedLifetime(directory) {} }
        let start = Date() - 30 * 86_400
        _ = try Self.answer(library, "exam/cell", start: start, grades: [.good, .good])
        _ = try Self.answer(library, "trivia/cell", start: start, grades: [.good, .good])
        let lapse = start + 5 * 86_400
        let exam = try library.recordReview(
            of: try library.entry(named: "exam/cell"), grade: .again, ms: 3000, reviewID: nil, now: lapse)
        #expect(exam.becameLeech)
        guard case let .recorded(examFile) = exam.outcome else {
            Issue.record("not recorded")
            return
        }
        #expect(examFile.status == .suspended, "exam's leech_action is suspend")
        #expect(examFile.statusAt == Timestamp.wholeSeconds(lapse))
        let trivia = try library.recordReview(
            of: try library.entry(named: "trivia/cell"), grade: .again, ms: 3000, reviewID: nil, now: lapse)
        #expect(trivia.becameLeech)
        guard case let .recorded(triviaFile) = trivia.outcome else {
            Issue.record("not recorded")
            return
        }
        #expect(triviaFile.status == .active, "trivia only tags its leeches")
        let reopened = try Library(root: directory.url, user: "ana")
        let leeches = try reopened.leeches(deck: nil)
        #expect(leeches.map(\.id) == ["exam/cell", "trivia/cell"])
        #expect(leeches.map(\.suspended) == [true, false])
        #expect(try reopened.leeches(deck: "trivia").map(\.id) == ["trivia/cell"])
    }

    @Test func aDecksBadSchedulingValuesAreReportedAtTheirLines() {
        let text =
            "kind: vocabulary\ntitle: T\nversion: 1.0.0\ndesired_retention: 1.2\nmaximum_interval: 0\nleech_threshold: -1\nleech_action: bury\n"
        let (deck, diagnostics) = DeckManifest.decode(Data(text.utf8), path: "corpus/t/deck.yaml")
        #expect(deck?.scheduling == SchedulingChoices(), "no bad value is kept")
        let lines = diagnostics.map(\.description)
        #expect(
            lines.contains { $0.hasPrefix("corpus/t/deck.yaml:4: error: desired_retention 1.2 is outside 0.70…0.99") })
        #expect(
            lines.contains {
                $0.hasPrefix("corpus/t/deck.yaml:5: error: maximum_interval is 0, but it must be at least 1")
            })
        #expect(lines.contains { $0.hasPrefix("corpus/t/deck.yaml:6: error: leech_threshold is -1") })
        #expect(
            lines.contains {
                $0.hasPrefix("corpus/t/deck.yaml:7: error: leech_action 'bury' is not one of: tag, suspend")
            })
    }

    @Test func deckSettingsRoundTripThroughTheProfileAndTheDeck() {
        var profile = Profile(user: "ana")
        profile.settings.scheduling.leechAction = .suspend
        profile.setSchedulingChoices(
            SchedulingChoices(desiredRetention: 0.93, learningSteps: [60, 1800], leechThreshold: 5), for: "med")
        let text = profile.render()
        #expect(
            text.contains(
                "deck_settings:\n  med: {desired_retention: 0.93, learning_steps: [1, 30], leech_threshold: 5}"))
        let (read, diagnostics) = Profile.decode(Data(text.utf8), path: "profiles/ana/profile.yaml")
        #expect(diagnostics.isEmpty)
        #expect(read == profile)
        var deck = DeckManifest(kind: .vocabulary, title: "Med")
        deck.scheduling = SchedulingChoices(desiredRetention: 0.95, maximumInterval: 365, leechAction: .suspend)
        let (readDeck, deckDiagnostics) = DeckManifest.decode(Data(deck.render().utf8), path: "corpus/med/deck.yaml")
        #expect(deckDiagnostics.isEmpty)
        #expect(readDeck?.scheduling == deck.scheduling)
    }
}
