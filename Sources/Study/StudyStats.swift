public import Foundation
import Parallelism
public import RoteModel
import RoteStore
public import Scheduling
public import StudyData

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
/// - practice: answers of practice sessions (`rote study --practice`) today and over the last
///   90 days. They make a day of study (streaks) but are not in `reviewsPerDay`, the daily goal
///   or retention, and mastery reads only the reviews that schedule.
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
    /// Skill (`math/algebra/linear_equations`) → the learner's progress with it, for every
    /// skill with an answered question (`questions` counts only answered ones until
    /// `countQuestions` gives each skill its full number).
    public var skills: [String: SkillPractice]
    /// Active entries forgotten `SchedulerSettings.defaultLeechThreshold` times or more
    /// (`MemoryState.isLeech`), by id.
    public var leeches: [String]
    /// Sessions started today, and the seconds they lasted (from `started_at` to `ended_at`).
    public var sessionsToday: Int
    public var secondsStudiedToday: Int
    /// Practice answers (`practice: true` reviews, which do not schedule) today and over the
    /// last 90 days.
    public var practiceToday: Int
    public var practiceReviews: Int
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
        var reviewDays = DaySet()
        var retentionReviews = 0, retained = 0
        var mastery: [String: [MasteryLevel: Int]] = [:]
        /// Decks of kind skills, whose questions add up per skill.
        let skillDecks: Set<String>
        var skills: [String: SkillPractice] = [:]
        var leeches: [String] = []
        var practiceToday = 0, practiceReviews = 0

        public init(skillDecks: Set<String> = []) { self.skillDecks = skillDecks }

        /// Adds one progress file, given by its digest, which must hold no review after `now`
        /// (`ReviewDigest.lastReviewAt`; `StudyStats.digest(of:now:scheduler:)` leaves them out).
        /// The one rule every total comes from, whether the digest was made from the file just
        /// now or kept in the launch index.
        public mutating func add(
            entry: String, status: ProgressFile.Status, state: MemoryState?, digest: ReviewDigest, scheduler: Scheduler,
            now: Date, days: LocalDays
        ) {
            add(
                entry: entry, status: status, state: state, marks: ReviewMarks(digest.marks), replayed: digest.replayed,
                scheduler: scheduler, now: now, days: days)
        }

        /// `add(entry:status:state:digest:…)` with the digest's marks wherever they lie (the
        /// launch index reads them in place).
        public mutating func add(
            entry: String, status: ProgressFile.Status, state: MemoryState?, marks: ReviewMarks,
            replayed: MemoryState?, scheduler: Scheduler, now: Date, days: LocalDays
        ) {
            let today = days.day(of: now)
            // A synthetic review (calibration's warm start, `rote known`) was never answered:
            // it makes no day of study, no streak and no retention.
            // A practice answer makes a day of study and counts as practice, nothing else.
            var practised = false
            for mark in marks where !mark.synthetic {
                let day = days.day(of: mark.at)
                reviewDays.insert(day)
                let age = today - day
                if mark.practice {
                    practised = true
                    if age >= 0, age < StudyStats.historyDays { practiceReviews += 1 }
                    if age == 0 { practiceToday += 1 }
                    continue
                }
                if age >= 0, age < StudyStats.historyDays { perDay[StudyStats.historyDays - 1 - age] += 1 }
                if mark.followsReviewPhase, age >= 0, age < StudyStats.retentionDays {
                    retentionReviews += 1
                    if mark.grade != .again { retained += 1 }
                }
            }
            // Mastery and skills read the reviews that schedule.
            let scheduling = practised ? ReviewMarks(marks.filter { !$0.practice }) : marks
            if !scheduling.isEmpty, let deck = entry.split(separator: "/").first, skillDecks.contains(String(deck)),
                let skill = SkillPractice.skill(ofQuestion: entry)
            {
                let grades = scheduling.map(\.grade)
                let confidence = Mastery(
                    state: replayed, recentGrades: grades.suffix(Mastery.recentWindow), at: now, scheduler: scheduler
                ).confidence
                skills[skill, default: SkillPractice()].add(
                    grades: grades, last: scheduling.last?.at, confidence: confidence)
            }
            guard status == .active, !scheduling.isEmpty else { return }
            if (state ?? replayed)?.isLeech(threshold: scheduler.settings.leechThreshold) == true {
                leeches.append(entry)
            }
            if let state = state ?? replayed {
                let offset = max(0, days.day(of: state.due) - today)
                if offset <= StudyStats.upcomingDays { due[offset] += 1 }
            }
            let deck = entry.split(separator: "/").first.map(String.init) ?? entry
            let level = Mastery(
                state: replayed, recentGrades: scheduling.suffix(Mastery.recentWindow).map(\.grade), at: now,
                scheduler: scheduler
            ).level
            mastery[deck, default: [:]][level, default: 0] += 1
        }

        public mutating func add(_ other: Totals) {
            for day in due.indices { due[day] += other.due[day] }
            for day in perDay.indices { perDay[day] += other.perDay[day] }
            reviewDays.formUnion(other.reviewDays)
            retentionReviews += other.retentionReviews
            retained += other.retained
            for (deck, levels) in other.mastery {
                for (level, count) in levels { mastery[deck, default: [:]][level, default: 0] += count }
            }
            for (skill, progress) in other.skills { skills[skill, default: SkillPractice()].add(progress) }
            leeches += other.leeches
            practiceToday += other.practiceToday
            practiceReviews += other.practiceReviews
        }
    }

    /// Computes the statistics. `settings` gives each deck's scheduler settings (by deck id);
    /// decks not in it use `defaultSettings`.
    /// `skillDecks` names the skills decks, whose questions add up per skill (`skills`).
    public init(
        progress: [ProgressFile], sessions: [SessionFile], profile: Profile?,
        settings: [String: SchedulerSettings] = [:],
        defaultSettings: SchedulerSettings = .default, now: Date, timeZone: TimeZone, skillDecks: Set<String> = []
    ) {
        // A share of a few hundred files per task: enough to spread, few enough to sum.
        let shares = stride(from: 0, to: progress.count, by: 512).map { $0..<min($0 + 512, progress.count) }
        var totals = Totals(skillDecks: skillDecks)
        for share in shares.concurrentMap({ share in
            StudyStats.totals(
                of: progress[share], settings: settings, defaultSettings: defaultSettings, now: now, timeZone: timeZone,
                skillDecks: skillDecks)
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
        var sessionsToday = 0
        var secondsToday = 0
        for session in sessions where days.day(of: session.startedAt) == today {
            sessionsToday += 1
            if let ended = session.endedAt {
                secondsToday += max(0, Int(ended.timeIntervalSince(session.startedAt).rounded()))
            }
        }

        self.due = totals.due
        self.reviewsPerDay = totals.perDay
        (self.currentStreak, self.longestStreak) = Self.streaks(totals.reviewDays, today: today)
        self.dailyGoal = Self.dailyGoal(of: profile)
        self.retention = Retention(
            reviews: totals.retentionReviews, retained: totals.retained,
            desired: profile?.settings.desiredRetention ?? SchedulerSettings.defaultDesiredRetention)
        self.mastery = totals.mastery
        self.skills = totals.skills
        self.leeches = totals.leeches.sorted()
        self.sessionsToday = sessionsToday
        self.secondsStudiedToday = secondsToday
        self.practiceToday = totals.practiceToday
        self.practiceReviews = totals.practiceReviews
        self.today = today
    }

    /// Gives each skill its number of questions from the ids of the skills decks, so
    /// unanswered questions count in its mastery.
    public mutating func countQuestions(_ ids: some Sequence<String>) {
        var counts: [String: Int] = [:]
        for id in ids { if let skill = SkillPractice.skill(ofQuestion: id) { counts[skill, default: 0] += 1 } }
        for (skill, count) in counts where skills[skill] != nil {
            skills[skill]!.questions = max(skills[skill]!.questions, count)
        }
    }

    /// The totals of some progress files, each replayed with its deck's scheduler (`settings`
    /// by deck id, `defaultSettings` for the rest).
    public static func totals(
        of progress: some Sequence<ProgressFile>, settings: [String: SchedulerSettings],
        defaultSettings: SchedulerSettings = .default, now: Date,
        timeZone: TimeZone, skillDecks: Set<String> = []
    ) -> Totals {
        var schedulers: [String: Scheduler] = [:]
        var totals = Totals(skillDecks: skillDecks)
        let days = LocalDays(timeZone: timeZone)
        for file in progress {
            let deck = file.entry.split(separator: "/").first.map(String.init) ?? file.entry
            let scheduler = schedulers[deck] ?? Scheduler(settings: settings[deck] ?? defaultSettings)
            schedulers[deck] = scheduler
            totals.add(
                entry: file.entry, status: file.status, state: file.state,
                digest: digest(of: file, now: now, scheduler: scheduler),
                scheduler: scheduler, now: now, days: days)
        }
        return totals
    }

    /// The digest of a file's reviews up to `now`: what `Totals.add` reads.
    public static func digest(of file: ProgressFile, now: Date, scheduler: Scheduler) -> ReviewDigest {
        ReviewDigest(
            reviews: file.reviews.filter { $0.at <= now }.sorted(by: ReviewEvent.replayOrder), entryID: file.entry,
            scheduler: scheduler)
    }

    /// Current and longest runs of consecutive days in `days`.
    static func streaks(_ days: DaySet, today: Int) -> (current: Int, longest: Int) {
        var longest = 0
        var run = 0
        var previous: Int?
        for day in days.ascending() {
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

/// A set of days (since 1970-01-01): a bit each for the years 1970 to 2149, where a learner's
/// reviews fall, so the millions of reviews `rote stats` adds up cost a bit set each; any
/// other day in an ordinary set.
struct DaySet: Sendable {
    private static let span = 1 << 16
    private var bits = [UInt64](repeating: 0, count: DaySet.span / 64)
    private var others = Set<Int>()

    mutating func insert(_ day: Int) {
        if day >= 0, day < DaySet.span { bits[day >> 6] |= 1 << UInt64(day & 63) } else { others.insert(day) }
    }

    func contains(_ day: Int) -> Bool {
        day >= 0 && day < DaySet.span ? bits[day >> 6] & (1 << UInt64(day & 63)) != 0 : others.contains(day)
    }

    mutating func formUnion(_ other: DaySet) {
        for word in bits.indices { bits[word] |= other.bits[word] }
        others.formUnion(other.others)
    }

    /// Every day, earliest first.
    func ascending() -> [Int] {
        var days = others.filter { $0 < 0 }.sorted()
        for (word, value) in bits.enumerated() where value != 0 {
            var rest = value
            while rest != 0 {
                days.append(word << 6 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return days + others.filter { $0 >= 0 }.sorted()
    }
}

/// Calendar days in a time zone, as whole days since 1970-01-01 there.
///
/// Arithmetic on the zone's offset at each instant, rather than `Calendar` per date, so a
/// history of millions of reviews is bucketed quickly; daylight-saving changes are honoured
/// because the offset is taken at the instant itself. A zone that never changes its offset
/// needs no lookup; any other remembers the offset of each quarter hour it was asked about
/// (offsets and their changes fall on quarter hours).
public final class LocalDays: @unchecked Sendable {
    let timeZone: TimeZone
    private let fixedOffset: Int?
    private let lock = NSLock()
    private var offsets: [Int: Int] = [:]

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        fixedOffset =
            timeZone.nextDaylightSavingTimeTransition(after: .distantPast) == nil ? timeZone.secondsFromGMT() : nil
    }

    public func day(of date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        let offset: Int
        if let fixedOffset {
            offset = fixedOffset
        } else {
            let quarter = Int((seconds / 900).rounded(.down))
            lock.lock()
            if let known = offsets[quarter] {
                offset = known
            } else {
                offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(quarter) * 900))
                offsets[quarter] = offset
            }
            lock.unlock()
        }
        return Int(((seconds + Double(offset)) / 86_400).rounded(.down))
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
package enum StudyHeatmap {
    package static let symbols: [Character] = ["·", "░", "▒", "▓", "█"]
    static let colours = [240, 22, 28, 34, 46]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The intensity level, 0…4, of `count` against the busiest day's `maximum`.
    package static func level(_ count: Int, maximum: Int) -> Int {
        guard count > 0, maximum > 0 else { return 0 }
        return min(4, max(1, Int((4 * Double(count) / Double(maximum)).rounded(.up))))
    }

    /// Renders `counts` (oldest first) whose last day is `lastDay` (days since 1970-01-01).
    package static func render(counts: [Int], lastDay: Int, colour: Bool) -> String {
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
        lines.append(
            gutter + "less " + (0..<symbols.count).map { cell($0, colour: colour) }.joined(separator: " ") + " more")
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
