package import RoteModel
package import Scheduling

/// A typed recitation compared with its passage word by word: a mark for every word and a
/// similarity from 0 to 1.
///
/// Case, punctuation and Arabic harakat are ignored (apostrophes join a word, `don't` =
/// `dont`; other punctuation and dashes separate words). The alignment is a word-level
/// Levenshtein alignment (a wrong, missing or extra word costs 1), so each stretch between
/// two correct words pairs up as many wrong words as it can and marks the rest missing or
/// extra. Among equally short alignments the one keeping more words correct wins, so two
/// swapped words read as one missing and one extra rather than two wrong.
///
///     similarity = 1 − (wrong + missing + extra) / max(passage words, typed words)
///
/// computed as `(max − edits) / max`, so 8 right of 10 is exactly 0.8. In prefix mode the
/// passage words are those the typed text has reached. Nothing against nothing is 1.
///
/// ```swift
/// let result = RecallComparison.compare(passage: "Jesus wept.", typed: "jesus wept")
/// result.similarity   // 1
/// ```
package struct RecallComparison: Sendable, Equatable {
    package enum Mark: String, Sendable, Hashable, CaseIterable {
        /// Typed as in the passage.
        case correct
        /// Typed, but a different word stands there in the passage.
        case wrong
        /// In the passage, not typed.
        case missing
        /// Typed, not in the passage.
        case extra
    }

    /// One word of the alignment.
    package struct Word: Sendable, Equatable {
        package var mark: Mark
        /// The passage word as written (without surrounding punctuation); nil when extra.
        package var expected: String?
        /// The typed word as typed; nil when missing.
        package var typed: String?
        /// Position among the passage's words; nil when extra.
        package var expectedIndex: Int?
        /// Position among the typed words; nil when missing.
        package var typedIndex: Int?

        package init(mark: Mark, expected: String?, typed: String?, expectedIndex: Int?, typedIndex: Int?) {
            self.mark = mark
            self.expected = expected
            self.typed = typed
            self.expectedIndex = expectedIndex
            self.typedIndex = typedIndex
        }
    }

    /// In reading order: passage order, with extra words where they were typed.
    package var words: [Word]
    package var similarity: Double
    /// Passage words judged: all of them, or in prefix mode those the typed text has reached.
    package var passageWordsJudged: Int
    /// Prefix mode: the word still being typed (no space after it yet), left unjudged.
    package var pending: String?
    /// Prefix mode: whether the pending word so far begins the next passage word.
    package var pendingOnTrack: Bool

    package var correctCount: Int { words.count { $0.mark == .correct } }
    package var wrongCount: Int { words.count { $0.mark == .wrong } }
    package var missingCount: Int { words.count { $0.mark == .missing } }
    package var extraCount: Int { words.count { $0.mark == .extra } }
    /// The marks alone, in reading order.
    package var marks: [Mark] { words.map(\.mark) }

    /// The whole typed text against the whole passage.
    package static func compare(passage: String, typed: String) -> RecallComparison {
        RecallComparer(passage: passage).compare(typed)
    }

    /// Partial input against the start of the passage: only words typed so far are judged.
    package static func comparePrefix(passage: String, typed: String) -> RecallComparison {
        RecallComparer(passage: passage).comparePrefix(typed)
    }

    /// Below this similarity a recall counts as forgotten (`again`).
    package static let passingSimilarity = 0.8

    /// The review grade for this recall, by `Grading`'s rule: under `passingSimilarity` it is
    /// wrong (`again`); otherwise similarity under 0.9 or a slow answer make it `hard`, a
    /// fast exact one `easy`, else `good`.
    ///
    /// `milliseconds` and `medianMilliseconds` must be in the same unit — the time for this
    /// recall and the learner's median for recalls of comparable length (per word, say, times
    /// the passage's word count); either nil leaves speed out of it.
    package func grade(
        milliseconds: Int?, medianMilliseconds: Int?, passingSimilarity: Double = RecallComparison.passingSimilarity,
        thresholds: GradingThresholds = .default
    ) -> Grade {
        var latency: Double?
        if let milliseconds, let medianMilliseconds, medianMilliseconds > 0 {
            latency = Double(milliseconds) / Double(medianMilliseconds)
        }
        let answer = Answer(correct: similarity >= passingSimilarity, similarity: similarity, relativeLatency: latency)
        return Grading.grade([answer], thresholds: thresholds) ?? .again
    }
}

