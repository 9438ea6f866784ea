import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel

/// `rote undo`: takes back the learner's last study session or last single write in one new
/// commit (`Library.undo`).
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back your last study session or last single write (review, suspend, reset, known…).",
        discussion: """
            Makes one new commit, "Undo: …", that says what it took back; history is never \
            rewritten, so it syncs like any change. The session's reviews stay in their files, \
            marked `undone:`, and schedule nothing: each entry's due date and memory state are \
            what they were before. The session file and any other file the write changed \
            (your profile, letter attempts) go back to how they were.

            Refused, with the later change named, when something after it depends on it: a \
            later review of one of its entries, or a later change to a file it changed (a hand \
            edit, another device's change merged in). Nothing is written then. Run `rote undo` \
            again to take back the write before; a commit that changed anything outside your \
            own folder (an import, `rote add`) is left to `git revert`.
            """)

    @ParentCommand var rote: RoteCommand

    @Flag(help: "Say what would be undone, and change nothing.")
    var dryRun = false

    func run() throws {
        let library = try CommandContext.library(rote.global)
        let undo = try library.undo(dryRun: dryRun)
        let what = undo.isSession ? "session" : "write"
        print(
            "\(dryRun ? "Would undo" : "Undid") the \(what) of \(Timestamp.local(undo.date)): \(undo.subject)")
        if undo.reviewsUndone > 0 {
            let marked = dryRun ? "would be marked undone" : "marked undone"
            print(
                "  \(undo.reviewsUndone) review\(undo.reviewsUndone == 1 ? "" : "s") \(marked) (kept in the history; an undone review schedules nothing)"
            )
        }
        if undo.reviewsRestored > 0 {
            print("  \(undo.reviewsRestored) removed review\(undo.reviewsRestored == 1 ? "" : "s") put back")
        }
        if !undo.entries.isEmpty {
            let shown = undo.entries.prefix(8).joined(separator: ", ")
            print("  back as before: \(shown)\(undo.entries.count > 8 ? ", … (\(undo.entries.count) entries)" : "")")
        }
        for path in undo.restored { print("  put back: \(path)") }
        if let commit = undo.undoCommit { print("Committed \(commit.prefix(10)).") }
        if dryRun { print("Nothing changed (--dry-run).") }
    }
}
