import Foundation
import RoteModel
import TestSupport
import Testing

@testable import RoteStore
@testable import Study

@Suite struct SessionPlannerTests {
    static let now = Timestamp.parse("2026-11-10T12:00:00Z")!
    static let utc = TimeZone(identifier: "UTC")!

    func planner(_ overrides: [String: String] = [:]) async throws -> SessionPlanner {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory, overrides: overrides, git: false)
        let library = try LibraryLoader().load(directory.url)
        return SessionPlanner(library: library, index: LibraryIndex(library: library, user: "ana"))
    }

    static func progress(
        _ entry: String, due: String, stability: Double = 3, phase: String = "review",
        reviewedAt: String = "2026-11-01T09:00:00Z", status: String = "active"
    ) -> String {
        """
        entry: \(entry)
        status: \(status)
        state: {phase: \(phase), stability: \(stability), difficulty: 5.0, due: \(due), reps: 1, lapses: 0, last_review: \(reviewedAt)}
        reviews:
          - {id: r-\(entry.replacingOccurrences(of: "/", with: "-")), at: \(reviewedAt), grade: good}

        """
    }

    @Test func dueFirstByLowestRecallThenNewInDeckOrder() async throws {
        let planner = try await planner([
            "profiles/ana/progress/words/run.yaml": Self.progress(
                "words/run", due: "2026-11-05T09:00:00Z", stability: 3),
            "profiles/ana/progress/verses/joh-11-35.yaml": Self.progress(
                "verses/joh-11-35", due: "2026-11-08T09:00:00Z", stability: 30),
        ])
        let plan = planner.plan(limits: .init(), now: Self.now, timeZone: Self.utc)
        #expect(plan.due.map(\.id) == ["words/run", "verses/joh-11-35"], "the weaker memory comes first")
        #expect(plan.due[0].retrievability! < plan.due[1].retrievability!)
        #expect(
            plan.new.map(\.id) == [
                "words/go", "letters/l", "maths/arithmetic/addition/order_steps",
                "maths/arithmetic/addition/two_plus_two",
            ])
    }

    static let letterM = """
        glyph: latin-small-m
        character: m
        order: 2
        strokes:
          - [[20, 40], [20, 80]]

        """

    static func memoryAttempt(_ id: String, score: Int) -> String {
        "  - {id: \(id), mode: memory, score: \(score), stroke_order: 90, direction: 90, shape: 90, start: 90, hint_used: false, started_at: 2026-11-09T10:00:00Z, completed_at: 2026-11-09T10:00:05Z, duration_ms: 5000}\n"
    }

    @Test func lockedLettersNeverAppearUntilTwoMemoryPassesUnlockThem() async throws {
        let locked = try await planner(["corpus/letters/m.yaml": Self.letterM])
        #expect(
            locked.plan(decks: ["letters"], limits: .init(), now: Self.now, timeZone: Self.utc).new.map(\.id) == [
                "letters/l"
            ])
        let onePass = try await planner([
            "corpus/letters/m.yaml": Self.letterM,
            "profiles/ana/letters/letters/l.yaml": "letter: letters/l\nattempts:\n" + Self.memoryAttempt("a", score: 85)
                + Self.memoryAttempt("b", score: 70),
        ])
        #expect(onePass.lockedLetters() == ["letters/m"], "one memory score of 80 or more is not enough")
        let unlocked = try await planner([
            "corpus/letters/m.yaml": Self.letterM,
            "profiles/ana/letters/letters/l.yaml": "letter: letters/l\nattempts:\n" + Self.memoryAttempt("a", score: 85)
                + Self.memoryAttempt("b", score: 80),
        ])
        #expect(unlocked.lockedLetters().isEmpty)
        #expect(
            unlocked.plan(decks: ["letters"], limits: .init(), now: Self.now, timeZone: Self.utc).new.map(\.id) == [
                "letters/l", "letters/m",
            ])
    }

    @Test func aPassageStoppedOnTheLadderComesFirstAndFillsTheWorkingSet() async throws {
        let planner = try await planner([
            "profiles/ana/progress/verses/joh-11-35.yaml":
                "entry: verses/joh-11-35\nstatus: active\nladder: {level: cloze2, covered: [], attempts: 3, at: 2026-11-09T10:00:00Z}\n"
        ])
        let plan = planner.plan(limits: .init(workingSet: 1), now: Self.now, timeZone: Self.utc)
        #expect(plan.new.map(\.id) == ["verses/joh-11-35"], "resumed, and the working set of one is full")
    }

    @Test func entriesNotYetDueStayOut() async throws {
        let planner = try await planner([
            "profiles/ana/progress/words/run.yaml": Self.progress("words/run", due: "2026-12-01T09:00:00Z")
        ])
        let plan = planner.plan(limits: .init(), now: Self.now, timeZone: Self.utc)
        #expect(plan.due.isEmpty)
        #expect(!plan.new.contains { $0.id == "words/run" })
    }

    @Test func dailyLimitsCountWhatWasDoneToday() async throws {
        let planner = try await planner([
            "profiles/ana/progress/words/run.yaml": Self.progress(
                "words/run", due: "2026-11-10T11:00:00Z", reviewedAt: "2026-11-10T09:00:00Z"),
            "profiles/ana/progress/verses/joh-11-35.yaml": Self.progress(
                "verses/joh-11-35", due: "2026-11-08T09:00:00Z"),
        ])
        let plan = planner.plan(limits: .init(reviewsPerDay: 2, newPerDay: 2), now: Self.now, timeZone: Self.utc)
        #expect(plan.reviewedToday == 1 && plan.introducedToday == 1)
        #expect(plan.due.count == 1, "one review left of two today")
        #expect(plan.dueDeferred == 1)
        #expect(plan.new.count == 1, "one new entry left of two today")
    }

    @Test func workingSetCapsNewEntries() async throws {
        let planner = try await planner([
            "profiles/ana/progress/words/run.yaml": Self.progress(
                "words/run", due: "2026-12-01T09:00:00Z", phase: "learning")
        ])
        #expect(planner.plan(limits: .init(workingSet: 1), now: Self.now, timeZone: Self.utc).new.isEmpty)
        #expect(planner.plan(limits: .init(workingSet: 3), now: Self.now, timeZone: Self.utc).new.count == 2)
    }

    @Test func ignoredAndSuspendedNeverAppear() async throws {
        let planner = try await planner([
            "profiles/ana/progress/words/run.yaml": Self.progress(
                "words/run", due: "2026-11-05T09:00:00Z", status: "suspended"),
            "profiles/ana/profile.yaml": "user: ana\nignored_words: [go]\n",
        ])
        let plan = planner.plan(decks: ["words"], limits: .init(), now: Self.now, timeZone: Self.utc)
        #expect(plan.isEmpty, "\(plan)")
    }

    @Test func draftsOnlyWhenAskedFor() async throws {
        let question = "corpus/maths/arithmetic/addition/two_plus_two.yaml"
        let planner = try await planner([
            question: FixtureLibrary.files[question]!.replacingOccurrences(
                of: "published: true", with: "published: false")
        ])
        #expect(
            !planner.plan(decks: ["maths"], limits: .init(), now: Self.now, timeZone: Self.utc).new.contains {
                $0.id.hasSuffix("two_plus_two")
            })
        #expect(
            planner.plan(decks: ["maths"], limits: .init(drafts: true), now: Self.now, timeZone: Self.utc).new.contains
            { $0.id.hasSuffix("two_plus_two") })
    }

    @Test func minutesFitTheLearnersPace() async throws {
        let planner = try await planner()
        // No history: 12 s an item, so one minute holds five (all five new entries).
        #expect(
            planner.plan(limits: .init(newPerDay: 50, minutes: 1), now: Self.now, timeZone: Self.utc).new.count == 5)
        #expect(planner.plan(limits: .init(newPerDay: 50, minutes: 0), now: Self.now, timeZone: Self.utc).new.isEmpty)
        #expect(SessionPlanner.secondsPerItem([2000, 4000, 6000]) == 8)
    }

    /// Issue #33 item 3: a session of all decks reaches every deck. New entries are taken
    /// deck by deck in turn, each as often as its `new_shares` share, in study order on ties.
    @Test func newEntriesAreTakenFromEachDeckInTurnByItsShare() {
        let decks = [0, 0, 0, 0, 1, 1, 2]
        let entries = Array(decks.indices)
        #expect(
            SessionPlanner.shared(entries, room: 5, deck: { decks[$0] }, share: { _ in 1 }) == [0, 4, 6, 1, 5],
            "one of each deck in turn")
        #expect(
            SessionPlanner.shared(entries, room: 6, deck: { decks[$0] }, share: { [2, 1, 0][$0] }) == [
                0, 4, 1, 2, 5, 3,
            ],
            "deck 0 twice as often as deck 1, deck 2 never")
        #expect(SessionPlanner.shared(entries, room: 0, deck: { decks[$0] }, share: { _ in 1 }).isEmpty)
    }

    /// A share of 0 keeps a deck out of a session of all decks, never out of its own.
    @Test func aDeckWithShareZeroIsLeftOutUnlessItIsNamed() async throws {
        let planner = try await planner([
            "profiles/ana/profile.yaml": """
            user: ana
            created_at: 2026-11-01T09:00:00Z
            updated_at: 2026-11-01T09:00:00Z
            new_shares:
              words: 0

            """
        ])
        let all = planner.plan(limits: .init(), now: Self.now, timeZone: Self.utc)
        #expect(!all.new.isEmpty)
        #expect(!all.new.contains { $0.deck == "words" }, "\(all.new.map(\.id))")
        let named = planner.plan(decks: ["words"], limits: .init(), now: Self.now, timeZone: Self.utc)
        #expect(named.new.map(\.id) == ["words/go"])
    }
}
