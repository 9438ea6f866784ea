public import RoteModel

/// A rung of seed 004's acquisition ladder, from first reading to graduated review.
public enum LadderLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Read the passage aloud (first time).
    case read1
    /// Read it aloud again.
    case read2
    /// Say what it means to you.
    case reflect
    /// Every clause with 1–2 content words blanked.
    case cloze1
    /// One whole clause blanked, a different one each time until every clause was.
    case cloze2
    /// Only the first two words of each clause shown.
    case cloze3
    /// Recite it all, with a hint (the next word) on demand.
    case recite
    /// Graduated: reviewed by typed recall on FSRS's schedule.
    case review

    /// The next rung up (review stays review).
    public var up: LadderLevel { Self.allCases[min(index + 1, Self.allCases.count - 1)] }
    /// The next rung down (read1 stays read1).
    public var down: LadderLevel { Self.allCases[max(index - 1, 0)] }

    var index: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (lhs: LadderLevel, rhs: LadderLevel) -> Bool { lhs.index < rhs.index }

    /// The rung as a learner reads it: what they are asked to do there.
    public var learnerName: String {
        switch self {
        case .read1: "reading it aloud"
        case .read2: "reading it aloud again"
        case .reflect: "saying what it means to you"
        case .cloze1: "filling in a few missing words"
        case .cloze2: "filling in a missing clause"
        case .cloze3: "reciting from the first words of each clause"
        case .recite: "reciting it all"
        case .review: "review"
        }
    }
}

/// How one attempt at a rung went.
package enum LadderOutcome: String, Sendable, Hashable, Codable {
    /// Move up one rung (cloze2: once every clause was blanked and recalled).
    case success
    /// Drop one rung and try again (seed 004: "at any point, on failure: reduce one level").
    case failure
    /// Stay on the rung: a recitation that needed hints was neither failed nor passed alone.
    case retry
}

/// What a rung shows: an instruction and the text with blanks as `____` (`＿` for an
/// ideograph), plus the words behind the blanks for checking.
package struct LadderPrompt: Sendable, Equatable {
    package var level: LadderLevel
    package var reference: String
    package var instruction: String
    /// The passage as shown: whole, with `____` blanks, or empty for recitation.
    package var text: String
    /// The words behind the `____` blanks, in reading order (punctuation outside them stays
    /// visible in `text`).
    package var blanks: [String]
    /// cloze2: the index of the removed clause.
    package var removedClause: Int?

    /// Per blank, whether the typed word matches (case, surrounding punctuation and Arabic
    /// harakat ignored); a missing answer is wrong.
    package func check(_ answers: [String]) -> [Bool] {
        blanks.indices.map { index in
            index < answers.count && TypedAnswer.matches(answers[index], accepted: [blanks[index]])
        }
    }

    /// `check` of a typed line, cut into words as the passage is (white space, and every
    /// ideograph on its own, so `爱神` answers two blanks).
    package func check(typed reply: String) -> [Bool] {
        check(ClauseWord.answerWords(reply))
    }
}

