import Foundation
import RoteModel
import Scheduling
import Study
import StudyData
import Testing

@Suite struct StudyStatsTests {
    /// Tuesday 2026-11-10, noon UTC.
    static let now = StudyFixtures.date("2026-11-10T12:00:00Z")
    static let utc = StudyFixtures.utc

    static func review(_ id: String, _ at: String, _ grade: Grade = .good) -> ReviewEvent {
        ReviewEvent(id: id, at: StudyFixtures.date(at), grade: grade, ms: 3_000)
    }

    /// A progress file whose state is the replay of its reviews.
    static func file(_ entry: String, _ reviews: [ReviewEvent], status: ProgressFile.Status = .active) -> ProgressFile {
        ProgressFile(
            entry: entry, status: status, state: Scheduler.replay(reviews, entryID: entry, settings: .default),
            reviews: reviews)
    }

    static func stats(
        _ progress: [ProgressFile], sessions: [SessionFile] = [], profile: Profile? = nil, timeZone: TimeZone = utc
    ) -> StudyStats {
        StudyStats(progress: progress, sessions: sessions, profile: profile, now: now, timeZone: timeZone)
    }

    // MARK: - Streaks

    @Test func aSkippedDayBreaksTheStreak() {
        // Nov 5, 6, 7 — nothing on Nov 8 — Nov 9, 10.
        let reviews = ["05", "06", "07", "09", "10"].enumerated().map {
            Self.review("r\($0)", "2026-11-\($1)T09:00:00Z")
        }
        let stats = Self.stats([Self.file("words/run", reviews)])
        #expect(stats.currentStreak == 2)
        #expect(stats.longestStreak == 3)
    }

    @Test func todayWithoutAReviewYetKeepsYesterdaysStreak() {
        let reviews = [Self.review("a", "2026-11-08T09:00:00Z"), Self.review("b", "2026-11-09T23:30:00Z")]
        let stats = Self.stats([Self.file("words/run", reviews)])
        #expect(stats.currentStreak == 2 && stats.longestStreak == 2)
        let lapsed = Self.stats([Self.file("words/run", [Self.review("a", "2026-11-08T09:00:00Z")])])
        #expect(lapsed.currentStreak == 0 && lapsed.longestStreak == 1)
    }

