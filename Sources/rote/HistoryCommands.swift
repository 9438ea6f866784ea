import ArgumentParser
import Foundation
import Git
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
        let root = try CommandContext.locate(rote.global)
        let user = try CommandContext.user(at: root, rote.global)
        let repository = try Repository.open(at: root)
        guard let head = try repository.headCommit() else {
            print("No commits yet.")
            return
        }
        var shown = 0
        for commit in try repository.log(from: head.id) {
            let message = commit.message
            guard SessionCommitMessage.trailer(SessionCommitMessage.sessionTrailer, in: message) != nil else {
                continue
            }
            let who = SessionCommitMessage.trailer(SessionCommitMessage.userTrailer, in: message) ?? "?"
            if !all, who != user { continue }
            let device =
                SessionCommitMessage.trailer(SessionCommitMessage.deviceTrailer, in: message).map {
                    DeviceCommand.label($0, root: root)
                } ?? "?"
            let summary = commit.summary.hasPrefix("Study: ") ? String(commit.summary.dropFirst(7)) : commit.summary
            let date = Timestamp.local(commit.authorTime)
            let recovered =
                SessionCommitMessage.trailer(SessionCommitMessage.recoveredTrailer, in: message) != nil
                ? " (recovered)" : ""
            print("\(date)  \(all ? who + "  " : "")\(device)  \(summary)\(recovered)")
            shown += 1
            if let number, shown >= number { break }
        }
        if shown == 0 { print("No study sessions committed yet for \(all ? "anyone" : user).") }
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
        print("\(reviews.count) review\(reviews.count == 1 ? "" : "s") by \(library.user)")
        for review in reviews {
            print(
                "  \(Timestamp.local(review.at))  \(review.grade.name.padding(toLength: 5, withPad: " ", startingAt: 0))"
                    + (review.ms.map { "  \($0) ms" } ?? "")
                    + (review.device.map { "  \(DeviceCommand.label($0, root: library.root))" } ?? ""))
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
