import ArgumentParser
import Foundation
import LibGit
import RoteStore
import RoteSync
import Study

struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record one review of an entry from outside a study session (an app, a script, a paper quiz).",
        discussion: """
            Appends the review to your progress file for ID, replays the schedule, and commits \
            it as a one-review session, so it shows in `rote log` and syncs like any study. \
            Example: rote review english-a1/run good --ms 3200
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Entry id, or a word.", valueName: "id"))
    var id: String

    @Argument(help: ArgumentHelp("again, hard, good or easy (or 1-4).", valueName: "grade"))
    var grade: String

    @Option(help: ArgumentHelp("How long the answer took, in milliseconds.", valueName: "ms"))
    var ms: Int?

    @Option(name: .customLong("id"), help: ArgumentHelp(
        "A unique id for this review (e.g. a UUID your app made). Recording the same id again changes nothing, so a failed call can be retried safely.",
        valueName: "review-id"))
    var reviewID: String?

    func validate() throws {
        if let reviewID, !ReviewEvent.isValidID(reviewID) {
            throw ValidationError("'\(reviewID)' is not a usable review id; use 1–100 letters, digits, '-', '_' or '.'")
        }
    }

    func run() throws {
        guard let grade = Grade(name: grade) else {
            throw ValidationError("unknown grade '\(self.grade)'; use again, hard, good or easy (or 1-4)")
        }
        let context = try CommandContext.open(global, loader: LibraryLoader(users: .all, includeSessions: false))
        let entry = try context.entry(named: id)
        try context.requireProfile()
        do {
            let lock = try LibraryLock(root: context.root, purpose: "review")
            defer { withExtendedLifetime(lock) {} }
            let git = try LibraryGit.forWriting(root: context.root, user: context.user)
            for upgrade in try ContentUpgrade.run(library: context.library, user: context.user, git: git) {
                for line in ContentUpgrade.describe(upgrade) { Terminal.note(line) }
            }
            let now = Date()
            let recorder = ReviewRecorder(root: context.root, user: context.user, device: git.device, library: context.library)
            let before = try recorder.current(entry.id)
            if let reviewID, let earlier = before.reviews.first(where: { $0.id == reviewID }) {
                print("Already recorded: review \(reviewID) (\(earlier.grade.name) at \(Timestamp.format(earlier.at))) for \(entry.id); nothing changed.")
                return
            }
            let wasNew = before.reviews.isEmpty
            let written = try recorder.recorded(entry: entry.id, grade: grade, at: now, ms: ms, id: reviewID ?? UUID().uuidString.lowercased())
            var session = SessionFile(id: UUID().uuidString.lowercased(), user: context.user, device: git.device, kind: wasNew ? .learning : .review,
                                      startedAt: Timestamp.wholeSeconds(now), endedAt: Timestamp.wholeSeconds(now), decks: [entry.deck],
                                      new: wasNew ? 1 : 0,
                                      attempts: [.init(entry: entry.id, question: "review", answer: grade.name, correct: grade != .again, at: Timestamp.wholeSeconds(now), ms: ms ?? 0)])
            switch grade {
            case .again: session.again = 1
            case .hard: session.hard = 1
            case .good: session.good = 1
            case .easy: session.easy = 1
            }
            // All or nothing: a failed commit leaves no file behind, so exit 1 means "not recorded".
            try git.applySession(session, progress: [written.path: written.data])
            let state = written.file.state
            print("Recorded \(grade.name) for \(entry.id); next due \(state.map { Timestamp.format($0.due) } ?? "—").")
        } catch {
            throw CLIError.explaining(error)
        }
    }
}
