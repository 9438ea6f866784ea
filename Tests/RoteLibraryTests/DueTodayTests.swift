import Foundation
import RoteLibrary
import RoteModel
import Study
import TestSupport
import Testing

/// Issue #33 item 3: "due today" has one definition — due by the end of the learner's day,
/// overdue included, learning steps due later today too — and `rote stats` and the plan
/// count it the same, whatever the time zone.
@Suite struct DueTodayTests {
    /// 2026-11-10 20:00 UTC: 15:00 in New York, 05:00 the next day in Tokyo.
    static let now = Date(timeIntervalSince1970: 1_794_340_800)

    /// words/run overdue since 2026-11-05; words/go a learning step ten minutes on; the
    /// question two_plus_two a review six hours on, which is tomorrow in UTC and later today
    /// in New York and Tokyo.
    static let overrides = [
        "profiles/ana/progress/words/go.yaml": """
        entry: words/go
        status: active
        state: {phase: learning, step: 0, stability: 2.3, difficulty: 6.4, due: 2026-11-10T20:10:00Z, reps: 1, lapses: 0, last_review: 2026-11-10T19:59:00Z}
        reviews:
          - {id: g1, at: 2026-11-10T19:59:00Z, grade: good, ms: 2000, device: laptop}

        """,
        "profiles/ana/progress/maths/arithmetic/addition/two_plus_two.yaml": """
        entry: maths/arithmetic/addition/two_plus_two
        status: active
        state: {phase: review, stability: 4.0, difficulty: 5.0, due: 2026-11-11T02:00:00Z, reps: 2, lapses: 0, last_review: 2026-11-07T02:00:00Z}
        reviews:
          - {id: t1, at: 2026-11-03T02:00:00Z, grade: good, ms: 3000, device: laptop}
          - {id: t2, at: 2026-11-07T02:00:00Z, grade: good, ms: 3000, device: laptop}

        """,
    ]

    @Test(arguments: [("UTC", 2), ("America/New_York", 3), ("Asia/Tokyo", 3)])
    func statsAndThePlanCountTheSameDueToday(zone: String, expected: Int) async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory, overrides: Self.overrides)
        let library = try Library(root: directory.url, user: "ana")
        let timeZone = try #require(TimeZone(identifier: zone))
        let stats = try library.stats(now: Self.now, timeZone: timeZone)
        let plan = try library.launch().planner().plan(
            limits: .from(library.profile), now: Self.now, timeZone: timeZone)
        #expect(stats.dueToday == expected, "\(zone): stats")
        #expect(plan.dueToday == expected, "\(zone): plan")
        #expect(plan.dueTotal == 1, "\(zone): only words/run is due now")
        #expect(plan.dueLaterToday == expected - 1, "\(zone): the rest are due later today")
    }
}

/// Issue #33 item 3: `--new N` means N new entries in this session; the daily budget is shown
/// beside it, never silently subtracted from it.
@Suite struct NewInSessionTests {
    @Test func newNGivesNNewEntriesWhenTheDailyBudgetIsSpent() async throws {
        let (directory, library) = try await AdaptiveLoopTests.library([
            "profiles/ana/profile.yaml":
                "user: ana\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nsettings:\n  new_per_day: 2\n"
        ])
        defer { withExtendedLifetime(directory) {} }
        let now = Date()
        for word in ["lex/w1", "lex/w2"] {
            _ = try library.recordReview(
                of: try library.entry(named: word), grade: .good, ms: 1500, reviewID: nil, now: now)
        }
        let reopened = try AdaptiveLoopTests.reopen(directory)
        let budgetSpent = try reopened.startStudy(decks: ["lex"], limits: StudyLimits(), planOnly: true, now: now)
        #expect(budgetSpent.plan.new.isEmpty, "the day's two new entries are started")
        #expect(budgetSpent.plan.introducedToday == 2)
        #expect(budgetSpent.plan.newPerDay == 2)
        let asked = try reopened.startStudy(decks: ["lex"], limits: StudyLimits(new: 2), planOnly: true, now: now)
        #expect(asked.plan.new.count == 2, "--new 2 is two new entries, whatever today's budget says")
        #expect(!asked.plan.new.contains { ["lex/w1", "lex/w2"].contains($0.id) })
    }
}

/// Issue #33 item 3: the default session (no deck named) reaches every deck with something
/// new, by the rule the profile's `new_shares` sets; before, the first deck took every place.
@Suite struct EveryDeckTests {
    @Test func aSessionOfAllDecksTakesNewEntriesFromEveryDeck() async throws {
        // A new learner of the starter decks: the demo learner's working set is full.
        let directory = await StarterLibrary.copy()
        directory.write(
            "profiles/newbie/profile.yaml",
            "user: newbie\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\n")
        let library = try Library(root: directory.url, user: "newbie")
        let start = try library.startStudy(decks: [], limits: StudyLimits(new: 12), planOnly: true)
        var withNew: [String] = []
        for deck in start.studyableDecks {
            let alone = try library.startStudy(decks: [deck], limits: StudyLimits(new: 1), planOnly: true)
            if !alone.plan.new.isEmpty { withNew.append(deck) }
        }
        #expect(withNew.count > 1, "the starter decks have new entries in several decks: \(withNew)")
        #expect(withNew.count <= 12)
        #expect(
            Set(start.plan.new.map(\.deck)) == Set(withNew),
            "every deck with new entries has its part: \(start.plan.new.map(\.id))")
    }
}
