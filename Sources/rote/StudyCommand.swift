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

    @Flag(help: "List every planned entry, not just the counts.")
    var list = false

    @Flag(help: "Print the plan and stop, without studying.")
    var plan = false

    func validate() throws {
        for (name, value) in [("--new", new), ("--reviews", reviews), ("--minutes", minutes)] {
            if let value, value < 0 { throw ValidationError("\(name) must be 0 or more, got \(value)") }
        }
    }

    func run() throws {
        let library = try CommandContext.library(rote.global)
        let start = try library.startStudy(
            decks: decks, tags: tag,
            limits: StudyLimits(new: new, reviewsPerDay: reviews, minutes: minutes, drafts: drafts),
            planOnly: plan)
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
}
