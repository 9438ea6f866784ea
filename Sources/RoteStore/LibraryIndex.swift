import Foundation
public import RoteModel

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
    /// A vocabulary entry a word form belongs to, with what a reader shows at once.
    public struct Lemma: Sendable, Hashable {
        public let id: String
        public let rank: Int?
    }

    /// Lower-cased word form (`ran`, `running`, `runs`) → the vocabulary entries whose lemma
    /// it is, most frequent first.
    public let lemmasByForm: [String: [Lemma]]
    /// Vocabulary entry ids by rank, most frequent first.
    public let rankOrder: [String]
    public let progress: [String: ProgressFile]
    /// The status each progress file gives its entry, worked out once: a lookup then reads a
    /// byte instead of copying the file's review list.
    private let progressStatus: [String: Status]
    public let profile: Profile?
    /// Lower-cased words the learner ignores.
    public let ignoredWords: Set<String>

    public init(library: LoadedLibrary, user: String) {
        self.user = user
        var entries: [String: Entry] = [:]
        var forms: [String: [Lemma]] = [:]
        var ranked: [(Int, String)] = []
        entries.reserveCapacity(library.entries.count)
        for entry in library.entries {
            entries[entry.id] = entry
            guard case let .vocabulary(word) = entry.content else { continue }
            var seen = Set<String>()
            for form in [word.word] + word.forms.map(\.1) {
                let key = LibraryIndex.normalize(form)
                if !key.isEmpty, seen.insert(key).inserted {
                    forms[key, default: []].append(Lemma(id: entry.id, rank: word.rank))
                }
            }
            ranked.append((word.rank ?? Int.max, entry.id))
        }
        // Most frequent first, once here rather than on every lookup.
        for (form, ids) in forms where ids.count > 1 {
            forms[form] = ids.sorted { entries[$0.id]!.sortKey < entries[$1.id]!.sortKey }
        }
        self.entries = entries
        self.orderedIDs = library.entries.map(\.id)
        self.lemmasByForm = forms
        self.rankOrder = ranked.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
        self.progress = library.progress[user] ?? [:]
        self.progressStatus = progress.mapValues(LibraryIndex.status(of:))
        self.profile = library.profiles[user]
        self.ignoredWords = LibraryIndex.ignoredWords(of: library.profiles[user])
    }

    /// Lower-cases and trims punctuation, so a token from running text finds its form:
    /// `"Ran,"` → `ran`.
    public static func normalize(_ token: String) -> String {
        // Plain lower-case ASCII words, what a reader mostly looks up, are already normal;
        // the character-set trim below costs microseconds.
        if !token.isEmpty, token.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x27 || $0 == 0x2D }),
            token.utf8.first != 0x27, token.utf8.first != 0x2D, token.utf8.last != 0x27, token.utf8.last != 0x2D
        {
            return token
        }
        return token.lowercased().trimmingCharacters(in: trimmed)
    }

    private static let trimmed = CharacterSet.punctuationCharacters.union(.whitespaces).union(.symbols)

    /// The vocabulary entries a word form belongs to (most frequent first).
    public func lemmas(of token: String) -> [Entry] {
        (lemmasByForm[LibraryIndex.normalize(token)] ?? []).compactMap { entries[$0.id] }
    }

    /// What a reader shows for a word in running text — its lemma, the lemma's rank and the
    /// learner's status — without copying entries: the lookup behind every tap on a word.
    public func lookUp(_ token: String) -> (lemma: Lemma, status: Status)? {
        guard let lemma = lemmasByForm[LibraryIndex.normalize(token)]?.first else { return nil }
        return (lemma, status(of: lemma.id))
    }

    public func status(of id: String) -> Status {
        if let entry = entries[id], LibraryIndex.isIgnored(entry, ignoredWords: ignoredWords) { return .ignored }
        return progressStatus[id] ?? .new
    }

    /// Where a learner stands with an entry, from its progress file (nil: none) and the
    /// learner's ignored words (normalised).
    public static func status(of entry: Entry, progress: ProgressFile?, ignoredWords: Set<String>) -> Status {
        if isIgnored(entry, ignoredWords: ignoredWords) { return .ignored }
        return progress.map(status(of:)) ?? .new
    }

    /// Whether the entry is a word the learner ignores (seed 002's triage).
    static func isIgnored(_ entry: Entry, ignoredWords: Set<String>) -> Bool {
        guard !ignoredWords.isEmpty, case let .vocabulary(word) = entry.content else { return false }
        return ignoredWords.contains(LibraryIndex.normalize(word.word))
    }

    /// The learner's ignored words, normalised as lookups normalise a form.
    public static func ignoredWords(of profile: Profile?) -> Set<String> {
        Set((profile?.ignoredWords ?? []).map(LibraryIndex.normalize))
    }

    private static func status(of file: ProgressFile) -> Status {
        status(file: file.status, hasScheduledReviews: !file.scheduledReviews.isEmpty, state: file.state)
    }

    /// The status a progress file gives its entry: its own status unless active, then new
    /// until a review after the last reset has given it a state, then the state's phase.
    public static func status(file: ProgressFile.Status, hasScheduledReviews: Bool, state: MemoryState?) -> Status {
        switch file {
        case .ignored: return .ignored
        case .suspended: return .suspended
        case .active: break
        }
        guard hasScheduledReviews, let state else { return .new }
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
