import Foundation
import RoteModel
import RoteStore
import Scheduling

/// A learner's study statistics, derived from their progress and session files — nothing is
/// stored twice, so the numbers can never disagree with the history.
///
/// Days are calendar days in the given time zone. Reviews come from progress files (the
/// truth); time studied comes from session files. Reviews dated after `now` (a device clock
/// ahead) are left out.
///
/// - `due`: entries due today (overdue included) and on each of the next 30 days, from each
///   active entry's state (its stored state, or a replay when it has none).
/// - `reviewsPerDay`: reviews on each of the last 90 days, oldest first, today last.
/// - streaks: days in a row with at least one review. The current streak ends today, or
///   yesterday while today has no review yet (a streak is not lost before the day is over).
/// - daily goal: today's reviews against the profile's `daily_goal` (default 20).
/// - retention: of the reviews over the last 30 days made in the review phase (replayed, so
///   learning steps do not count), the share not graded `again`; against the desired
///   retention (profile, else 0.9).
/// - mastery: entries per `MasteryLevel` in each deck, for active entries with reviews.
public struct StudyStats: Sendable, Equatable {
    public static let upcomingDays = 30
    public static let historyDays = 90
    public static let retentionDays = 30
    public static let defaultDailyGoal = 20

    /// The reviews a day the learner aims at: the profile's `daily_goal`, else the default.
    public static func dailyGoal(of profile: Profile?) -> Int { profile?.settings.dailyGoal ?? defaultDailyGoal }

    /// Achieved retention against the target.
    public struct Retention: Sendable, Equatable {
        /// Review-phase reviews over the window.
        public var reviews: Int
        /// Of those, not graded again.
        public var retained: Int
        public var desired: Double
        /// retained ÷ reviews; nil with no review-phase reviews.
        public var achieved: Double? { reviews == 0 ? nil : Double(retained) / Double(reviews) }
    }

    /// `due[0]` is today (overdue included), `due[d]` the day `d` days from today, to 30.
    public var due: [Int]
    /// The last 90 days' reviews, oldest first; the last is today.
    public var reviewsPerDay: [Int]
    public var currentStreak: Int
    public var longestStreak: Int
    public var dailyGoal: Int
    public var retention: Retention
    /// Deck → level → entries.
    public var mastery: [String: [MasteryLevel: Int]]
    /// Sessions started today, and the seconds they lasted (from `started_at` to `ended_at`).
    public var sessionsToday: Int
    public var secondsStudiedToday: Int
    /// Today as days since 1970-01-01 in the time zone: where `reviewsPerDay` ends.
    public var today: Int

    public var dueToday: Int { due[0] }
    public var reviewsToday: Int { reviewsPerDay.last ?? 0 }
    /// Today's reviews ÷ the goal (may pass 1).
    public var goalProgress: Double { dailyGoal > 0 ? Double(reviewsToday) / Double(dailyGoal) : 1 }

    /// What the progress files add up to, for any share of them: shares fold on separate
    /// cores and are then summed, in any order, to the same answer.
    public struct Totals: Sendable {
        var due = [Int](repeating: 0, count: StudyStats.upcomingDays + 1)
        var perDay = [Int](repeating: 0, count: StudyStats.historyDays)
        var reviewDays = Set<Int>()
        var retentionReviews = 0, retained = 0
        var mastery: [String: [MasteryLevel: Int]] = [:]

        public init() {}

        public mutating func add(_ other: Totals) {
            for day in due.indices { due[day] += other.due[day] }
            for day in perDay.indices { perDay[day] += other.perDay[day] }
            reviewDays.formUnion(other.reviewDays)
            retentionReviews += other.retentionReviews
            retained += other.retained
            for (deck, levels) in other.mastery {
                for (level, count) in levels { mastery[deck, default: [:]][level, default: 0] += count }
            }
        }
    }

