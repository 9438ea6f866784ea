public import Foundation
public import RoteModel

/// Everything read from a library's files, with every problem found on the way. Loading never
/// stops at a bad file: it is reported here and left out, and the rest is usable.
public struct LoadedLibrary: Sendable {
    public var root: URL
    public var manifest: LibraryManifest?
    /// Deck manifests by deck name.
    public var decks: [String: DeckManifest] = [:]
    /// All entries that read cleanly, in study order (deck order, then each deck's order).
    public var entries: [Entry] = []
    /// Skills decks' domains and skills, keyed by `<deck>/<domain>` and `<deck>/<domain>/<skill>`.
    public var domains: [String: SkillDomain] = [:]
    public var skills: [String: Skill] = [:]
    public var profiles: [String: Profile] = [:]
    /// Progress by user, then entry id.
    public var progress: [String: [String: ProgressFile]] = [:]
    public var sessions: [String: [SessionFile]] = [:]
    /// Tracing attempts by user, then letter entry id.
    public var letterAttempts: [String: [String: LetterAttemptsFile]] = [:]
    public var diagnostics: [Diagnostic] = []
    /// Number of library files read.
    public var fileCount = 0

    public init(root: URL) { self.root = root }

    /// Deck names in study order: as `rote.yaml` lists them, then the rest alphabetically.
    public var deckOrder: [String] { LoadedLibrary.deckOrder(manifest: manifest, decks: decks) }

    /// Deck names in study order: as `rote.yaml` lists them, then the rest alphabetically.
    public static func deckOrder(manifest: LibraryManifest?, decks: [String: DeckManifest]) -> [String] {
        let listed = (manifest?.decks ?? []).filter { decks[$0] != nil }
        return listed + decks.keys.filter { !listed.contains($0) }.sorted()
    }

    /// Entries by id; builds the map, so build it once per operation, not once per lookup.
    public func entriesByID() -> [String: Entry] {
        Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}
