import Foundation
import Launch
import RoteModel
public import RoteStore

/// A text split into words and what lies between them, for the reader (`rote read` and the
/// web reader alike).
public enum ReaderText {
    public struct Token: Sendable, Equatable {
        public var text: String
        public var isWord: Bool

        public init(text: String, isWord: Bool) {
            self.text = text
            self.isWord = isWord
        }
    }

    /// Words are runs of letters and digits, with an apostrophe or hyphen inside a run kept
    /// (`don't`, `well-known`); everything else is kept between them, so the tokens put
    /// together are the text.
    public static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inWord = false
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let joiner =
                (character == "'" || character == "’" || character == "-") && inWord
                && index + 1 < characters.count && (characters[index + 1].isLetter || characters[index + 1].isNumber)
            let wordy =
                character.isLetter || character.isNumber
                || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .nonspacingMark } || joiner
            if wordy != inWord, !current.isEmpty {
                tokens.append(Token(text: current, isWord: inWord))
                current = ""
            }
            inWord = wordy
            current.append(character)
        }
        if !current.isEmpty { tokens.append(Token(text: current, isWord: inWord)) }
        return tokens
    }
}

/// A text run through the reader's index: every token with its lemma, the learner's status
/// and the lemma's rank, and what the text asks of the learner (`Library.read`).
public struct Reading: Sendable {
    public struct Token: Sendable, Equatable {
        public var text: String
        public var isWord: Bool
        /// The vocabulary entry the word is a form of; nil for a word in no deck.
        public var entry: String?
        /// The entry's headword (`ran` → `run`).
        public var lemma: String?
        public var status: LibraryIndex.Status?
        public var rank: Int?
    }

    /// A word of the text the learner does not know yet, with how often the text uses it.
    public struct Word: Sendable, Equatable {
        public var entry: String?
        public var word: String
        public var rank: Int?
        public var status: LibraryIndex.Status?
        public var count: Int
    }

    public var tokens: [Token]
    /// Words of the text, numbers left out.
    public var runningWords: Int
    /// Running words whose entry the learner knows (in review: studied to a long interval, or
    /// warm-started).
    public var knownWords: Int
    /// Running words the learner ignores (their entry, or the word in `ignored_words`).
    public var ignoredWords: Int
    /// Known running words over all running words (0 for a text without words).
    public var coverage: Double { runningWords == 0 ? 0 : Double(knownWords) / Double(runningWords) }
    /// Words in a deck the learner does not know yet (new, learning, relearning), by rank
    /// (most frequent first), each lemma once.
    public var unknown: [Word]
    /// Words in no deck, most used first, each once.
    public var notInDeck: [Word]

    /// The `count` unknown words most worth learning: new ones (not already in learning),
    /// those the text uses most first, then the most frequent in the language.
    public func mostUseful(_ count: Int) -> [Word] {
        Array(
            unknown.filter { $0.status == .new }.sorted {
                $0.count != $1.count ? $0.count > $1.count : ($0.rank ?? .max, $0.word) < ($1.rank ?? .max, $1.word)
            }.prefix(count))
    }
}

extension Library {
    /// Runs `text` through the launch index alone (no entry file is read): each word's lemma,
    /// status and rank, and the summary `rote read` prints; the web reader shows the same
    /// tokens. Numbers are not words here.
    public func read(_ text: String) throws -> Reading {
        let launch = try launch()
        let index = launch.index
        let ignored = LibraryIndex.ignoredWords(of: profile)
        var cache: [String: Reading.Token] = [:]
        var unknown: [String: Reading.Word] = [:]
        var missing: [String: Reading.Word] = [:]
        var running = 0
        var known = 0
        var ignoredCount = 0
        let tokens = ReaderText.tokens(text).map { token -> Reading.Token in
            guard token.isWord else { return Reading.Token(text: token.text, isWord: false) }
            let key = LibraryIndex.normalize(token.text)
            var answer: Reading.Token
            if let cached = cache[key] {
                answer = cached
                answer.text = token.text
            } else {
                answer = Reading.Token(text: token.text, isWord: true)
                if let number = index.lemmas(of: token.text).first {
                    answer.entry = index.id(ofEntry: number)
                    answer.status = index.status(ofEntry: number)
                    answer.rank = index.rank(ofEntry: number)
                    // The headword from the index's gloss (`word — translation (pos)`,
                    // `VocabularyEntry.gloss`): no entry file is read for a text.
                    answer.lemma = index.gloss(ofEntry: number).components(separatedBy: " — ").first
                } else if ignored.contains(key) {
                    answer.status = .ignored
                }
                cache[key] = answer
            }
            guard !token.text.allSatisfy(\.isNumber) else { return answer }
            running += 1
            switch answer.status {
            case .review?: known += 1
            case .ignored?: ignoredCount += 1
            case .suspended?: break
            case let status? where answer.entry != nil:
                let lemma = answer.lemma ?? key
                unknown[
                    answer.entry!,
                    default: Reading.Word(entry: answer.entry, word: lemma, rank: answer.rank, status: status, count: 0)
                ].count += 1
            default:
                missing[key, default: Reading.Word(entry: nil, word: key, rank: nil, status: nil, count: 0)].count += 1
            }
            return answer
        }
        return Reading(
            tokens: tokens, runningWords: running, knownWords: known, ignoredWords: ignoredCount,
            unknown: unknown.values.sorted { ($0.rank ?? .max, $0.word) < ($1.rank ?? .max, $1.word) },
            notInDeck: missing.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.word < $1.word })
    }
}
