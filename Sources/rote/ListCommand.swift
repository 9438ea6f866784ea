import ArgumentParser
import Foundation
import RoteLibrary
import RoteStore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List entries, one per line: id and a short gloss.",
        discussion: """
            With DECK (or an id prefix such as math/algebra), only those entries. With --leeches, \
            only the entries forgotten as often as their deck's leech_threshold (8 unless the \
            deck or your profile sets it), most lapses first, with their lapses and whether they \
            are suspended.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("A deck name or id prefix.", valueName: "deck"))
    var deck: String?

    @Flag(help: "Also show your status with each entry (new, learning, review, ...).")
    var status = false

    @Flag(help: "Only leeches: entries forgotten as often as their deck's leech threshold.")
    var leeches = false

    func run() throws {
        let library = try CommandContext.library(rote.global)
        if leeches { return try listLeeches(library) }
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

    func listLeeches(_ library: Library) throws {
        if let deck, try library.list(deck: deck).isEmpty {
            throw CLIError("no entries in '\(deck)'; decks are: \(library.deckOrder.joined(separator: ", "))")
        }
        let found = try library.leeches(deck: deck)
        guard !found.isEmpty else {
            print(
                "No leeches\(deck.map { " in \($0)" } ?? ""): no entry has been forgotten as often as its deck's leech threshold."
            )
            return
        }
        let width = min(40, found.map(\.id.count).max() ?? 0)
        for leech in found {
            let id =
                leech.id.count >= width ? leech.id : leech.id + String(repeating: " ", count: width - leech.id.count)
            print("\(id)  \(leech.lapses) lapses\(leech.suspended ? ", suspended" : "")  \(leech.gloss)")
        }
        let suspended = found.filter(\.suspended).count
        print(
            "\(found.count) leech\(found.count == 1 ? "" : "es")\(suspended > 0 ? ", \(suspended) suspended" : ""). Rewrite them (a mnemonic, a clearer example); `rote activate ID` brings a suspended one back."
        )
    }
}
