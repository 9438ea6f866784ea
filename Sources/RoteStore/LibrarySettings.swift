public import Foundation
import Parallelism
public import RoteModel

/// The few files every operation on a library starts from — `rote.yaml`, every deck's
/// `deck.yaml`, one learner's profile — and a deck's entries, read on their own: what an
/// operation that touches one deck needs, without the full load's walk of every file.
public struct LibrarySettings: Sendable {
    public let root: URL
    public let user: String
    public let manifest: LibraryManifest?
    /// Every deck's manifest that reads, by deck name.
    public let decks: [String: DeckManifest]
    /// The learner's profile; nil when there is none or it does not read.
    public let profile: Profile?

    /// Reads the settings of the library at `root`; throws only when there is no library.
    public init(root: URL, user: String) throws {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        let manifestURL = root.appending(path: LibraryLocation.manifestName)
        guard let manifestData = FileManager.default.contents(atPath: manifestURL.path) else {
            throw LibraryError(
                .notALibrary,
                "\(manifestURL.path): missing, so this is not a Rote library; create one with `rote init \(root.path)`")
        }
        self.root = root
        self.user = user
        manifest = LibraryManifest.decode(manifestData, path: LibraryLocation.manifestName).0
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: LibraryPaths.corpus).path)) ?? []
        decks = LibrarySettings.readDecks(names, root: root)
        profile = LibrarySettings.readProfile(of: user, root: root)
    }

    /// The manifests of the decks with these names that read (`corpus/<name>/deck.yaml`).
    public static func readDecks(_ names: [String], root: URL) -> [String: DeckManifest] {
        var decks: [String: DeckManifest] = [:]
        for name in names {
            let path = LibraryPaths.deckManifest(name)
            guard case .success(.deckManifest) = LibraryFile.classify(path),
                let data = FileManager.default.contents(atPath: root.appending(path: path).path),
                let manifest = DeckManifest.decode(data, path: path).0
            else { continue }
            decks[name] = manifest
        }
        return decks
    }

    /// A learner's profile, when it reads.
    public static func readProfile(of user: String, root: URL) -> Profile? {
        let path = LibraryPaths(user: user).profile
        return FileManager.default.contents(atPath: root.appending(path: path).path).flatMap {
            Profile.decode($0, path: path).0
        }
    }

    /// Deck names in study order, as `rote.yaml` lists them and then the rest by name.
    public var deckOrder: [String] { LoadedLibrary.deckOrder(manifest: manifest, decks: decks) }

    /// A deck's entries in study order, read from its own folder.
    public func entries(inDeck deck: String) -> [Entry] { read(deck: deck).entries }

    /// A deck's entries in study order, and the errors of its entry files that gave none.
    public func read(deck: String) -> (entries: [Entry], problems: [Diagnostic]) {
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        let decks = decks
        let root = root
        let results = loader.listFiles(root, under: [LibraryPaths.content(deck)]).0.concurrentMap {
            path -> (Entry?, [Diagnostic]) in
            guard let parsed = loader.parse(root: root, path: path, decks: decks) else { return (nil, []) }
            guard case let .entry(entry)? = parsed.value else {
                return (nil, parsed.problems.filter { $0.severity == .error })
            }
            return (entry, [])
        }
        let entries = LibraryLoader.sortedInStudyOrder(results.compactMap(\.0), deckOrder: deckOrder)
        return (entries, results.flatMap(\.1).sorted(by: Diagnostic.fileOrder))
    }
}
