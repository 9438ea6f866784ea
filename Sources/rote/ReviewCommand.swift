import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import Study

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Record one review of an entry from outside a study session (an app, a script, a paper quiz).",
        discussion: """
            Appends the review to your progress file for ID, replays the schedule, and commits \
            it as a one-review session, so it shows in `rote log` and syncs like any study. \
            Example: rote review english-a1/run good --ms 3200
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("Entry id, or a word.", valueName: "id"))
    var id: String

    @Argument(help: ArgumentHelp("again, hard, good or easy (or 1-4).", valueName: "grade"))
    var grade: String

    @Option(help: ArgumentHelp("How long the answer took, in milliseconds.", valueName: "ms"))
    var ms: Int?

    @Option(
        name: .customLong("id"),
        help: ArgumentHelp(
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
        let library = try CommandContext.library(rote.global)
        let recorded = try library.recordReview(
            of: try library.entry(named: id), grade: grade, ms: ms, reviewID: reviewID)
        for upgrade in recorded.upgrades {
            for line in ContentUpgrade.describe(upgrade) { Terminal.note(line) }
        }
        switch recorded.outcome {
        case let .alreadyRecorded(earlier):
            print(
                "Already recorded: review \(earlier.id) (\(earlier.grade.name) at \(Timestamp.local(earlier.at))) for \(recorded.entry.id); nothing changed."
            )
        case let .recorded(file):
            print(
                "Recorded \(grade.name) for \(recorded.entry.id); next due \(file.state.map { Timestamp.local($0.due) } ?? "—")."
            )
            if recorded.becameLeech, let lapses = file.state?.lapses {
                print(
                    file.status == .suspended
                        ? "Leech: forgotten \(lapses) times, so it is suspended (its deck's leech_action). Rewrite it, then `rote activate \(recorded.entry.id)` brings it back."
                        : "Leech: forgotten \(lapses) times. Rewrite it (a mnemonic, a clearer example), or `rote suspend \(recorded.entry.id)` takes it out of study."
                )
            }
        }
    }
}