/// A passage prepared for comparison: tokenised and normalised once, then compared with
/// every keystroke's text.
///
/// Comparing costs one pass over the typed text and a dynamic program over the part that
/// differs (a common beginning and, for whole texts, a common ending are matched first, and
/// the table is filled only near its diagonal while the texts are close), so a 500-word
/// passage compares in well under a millisecond in a release build (`rote-bench recall`).
package struct RecallComparer: Sendable {
    package let passage: String
    /// The passage's words as written.
    let display: [String]
    /// Their normalised forms.
    let keys: [String]
    /// Normalised word → id; typed words not in it can never match.
    let vocabulary: [String: Int32]
    let ids: [Int32]

    package init(passage: String) {
        self.passage = passage
        let tokens = RecallTokenizer.tokens(passage)
        var vocabulary: [String: Int32] = [:]
        var ids: [Int32] = []
        ids.reserveCapacity(tokens.count)
        for token in tokens {
            if let id = vocabulary[token.key] {
                ids.append(id)
            } else {
                let id = Int32(vocabulary.count)
                vocabulary[token.key] = id
                ids.append(id)
            }
        }
        self.display = tokens.map(\.text)
        self.keys = tokens.map(\.key)
        self.vocabulary = vocabulary
        self.ids = ids
    }

    /// The number of words in the passage.
    package var wordCount: Int { ids.count }

    /// The whole typed text against the whole passage.
    package func compare(_ typed: String) -> RecallComparison {
        let tokens = RecallTokenizer.tokens(typed)
        return align(tokens, prefix: false, pending: nil)
    }

    /// Partial input: the typed words against the passage's beginning, the passage words past
    /// where the typing has reached left unjudged. A last word with no space after it is still
    /// being typed: it is reported as `pending` rather than judged (an ideograph never is).
    package func comparePrefix(_ typed: String) -> RecallComparison {
        var tokens = RecallTokenizer.tokens(typed)
        var pending: RecallTokenizer.Token?
        // An ideograph is a whole word as soon as it is typed.
        if let last = typed.unicodeScalars.last, !RecallTokenizer.isSeparator(last),
            !ClauseWord.isIdeograph(scalarValue: last.value), !tokens.isEmpty
        {
            pending = tokens.removeLast()
        }
        return align(tokens, prefix: true, pending: pending)
    }

    /// The passage word after those the typed text reaches (the hint a reciting learner asks
    /// for); nil at the end.
    package func nextWord(afterPrefix typed: String) -> String? {
        let reached = comparePrefix(typed).passageWordsJudged
        return reached < display.count ? display[reached] : nil
    }

    func align(_ tokens: [RecallTokenizer.Token], prefix: Bool, pending: RecallTokenizer.Token?) -> RecallComparison {
        let typedIDs = tokens.map { vocabulary[$0.key] ?? -1 }
        let n = ids.count
        let m = typedIDs.count
        // Matching ends are matched without the dynamic program.
        var head = 0
        while head < n, head < m, ids[head] == typedIDs[head] { head += 1 }
        var tail = 0
        if !prefix {
            while tail < n - head, tail < m - head, ids[n - 1 - tail] == typedIDs[m - 1 - tail] { tail += 1 }
        }
        var ops: [AlignmentStep] = []
        ops.reserveCapacity(max(n, m))
        for _ in 0..<head { ops.append(.match) }
        let expected = ids[head..<(n - tail)]
        let typedMiddle = typedIDs[head..<(m - tail)]
        let end = RecallAligner.align(
            expected, typedMiddle, prefix: prefix, lowerBound: lowerBound(expected, typedMiddle, prefix: prefix),
            into: &ops)
        for _ in 0..<tail { ops.append(.match) }
        let judged = prefix ? head + end : n

        var words: [RecallComparison.Word] = []
        words.reserveCapacity(ops.count)
        var e = 0
        var t = 0
        var edits = 0
        for op in ops {
            switch op {
            case .match:
                words.append(
                    .init(mark: .correct, expected: display[e], typed: tokens[t].text, expectedIndex: e, typedIndex: t))
                e += 1
                t += 1
            case .substitute:
                words.append(
                    .init(mark: .wrong, expected: display[e], typed: tokens[t].text, expectedIndex: e, typedIndex: t))
                e += 1
                t += 1
                edits += 1
            case .missing:
                words.append(.init(mark: .missing, expected: display[e], typed: nil, expectedIndex: e, typedIndex: nil))
                e += 1
                edits += 1
            case .extra:
                words.append(
                    .init(mark: .extra, expected: nil, typed: tokens[t].text, expectedIndex: nil, typedIndex: t))
                t += 1
                edits += 1
            }
        }
        let denominator = max(judged, m)
        let similarity = denominator == 0 ? 1 : Double(denominator - edits) / Double(denominator)
        let onTrack = pending.map { judged < keys.count && keys[judged].hasPrefix($0.key) } ?? false
        return RecallComparison(
            words: words, similarity: similarity, passageWordsJudged: judged, pending: pending?.text,
            pendingOnTrack: onTrack)
    }
}

extension RecallComparer {
    /// A cost no alignment of these words can be under: every typed word the passage lacks
    /// is wrong or extra; for whole texts, every passage word the typing lacks is wrong or
    /// missing, and the longer text's surplus is missing or extra.
    func lowerBound(_ expected: ArraySlice<Int32>, _ typed: ArraySlice<Int32>, prefix: Bool) -> Int {
        let strangers = typed.count { $0 < 0 }
        if prefix { return max(strangers, typed.count - expected.count) }
        var present = [Bool](repeating: false, count: vocabulary.count)
        for id in typed where id >= 0 { present[Int(id)] = true }
        let untyped = expected.count { !present[Int($0)] }
        return max(strangers, untyped, abs(expected.count - typed.count))
    }
}
