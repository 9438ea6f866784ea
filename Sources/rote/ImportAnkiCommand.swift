import AnkiImport
import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore

/// `rote import FILE.apkg|.colpkg`: an Anki package with its review history (`Import` hands
/// Anki files here).
struct AnkiPackageImport {
    var global: GlobalOptions
    var file: String
    var deck: String?
    var mapping: String?
    var fields: String?

    func run() throws {
        let library = try CommandContext.library(global)
        let user = library.user
        let url = URL(fileURLWithPath: file)
        var fieldMapping = AnkiFieldMapping()
        if let mapping {
            let mappingURL = URL(fileURLWithPath: mapping)
            guard let data = FileManager.default.contents(atPath: mappingURL.path) else {
                throw CLIError("\(mapping): cannot read the mapping file")
            }
            fieldMapping = try AnkiFieldMapping.read(data, path: mapping)
        }
        if let fields { fieldMapping = fieldMapping.overridden(by: try AnkiFieldMapping.parse(flag: fields)) }
        let report = try library.importAnkiPackage(at: url, deck: deck, mapping: fieldMapping)
        for deck in report.decks {
            print(
                "\(deck.created ? "Created" : "Updated") deck \(deck.name) (\(deck.kind.rawValue)): \(deck.entriesAdded) entr\(deck.entriesAdded == 1 ? "y" : "ies") added"
                    + (deck.entriesKept > 0 ? ", \(deck.entriesKept) already here and kept" : "") + ".")
        }
        print(
            "History for \(user): \(report.reviewsAdded) review\(report.reviewsAdded == 1 ? "" : "s") added in \(report.progressFiles) progress file\(report.progressFiles == 1 ? "" : "s")"
                + (report.mediaAdded > 0
                    ? "; \(report.mediaAdded) media file\(report.mediaAdded == 1 ? "" : "s") copied." : "."))
        if report.profileCreated { print("Created \(LibraryPaths(user: user).profile) for the history.") }
        if let line = report.multiCardSummary { print(line + ".") }
        if !report.skipped.isEmpty {
            Terminal.note("Skipped \(report.skipped.count) note\(report.skipped.count == 1 ? "" : "s"):")
            for reason in report.skipped.prefix(20) { Terminal.note("  \(reason)") }
            if report.skipped.count > 20 { Terminal.note("  … and \(report.skipped.count - 20) more") }
        }
        for warning in report.warnings { Terminal.note("\(url.lastPathComponent): warning: \(warning)") }
        if let commit = report.commit {
            print("Committed \(commit.prefix(10)).")
        } else {
            print("Nothing new: everything in \(url.lastPathComponent) is already in the library.")
        }
    }
}
