import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import Study

struct StudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "study",
        abstract: "Plan today's study session: due entries first (lowest recall first), then new ones.",
        discussion: """
            Takes due entries within your daily review limit, lowest retrievability first, and \
            tops up with new entries taken from each deck in turn, as often as its share in \
            your profile's new_shares (1 unless set; 0 leaves a deck out unless you name it), \
            in rank order within vocabulary, up to what is left of your new_per_day today \
            (or --new N) and your working-set budget. Ignored and suspended entries and \
            locked letters never appear; unpublished skills content only with --drafts. New \
            passages climb the acquisition ladder (read twice, reflect, three cloze rounds, \
            recite; end a recitation line with ? for a hint); letters are written on paper and \
            self-graded (tracing scores come from an app through `rote letters record`). With \
            --typed (or typed_answers: true in your profile) vocabulary questions are answered \
            by typing the word instead of choosing: a near miss of a long word counts as right \
            but hard, another form of the word is wrong. Each \
            answer is written to your progress file as you give it, so a crash loses nothing; \
            the session ends in one commit (`rote log` lists them).

            At a terminal: 1–4 choose or grade, space reveals, u undoes the last answer, \
            s suspends and i ignores the entry on screen, q stops and saves. Colour unless \
            NO_COLOR is set; lines break between words at the terminal's width, and Arabic \
            text is wrapped in direction isolates so it reads in order (ROTE_ISOLATES=off \
            drops them, for a terminal that shows them as boxes). When stdin is not a terminal, one answer per line: a choice \
            number, typed text, a step order such as `2 1 3`, again|hard|good|easy, or the \
            words undo, suspend, ignore, quit; the end of input stops and saves.

            Practice (--practice) studies entries you have studied before without moving \
            their schedule: cramming before an exam, or going over what you forgot. Each \
            answer is kept in your history as a practice review and counted as practice in \
            `rote stats`, but due dates, memory and lapses stay as they were, `rote optimize` \
            leaves it out, and it takes nothing from today's review or new limits. It never \
            brings new entries. Choose what to practise with a deck, --tag, --forgotten-today \
            (answered again today), --due-within 7d (due in the next 7 days, overdue \
            included) and --lapsed-since 2026-11-01 (forgotten after being learned, on or \
            after that day); given together, an entry must match each. Lowest recall first; \
            --reviews N takes at most N.

            Review ahead (--review-ahead N) is the other choice: real reviews of entries due \
            within the next N days, what is due now first, then the soonest. They count as reviews, and \
            the scheduler treats each as an early review (FSRS from the days actually \
            elapsed), so the next interval is shorter than waiting would have given.

            Once a day, it reminds you when this library was last synced more than 7 days ago, \
            and of publisher decks with a newer version (known from your last `rote deck \
            status`; nothing is fetched).
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(
        help: ArgumentHelp(
            "Decks to study (default: all); in a skills deck, one domain or skill (math/algebra, math/algebra/linear_equations).",
            valueName: "deck"))
    var decks: [String] = []

    @Option(help: ArgumentHelp("Only passages with this tag (repeat for any of several).", valueName: "tag"))
    var tag: [String] = []

    @Option(
        help: ArgumentHelp(
            "New entries in this session, however many you started today (default: what is left of your profile's new_per_day today).",
            valueName: "n"))
    var new: Int?

    @Option(help: ArgumentHelp("Reviews at most (default: profile's reviews_per_day).", valueName: "n"))
    var reviews: Int?

    @Option(help: ArgumentHelp("Minutes you have; the plan fits your usual pace.", valueName: "m"))
    var minutes: Int?

    @Flag(help: "Include unpublished (draft) skills content.")
    var drafts = false

    @Flag(
        inversion: .prefixedNo, help: "Type vocabulary answers instead of choosing (default: profile's typed_answers).")
    var typed: Bool?

    @Flag(
        help: "Practise studied entries without moving their schedule (answers are kept as practice reviews).")
    var practice = false

    @Flag(help: "With --practice: only entries you answered again today.")
    var forgottenToday = false

    @Option(
        help: ArgumentHelp(
            "With --practice: only entries due within this many days, overdue included (7d, or 7).", valueName: "days"))
    var dueWithin: String?

    @Option(
        help: ArgumentHelp(
            "With --practice: only entries forgotten after being learned on or after this day (YYYY-MM-DD).",
            valueName: "date"))
    var lapsedSince: String?

    @Option(
        help: ArgumentHelp(
            "Review entries due within the next N days (due ones too), the early ones as real early reviews.",
            valueName: "n"))
    var reviewAhead: Int?

    @Flag(help: "List every planned entry, not just the counts.")
    var list = false

    @Flag(help: "Print the plan and stop, without studying.")
    var plan = false

    func validate() throws {
        for (name, value) in [("--new", new), ("--reviews", reviews), ("--minutes", minutes)] {
            if let value, value < 0 { throw ValidationError("\(name) must be 0 or more, got \(value)") }
        }
        if practice, reviewAhead != nil {
            throw ValidationError(
                "--practice and --review-ahead are two different sessions; choose one (practice leaves the schedule alone, review ahead reschedules)"
            )
        }
        if !practice {
            for (name, given) in [
                ("--forgotten-today", forgottenToday), ("--due-within", dueWithin != nil),
                ("--lapsed-since", lapsedSince != nil),
            ] where given {
                throw ValidationError(
                    "\(name) chooses what to practise; add --practice (rote study --practice \(name) …)")
            }
        }
        if let reviewAhead, reviewAhead < 1 {
            throw ValidationError(
                "--review-ahead must be a number of days, 1 or more, such as --review-ahead 7; got \(reviewAhead)")
        }
        if practice || reviewAhead != nil, new != nil {
            throw ValidationError(
                "--new does not go with \(practice ? "--practice" : "--review-ahead"): it takes only entries you have studied"
            )
        }
        if let dueWithin { _ = try Self.days(dueWithin) }
        if let lapsedSince { _ = try Self.day(lapsedSince) }
    }

    /// `--due-within`'s days: `7d` or `7`, 0 or more.
    static func days(_ text: String) throws -> Int {
        let digits = text.hasSuffix("d") ? String(text.dropLast()) : text
        guard let days = Int(digits), days >= 0, !digits.hasPrefix("+") else {
            throw ValidationError(
                "--due-within must be a number of days such as 7d (or 7), got '\(text)'")
        }
        return days
    }

    /// `--lapsed-since`'s day, `YYYY-MM-DD`: the start of that day here.
    static func day(_ text: String, timeZone: TimeZone = .current) throws -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let example = "write the day as YYYY-MM-DD, such as 2026-11-01"
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { throw ValidationError("--lapsed-since must be a date, got '\(text)': \(example)") }
        guard (1...12).contains(month) else {
            throw ValidationError("--lapsed-since: '\(text)' has no month \(month) (months are 01 to 12); \(example)")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
        let length = calendar.range(of: .day, in: .month, for: first)!.count
        guard (1...length).contains(day) else {
            throw ValidationError(
                "--lapsed-since: '\(text)' has no day \(day) (that month has \(length) days); \(example)")
        }
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// The custom session the flags ask for, if any.
    func customStudy() throws -> CustomStudy? {
        if practice {
            return .practice(
                CustomStudy.PracticeFilter(
                    forgottenToday: forgottenToday, dueWithinDays: try dueWithin.map(Self.days),
                    lapsedSince: try lapsedSince.map { try Self.day($0) }))
        }
        return reviewAhead.map { .reviewAhead(days: $0) }
    }

    func run() throws {
        let library = try CommandContext.library(rote.global)
        let start = try library.startStudy(
            decks: decks, tags: tag,
            limits: StudyLimits(new: new, reviewsPerDay: reviews, minutes: minutes, drafts: drafts),
            planOnly: plan, custom: try customStudy())
        defer { start.close() }
        if start.recoveredInterruptedSession {
            Terminal.note("Committed the answers of an interrupted session (see `rote log`).")
        }
        CommandContext.report(start.loadProblems)
        ReminderNotes.show(for: library)
        for upgrade in start.upgrades {
            for line in ContentUpgrade.describe(upgrade) { Terminal.note(line) }
        }
        if start.resumesInterruptedSession {
            Terminal.note("Going on where your last session stopped; its answers are kept.")
        } else {
            show(start.plan, decks: start.studyableDecks, user: start.user)
        }
        if start.practice, !start.plan.isEmpty {
            Terminal.note("Practice: your answers are kept as practice and leave every due date as it is.")
        }
        // `--plan` stops here: the launch index answered, nothing was parsed.
        guard !self.plan, !start.plan.isEmpty || start.resumesInterruptedSession else { return }
        let study = try start.session(typed: typed)
        let session = try StudyConsoleDriver(console: console).run(study)
        guard let session else {
            // Only passages were planned and the learner has not agreed to keeping them.
            if study.refusedPassages {
                throw CLIError("passage study refused: " + Profile.passagesConsentRefusal(entry: nil))
            }
            print("Nothing answered; nothing saved.")
            return
        }
        print(
            "\n"
                + StudySummary.render(
                    session, nextDue: study.nextDue(), now: Date(), statusChanges: study.statusChanges.count))
    }

    private var console: any StudyConsole { TerminalConsole.isAvailable ? TerminalConsole() : LineConsole() }

    private func show(_ plan: SessionPlan, decks studied: [String], user: String) {
        if practice || reviewAhead != nil {
            showCustom(plan, decks: studied, user: user)
            return
        }
        print(
            "Study plan for \(user): \(plan.due.count) due, \(plan.new.count) new"
                + (plan.dueDeferred > 0 ? " (\(plan.dueDeferred) more due beyond today's limit)" : "")
                + (plan.dueLaterToday > 0 ? "; \(plan.dueLaterToday) more due later today" : ""))
        // The daily budget beside the session's count: `--new` is never silently cut by it.
        if plan.introducedToday > 0 || new != nil {
            print("  new entries started today: \(plan.introducedToday) of \(plan.newPerDay) a day")
        }
        let width = studied.map(\.count).max() ?? 0
        for deck in studied {
            let due = plan.due.filter { $0.deck == deck }.count
            let fresh = plan.new.filter { $0.deck == deck }.count
            guard due + fresh > 0 || list else { continue }
            print("  \(deck.padding(toLength: width, withPad: " ", startingAt: 0))  \(due) due · \(fresh) new")
        }
        if plan.isEmpty {
            print(
                "Nothing to study right now"
                    + (plan.reviewedToday > 0 ? " — \(plan.reviewedToday) reviews done today." : "."))
        }
        if list {
            for item in plan.due {
                print("  due  \(item.id)  recall \(Int(((item.retrievability ?? 0) * 100).rounded()))%")
            }
            for item in plan.new { print("  new  \(item.id)") }
        }
    }

    /// A practice or review-ahead plan: how many entries, per deck, and what the answers do.
    private func showCustom(_ plan: SessionPlan, decks studied: [String], user: String) {
        let count = plan.due.count
        let what =
            practice
            ? "Practice for \(user): \(count) entr\(count == 1 ? "y" : "ies") (the schedule stays as it is)"
            : "Review ahead for \(user): \(count) entr\(count == 1 ? "y" : "ies") due within \(reviewAhead ?? 0) day\(reviewAhead == 1 ? "" : "s")"
        print(what + (plan.dueDeferred > 0 ? " (\(plan.dueDeferred) more beyond --reviews)" : ""))
        let width = studied.map(\.count).max() ?? 0
        for deck in studied {
            let taken = plan.due.filter { $0.deck == deck }.count
            guard taken > 0 || list else { continue }
            print("  \(deck.padding(toLength: width, withPad: " ", startingAt: 0))  \(taken)")
        }
        if plan.isEmpty {
            print(
                practice
                    ? "Nothing to practise: no studied entry matches."
                    : "Nothing to review ahead: no entry is due in that time.")
        }
        if list {
            for item in plan.due {
                let due = item.due.map { Timestamp.local($0) } ?? "-"
                print("  \(item.id)  recall \(Int(((item.retrievability ?? 0) * 100).rounded()))%  due \(due)")
            }
        }
    }
}