    @Test func daysAreCountedInTheLearnersTimeZone() {
        // 01:30 UTC on Nov 10 is still Nov 9 in New York; 23:30 UTC Nov 8 is Nov 8 there.
        let reviews = [Self.review("a", "2026-11-08T23:30:00Z"), Self.review("b", "2026-11-10T01:30:00Z")]
        let utc = Self.stats([Self.file("words/run", reviews)])
        #expect(utc.currentStreak == 1 && utc.longestStreak == 1, "Nov 8 and Nov 10 in UTC")
        let newYork = Self.stats([Self.file("words/run", reviews)], timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(newYork.currentStreak == 2, "Nov 8 and Nov 9 in New York")
        #expect(newYork.reviewsPerDay.suffix(3) == [1, 1, 0])
    }

    @Test func streaksAcrossSeveralEntriesCountDaysNotReviews() {
        let run = Self.file(
            "words/run", [Self.review("a", "2026-11-10T08:00:00Z"), Self.review("b", "2026-11-10T08:10:00Z")])
        let go = Self.file("words/go", [Self.review("c", "2026-11-09T08:00:00Z")])
        let stats = Self.stats([run, go])
        #expect(stats.currentStreak == 2)
        #expect(stats.reviewsToday == 2)
    }

    /// A warm start's or `rote known`'s reviews schedule the word but were never answered:
    /// no day of study, no streak, no retention, in the stats from files as from the index.
    @Test func syntheticReviewsAreNoStudy() {
        var warm = [Self.review("w1", "2026-11-08T09:00:00Z", .easy), Self.review("w2", "2026-11-09T09:00:00Z", .easy)]
        for index in warm.indices { warm[index].synthetic = ReviewEvent.calibration }
        let real = Self.review("r", "2026-11-10T09:00:00Z", .good)
        let stats = Self.stats([Self.file("words/run", warm + [real])])
        #expect(stats.reviewsPerDay.suffix(3) == [0, 0, 1])
        #expect(stats.currentStreak == 1 && stats.longestStreak == 1)
        #expect(stats.retention.reviews == 1, "the real review, in the review phase the synthetic ones left")
        let digest = ReviewDigest(
            reviews: warm + [real], entryID: "words/run", scheduler: Scheduler(settings: .default))
        #expect(digest.marks.map(\.synthetic) == [true, true, false])
        #expect(digest.marks.map(\.at) == (warm + [real]).map(\.at), "the time survives the flag")
    }

    // MARK: - Counts

    @Test func reviewsPerDayCoverNinetyDaysEndingToday() {
        let reviews = [
            Self.review("old", "2026-08-12T09:00:00Z"),  // 90 days ago: outside
            Self.review("first", "2026-08-13T09:00:00Z"),  // 89 days ago: the first cell
            Self.review("a", "2026-11-09T09:00:00Z"),
            Self.review("b", "2026-11-10T09:00:00Z"), Self.review("c", "2026-11-10T10:00:00Z"),
            Self.review("future", "2026-11-10T13:00:00Z"),  // after now: a clock ahead
        ]
        let stats = Self.stats([Self.file("words/run", reviews)])
        #expect(stats.reviewsPerDay.count == 90)
        #expect(stats.reviewsPerDay.first == 1)
        #expect(stats.reviewsPerDay.suffix(2) == [1, 2])
        #expect(stats.reviewsPerDay.reduce(0, +) == 4)
        #expect(stats.reviewsToday == 2)
    }

    @Test func dueTodayAndTheNextThirtyDays() {
        func due(_ entry: String, _ when: String, status: ProgressFile.Status = .active) -> ProgressFile {
            var file = Self.file(entry, [Self.review("r-\(entry)", "2026-11-01T09:00:00Z")], status: status)
            file.state?.due = StudyFixtures.date(when)
            return file
        }
        let stats = Self.stats([
            due("words/overdue", "2026-11-02T09:00:00Z"), due("words/today", "2026-11-10T23:00:00Z"),
            due("words/tomorrow", "2026-11-11T00:30:00Z"), due("words/three", "2026-11-13T09:00:00Z"),
            due("words/thirty", "2026-12-10T09:00:00Z"), due("words/later", "2026-12-11T09:00:00Z"),
            due("words/suspended", "2026-11-09T09:00:00Z", status: .suspended),
        ])
        #expect(stats.due.count == 31)
        #expect(stats.dueToday == 2, "overdue and due later today; suspended left out")
        #expect(stats.due[1] == 1 && stats.due[3] == 1 && stats.due[30] == 1)
        #expect(stats.due.reduce(0, +) == 5, "31 days out is not counted")
    }

    @Test func theDailyGoalComesFromTheProfile() {
        var profile = Profile(user: "ana")
        profile.settings.dailyGoal = 4
        let stats = Self.stats(
            [
                Self.file(
                    "words/run", [Self.review("a", "2026-11-10T08:00:00Z"), Self.review("b", "2026-11-10T08:10:00Z")])
            ], profile: profile)
        #expect(stats.dailyGoal == 4 && stats.goalProgress == 0.5)
        #expect(Self.stats([]).dailyGoal == 20, "seed 000's default")
    }

    @Test func retentionCountsReviewPhaseAnswersOfTheLastThirtyDays() {
        // easy graduates at once; good (review) → kept; again (review) → lapse; the relearning
        // step's good does not count; good (review) → kept. And one review-phase lapse 40 days ago.
        let recent = Self.file(
            "words/run",
            [
                Self.review("1", "2026-10-20T09:00:00Z", .easy), Self.review("2", "2026-10-28T09:00:00Z"),
                Self.review("3", "2026-11-05T09:00:00Z", .again), Self.review("4", "2026-11-05T09:10:00Z"),
                Self.review("5", "2026-11-09T09:00:00Z"),
            ])
        let old = Self.file(
            "words/go",
            [
                Self.review("6", "2026-09-20T09:00:00Z", .easy), Self.review("7", "2026-10-01T09:00:00Z", .again),
            ])
        var profile = Profile(user: "ana")
        profile.settings.desiredRetention = 0.85
        let stats = Self.stats([recent, old], profile: profile)
        #expect(stats.retention.reviews == 3)
        #expect(stats.retention.retained == 2)
        #expect(stats.retention.achieved == 2.0 / 3)
        #expect(stats.retention.desired == 0.85)
        #expect(Self.stats([]).retention.achieved == nil)
    }

    @Test func masteryLevelsPerDeck() {
        let scheduler = Scheduler(settings: .default)
        let strong = (0..<10).map { Self.review("s\($0)", "2026-\(String(format: "%02d", 1 + $0))-01T09:00:00Z") }
        let files = [
            Self.file("words/run", [Self.review("a", "2026-11-10T08:00:00Z")]),
            Self.file("words/go", strong),
            Self.file("words/off", strong, status: .suspended),
            Self.file("verses/joh-3-16", [Self.review("b", "2026-11-09T08:00:00Z")]),
        ]
        let stats = Self.stats(files)
        let expectedGo = Mastery(events: strong, entryID: "words/go", at: Self.now, scheduler: scheduler).level
        #expect(expectedGo > .starting, "the fixture's long history is more than starting")
        var words: [MasteryLevel: Int] = [.starting: 1]
        words[expectedGo, default: 0] += 1
        #expect(stats.mastery["words"] == words)
        #expect(stats.mastery["verses"] == [.starting: 1])
    }

    @Test func timeStudiedTodayComesFromSessions() {
        let sessions = [
            SessionFile(
                id: "a", user: "ana", startedAt: StudyFixtures.date("2026-11-10T08:00:00Z"),
                endedAt: StudyFixtures.date("2026-11-10T08:05:30Z")),
            SessionFile(id: "b", user: "ana", startedAt: StudyFixtures.date("2026-11-10T11:00:00Z")),
            SessionFile(
                id: "c", user: "ana", startedAt: StudyFixtures.date("2026-11-09T08:00:00Z"),
                endedAt: StudyFixtures.date("2026-11-09T09:00:00Z")),
        ]
        let stats = Self.stats([], sessions: sessions)
        #expect(stats.sessionsToday == 2 && stats.secondsStudiedToday == 330)
    }

    // MARK: - Heatmap

    static func strip(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test func theHeatmapHasWeeksAsColumnsAndSevenRows() {
        var reviews: [ReviewEvent] = []
        for (offset, count) in [(0, 4), (1, 1), (2, 2), (3, 3), (89, 1)] {
            for index in 0..<count {
                reviews.append(
                    ReviewEvent(
                        id: "\(offset)-\(index)",
                        at: Self.now.addingTimeInterval(Double(-offset) * 86_400 - Double(index) * 60), grade: .good))
            }
        }
        let stats = Self.stats([Self.file("words/run", reviews)])
        let plain = stats.heatmap(colour: false)
        let lines = plain.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 9, "month names, seven weekdays, legend")
        #expect(lines[1...7].map { String($0.prefix(3)) } == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        // 90 days ending Tuesday 2026-11-10 start on Thursday 2026-08-13: 14 weeks from Monday 08-10.
        let cells = lines[1...7].map { line in
            Array(line.dropFirst(4)).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        }
        #expect(cells.allSatisfy { $0.count <= 14 })
        #expect(cells.map(\.count).max() == 14)
        #expect(cells.joined().filter { $0 != " " }.count == 90, "one cell per day")
        #expect(cells[0].prefix(2) == [" ", "·"], "days before the range are blank")
        #expect(cells[3].first == "░", "the first day, a Thursday, had one review")
        #expect(cells[1].last == "█", "today, a Tuesday, is the busiest")
        #expect(cells[0].last == "░", "Monday: 1 of 4")
        #expect(cells[6][12] == "▒", "Sunday: 2 of 4")
        #expect(cells[5][12] == "▓", "Saturday: 3 of 4")
        #expect(cells[2].count == 13, "Wednesday of the last week has not come yet")
        #expect(lines[0].hasPrefix("    Aug"))
        #expect(lines[0].contains("Sep") && lines[0].contains("Oct") && lines[0].contains("Nov"))
        #expect(lines[8] == "    less · ░ ▒ ▓ █ more")
        #expect(!plain.contains("\u{1B}"), "plain when colour is off")

        let coloured = stats.heatmap(colour: true)
        #expect(coloured.contains("\u{1B}[38;5;46m█\u{1B}[0m"))
        #expect(Self.strip(coloured) == plain)
    }

    @Test(arguments: [(0, 4, 0), (1, 4, 1), (2, 4, 2), (3, 4, 3), (4, 4, 4), (1, 100, 1), (26, 100, 2), (5, 0, 0)])
    func heatmapLevels(count: Int, maximum: Int, level: Int) {
        #expect(StudyHeatmap.level(count, maximum: maximum) == level)
    }
}
