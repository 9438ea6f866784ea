import ArgumentParser
import Foundation
import RoteModel
import RoteStore
import RoteSync
import Scheduling
import Study

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate every file of the library.",
        discussion: """
            Prints one line per problem as `path:line: error|warning: message`. Exits 1 when \
            there is any error, 0 when there are only warnings. Warnings never stop a library \
            from loading; an error leaves the file it is in out of the library until fixed.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(name: .customLong("quiet"), help: "Print errors only, not warnings.")
    var quiet = false

    @Flag(name: .customLong("repair"), help: ArgumentHelp(
        "Rebuild each progress file that does not read from the lines that still do (reviews, status), in one commit, and remove temporary files left by writes that were killed. Prints what was kept and what was dropped."))
    var repair = false

    func run() throws {
        let context = try CommandContext.open(global, sessions: true)
        // The library is read again only when the repair changed files.
        let library = try repair && Repair.run(context) ? CommandContext.open(global, sessions: true).library : context.library
        var printed = 0
        for problem in library.diagnostics where !(quiet && problem.severity == .warning) {
            print(problem.description)
            printed += 1
        }
        let errors = library.errors.count, warnings = library.warnings.count
        let summary = "\(library.fileCount) files, \(library.entries.count) entries in \(library.decks.count) decks: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        Terminal.note(summary)
        if errors > 0 { throw ExitCode(1) }
    }
}

/// `rote check --repair`: explicit salvage of progress files that do not read.
enum Repair {
    /// Returns whether any file was removed or rewritten.
    static func run(_ context: CommandContext) throws -> Bool {
        do {
            let lock = try LibraryLock(root: context.root, purpose: "check --repair")
            defer { withExtendedLifetime(lock) {} }
            var removed = 0
            for leftover in AtomicFile.leftovers(in: context.root) where leftover.abandoned {
                try FileManager.default.removeItem(at: context.root.appending(path: leftover.path))
                Terminal.note("removed \(leftover.path), a temporary file of a write that was killed")
                removed += 1
            }
            let broken = Set(context.library.errors.map(\.path)).sorted()
            var changes: [String: Data?] = [:]
            var kept = 0
            let git = try LibraryGit.forWriting(root: context.root, user: context.user)
            // git's status of the whole library is asked only when there is a file to repair.
            var pending: Set<String>?
            for path in broken {
                guard case let .success(.progress(user, entry)) = LibraryFile.classify(path),
                    let data = FileManager.default.contents(atPath: context.root.appending(path: path).path)
                else { continue }
                let deck = String(entry.split(separator: "/")[0])
                let settings = SchedulerSettings.forDeck(context.library.decks[deck], profile: context.library.profiles[user], deckName: deck)
                let outcome = ProgressRepair.salvage(data, path: path, entry: entry, settings: settings)
                if pending == nil { pending = Set(try git.pendingPaths()) }
                if pending?.contains(path) == true {
                    // Never committed: its text would be gone from everywhere once rewritten.
                    let copy = context.root.appending(path: ".git/rote/repaired/\(path).\(Int(Date().timeIntervalSince1970))")
                    try AtomicFile.write(data, to: copy)
                    Terminal.note("kept the old text of \(path) in \(copy.path)")
                }
                changes[path] = Data(outcome.file.render().utf8)
                kept += outcome.reviews
                print("repaired \(path): kept \(outcome.reviews) review\(outcome.reviews == 1 ? "" : "s")\(outcome.dropped.isEmpty ? "" : ", dropped \(outcome.dropped.count) line\(outcome.dropped.count == 1 ? "" : "s"):")")
                for (line, text) in outcome.dropped { print("  \(path):\(line): \(text)") }
            }
            guard !changes.isEmpty else {
                Terminal.note("no progress file needed repair")
                return removed > 0
            }
            let message = "Repair: \(changes.count) progress file\(changes.count == 1 ? "" : "s") rebuilt from their readable lines (\(kept) review\(kept == 1 ? "" : "s") kept)\n\n"
                + "\(SessionCommitMessage.deviceTrailer): \(git.device)\n\(SessionCommitMessage.userTrailer): \(context.user)\n"
            try git.apply(changes: changes, message: message)
            return true
        } catch {
            throw CLIError.explaining(error)
        }
    }
}
