import AnkiImport
import ArgumentParser
import Foundation
import LibGit
import RoteStore
import RoteSync

struct ImportAnki: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an Anki deck (.apkg) or collection (.colpkg) with its review history.",
        discussion: """
            Notes become entries (Basic-like note types a vocabulary deck, cloze note types a \
            passages deck), media files are copied into the deck, and every answer in Anki's \
            review log becomes a review event of yours, so each entry's FSRS state is rebuilt \
            by replay. It is one commit; importing the same deck again adds only what is new.

            Anki 2.1.50+ exports a compressed format by default: tick "Support older Anki \
            versions" when exporting.

            Examples:
              rote import french.apkg
              rote import french.apkg --deck french --fields Front=word,Back=translation
              rote import collection.colpkg --mapping anki-fields.yaml
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The .apkg or .colpkg file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Deck name in the library (default: the Anki deck's name).", valueName: "name"))
    var deck: String?

    @Option(help: ArgumentHelp("A YAML file mapping Anki fields to Rote fields (see docs/decks.md).", valueName: "file.yaml"))
    var mapping: String?

    @Option(help: ArgumentHelp("Anki field → Rote field, e.g. Front=word,Back=translation.", valueName: "pairs"))
    var fields: String?

    func run() throws {
        let root = try CommandContext.locate(global)
        let user = CommandContext.user(at: root, global)
        let url = URL(fileURLWithPath: file)
        guard ["apkg", "colpkg"].contains(url.pathExtension.lowercased()) else {
            throw CLIError("\(file): rote import reads Anki packages here (.apkg, .colpkg); export the deck from Anki with File › Export")
        }
        do {
            var fieldMapping = AnkiFieldMapping()
            if let mapping {
                let mappingURL = URL(fileURLWithPath: mapping)
                guard let data = FileManager.default.contents(atPath: mappingURL.path) else {
                    throw CLIError("\(mapping): cannot read the mapping file")
                }
                fieldMapping = try AnkiFieldMapping.read(data, path: mapping)
            }
            if let fields { fieldMapping = fieldMapping.overridden(by: try AnkiFieldMapping.parse(flag: fields)) }
            let report = try AnkiImporter(root: root).importPackage(at: url, options: .init(deck: deck, mapping: fieldMapping, user: user))
            for deck in report.decks {
                print("\(deck.created ? "Created" : "Updated") deck \(deck.name) (\(deck.kind.rawValue)): \(deck.entriesAdded) entr\(deck.entriesAdded == 1 ? "y" : "ies") added" + (deck.entriesKept > 0 ? ", \(deck.entriesKept) already here and kept" : "") + ".")
            }
            print("History for \(user): \(report.reviewsAdded) review\(report.reviewsAdded == 1 ? "" : "s") added in \(report.progressFiles) progress file\(report.progressFiles == 1 ? "" : "s")" + (report.mediaAdded > 0 ? "; \(report.mediaAdded) media file\(report.mediaAdded == 1 ? "" : "s") copied." : "."))
            if report.profileCreated { print("Created profiles/\(user)/profile.yaml for the history.") }
            if !report.skipped.isEmpty {
                Terminal.note("Skipped \(report.skipped.count) note\(report.skipped.count == 1 ? "" : "s"):")
                for reason in report.skipped.prefix(20) { Terminal.note("  \(reason)") }
                if report.skipped.count > 20 { Terminal.note("  … and \(report.skipped.count - 20) more") }
            }
            if let commit = report.commit {
                print("Committed \(commit.prefix(10)).")
            } else {
                print("Nothing new: everything in \(url.lastPathComponent) is already in the library.")
            }
        } catch let error as AnkiImportError {
            throw CLIError(error.message)
        } catch let busy as LibraryLock.Busy {
            throw CLIError(busy.description)
        } catch let error as LibraryError {
            throw CLIError(error.message)
        } catch let error as SyncError {
            throw CLIError(error.message)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
    }
}
