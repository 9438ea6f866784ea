import ArgumentParser
import Foundation
import RoteLibrary
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
            try Repair.run(CommandContext.library(rote.global))
        }
        let result = try LibraryCheck.run(root: root, everything: all)
        for problem in result.diagnostics where !(quiet && problem.severity == .warning) {
            print(problem.description)
        }
        let errors = result.errors.count
        let warnings = result.warnings.count
        let summary =
            "\(result.fileCount) files, \(result.entryCount) entries in \(result.deckCount) decks: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        // The summary is the check's answer, so it goes where its problems go (a script reads
        // both from stdout); only what goes wrong running the check goes to stderr.
        print(summary)
        if errors > 0 { throw ExitCode(1) }
    }
}

/// `rote check --repair`: explicit salvage of progress files that do not read.
enum Repair {
    static func run(_ library: Library) throws {
        let report = try library.repair()
        for path in report.removedTemporaryFiles {
            Terminal.note("removed \(path), a temporary file of a write that was killed")
        }
        for file in report.repaired {
            if let copy = file.keptCopy { Terminal.note("kept the old text of \(file.path) in \(copy.path)") }
            let dropped = file.dropped.count
            print(
                "repaired \(file.path): kept \(file.reviews) review\(file.reviews == 1 ? "" : "s")\(dropped == 0 ? "" : ", dropped \(dropped) line\(dropped == 1 ? "" : "s"):")"
            )
            for (line, text) in file.dropped { print("  \(file.path):\(line): \(text)") }
        }
        if report.repaired.isEmpty { Terminal.note("no progress file needed repair") }
    }
}
