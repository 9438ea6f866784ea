import RoteModel

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
}

/// How one attempt at a rung went.
public enum LadderOutcome: String, Sendable, Hashable, Codable {
    /// Move up one rung (cloze2: once every clause was blanked and recalled).
    case success
    /// Drop one rung and try again (seed 004: "at any point, on failure: reduce one level").
    case failure
    /// Stay on the rung: a recitation that needed hints was neither failed nor passed alone.
    case retry
}

/// What a rung shows: an instruction and the text with blanks as `____`, plus the words
/// behind the blanks for checking.
public struct LadderPrompt: Sendable, Equatable {
    public var level: LadderLevel
    public var reference: String
    public var instruction: String
    /// The passage as shown: whole, with `____` blanks, or empty for recitation.
    public var text: String
    /// The words behind the `____` blanks, in reading order (punctuation outside them stays
    /// visible in `text`).
    public var blanks: [String]
    /// cloze2: the index of the removed clause.
    public var removedClause: Int?

    /// Per blank, whether the typed word matches (case, surrounding punctuation and Arabic
    /// harakat ignored); a missing answer is wrong.
    public func check(_ answers: [String]) -> [Bool] {
        blanks.indices.map { index in
            index < answers.count && TypedAnswer.matches(answers[index], accepted: [blanks[index]])
        }
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
public struct PassageLadder: Sendable, Hashable, Codable {
    public private(set) var level: LadderLevel
    /// cloze2: clause indexes already removed and recalled, ascending.
    public private(set) var clausesCovered: [Int]
    /// Attempts recorded so far, on any rung.
    public private(set) var attempts: Int

    public init(level: LadderLevel = .read1, clausesCovered: [Int] = [], attempts: Int = 0) {
        self.level = level
        self.clausesCovered = Array(Set(clausesCovered)).sorted()
        self.attempts = max(0, attempts)
    }

    /// Words of a cloze1 clause that stay: most function words of English, and the archaic
    /// ones of older translations (thee, unto, hath…), so blanks fall on words that carry
    /// meaning.
    public static let stopWords: Set<String> = [
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
    public func clauseToRemove(clauseCount: Int) -> Int? {
        guard clauseCount > 0 else { return nil }
        let covered = Set(clausesCovered)
        return (0..<clauseCount).first { !covered.contains($0) } ?? attempts % clauseCount
    }

    /// Records an attempt at the current rung and moves.
    public mutating func record(_ outcome: LadderOutcome, clauseCount: Int) {
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
    public static func outcome(cloze results: [Bool]) -> LadderOutcome {
        results.allSatisfy { $0 } ? .success : .failure
    }

    /// Similarity a recitation needs to pass.
    public static let passingSimilarity = 0.9

    /// A recitation passes at `passingSimilarity` without hints; with hints it is retried;
    /// below it fails.
    public static func outcome(recitationSimilarity similarity: Double, hintsUsed: Int) -> LadderOutcome {
        guard similarity >= passingSimilarity else { return .failure }
        return hintsUsed == 0 ? .success : .retry
    }

    /// The prompt for the current rung, blanks chosen from `entryID` and `attempts`.
    public func prompt(for passage: PassageEntry, entryID: String) -> LadderPrompt {
        let clauses = passage.clauses.map(ClauseWord.split)
        let reference = passage.reference
        func whole() -> String { clauses.map { $0.map(\.text).joined(separator: " ") }.joined(separator: " ") }
        switch level {
        case .read1, .read2:
            let round = level == .read1 ? 1 : 2
            return LadderPrompt(level: level, reference: reference, instruction: "Read \(reference) aloud (\(round) of 2).", text: whole(), blanks: [])
        case .reflect:
            return LadderPrompt(
                level: level, reference: reference, instruction: "What does \(reference) mean to you? Put it in your own words.",
                text: whole(), blanks: [])
        case .cloze1:
            var generator = SeededGenerator(seed: entryID, "cloze1", String(attempts))
            let hidden = clauses.map { Self.cloze1Blanks(in: $0, using: &generator) }
            return render(clauses, hidden: hidden, level: level, reference: reference, removedClause: nil,
                          instruction: "Fill in the missing words of \(reference).")
        case .cloze2:
            let removed = clauseToRemove(clauseCount: clauses.count)
            let hidden = clauses.indices.map { index in index == removed ? Set(clauses[index].indices.filter { clauses[index][$0].isWord }) : [] }
            return render(clauses, hidden: hidden, level: level, reference: reference, removedClause: removed,
                          instruction: "Fill in the missing clause of \(reference).")
        case .cloze3:
            let hidden = clauses.map { words in Set(words.indices.filter { words[$0].isWord }.dropFirst(2)) }
            return render(clauses, hidden: hidden, level: level, reference: reference, removedClause: nil,
                          instruction: "Complete each clause of \(reference) from its first two words.")
        case .recite:
            return LadderPrompt(
                level: level, reference: reference, instruction: "Recite \(reference) from memory; ask for a hint to see the next word.",
                text: "", blanks: [])
        case .review:
            return LadderPrompt(level: level, reference: reference, instruction: "Type \(reference) from memory.", text: "", blanks: [])
        }
    }

    /// The next word to reveal when a reciting learner asks for a hint: the passage word after
    /// the last one their text so far lines up with; nil when they have reached the end.
    public static func hint(for passage: PassageEntry, typed: String) -> String? {
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
        _ clauses: [[ClauseWord]], hidden: [Set<Int>], level: LadderLevel, reference: String, removedClause: Int?, instruction: String
    ) -> LadderPrompt {
        var blanks: [String] = []
        var parts: [String] = []
        for (clause, words) in clauses.enumerated() {
            for (index, word) in words.enumerated() {
                if hidden[clause].contains(index) {
                    blanks.append(word.core)
                    parts.append(word.leading + "____" + word.trailing)
                } else {
                    parts.append(word.text)
                }
            }
        }
        return LadderPrompt(
            level: level, reference: reference, instruction: instruction, text: parts.joined(separator: " "), blanks: blanks,
            removedClause: removedClause)
    }
}

/// A whitespace-separated token of a clause: punctuation around a word core.
struct ClauseWord: Sendable, Equatable {
    var leading: String
    var core: String
    var trailing: String

    var text: String { leading + core + trailing }
    /// Holds a letter or digit (a lone dash is not a word).
    var isWord: Bool { !core.isEmpty }
    /// Lower case without apostrophes, for the stop-word list.
    var key: String { String(core.lowercased().filter { $0 != "'" && $0 != "’" }) }

    static func split(_ clause: String) -> [ClauseWord] {
        clause.split(whereSeparator: \.isWhitespace).map { token in
            let isCore: (Character) -> Bool = { $0.isLetter || $0.isNumber }
            guard let first = token.firstIndex(where: isCore), let last = token.lastIndex(where: isCore) else {
                return ClauseWord(leading: String(token), core: "", trailing: "")
            }
            return ClauseWord(
                leading: String(token[..<first]), core: String(token[first...last]), trailing: String(token[token.index(after: last)...]))
        }
    }
}
