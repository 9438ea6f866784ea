import Foundation
import RoteModel

/// The content-quality rules of `rote check` that look across a deck's words (the rules inside
/// one entry live with its codec, in `VocabularyEntry` and `ContentQuality`):
/// - a rank belongs to one word of a deck (ranks follow frequency);
/// - in a deck whose learners read Arabic (`languages: {target: ar}`), `translation` and every
///   alternative have Arabic letters;
/// - a reverse-translation distractor that is itself a word of the deck has the answer's part
///   of speech, so no choice can be ruled out by grammar alone. English uses many words in two
///   parts of speech (work, clean, when, his) while a deck has one entry for the word: the pairs
///   in `sharedRoles` count as one here. Translation-match distractors are translations, not
///   the deck's words, and Arabic ones name several words too often to be matched to one (من is
///   from, than and who; نفسه is same and himself), so they are not judged.
/// All are warnings: the entry still studies.
enum ContentRulesCheck {
    static func problems(entries: [FileFacts.EntryFacts], decks: [String: DeckManifest], _ finder: LineFinder)
        -> [Diagnostic]
    {
        var words:
            [String: [(entry: FileFacts.EntryFacts, word: String, pos: String, quality: FileFacts.VocabularyFacts)]] =
                [:]
        for entry in entries {
            if case let .vocabulary(word, pos, quality) = entry.content {
                words[entry.deck, default: []].append((entry, word, pos, quality))
            }
        }
        var problems: [Diagnostic] = []
        for deck in words.keys.sorted() {
            let deckWords = words[deck] ?? []
            var ranks: [Int: String] = [:]
            var partsByWord: [String: Set<String>] = [:]
            for item in deckWords { partsByWord[key(item.word), default: []].insert(item.pos) }
            let arabic = decks[deck]?.targetLanguage?.lowercased() == "ar"
            for (entry, word, pos, quality) in deckWords {
                let path = entry.path
                if let rank = quality.rank {
                    if let other = ranks[rank] {
                        problems.append(
                            .warning(
                                path, finder.line(containing: "rank:", in: path),
                                "rank \(rank) is also the rank of \(other); ranks follow frequency, one word each"))
                    } else {
                        ranks[rank] = path
                    }
                }
                if arabic {
                    for field in quality.nonArabic {
                        let name = field.hasPrefix("alternatives") ? "alternatives:" : "translation:"
                        problems.append(
                            .warning(
                                path, finder.line(containing: name, in: path),
                                "\(field) has no Arabic letter, but this deck's learners read Arabic (languages: {target: ar}); write it in Arabic script"
                            ))
                    }
                }
                for question in quality.questions {
                    for distractor in question.distractors {
                        guard let found = partsByWord[key(distractor)], !found.contains(where: { sameRole($0, pos) })
                        else { continue }
                        problems.append(
                            .warning(
                                path, finder.line(containing: "id: \(question.id)", in: path),
                                "question '\(question.id)': distractor '\(distractor)' is \(article(found.sorted().joined(separator: "/"))) in this deck, but '\(word)' is \(article(pos)); use a wrong answer of the same part of speech"
                            ))
                    }
                }
            }
        }
        return problems
    }

    /// Parts of speech English words commonly share, so a deck's one entry for the word does not
    /// tell its part of speech in a distractor: conversion (*work*, *clean*, *kind*, *fast*),
    /// particles (*inside*), subordinators (*when*, *until*), possessives (*his*), ordinals
    /// (*first*), exclamations (*sorry*, *no*), question words (*what*, *where*), quantifiers
    /// (*half*, *all*) and *near*, *like*. Measured on the 894-word english-a1 deck, these pairs
    /// are where the rule only raised false alarms.
    static let sharedRoles: Set<Set<String>> = [
        ["noun", "verb"], ["noun", "adjective"], ["adjective", "verb"], ["adjective", "adverb"],
        ["adverb", "preposition"], ["adverb", "conjunction"], ["preposition", "conjunction"],
        ["determiner", "pronoun"], ["number", "adjective"], ["number", "noun"], ["number", "determiner"],
        ["interjection", "adjective"], ["interjection", "adverb"], ["interjection", "determiner"],
        ["interjection", "noun"],
        ["pronoun", "adverb"], ["noun", "determiner"], ["adjective", "preposition"],
    ]

    /// Whether a distractor of part of speech `a` can stand for an answer of part of speech `b`.
    static func sameRole(_ a: String, _ b: String) -> Bool {
        a == b || sharedRoles.contains([a, b])
    }

    /// `a verb`, `an adjective`.
    static func article(_ noun: String) -> String { ("aeiou".contains(noun.first ?? "x") ? "an " : "a ") + noun }

    static func key(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
}
