import ArgumentParser
import Foundation
import LaunchIndex
import RoteLibrary
import RoteStore
import LibGit
import Study

struct StudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "study",
        abstract: "Plan today's study session: due entries first (lowest recall first), then new ones.",
        discussion: """
            Takes due entries within your daily review limit, lowest retrievability first, and \
            tops up with new entries in deck order (rank order for vocabulary) up to your \
            new-per-day limit and working-set budget. Ignored and suspended entries and \
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
            NO_COLOR is set. When stdin is not a terminal, one answer per line: a choice \
            number, typed text, a step order such as `2 1 3`, again|hard|good|easy, or the \
            words undo, suspend, ignore, quit; the end of input stops and saves.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Decks to study (default: all).", valueName: "deck"))
    var decks: [String] = []

    @Option(help: ArgumentHelp("New entries at most (default: profile's new_per_day).", valueName: "n"))
    var new: Int?

    @Option(help: ArgumentHelp("Reviews at most (default: profile's reviews_per_day).", valueName: "n"))
    var reviews: Int?

    @Option(help: ArgumentHelp("Minutes you have; the plan fits your usual pace.", valueName: "m"))
    var minutes: Int?

    @Flag(help: "Include unpublished (draft) skills content.")
    var drafts = false

    @Flag(inversion: .prefixedNo, help: "Type vocabulary answers instead of choosing (default: profile's typed_answers).")
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
        let root = try CommandContext.locate(global)
        let user = try CommandContext.user(at: root, global)
        let writer: LibraryWriter
        let git: LibraryGit
        let launch: LibraryLaunch
        do {
            writer = try LibraryWriter(root: root, user: user, purpose: "study")
            git = writer.git
            if try StudySessionRunner.recoverInterruptedSession(root: root, git: git) {
                Terminal.note("Committed the answers of an interrupted session (see `rote log`).")
            }
            launch = try Library(root: root, user: user, announce: Terminal.note).launch()
        } catch let error as LibraryError {
            throw CLIError(error.message)
        } catch let busy as LibraryLock.Busy {
            throw CLIError(busy.description)
        } catch let error as SyncError {
            throw CLIError(error.message)
        }
        defer { withExtendedLifetime(writer) {} }
        // A deck whose version changed since the learner last saw it runs its upgrade rule,
        // which lists the entries added and removed: that takes the parsed library.
        if !plan, ContentVersions.hasUpgrade(decks: launch.decks, profile: launch.profile) {
            return try studyAfterContentUpgrade(root: root, git: git)
        }
        try checkDecks(known: launch.index.settings.decks.filter { launch.decks[$0] != nil })
        let planner = launch.planner()
        let limits = SessionPlanner.Limits.from(launch.profile, newPerDay: new, reviewsPerDay: reviews, minutes: minutes, drafts: drafts)
        let plan = planner.plan(decks: decks, limits: limits, now: Date())
        show(plan, decks: planner.studyableDecks(decks), user: user)
        // `--plan` stops here: the launch index answered, nothing was parsed.
        guard !self.plan, !plan.isEmpty else { return }
        guard launch.profile != nil else { throw StudyCommand.noLearner(user) }
        try study(plan, runner: StudySessionRunner(root: root, user: user, source: LaunchStudySource(launch), git: git, console: console), profile: launch.profile)
    }

    private var console: any StudyConsole { TerminalConsole.isAvailable ? TerminalConsole() : LineConsole() }

    /// The session after a content upgrade, from the parsed library.
    private func studyAfterContentUpgrade(root: URL, git: LibraryGit) throws {
        let context = try CommandContext.open(global, loader: LibraryLoader(users: .all, includeSessions: false))
        context.reportLoadProblems()
        try checkDecks(known: context.library.deckOrder)
        do {
            for upgrade in try ContentUpgrade.run(library: context.library, user: context.user, git: git) {
                for line in ContentUpgrade.describe(upgrade) { Terminal.note(line) }
            }
        } catch let error as SyncError {
            throw CLIError(error.message)
        }
        let planner = SessionPlanner(library: context.library, index: context.index)
        let limits = SessionPlanner.Limits.from(context.index.profile, newPerDay: new, reviewsPerDay: reviews, minutes: minutes, drafts: drafts)
        let plan = planner.plan(decks: decks, limits: limits, now: Date())
        show(plan, decks: planner.studyableDecks(decks), user: context.user)
        guard !plan.isEmpty else { return }
        guard context.library.profiles[context.user] != nil else { throw StudyCommand.noLearner(context.user) }
        let runner = StudySessionRunner(root: context.root, user: context.user, library: context.library, index: context.index, git: git, console: console)
        try study(plan, runner: runner, profile: context.index.profile)
    }

    /// Refuses decks the library does not have, naming those it has.
    private func checkDecks(known: [String]) throws {
        let unknown = decks.filter { !known.contains($0) }
        if !unknown.isEmpty { throw CLIError("no deck \(unknown.joined(separator: ", ")); decks are: \(known.joined(separator: ", "))") }
    }

    private static func noLearner(_ user: String) -> CLIError {
        CLIError("no learner '\(user)' in this library (profiles/\(user)/profile.yaml); use --user NAME")
    }

    private func study(_ plan: SessionPlan, runner: StudySessionRunner, profile: Profile?) throws {
        runner.typedAnswers = typed ?? profile?.settings.typedAnswers ?? false
        let session: SessionFile?
        do {
            session = try runner.run(plan: plan)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
        guard let session else {
            // Only passages were planned and the learner has not agreed to keeping them.
            if runner.refusedPassages { throw CLIError("passage study refused: " + Profile.passagesConsentRefusal(entry: nil)) }
            print("Nothing answered; nothing saved.")
            return
        }
        print("\n" + StudySummary.render(session, nextDue: runner.nextDue(), now: Date(), statusChanges: runner.statusChanges.count))
    }

    private func show(_ plan: SessionPlan, decks studied: [String], user: String) {
        print("Study plan for \(user): \(plan.due.count) due, \(plan.new.count) new" + (plan.dueDeferred > 0 ? " (\(plan.dueDeferred) more due beyond today's limit)" : ""))
        let width = studied.map(\.count).max() ?? 0
        for deck in studied {
            let due = plan.due.filter { $0.deck == deck }.count, fresh = plan.new.filter { $0.deck == deck }.count
            guard due + fresh > 0 || list else { continue }
            print("  \(deck.padding(toLength: width, withPad: " ", startingAt: 0))  \(due) due · \(fresh) new")
        }
        if plan.isEmpty {
            print("Nothing to study right now" + (plan.reviewedToday > 0 ? " — \(plan.reviewedToday) reviews done today." : "."))
        }
        if list {
            for item in plan.due { print("  due  \(item.id)  recall \(Int(((item.retrievability ?? 0) * 100).rounded()))%") }
            for item in plan.new { print("  new  \(item.id)") }
        }
    }
}