/// Seed 004's acquisition ladder for one passage, as a state machine over `LadderLevel`.
///
/// Read twice, reflect, three cloze rounds on the clauses, recite with hints, then graduate
/// to review. Success moves up one rung — except cloze2, which stays until every clause has
/// been removed once (the state remembers which); a failure drops one rung, never below read1
/// (a failed review drops to recite, so a forgotten passage is rebuilt with hints). `retry`
/// stays. Every recorded attempt counts in `attempts`, which with the entry id decides which
/// words cloze1 blanks: the same on every device and every run, different from attempt to
/// attempt.
///
/// ```swift
/// var ladder = PassageLadder()
/// let prompt = ladder.prompt(for: passage, entryID: "kjv/mat-5-44")
/// ladder.record(.success, clauseCount: passage.clauses.count)
/// ```
package struct PassageLadder: Sendable, Hashable, Codable {
    package private(set) var level: LadderLevel
    /// cloze2: clause indexes already removed and recalled, ascending.
    package private(set) var clausesCovered: [Int]
    /// Attempts recorded so far, on any rung.
    package private(set) var attempts: Int

    package init(level: LadderLevel = .read1, clausesCovered: [Int] = [], attempts: Int = 0) {
        self.level = level
        self.clausesCovered = Array(Set(clausesCovered)).sorted()
        self.attempts = max(0, attempts)
    }

    /// Words of a cloze1 clause that stay: most function words of English, and the archaic
    /// ones of older translations (thee, unto, hath…), so blanks fall on words that carry
    /// meaning.
    package static let stopWords: Set<String> = [
        "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but",
        "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "him",
        "his", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "no", "nor", "not", "of", "on",
        "or", "our", "out", "shall", "she", "so", "than", "that", "the", "their", "them", "then", "there",
        "these", "they", "this", "those", "to", "up", "upon", "us", "was", "we", "were", "what", "when",
        "which", "who", "whom", "will", "with", "would", "you", "your",
        "art", "doth", "hast", "hath", "thee", "thou", "thy", "thine", "unto", "ye",
    ]

    /// The clause cloze2 removes next: the first not yet covered; once all were covered (after
    /// dropping back from cloze3), they take turns by attempt.
    package func clauseToRemove(clauseCount: Int) -> Int? {
        guard clauseCount > 0 else { return nil }
        let covered = Set(clausesCovered)
        return (0..<clauseCount).first { !covered.contains($0) } ?? attempts % clauseCount
    }

    /// Records an attempt at the current rung and moves.
    package mutating func record(_ outcome: LadderOutcome, clauseCount: Int) {
        defer { attempts += 1 }
        switch outcome {
        case .retry:
            return
        case .failure:
            level = level.down
        case .success:
            guard level == .cloze2, let clause = clauseToRemove(clauseCount: clauseCount) else {
                level = level.up
                return
            }
            if !clausesCovered.contains(clause) {
                clausesCovered.append(clause)
                clausesCovered.sort()
            }
            let covered = Set(clausesCovered)
            if (0..<clauseCount).allSatisfy(covered.contains) { level = level.up }
        }
    }

    /// A cloze rung passes when every blank was right.
    package static func outcome(cloze results: [Bool]) -> LadderOutcome {
        results.allSatisfy { $0 } ? .success : .failure
    }

    /// Similarity a recitation needs to pass.
    package static let passingSimilarity = 0.9

    /// A recitation passes at `passingSimilarity` without hints; with hints it is retried;
    /// below it fails.
    package static func outcome(recitationSimilarity similarity: Double, hintsUsed: Int) -> LadderOutcome {
        guard similarity >= passingSimilarity else { return .failure }
        return hintsUsed == 0 ? .success : .retry
    }

    /// The prompt for the current rung, blanks chosen from `entryID` and `attempts`.
    package func prompt(for passage: PassageEntry, entryID: String) -> LadderPrompt {
        let clauses = passage.clauses.map(ClauseWord.split)
        let reference = passage.reference
        func whole() -> String { ClauseWord.join(clauses.map { $0.map(\.text) }, clauses) }
        switch level {
        case .read1, .read2:
            let round = level == .read1 ? 1 : 2
            return LadderPrompt(
                level: level, reference: reference, instruction: "Read \(reference) aloud (\(round) of 2).",
                text: whole(), blanks: [])
        case .reflect:
            return LadderPrompt(
                level: level, reference: reference,
                instruction: "What does \(reference) mean to you? Put it in your own words.",
                text: whole(), blanks: [])
        case .cloze1:
            var generator = SeededGenerator(seed: entryID, "cloze1", String(attempts))
            let hidden = clauses.map { Self.cloze1Blanks(in: $0, using: &generator) }
            return render(
                clauses, hidden: hidden, level: level, reference: reference, removedClause: nil,
                instruction: "Fill in the missing words of \(reference).")
        case .cloze2:
            let removed = clauseToRemove(clauseCount: clauses.count)
            let hidden = clauses.indices.map { index in
                index == removed ? Set(clauses[index].indices.filter { clauses[index][$0].isWord }) : []
            }
            return render(
                clauses, hidden: hidden, level: level, reference: reference, removedClause: removed,
                instruction: "Fill in the missing clause of \(reference).")
        case .cloze3:
            let hidden = clauses.map { words in Set(words.indices.filter { words[$0].isWord }.dropFirst(2)) }
            return render(
                clauses, hidden: hidden, level: level, reference: reference, removedClause: nil,
                instruction: "Complete each clause of \(reference) from its first two words.")
        case .recite:
            return LadderPrompt(
                level: level, reference: reference,
                instruction: "Recite \(reference) from memory; ask for a hint to see the next word.",
                text: "", blanks: [])
        case .review:
            return LadderPrompt(
                level: level, reference: reference, instruction: "Type \(reference) from memory.", text: "", blanks: [])
        }
    }

    /// The next word to reveal when a reciting learner asks for a hint: the passage word after
    /// the last one their text so far lines up with; nil when they have reached the end.
    package static func hint(for passage: PassageEntry, typed: String) -> String? {
        RecallComparer(passage: passage.text).nextWord(afterPrefix: typed)
    }

    /// cloze1: two content words of a clause holding four or more, one of a shorter clause,
    /// none when it has no content words; which ones is drawn with `generator`.
    static func cloze1Blanks(in words: [ClauseWord], using generator: inout SeededGenerator) -> Set<Int> {
        let content = words.indices.filter { words[$0].isWord && !stopWords.contains(words[$0].key) }
        let count = content.count >= 4 ? 2 : min(content.count, 1)
        return Set(StudyRandom.shuffled(content, using: &generator).prefix(count))
    }

    func render(
        _ clauses: [[ClauseWord]], hidden: [Set<Int>], level: LadderLevel, reference: String, removedClause: Int?,
        instruction: String
    ) -> LadderPrompt {
        var blanks: [String] = []
        var parts: [[String]] = []
        for (clause, words) in clauses.enumerated() {
            parts.append(
                words.enumerated().map { index, word in
                    guard hidden[clause].contains(index) else { return word.text }
                    blanks.append(word.core)
                    // An ideograph's blank is one full-width character, so blanks side by side
                    // still count the missing ideographs.
                    let blank = word.core.first.map(ClauseWord.isIdeograph) == true ? "＿" : "____"
                    return word.leading + blank + word.trailing
                })
        }
        return LadderPrompt(
            level: level, reference: reference, instruction: instruction, text: ClauseWord.join(parts, clauses),
            blanks: blanks,
            removedClause: removedClause)
    }
}

