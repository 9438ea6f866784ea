import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import Scheduling
import Study
import TestSupport
import Testing

/// Issue #37 item 3: `rote study --practice` studies entries without moving their schedule,
/// and `--review-ahead N` reviews entries not yet due for real, as early reviews.
@Suite struct PracticeTests {
    /// A learner who answers every question with its first choice and every grade with
    /// `grade`, for `replies` prompts, then stops.
    final class GradingConsole: StudyConsole {
        var replies: Int
        let grade: String
        let isInteractive = false

        init(grade: String, replies: Int = 40) {
            self.grade = grade
            self.replies = replies
        }

        /// With `knowsRun`, the right answer to each of the fixture's questions about `run`.
        var knowsRun = false
        private var shown = ""
        private var choices: [String] = []

        func beginCard(done: Int, planned: Int, title: String) {}
        func show(_ text: String, style: TextStyle) { shown += text + "\n" }
        func showChoices(_ choices: [String]) { self.choices = choices }
        func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply? {
            guard replies > 0 else { return nil }
            replies -= 1
            defer { shown = "" }
            switch kind {
            case .grade: return .answer(grade)
            case .reveal: return .answer("")
            case .text: return .answer("x")
            case .yesNo: return .answer("n")
            case .order(let count): return .answer((1...max(1, count)).map(String.init).joined(separator: " "))
            case .choice:
                guard knowsRun else { return .answer("1") }
                // run's translation, or the form its sentence takes.
                let right = ["يجري", shown.contains("They") ? "ran" : "run"]
                let index = choices.firstIndex { right.contains($0) } ?? 0
                return .answer(String(index + 1))
            }
        }
    }

    static func progress(_ directory: TemporaryDirectory, _ entry: String) throws -> ProgressFile {
        let path = "profiles/ana/progress/\(entry).yaml"
        let data = try #require(FileManager.default.contents(atPath: directory.url.appending(path: path).path))
        return try #require(ProgressFile.decode(data, path: path).0)
    }

    static func scheduler(_ library: Library) -> Scheduler {
        Scheduler(settings: .forDeck(library.decks["words"], profile: library.profile, deckName: "words"))
    }

    /// Runs the session `start` holds to its end with `console`; returns what it saved.
    /// `typed`: every answer is typed, so the console's `x` is wrong whatever order choices
    /// would have come in.
    static func run(_ start: StudyStart, _ console: GradingConsole, typed: Bool = false) throws -> SessionFile? {
        defer { start.close() }
        let session = try start.session(typed: typed)
        return try StudyConsoleDriver(console: console).run(session)
    }

    @Test func aPracticeSessionLeavesTheDueDateAndMemoryAsTheyWere() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let library = try Library(root: directory.url, user: "ana")
        // A real review first, so the stored state is the replay of the history.
        _ = try library.recordReview(
            of: try library.entry(named: "words/run"), grade: .good, ms: 1_200, reviewID: "real-3",
            now: Date().addingTimeInterval(-60))
        let before = try Self.progress(directory, "words/run")
        let state = try #require(before.state)

        let reopened = try Library(root: directory.url, user: "ana")
        let start = try reopened.startStudy(
            decks: ["words"], limits: StudyLimits(), custom: .practice(.init()))
        #expect(start.practice)
        #expect(start.plan.new.isEmpty, "practice never brings new entries")
        #expect(start.plan.due.map(\.id) == ["words/run"], "the one studied word of the deck")
        let saved = try #require(try Self.run(start, GradingConsole(grade: "again"), typed: true))
        #expect(saved.again > 0, "the learner forgot it in practice")

        let after = try Self.progress(directory, "words/run")
        let practised = after.reviews.filter(\.practice)
        #expect(!practised.isEmpty && practised.allSatisfy { $0.grade == .again })
        #expect(after.reviews.filter { !$0.practice }.map(\.id) == before.reviews.map(\.id))
        #expect(after.state == state, "state and due date unchanged by the practice answers")
        #expect(after.state?.due == state.due && after.state?.lapses == state.lapses)
        #expect(Self.scheduler(library).replay(after.scheduledReviews, entryID: "words/run") == state)

