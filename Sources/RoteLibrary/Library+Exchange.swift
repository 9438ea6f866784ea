public import Exchange
public import Foundation
public import Publishing
public import RoteModel
import RoteStore

/// Content and data out of a library, decks from publishers, and this clone's device.
extension Library {
    /// A deck as a table (`csv`, `tsv`) or, for a skills deck, as a seed (`json`), read from the
    /// deck's own folder; the problems are its files that do not read, left out.
    public func exportDeck(_ deck: String, format: String) throws -> (text: String, problems: [Diagnostic]) {
        try LibraryError.surfacing {
            let (entries, problems) = settings.read(deck: deck)
            if format == "json" {
                guard decks[deck] != nil else {
                    throw LibraryError(.notFound, "no deck '\(deck)'; decks are: \(deckOrder.joined(separator: ", "))")
                }
                return (try SeedExport.json(deck: deck, manifest: decks[deck], root: root, entries: entries), problems)
            }
            return (
                try DeckExport.table(
                    deck: deck, decks: decks, deckOrder: deckOrder, entries: entries,
                    separator: format == "csv" ? "," : "\t"),
                problems
            )
        }
    }

    /// Everything of the learner (profile, progress, sessions) as files in `folder`, written
    /// as they are read, so memory stays that of one file whatever the history's size.
    /// Returns the files written and the learner's files that did not read, left out.
    public func exportLearner(format: LearnerExport.Format, to folder: URL) throws -> (
        files: [URL], problems: [Diagnostic]
    ) {
        let learner = LearnerExport.LearnerFiles(user: user, root: root)
        let files = try LibraryError.surfacing {
            try LearnerExport.write(user: user, files: learner, root: root, format: format, to: folder)
        }
        return (files, learner.problems)
    }

    /// Decks followed from a publisher's git repository (`rote deck`).
    public var publisherDecks: PublisherDecks { PublisherDecks(root: root, user: user) }

    /// This clone's device id: random, made for the clone, committed with each review.
    public var deviceID: String { DeviceIdentity.id(root: root) }

    /// This clone's name for itself, kept in the clone only; nil when it has none.
    public var deviceName: String? { DeviceIdentity.localName(root: root) }

    /// Names this clone's device (nil forgets the name); the name is never committed.
    public func nameDevice(_ name: String?) throws {
        try LibraryError.surfacing { try DeviceIdentity.setLocalName(name, root: root) }
    }
}
