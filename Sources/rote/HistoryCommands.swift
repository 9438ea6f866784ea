import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Study sessions from the commit history: date, device, counts, duration.",
        discussion:
            "Reads the Rote-Session trailers of the library's commits, newest first; plain `git log` shows the same commits."
    )

    @ParentCommand var rote: RoteCommand

    @Option(name: .shortAndLong, help: ArgumentHelp("Show at most this many sessions.", valueName: "n"))
    var number: Int?

    @Flag(help: "Sessions of every learner, not just yours.")
    var all = false

    func run() throws {
        let library = try CommandContext.library(rote.global)
        let sessions = try library.sessionCommits(allLearners: all, limit: number)
        for session in sessions {
            let device = session.device.map { DeviceCommand.label($0, root: library.root) } ?? "?"
            print(
                "\(Timestamp.local(session.date))  \(all ? session.user + "  " : "")\(device)  \(session.summary)\(session.recovered ? " (recovered)" : "")\(session.undone ? " (undone)" : "")"
            )
        }
        if sessions.isEmpty { print("No study sessions committed yet for \(all ? "anyone" : library.user).") }
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "An entry's reviews, and the commits that touched it (its content or your progress).",
        discussion: "ID is an entry id such as english-a1/run; a word form finds its entry too."
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("Entry id, or a word.", valueName: "id"))
    var id: String

    func run() throws {
        let library = try CommandContext.library(rote.global)
        let entry = try library.entry(named: id)
        let reviews = library.progress(of: entry.id)?.reviews ?? []
        print("\(entry.id) — \(entry.gloss)")
        print(
            "\(reviews.count) review\(reviews.count == 1 ? "" : "s") by \(library.user)"
                + EntryPresenter.undoneNote(reviews))
        for review in reviews {
            var line =
                "  \(Timestamp.local(review.at))  \(review.grade.name.padding(toLength: 5, withPad: " ", startingAt: 0))"
            if let ms = review.ms { line += "  \(ms) ms" }
            if let device = review.device { line += "  \(DeviceCommand.label(device, root: library.root))" }
            print(line + EntryPresenter.undoneMark(review))
        }
        let commits = try library.commits(touching: entry)
        print("commits:")
        for commit in commits {
            print(
                "  \(commit.id.prefix(10))  \(Timestamp.localDay(commit.date))  [\(commit.touched.joined(separator: "+"))]  \(commit.summary)"
            )
        }
        if commits.isEmpty { print("  none yet (changes not committed)") }
    }
}