        // Stats count the practice answers as practice, not as reviews toward the goal.
        let final = try Library(root: directory.url, user: "ana")
        let stats = try final.stats()
        #expect(stats.practiceToday == practised.count && stats.practiceReviews == practised.count)
        #expect(stats.reviewsToday == 1, "the real review of a minute ago; practice is not counted")
        // The plan's daily counts leave practice out: no review room is taken by it.
        let plan = try final.startStudy(decks: ["words"], limits: StudyLimits(), planOnly: true)
        #expect(plan.plan.reviewedToday == 1)
        // A second practice session finds it again: practice did not push it anywhere.
        let again = try final.startStudy(
            decks: ["words"], limits: StudyLimits(), planOnly: true,
            custom: .practice(.init(forgottenToday: true)))
        #expect(again.plan.due.map(\.id) == ["words/run"], "forgotten today, in practice")
    }

    /// `--due-within` and `--lapsed-since` choose among studied entries; together an entry
    /// must match both.
    @Test func theSelectorsChooseAmongStudiedEntries() async throws {
        let now = Date()
        func at(_ days: Double) -> Date { Timestamp.wholeSeconds(now.addingTimeInterval(days * 86_400)) }
        let scheduler = Scheduler(settings: .default)
        // words/run: learned, then lapsed 5 days ago; words/go: learned, never lapsed.
        let lapsed = [
            ReviewEvent(id: "l1", at: at(-40), grade: .good), ReviewEvent(id: "l2", at: at(-30), grade: .good),
            ReviewEvent(id: "l3", at: at(-5), grade: .again),
        ]
        let steady = [
            ReviewEvent(id: "s1", at: at(-40), grade: .good), ReviewEvent(id: "s2", at: at(-30), grade: .good),
        ]
        func file(_ entry: String, _ reviews: [ReviewEvent]) -> String {
            ProgressFile(entry: entry, state: scheduler.replay(reviews, entryID: entry), reviews: reviews).render()
        }
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "profiles/ana/progress/words/run.yaml": file("words/run", lapsed),
                "corpus/words/go.yaml":
                    "word: go\npos: verb\ntranslation: يذهب\nforms: {base: go}\nrank: 30\nexamples:\n  - en: I {go} home.\n    ar: أنا {أذهب} إلى البيت.\n    form: base\n",
                "profiles/ana/progress/words/go.yaml": file("words/go", steady),
            ])
        let library = try Library(root: directory.url, user: "ana")
        func chosen(_ filter: CustomStudy.PracticeFilter) throws -> [String] {
            try library.startStudy(decks: ["words"], limits: StudyLimits(), planOnly: true, custom: .practice(filter))
                .plan.due.map(\.id).sorted()
        }
        #expect(try chosen(.init()) == ["words/go", "words/run"])
        #expect(try chosen(.init(lapsedSince: at(-10))) == ["words/run"])
        #expect(try chosen(.init(lapsedSince: at(-3))) == [])
        #expect(try chosen(.init(forgottenToday: true)) == [])
        let dueRun = try #require(scheduler.replay(lapsed, entryID: "words/run")?.due)
        let dueGo = try #require(scheduler.replay(steady, entryID: "words/go")?.due)
        let days = Int((max(dueRun, dueGo).timeIntervalSince(now) / 86_400).rounded(.up))
        #expect(try chosen(.init(dueWithinDays: days)) == ["words/go", "words/run"])
        #expect(try chosen(.init(dueWithinDays: days, lapsedSince: at(-10))) == ["words/run"])
    }

    /// The same learner with and without practice answers added: the optimiser reads the same
    /// histories and fits the same parameters.
    @Test func theOptimiserIgnoresPracticeReviews() async throws {
        var random = SeededGenerator(seed: 37)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        var plain: [String: String] = [:]
        var practised: [String: String] = [:]
        for n in 0..<200 {
            let entry = "words/w\(n)"
            var reviews: [ReviewEvent] = []
            var practice: [ReviewEvent] = []
            var day = 0.0
            for k in 0..<7 {
                day += Double(1 + Int(random.next() % 9)) * Double(k + 1)
                let grade = Grade(rawValue: random.next() % 5 == 0 ? 1 : Int(2 + random.next() % 3))!
                let at = start.addingTimeInterval(day * 86_400)
                reviews.append(ReviewEvent(id: "\(entry)-\(k)", at: at, grade: grade, ms: 2_000 + k * 100))
                // Cramming between reviews: forgotten, then recalled at once.
                practice.append(
                    ReviewEvent(
                        id: "\(entry)-p\(k)", at: at.addingTimeInterval(3 * 3_600), grade: .again, ms: 9_000,
                        practice: true))
                practice.append(
                    ReviewEvent(
                        id: "\(entry)-q\(k)", at: at.addingTimeInterval(3 * 3_700), grade: .easy, ms: 500,
                        practice: true))
            }
            let path = "profiles/ana/progress/\(entry).yaml"
            plain[path] = ProgressFile(entry: entry, reviews: reviews).render()
            practised[path] = ProgressFile(
                entry: entry, reviews: (reviews + practice).sorted(by: ReviewEvent.replayOrder)
            ).render()
        }
        func fit(_ overrides: [String: String]) async throws -> (Optimization, [[ReviewEvent]]) {
            let directory = TemporaryDirectory()
            await FixtureLibrary.write(into: directory, overrides: overrides)
            let library = try Library(root: directory.url, user: "ana")
            let histories = FSRSFitting.histories(
                library: try library.learnerForFitting(deck: nil), user: "ana", deck: nil)
            return (try library.optimize(deck: nil, configuration: .init(), dryRun: true), histories)
        }
        let (without, plainHistories) = try await fit(plain)
        let (with, practisedHistories) = try await fit(practised)
        #expect(plainHistories.count == 201, "200 words and words/run")
        #expect(practisedHistories == plainHistories, "no practice review reaches the fit")
        #expect(practisedHistories.joined().allSatisfy { !$0.practice })
        guard case .fitted = without.outcome else {
            Issue.record("expected a fit, got \(without.outcome)")
            return
        }
        #expect(with.outcome == without.outcome, "identical parameters")
        #expect(with.data.itemCount == without.data.itemCount)
    }

    @Test func reviewAheadGivesARealEarlyReviewOfACardDueInThreeDays() async throws {
        let now = Date()
        func at(_ days: Double) -> Date { Timestamp.wholeSeconds(now.addingTimeInterval(days * 86_400)) }
        let scheduler = Scheduler(settings: .default)
        // A history whose next review is due between 2 and 4 days from now.
        var history: [ReviewEvent] = []
        for daysAgo in 1...60 {
            let candidate = [
                ReviewEvent(id: "e1", at: at(-Double(daysAgo) - 3), grade: .good),
                ReviewEvent(id: "e2", at: at(-Double(daysAgo)), grade: .good),
            ]
            if let due = scheduler.replay(candidate, entryID: "words/run")?.due,
                (2 * 86_400...4 * 86_400).contains(due.timeIntervalSince(now))
            {
                history = candidate
                break
            }
        }
        try #require(!history.isEmpty)
        let state = try #require(scheduler.replay(history, entryID: "words/run"))
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "profiles/ana/progress/words/run.yaml":
                    ProgressFile(entry: "words/run", state: state, reviews: history).render()
            ])
        let library = try Library(root: directory.url, user: "ana")
        #expect(Self.scheduler(library).settings == scheduler.settings)
        let ordinary = try library.startStudy(decks: ["words"], limits: StudyLimits(new: 0), planOnly: true)
        #expect(ordinary.plan.due.isEmpty, "not due yet")
        let tooNear = try library.startStudy(
            decks: ["words"], limits: StudyLimits(), planOnly: true, custom: .reviewAhead(days: 1))
        #expect(tooNear.plan.due.isEmpty, "due in more than a day")
        let start = try library.startStudy(decks: ["words"], limits: StudyLimits(), custom: .reviewAhead(days: 7))
        #expect(!start.practice)
        #expect(start.plan.due.map(\.id) == ["words/run"])
        let console = GradingConsole(grade: "good")
        console.knowsRun = true
        let saved = try #require(try Self.run(start, console))
        // Answered right, and fast: the session grades it good or easy.
        #expect(saved.good + saved.easy == 1)

        let after = try Self.progress(directory, "words/run")
        let added = after.reviews.filter { !history.map(\.id).contains($0.id) }
        #expect(added.count == 1 && added.allSatisfy { !$0.practice && $0.grade > .hard }, "one real review: \(added)")
        let review = try #require(added.first)
        #expect(review.at < state.due, "before it was due")
        // The new state is the replay with the early review: FSRS from the days elapsed, so a
        // smaller stability than the same answer on the due date would give.
        let replayed = try #require(scheduler.replay(after.reviews, entryID: "words/run"))
        #expect(after.state == replayed)
        #expect(replayed.due != state.due && replayed.reps == state.reps + 1)
        let onTime = try #require(
            scheduler.replay(
                history + [ReviewEvent(id: review.id, at: state.due, grade: review.grade)], entryID: "words/run"))
        #expect(try #require(replayed.stability) < (try #require(onTime.stability)))
        #expect(replayed.due > review.at)
    }
}
