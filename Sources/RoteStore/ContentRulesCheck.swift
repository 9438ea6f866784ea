import Foundation
import RoteModel

/// The content-quality rules of `rote check` that look across a deck's words (the rules inside
/// one entry live with its codec, in `VocabularyEntry` and `ContentQuality`):
/// - a rank belongs to one word of a deck (ranks follow frequency);
/// - in a deck whose learners read Arabic (`languages: {target: ar}`), `translation` and every
///   alternative have Arabic letters;
/// - a multiple-choice distractor that is itself a word of the deck (reverse translation: its
///   word; translation match: its translation) has the answer's part of speech, so no choice
///   can be ruled out by grammar alone. English uses many words as both noun and verb (work,
///   love, help) and as both adjective and adverb (fast, hard, early), while a deck has one
///   entry for the word: those two pairs count as the same part of speech here.
/// All are warnings: the entry still studies.
enum ContentRulesCheck {
    static func problems(entries: [FileFacts.EntryFacts], decks: [String: DeckManifest], _ finder: LineFinder) -> [Diagnostic] {
        var words: [String: [(entry: FileFacts.EntryFacts, word: String, pos: String, quality: FileFacts.VocabularyFacts)]] = [:]
        for entry in entries {
            if case let .vocabulary(word, pos, quality) = entry.content { words[entry.deck, default: []].append((entry, word, pos, quality)) }
        }
        var problems: [Diagnostic] = []
        for deck in words.keys.sorted() {
            let deckWords = words[deck] ?? []
            var ranks: [Int: String] = [:]
            var partsByWord: [String: Set<String>] = [:]
            var partsByTranslation: [String: Set<String>] = [:]
            for item in deckWords {
                partsByWord[key(item.word), default: []].insert(item.pos)
                for translation in item.quality.translations { partsByTranslation[key(translation), default: []].insert(item.pos) }
            }
            let arabic = decks[deck]?.targetLanguage?.lowercased() == "ar"
            for (entry, word, pos, quality) in deckWords {
                let path = entry.path
                if let rank = quality.rank {
                    if let other = ranks[rank] {
                        problems.append(.warning(path, finder.line(containing: "rank:", in: path), "rank \(rank) is also the rank of \(other); ranks follow frequency, one word each"))
                    } else {
                        ranks[rank] = path
                    }
                }
                if arabic {
                    for field in quality.nonArabic {
                        let name = field.hasPrefix("alternatives") ? "alternatives:" : "translation:"
                        problems.append(.warning(path, finder.line(containing: name, in: path), "\(field) has no Arabic letter, but this deck's learners read Arabic (languages: {target: ar}); write it in Arabic script"))
                    }
                }
                for question in quality.questions {
                    let parts = question.kind == VocabularyQuestion.Kind.reverseTranslation.rawValue ? partsByWord : partsByTranslation
                    for distractor in question.distractors {
                        guard let found = parts[key(distractor)], !found.contains(where: { sameRole($0, pos) }) else { continue }
                        problems.append(.warning(
                            path, finder.line(containing: "id: \(question.id)", in: path),
                            "question '\(question.id)': distractor '\(distractor)' is \(article(found.sorted().joined(separator: "/"))) in this deck, but '\(word)' is \(article(pos)); use a wrong answer of the same part of speech"))
                    }
                }
            }
        }
        return problems
    }

    /// Whether a distractor of part of speech `a` can stand for an answer of part of speech `b`.
    static func sameRole(_ a: String, _ b: String) -> Bool {
        a == b || Set([a, b]) == ["noun", "verb"] || Set([a, b]) == ["adjective", "adverb"]
    }

    /// `a verb`, `an adjective`.
    static func article(_ noun: String) -> String { ("aeiou".contains(noun.first ?? "x") ? "an " : "a ") + noun }

    static func key(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
}
