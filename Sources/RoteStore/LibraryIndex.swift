import Foundation

/// The in-memory index one learner's commands work from: entries by id, every inflected form
/// to its lemma, rank order, and the learner's status per entry. Built once per launch from
/// a `LoadedLibrary`; every lookup is a hash-map read.
public struct LibraryIndex: Sendable {
    /// Where a learner stands with an entry.
    public enum Status: String, Sendable, Hashable {
        case new, learning, review, relearning, suspended, ignored
    }

    public let user: String
    public let entries: [String: Entry]
    /// All entry ids in study order.
    public let orderedIDs: [String]
    /// Lower-cased word form (`ran`, `running`, `runs`) → vocabulary entry ids whose lemma it is.
    public let lemmasByForm: [String: [String]]
    /// Vocabulary entry ids by rank, most frequent first.
    public let rankOrder: [String]
    public let progress: [String: ProgressFile]
    public let profile: Profile?
    /// Lower-cased words the learner ignores.
    public let ignoredWords: Set<String>

    public init(library: LoadedLibrary, user: String) {
        self.user = user
        var entries: [String: Entry] = [:]
        var forms: [String: [String]] = [:]
        var ranked: [(Int, String)] = []
        entries.reserveCapacity(library.entries.count)
        for entry in library.entries {
            entries[entry.id] = entry
            guard case let .vocabulary(word) = entry.content else { continue }
            var seen = Set<String>()
            for form in [word.word] + word.forms.map(\.1) {
                let key = LibraryIndex.normalize(form)
                if !key.isEmpty, seen.insert(key).inserted { forms[key, default: []].append(entry.id) }
            }
            ranked.append((word.rank ?? Int.max, entry.id))
        }
        self.entries = entries
        self.orderedIDs = library.entries.map(\.id)
        self.lemmasByForm = forms
        self.rankOrder = ranked.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
        self.progress = library.progress[user] ?? [:]
        self.profile = library.profiles[user]
        self.ignoredWords = Set((library.profiles[user]?.ignoredWords ?? []).map(LibraryIndex.normalize))
    }

    /// Lower-cases and trims punctuation, so a token from running text finds its form:
    /// `"Ran,"` → `ran`.
    public static func normalize(_ token: String) -> String {
        token.lowercased().trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.whitespaces).union(.symbols))
    }

    /// The vocabulary entries a word form belongs to (most frequent first).
    public func lemmas(of token: String) -> [Entry] {
        (lemmasByForm[LibraryIndex.normalize(token)] ?? []).compactMap { entries[$0] }
            .sorted { $0.sortKey < $1.sortKey }
    }

    public func status(of id: String) -> Status {
        if let entry = entries[id], case let .vocabulary(word) = entry.content, ignoredWords.contains(LibraryIndex.normalize(word.word)) {
            return .ignored
        }
        guard let file = progress[id] else { return .new }
        switch file.status {
        case .ignored: return .ignored
        case .suspended: return .suspended
        case .active: break
        }
        guard !file.scheduledReviews.isEmpty, let state = file.state else { return .new }
        switch state.phase {
        case .learning: return .learning
        case .review: return .review
        case .relearning: return .relearning
        }
    }

    /// Entry ids starting with a deck name or id prefix, in study order.
    public func ids(inDeck deck: String?) -> [String] {
        guard let deck else { return orderedIDs }
        return orderedIDs.filter { $0 == deck || $0.hasPrefix(deck + "/") }
    }
}
