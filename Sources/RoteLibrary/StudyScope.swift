import Foundation
import RoteModel
import RoteStore

/// What a study session takes on, from the names `rote study` was given: whole decks, or one
/// domain or skill of a skills deck (`math/algebra`, `math/algebra/linear_equations`), and
/// with tags only the passages carrying one of them.
public struct StudyScope: Sendable {
    /// The decks the names fall in, in the order given; empty for every deck.
    public var decks: [String]
    /// Id prefixes (`math/algebra/`) an entry must start with; empty for whole decks.
    public var prefixes: [String]
    /// Ids of the tagged passages; nil without tags.
    public var tagged: Set<String>?
    /// The skill, when the scope is exactly one skill (recorded on the session).
    public var skill: String?

    /// Whether an entry is in scope; nil when every entry of the decks is.
    public var admits: (@Sendable (String) -> Bool)? {
        guard !prefixes.isEmpty || tagged != nil else { return nil }
        let prefixes = prefixes
        let tagged = tagged
        return { id in
            (prefixes.isEmpty || prefixes.contains { id.hasPrefix($0) }) && (tagged?.contains(id) ?? true)
        }
    }
}

extension Library {
    /// The scope of `names` and `tags`. A name with a slash must be a domain (`domain.yaml`)
    /// or skill (`skill.yaml`) folder of a skills deck; a tag must be on some passage of the
    /// decks studied. The error names what there is instead.
    public func studyScope(_ names: [String], tags: [String] = []) throws -> StudyScope {
        var scope = StudyScope(decks: [], prefixes: [], tagged: nil, skill: nil)
        var wholeDecks = Set<String>()
        var skills: [String] = []
        for name in names {
            let parts = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard let deck = parts.first else { continue }
            if !scope.decks.contains(deck) { scope.decks.append(deck) }
            guard parts.count > 1 else {
                wholeDecks.insert(deck)
                continue
            }
            let path = parts.joined(separator: "/")
            let folder = root.appending(path: LibraryPaths.content(path))
            let isSkill = FileManager.default.fileExists(atPath: folder.appending(path: "skill.yaml").path)
            let isDomain = FileManager.default.fileExists(atPath: folder.appending(path: "domain.yaml").path)
            guard decks[deck] != nil, parts.allSatisfy({ Slug.isValidSegment($0) }), isSkill || isDomain else {
                let known =
                    decks[deck] == nil
                    ? [] : try ids(inDeck: deck).map { $0.split(separator: "/").dropLast().joined(separator: "/") }
                // The skills (and their domains) beside the name given, else all of the deck's.
                let parent = parts.dropLast().joined(separator: "/") + "/"
                let skills = Set(known.filter { $0.contains("/") })
                let domains = Set(skills.map { $0.split(separator: "/").prefix(2).joined(separator: "/") })
                let beside = skills.union(domains).filter { $0.hasPrefix(parent) }
                let near = (beside.isEmpty ? Array(domains) : Array(beside)).sorted().prefix(12)
                throw LibraryError(
                    .notFound,
                    "no domain or skill \(path)"
                        + (near.isEmpty
                            ? "; give a deck, or a domain or skill folder of a skills deck (math/algebra)"
                            : "; try \(near.joined(separator: ", "))"))
            }
            scope.prefixes.append(path + "/")
            if isSkill { skills.append(path) }
        }
        // A whole deck named beside a part of it takes the whole deck.
        for deck in wholeDecks { scope.prefixes.append(deck + "/") }
        if !scope.prefixes.isEmpty, scope.prefixes.count == skills.count, skills.count == 1 { scope.skill = skills[0] }
        if !tags.isEmpty {
            let wanted = Set(tags.map { $0.lowercased() })
            var tagged = Set<String>()
            var seen = Set<String>()
            for deck in (scope.decks.isEmpty ? deckOrder : scope.decks) where decks[deck]?.kind == .passages {
                for entry in entries(inDeck: deck) {
                    guard case let .passage(passage) = entry.content else { continue }
                    let entryTags = Set(passage.tags.map { $0.lowercased() })
                    seen.formUnion(entryTags)
                    if !entryTags.isDisjoint(with: wanted) { tagged.insert(entry.id) }
                }
            }
            guard !tagged.isEmpty else {
                throw LibraryError(
                    .notFound,
                    "no passage tagged \(tags.joined(separator: ", "))"
                        + (seen.isEmpty
                            ? "; no passage has tags" : "; tags are: \(seen.sorted().joined(separator: ", "))"))
            }
            scope.tagged = tagged
        }
        return scope
    }
}
