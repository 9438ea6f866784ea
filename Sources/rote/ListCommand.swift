import ArgumentParser
import Foundation
import RoteLibrary
import RoteStore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List entries, one per line: id and a short gloss.",
        discussion: "With DECK (or an id prefix such as math/algebra), only those entries."
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("A deck name or id prefix.", valueName: "deck"))
    var deck: String?

    @Flag(help: "Also show your status with each entry (new, learning, review, ...).")
    var status = false

    func run() throws {
        let library = try CommandContext.library(rote.global)
        let entries = try library.list(deck: deck)
        CommandContext.report(try library.unreadableEntries())
        if entries.isEmpty {
            let decks = library.deckOrder.joined(separator: ", ")
            throw CLIError(
                deck.map { "no entries in '\($0)'; decks are: \(decks)" } ?? "the library has no entries yet")
        }
        let width = min(40, entries.map(\.id.count).max() ?? 0)
        // Padding by hand: Foundation's `padding(toLength:)` took a third of a 100k list.
        func padded(_ text: String, to width: Int) -> String {
            let count = text.count
            return count >= width ? text : text + String(repeating: " ", count: width - count)
        }
        var out = ""
        out.reserveCapacity(entries.count * 64)
        for entry in entries {
            out += padded(entry.id, to: width)
            if status { out += "  " + padded(entry.status.rawValue, to: 10) }
            out += "  " + entry.gloss + "\n"
        }
        Terminal.output(out)
    }
}
