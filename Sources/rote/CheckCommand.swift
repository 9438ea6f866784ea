import ArgumentParser
import Foundation
import RoteModel
import RoteStore
import Scheduling
import Study

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every file of the library.",
        discussion: """
            Prints one line per problem as `path:line: error|warning: message`. Exits 1 when \
            there is any error, 0 when there are only warnings. Warnings never stop a library \
            from loading; an error leaves the file it is in out of the library until fixed. \
            Files unchanged since the last check (same size, times and inode) are not read \
            again: their problems are kept in .git/rote/check.cache. --all reads every file.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Flag(name: .customLong("quiet"), help: "Print errors only, not warnings.")
    var quiet = false

    @Flag(
        name: .customLong("repair"),
        help: ArgumentHelp(
            "Rebuild each progress file that does not read from the lines that still do (reviews, status), in one commit, and remove temporary files left by writes that were killed. Prints what was kept and what was dropped."
        ))
    var repair = false

    @Flag(
        name: .customLong("all"),
        help: ArgumentHelp(
            "Read every file again, on every core, rather than only those changed since the last check."))
    var all = false

    func run() throws {
        let root = try CommandContext.locate(rote.global)
        if repair {
            let context = try CommandContext.openReadingEveryFile(rote.global, sessions: true)
            _ = try Repair.run(context)
        }
        let result = try LibraryCheck.run(root: root, everything: all)
        for problem in result.diagnostics where !(quiet && problem.severity == .warning) {
            print(problem.description)
        }
        let errors = result.errors.count
        let warnings = result.warnings.count
        let summary =
            "\(result.fileCount) files, \(result.entryCount) entries in \(result.deckCount) decks: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        Terminal.note(summary)
        if errors > 0 { throw ExitCode(1) }
    }
}

/// `rote check --repair`: explicit salvage of progress files that do not read.
enum Repair {
    /// Returns whether any file was removed or rewritten.
    static func run(_ context: CommandContext) throws -> Bool {
        let writer = try LibraryWriter(root: context.root, user: context.user, purpose: "check --repair")
        defer { withExtendedLifetime(writer) {} }
        var removed = 0
        for leftover in AtomicFile.leftovers(in: context.root) where leftover.abandoned {
            try FileManager.default.removeItem(at: context.root.appending(path: leftover.path))
            Terminal.note("removed \(leftover.path), a temporary file of a write that was killed")
            removed += 1
        }
        let broken = Set(context.library.errors.map(\.path)).sorted()
        var changes: [String: Data?] = [:]
        var kept = 0
        let git = writer.git
        // git's status of the whole library is asked only when there is a file to repair.
        var pending: Set<String>?
        for path in broken {
            guard case let .success(.progress(user, entry)) = LibraryFile.classify(path),
                let data = FileManager.default.contents(atPath: context.root.appending(path: path).path)
            else { continue }
            let deck = String(entry.split(separator: "/")[0])
            let settings = SchedulerSettings.forDeck(
                context.library.decks[deck], profile: context.library.profiles[user], deckName: deck)
            let outcome = ProgressRepair.salvage(data, path: path, entry: entry, settings: settings)
            if pending == nil { pending = Set(try git.pendingPaths()) }
            if pending?.contains(path) == true {
                // Never committed: its text would be gone from everywhere once rewritten.
                let copy = context.root.appending(
                    path: ".git/rote/repaired/\(path).\(Int(Date().timeIntervalSince1970))")
                try AtomicFile.write(data, to: copy)
                Terminal.note("kept the old text of \(path) in \(copy.path)")
            }
            changes[path] = Data(outcome.file.render().utf8)
            kept += outcome.reviews
            print(
                "repaired \(path): kept \(outcome.reviews) review\(outcome.reviews == 1 ? "" : "s")\(outcome.dropped.isEmpty ? "" : ", dropped \(outcome.dropped.count) line\(outcome.dropped.count == 1 ? "" : "s"):")"
            )
            for (line, text) in outcome.dropped { print("  \(path):\(line): \(text)") }
        }
        guard !changes.isEmpty else {
            Terminal.note("no progress file needed repair")
            return removed > 0
        }
        try git.apply(
            changes: changes,
            message: CommitMessage(
                subject:
                    "Repair: \(changes.count) progress file\(changes.count == 1 ? "" : "s") rebuilt from their readable lines (\(kept) review\(kept == 1 ? "" : "s") kept)"
            ))
        return true
    }
}
