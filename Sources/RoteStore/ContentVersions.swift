public import Foundation
import Git
public import RoteModel

/// A deck whose version differs from the one a learner last saw (seed 003's content version),
/// with what changed in between.
public struct DeckUpgrade: Sendable, Equatable {
    public var deck: String
    public var kind: DeckKind
    /// The version the learner saw last; nil when none is recorded (first sight: nothing to
    /// upgrade, the version is just recorded).
    public var from: String?
    public var to: String
    /// Entries new since `from`, and entries gone since then; nil when `from` is not in the
    /// library's history, so the difference cannot be listed.
    public var added: [String]?
    public var removed: [String]?
    /// Of the removed entries, those the learner has history for (kept, never deleted).
    public var removedWithHistory: [String]

    public init(
        deck: String, kind: DeckKind, from: String?, to: String, added: [String]? = nil, removed: [String]? = nil,
        removedWithHistory: [String] = []
    ) {
        self.deck = deck
        self.kind = kind
        self.from = from
        self.to = to
        self.added = added
        self.removed = removed
        self.removedWithHistory = removedWithHistory
    }

    /// True when a version was recorded and it changed: the upgrade rule runs.
    public var isUpgrade: Bool { from != nil }
}

/// Compares each deck's `version` with the one recorded in the learner's profile
/// (`deck_versions`) and works out what changed, from the library's own git history: the
/// entries of the newest commit whose deck.yaml had the recorded version, against the entries
/// now.
package enum ContentVersions {
    /// How far back the history is searched for an earlier version.
    package static let historyLimit = 5000

    /// Whether any deck changed version since the learner last saw it (a deck never seen is
    /// only recorded, not upgraded): the question a launch asks before anything is parsed.
    package static func hasUpgrade(decks: [String: DeckManifest], profile: Profile?) -> Bool {
        guard let profile else { return false }
        return decks.contains { deck, manifest in profile.seenVersion(of: deck).map { $0 != manifest.version } ?? false
        }
    }

    /// The decks whose version `user` has not seen, in study order; empty for a learner
    /// without a profile.
    package static func pending(_ library: LoadedLibrary, user: String) -> [DeckUpgrade] {
        guard let profile = library.profiles[user] else { return [] }
        var result: [DeckUpgrade] = []
        var history: [Commit]?
        var repository: Repository?
        for deck in library.deckOrder {
            guard let manifest = library.decks[deck] else { continue }
            let seen = profile.seenVersion(of: deck)
            if seen == manifest.version { continue }
            guard let seen else {
                result.append(DeckUpgrade(deck: deck, kind: manifest.kind, from: nil, to: manifest.version))
                continue
            }
            if history == nil {
                repository = try? Repository.open(at: library.root)
                history =
                    (try? repository?.headCommit().map { try repository!.log(from: $0.id, limit: historyLimit) } ?? [])
                    ?? []
            }
            var upgrade = DeckUpgrade(deck: deck, kind: manifest.kind, from: seen, to: manifest.version)
            if let repository,
                let before = entryIDs(of: deck, atVersion: seen, in: history ?? [], repository: repository)
            {
                let now = Set(library.entries.filter { $0.deck == deck }.map(\.id))
                upgrade.added = now.subtracting(before).sorted()
                upgrade.removed = before.subtracting(now).sorted()
                let progress = library.progress[user] ?? [:]
                upgrade.removedWithHistory = upgrade.removed!.filter {
                    progress[$0].map { !$0.reviews.isEmpty } ?? false
                }
            }
            result.append(upgrade)
        }
        return result
    }

    /// The entry ids of `deck` in the newest commit whose deck.yaml has `version`.
    static func entryIDs(of deck: String, atVersion version: String, in history: [Commit], repository: Repository)
        -> Set<String>?
    {
        let manifestPath = LibraryPaths.deckManifest(deck)
        for commit in history {
            guard let tree = try? commit.tree(), let id = tree.entryID(atPath: manifestPath),
                let data = try? repository.blob(id),
                DeckManifest.decode(data, path: manifestPath).0?.version == version,
                let files = try? tree.files()
            else { continue }
            var ids = Set<String>()
            for file in files where file.path.hasPrefix(LibraryPaths.content(deck) + "/") {
                if case let .success(.entry(_, entry)) = LibraryFile.classify(file.path) { ids.insert(entry) }
            }
            return ids
        }
        return nil
    }
}

extension ContentVersions {
    /// `user`'s profile.yaml with `versions` (deck → version) recorded as seen, for commands
    /// that add a deck to stamp it in the same commit; nil when the learner has no readable
    /// profile or nothing changes.
    package static func profileSeeing(_ versions: [String: String], user: String, root: URL, now: Date) -> (
        path: String, data: Data
    )? {
        let path = LibraryPaths(user: user).profile
        // Bookkeeping only: a profile that does not read in full is never rewritten for it.
        guard let data = FileManager.default.contents(atPath: root.appending(path: path).path),
            var profile = try? ReadBeforeRewrite.decode(Profile.self, data, at: path)
        else { return nil }
        let before = profile
        for (deck, version) in versions.sorted(by: { $0.key < $1.key }) { profile.setSeenVersion(version, of: deck) }
        guard profile != before else { return nil }
        profile.updatedAt = Timestamp.wholeSeconds(now)
        return (path, Data(profile.render().utf8))
    }
}
