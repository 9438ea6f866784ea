import ArgumentParser
import Foundation
import RoteStore

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

    func run() throws {
        let context = try CommandContext.open(global, sessions: true)
        let library = context.library
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
