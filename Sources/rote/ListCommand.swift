import ArgumentParser
import Foundation
import RoteStore

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List entries, one per line: id and a short gloss.",
        discussion: "With DECK (or an id prefix such as math/algebra), only those entries."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A deck name or id prefix.", valueName: "deck"))
    var deck: String?

    @Flag(help: "Also show your status with each entry (new, learning, review, ...).")
    var status = false

    func run() throws {
        let context = try CommandContext.open(global, loader: LibraryLoader(users: .all, includeSessions: false))
        context.reportLoadProblems()
        let ids = context.index.ids(inDeck: deck)
        if ids.isEmpty {
            let decks = context.library.deckOrder.joined(separator: ", ")
            throw CLIError(deck.map { "no entries in '\($0)'; decks are: \(decks)" } ?? "the library has no entries yet")
        }
        let width = min(40, ids.map(\.count).max() ?? 0)
        var out = ""
        for id in ids {
            guard let entry = context.index.entries[id] else { continue }
            let padded = id.padding(toLength: max(width, id.count), withPad: " ", startingAt: 0)
            out += status ? "\(padded)  \(context.index.status(of: id).rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))  \(entry.gloss)\n" : "\(padded)  \(entry.gloss)\n"
        }
        Terminal.output(out)
    }
}