    /// Computes the statistics. `settings` gives each deck's scheduler settings (by deck id);
    /// decks not in it use `defaultSettings`.
    public init(
        progress: [ProgressFile], sessions: [SessionFile], profile: Profile?, settings: [String: SchedulerSettings] = [:],
        defaultSettings: SchedulerSettings = .default, now: Date, timeZone: TimeZone
    ) {
        // A share of a few hundred files per task: enough to spread, few enough to sum.
        let shares = stride(from: 0, to: progress.count, by: 512).map { $0..<min($0 + 512, progress.count) }
        var totals = Totals()
        for share in shares.concurrentMap({ share in
            StudyStats.totals(of: progress[share], settings: settings, defaultSettings: defaultSettings, now: now, timeZone: timeZone)
        }) {
            totals.add(share)
        }
        self.init(totals: totals, sessions: sessions, profile: profile, now: now, timeZone: timeZone)
    }

    /// The statistics from progress files already folded into `totals` (`totals(of:)`, summed
    /// with `Totals.add`), for a caller that reads files in shares and keeps none of them.
    public init(totals: Totals, sessions: [SessionFile], profile: Profile?, now: Date, timeZone: TimeZone) {
        let days = LocalDays(timeZone: timeZone)
        let today = days.day(of: now)
        var sessionsToday = 0, secondsToday = 0
        for session in sessions where days.day(of: session.startedAt) == today {
            sessionsToday += 1
            if let ended = session.endedAt { secondsToday += max(0, Int(ended.timeIntervalSince(session.startedAt).rounded())) }
        }

        self.due = totals.due
        self.reviewsPerDay = totals.perDay
        (self.currentStreak, self.longestStreak) = Self.streaks(totals.reviewDays, today: today)
        self.dailyGoal = Self.dailyGoal(of: profile)
        self.retention = Retention(
            reviews: totals.retentionReviews, retained: totals.retained,
            desired: profile?.settings.desiredRetention ?? SchedulerSettings.defaultDesiredRetention)
        self.mastery = totals.mastery
        self.sessionsToday = sessionsToday
        self.secondsStudiedToday = secondsToday
        self.today = today
    }

    /// The totals of some progress files.
    public static func totals(
        of progress: some Sequence<ProgressFile>, settings: [String: SchedulerSettings], defaultSettings: SchedulerSettings = .default, now: Date,
        timeZone: TimeZone
    ) -> Totals {
        let days = LocalDays(timeZone: timeZone)
        let today = days.day(of: now)
        var schedulers: [String: Scheduler] = [:]
        func scheduler(for deck: String) -> Scheduler {
            if let known = schedulers[deck] { return known }
            let made = Scheduler(settings: settings[deck] ?? defaultSettings)
            schedulers[deck] = made
            return made
        }
        var totals = Totals()
        for file in progress {
            let deck = file.entry.split(separator: "/").first.map(String.init) ?? file.entry
            let reviews = file.reviews.filter { $0.at <= now }.sorted(by: ReviewEvent.replayOrder)
            let engine = scheduler(for: deck)
            var reviewedInWindow = false
            for review in reviews {
                let day = days.day(of: review.at)
                totals.reviewDays.insert(day)
                let age = today - day
                if age >= 0, age < Self.historyDays { totals.perDay[Self.historyDays - 1 - age] += 1 }
                if age >= 0, age < Self.retentionDays { reviewedInWindow = true }
            }
            if reviewedInWindow {
                let states = engine.history(reviews, entryID: file.entry)
                if states.count == reviews.count {
                    for (index, review) in reviews.enumerated() where index > 0 && states[index - 1].phase == .review {
                        let age = today - days.day(of: review.at)
                        guard age >= 0, age < Self.retentionDays else { continue }
                        totals.retentionReviews += 1
                        if review.grade != .again { totals.retained += 1 }
                    }
                }
            }
            guard file.status == .active, !reviews.isEmpty else { continue }
            if let state = file.state ?? engine.replay(reviews, entryID: file.entry) {
                let offset = max(0, days.day(of: state.due) - today)
                if offset <= Self.upcomingDays { totals.due[offset] += 1 }
            }
            let level = Mastery(events: reviews, entryID: file.entry, at: now, scheduler: engine).level
            totals.mastery[deck, default: [:]][level, default: 0] += 1
        }
        return totals
    }