/// A word of a clause with the punctuation around it. Words are separated by white space, and
/// every ideograph (Han and kana, written without spaces) is a word of its
/// own, as Unicode's word-boundary rules (UAX #29) treat ideographs, so a Chinese verse has as
/// many blanks to offer as an English one.
struct ClauseWord: Sendable, Equatable {
    var leading: String
    var core: String
    var trailing: String
    /// Whether white space came before this word in the passage (false inside a run of
    /// ideographs, whose words touch).
    var spaced = true

    var text: String { leading + core + trailing }
    /// Holds a letter or digit (a lone dash is not a word).
    var isWord: Bool { !core.isEmpty }
    /// Lower case without apostrophes, for the stop-word list.
    var key: String { String(core.lowercased().filter { $0 != "'" && $0 != "’" }) }

    static func split(_ clause: String) -> [ClauseWord] {
        var words: [ClauseWord] = []
        for token in clause.split(whereSeparator: \.isWhitespace) {
            for (index, piece) in pieces(of: token).enumerated() {
                var word = word(piece)
                word.spaced = index == 0
                words.append(word)
            }
        }
        return words
    }

    /// The token cut before every word character that follows an ideograph or is one, so
    /// punctuation stays with the word before it.
    static func pieces(of token: Substring) -> [Substring] {
        var pieces: [Substring] = []
        var start = token.startIndex
        var previousCore: Character?
        for index in token.indices {
            let character = token[index]
            guard character.isLetter || character.isNumber else { continue }
            if let previous = previousCore, isIdeograph(previous) || isIdeograph(character) {
                pieces.append(token[start..<index])
                start = index
            }
            previousCore = character
        }
        pieces.append(token[start...])
        return pieces
    }

    static func word(_ token: Substring) -> ClauseWord {
        let isCore: (Character) -> Bool = { $0.isLetter || $0.isNumber }
        guard let first = token.firstIndex(where: isCore), let last = token.lastIndex(where: isCore) else {
            return ClauseWord(leading: String(token), core: "", trailing: "")
        }
        return ClauseWord(
            leading: String(token[..<first]), core: String(token[first...last]),
            trailing: String(token[token.index(after: last)...]))
    }

    /// Whether a character is written without spaces around it: CJK ideographs, kana and
    /// the full-width punctuation between them.
    static func isIdeograph(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return isIdeograph(scalarValue: scalar.value)
    }

    /// `isIdeograph` of one scalar's value, for the byte-level recall tokenizer.
    @inline(__always) static func isIdeograph(scalarValue: UInt32) -> Bool {
        switch scalarValue {
        case 0x2E80...0x2FDF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x312F, 0x31A0...0x31FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// The words of each clause back as one text: a space where the passage had one; clauses
    /// are joined by a space unless one side of the join is written without spaces.
    static func join(_ parts: [[String]], _ clauses: [[ClauseWord]]) -> String {
        var text = ""
        for (clause, words) in parts.enumerated() {
            for (index, part) in words.enumerated() {
                if !text.isEmpty, !part.isEmpty {
                    let spaced: Bool
                    if index > 0 {
                        spaced = clauses[clause][index].spaced
                    } else {
                        spaced = !(text.last.map(isIdeograph) ?? false) && !(part.first.map(isIdeograph) ?? false)
                    }
                    if spaced { text += " " }
                }
                text += part
            }
        }
        return text
    }

    /// The words of a typed answer, cut as the passage's words are (so `爱神` is two words).
    static func answerWords(_ reply: String) -> [String] {
        split(reply).map { $0.isWord ? $0.core : $0.text }
    }
}
