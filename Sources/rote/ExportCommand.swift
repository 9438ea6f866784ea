import ArgumentParser
import Exchange
import Foundation
import RoteLibrary
import RoteStore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export a learner's data (json or csv), or a deck's content (--deck: csv or tsv; a skills deck as seed JSON).",
        discussion: """
            Without --deck: everything of one learner — profile, progress with every review, \
            sessions with every attempt, saved content — as one JSON file (<user>.json) or a \
            folder of CSV files (profile, progress, reviews, sessions, attempts, saved), written \
            into --out (default: ./rote-export-<user>). The formats are in docs/import-export.md.

            With --deck: a vocabulary or passages deck as a table with a header row, in the \
            columns `rote import` reads, to --out (a file) or stdout; a skills deck with --format \
            json as one JSON file of domains, skills and questions, which \
            `rote import FILE.json --deck NAME` reads back. \
            Examples: rote export --user ana --format json; rote export --deck kjv --format tsv --out kjv.tsv; \
            rote export --deck math --format json --out math.json
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(help: ArgumentHelp("json or csv (learner); csv or tsv (deck); json (skills deck).", valueName: "format"))
    var format: String = "json"

    @Option(help: ArgumentHelp("A deck to export as a table instead of a learner.", valueName: "deck"))
    var deck: String?

    @Option(
        help: ArgumentHelp("Learner: the folder to write into. Deck: the file (default stdout).", valueName: "path"))
    var out: String?

    func run() throws {
        if let deck {
            guard ["csv", "tsv", "json"].contains(format) else {
                throw ValidationError("a deck exports as csv, tsv or (a skills deck) json, not '\(format)'")
            }
            let (text, problems) = try CommandContext.library(rote.global).exportDeck(deck, format: format)
            CommandContext.report(problems)
            if let out {
                try AtomicFile.write(text, to: URL(fileURLWithPath: out))
                Terminal.note("Wrote \(deck) to \(out).")
            } else {
                Terminal.data(text)
            }
            return
        }
        guard let format = LearnerExport.Format(rawValue: format) else {
            throw ValidationError("a learner exports as json or csv, not '\(self.format)'")
        }
        let library = try CommandContext.library(rote.global)
        let user = library.user
        let folder = URL(fileURLWithPath: out ?? "rote-export-\(user)")
        let (files, problems) = try library.exportLearner(format: format, to: folder)
        CommandContext.report(problems)
        print("Exported \(user)'s data to \(folder.path): \(files.map(\.lastPathComponent).joined(separator: ", ")).")
    }
}
