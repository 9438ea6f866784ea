import ArgumentParser
import Exchange
import Foundation
import RoteLibrary
import RoteModel
import RoteStore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import content: a skills seed (.json), a table (.csv, .tsv, .txt) or an Anki package (.apkg, .colpkg) with its history.",
        discussion: """
            FILE.json is the skills seed format (domains, skills and questions; docs/import-export.md). \
            Hard violations — a required field missing, a wrong type, an invalid payload, a \
            duplicate slug or id, a slug outside ^[a-z0-9_]+$ — block the import and are all \
            listed with their JSON path; missing optional fields are warnings. --fix-slugs turns \
            'linear-equations' into 'linear_equations' instead of blocking.

            FILE.csv / .tsv / .txt is a table whose header row names the fields (word, pos, \
            translation, … or reference, text, …), or an Anki text export with #separator: and \
            #columns: headers. Rows with a problem are skipped and listed by line; rows that do \
            not match the header's column count block the import.

            FILE.apkg / .colpkg is an Anki deck or collection: notes become entries, media is \
            copied, and Anki's review log becomes your review history, so each entry's FSRS \
            state is rebuilt by replay (docs/decks.md). Fields map by --fields or --mapping. \
            Both Anki's current format (collection.anki21b) and the legacy one are read.

            --mode append (the default) adds what is new and keeps entries already in the deck \
            as they are; --mode override rewrites them from the file. An import is one commit, \
            all or nothing. Examples: rote import seed.json --deck math --fix-slugs; \
            rote import words.csv --deck travel --kind vocabulary; \
            rote import french.apkg --fields Front=word,Back=translation
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("The file to import: .json, .csv, .tsv, .txt, .apkg or .colpkg.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The deck to import into (default: the file's name).", valueName: "name"))
    var deck: String?

    @Option(help: ArgumentHelp("append (keep existing entries) or override (rewrite them).", valueName: "mode"))
    var mode: String = "append"

    @Option(
        help: ArgumentHelp(
            "Tables: vocabulary or passage (default: the deck's kind, or guessed from the columns).", valueName: "kind")
    )
    var kind: String?

    @Option(help: ArgumentHelp("Title of the deck when the import creates it.", valueName: "title"))
    var title: String?

    @Flag(help: "Seeds: use the underscore form of slugs that break ^[a-z0-9_]+$ instead of blocking.")
    var fixSlugs = false

    @Flag(help: "Check and report, write nothing.")
    var dryRun = false

    @Option(
        help: ArgumentHelp(
            "Anki: a YAML file mapping Anki fields to Rote fields (see docs/decks.md).", valueName: "file.yaml"))
    var mapping: String?

    @Option(help: ArgumentHelp("Anki: Anki field → Rote field, e.g. Front=word,Back=translation.", valueName: "pairs"))
    var fields: String?

    func run() throws {
        let fileExtension = URL(fileURLWithPath: file).pathExtension.lowercased()
        if ["apkg", "colpkg"].contains(fileExtension) {
            if kind != nil || fixSlugs || dryRun || title != nil || mode != "append" {
                throw ValidationError(
                    "--kind, --mode, --title, --fix-slugs and --dry-run are for seeds and tables; an Anki package takes --deck, --fields and --mapping"
                )
            }
            return try AnkiPackageImport(global: rote.global, file: file, deck: deck, mapping: mapping, fields: fields)
                .run()
        }
        if mapping != nil || fields != nil {
            throw ValidationError("--fields and --mapping are for Anki packages (.apkg, .colpkg)")
        }
        guard let mode = SeedImporter.Mode(rawValue: mode) else {
            throw ValidationError("unknown --mode '\(self.mode)'; use append or override")
        }
        let tableKind = try kind.map { name in
            guard let kind = TableKind(name: name) else {
                throw ValidationError("unknown --kind '\(name)'; use vocabulary or passage")
            }
            return kind
        }
        let url = URL(fileURLWithPath: file)
        guard fileExtension == "json" || ["csv", "tsv", "txt"].contains(fileExtension) else {
            throw CLIError(
                "\(file): unknown kind of file; import .json (skills seed), .csv, .tsv or .txt (tables), or .apkg / .colpkg (Anki)"
            )
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CLIError("\(file): cannot read it (no such file, or not readable)")
        }
        let stem = url.deletingPathExtension().lastPathComponent
        let deck = self.deck ?? Slug.make(from: stem)
        let isJSON = url.pathExtension.lowercased() == "json"
        if isJSON, tableKind != nil { throw ValidationError("--kind is for tables; a .json file is a skills seed") }
        if !isJSON, fixSlugs { throw ValidationError("--fix-slugs is for skills seeds (.json)") }

        let library = try CommandContext.library(rote.global)
        let (plan, commit) = try library.importContent(
            data, from: url.lastPathComponent,
            as: isJSON
                ? .seed(SeedImporter(deck: deck, mode: mode, fixSlugs: fixSlugs, file: file, deckTitle: title))
                : .table(TableImporter(deck: deck, kind: tableKind, mode: mode, file: file, deckTitle: title)),
            mode: mode, dryRun: dryRun)
        for line in plan.issueLines { print(line) }
        print(plan.summary(dryRun: dryRun))
        if plan.isBlocked { throw ExitCode.failure }
        if let commit {
            print("Committed \(commit.prefix(7)); see it with `git -C \(library.root.path) show --stat HEAD`.")
        }
    }
}