    /// Current and longest runs of consecutive days in `days`.
    static func streaks(_ days: Set<Int>, today: Int) -> (current: Int, longest: Int) {
        var longest = 0, run = 0, previous: Int?
        for day in days.sorted() {
            run = previous.map { day == $0 + 1 } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        var current = 0
        var day = days.contains(today) ? today : today - 1
        while days.contains(day) {
            current += 1
            day -= 1
        }
        return (current, longest)
    }

    /// The 90-day heatmap of `reviewsPerDay` (see `StudyHeatmap`).
    public func heatmap(colour: Bool) -> String {
        StudyHeatmap.render(counts: reviewsPerDay, lastDay: today, colour: colour)
    }
}

/// Calendar days in a time zone, as whole days since 1970-01-01 there.
///
/// Arithmetic on the zone's offset at each instant, rather than `Calendar` per date, so a
/// history of many thousands of reviews is bucketed quickly; daylight-saving changes are
/// honoured because the offset is taken at the instant itself.
struct LocalDays: Sendable {
    let timeZone: TimeZone

    func day(of date: Date) -> Int {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return Int((local / 86_400).rounded(.down))
    }
}

/// A text heatmap of daily counts, GitHub style: one column per week (Monday at the top), one
/// character per day by intensity — `·` none, then `░ ▒ ▓ █` for up to a quarter, half,
/// three quarters and all of the busiest day — with month names above and a legend below.
///
/// ```
///     Sep     Oct             Nov
/// Mon         · ░ · ▒ · · ░ █ · ·
/// Tue         · · ▓ · · ░ · · · ·
/// ```
///
/// With `colour` the characters are also tinted with ANSI 256-colour greens; without it the
/// output is plain text.
public enum StudyHeatmap {
    public static let symbols: [Character] = ["·", "░", "▒", "▓", "█"]
    static let colours = [240, 22, 28, 34, 46]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The intensity level, 0…4, of `count` against the busiest day's `maximum`.
    public static func level(_ count: Int, maximum: Int) -> Int {
        guard count > 0, maximum > 0 else { return 0 }
        return min(4, max(1, Int((4 * Double(count) / Double(maximum)).rounded(.up))))
    }

    /// Renders `counts` (oldest first) whose last day is `lastDay` (days since 1970-01-01).
    public static func render(counts: [Int], lastDay: Int, colour: Bool) -> String {
        guard !counts.isEmpty else { return "" }
        let firstDay = lastDay - counts.count + 1
        let firstMonday = firstDay - weekday(firstDay)
        let columns = (lastDay - firstMonday) / 7 + 1
        let maximum = counts.max() ?? 0
        let gutter = "    "

        var header = Array(repeating: Character(" "), count: gutter.count + columns * 2)
        var previousMonth: Int?
        var labelEnd = 0
        for column in 0..<columns {
            let day = max(firstDay, firstMonday + column * 7)
            let month = monthOfDay(day)
            defer { previousMonth = month }
            guard month != previousMonth else { continue }
            let position = gutter.count + column * 2
            guard position >= labelEnd else { continue }
            for (offset, character) in months[month - 1].enumerated() where position + offset < header.count {
                header[position + offset] = character
            }
            labelEnd = position + 4
        }

        var headerLine = String(header)
        while headerLine.hasSuffix(" ") { headerLine.removeLast() }
        var lines = [headerLine]
        for row in 0..<7 {
            var line = weekdays[row] + " "
            for column in 0..<columns {
                let day = firstMonday + column * 7 + row
                if column > 0 { line += " " }
                guard day >= firstDay, day <= lastDay else {
                    line += " "
                    continue
                }
                line += cell(level(counts[day - firstDay], maximum: maximum), colour: colour)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
        }
        lines.append(gutter + "less " + (0..<symbols.count).map { cell($0, colour: colour) }.joined(separator: " ") + " more")
        return lines.joined(separator: "\n")
    }

    static func cell(_ level: Int, colour: Bool) -> String {
        let symbol = String(symbols[level])
        return colour ? "\u{1B}[38;5;\(colours[level])m\(symbol)\u{1B}[0m" : symbol
    }

    /// Monday = 0 … Sunday = 6; 1970-01-01 was a Thursday.
    static func weekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

    /// The month (1…12) of a day number (Howard Hinnant's civil_from_days).
    static func monthOfDay(_ day: Int) -> Int {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        return mp < 10 ? mp + 3 : mp - 9
    }
}
