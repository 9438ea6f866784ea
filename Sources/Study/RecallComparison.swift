import RoteModel
import Scheduling

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
public struct RecallComparison: Sendable, Equatable {
    public enum Mark: String, Sendable, Hashable, CaseIterable {
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
    public struct Word: Sendable, Equatable {
        public var mark: Mark
        /// The passage word as written (without surrounding punctuation); nil when extra.
        public var expected: String?
        /// The typed word as typed; nil when missing.
        public var typed: String?
        /// Position among the passage's words; nil when extra.
        public var expectedIndex: Int?
        /// Position among the typed words; nil when missing.
        public var typedIndex: Int?

        public init(mark: Mark, expected: String?, typed: String?, expectedIndex: Int?, typedIndex: Int?) {
            self.mark = mark
            self.expected = expected
            self.typed = typed
            self.expectedIndex = expectedIndex
            self.typedIndex = typedIndex
        }
    }

    /// In reading order: passage order, with extra words where they were typed.
    public var words: [Word]
    public var similarity: Double
    /// Passage words judged: all of them, or in prefix mode those the typed text has reached.
    public var passageWordsJudged: Int
    /// Prefix mode: the word still being typed (no space after it yet), left unjudged.
    public var pending: String?
    /// Prefix mode: whether the pending word so far begins the next passage word.
    public var pendingOnTrack: Bool

    public var correctCount: Int { words.count { $0.mark == .correct } }
    public var wrongCount: Int { words.count { $0.mark == .wrong } }
    public var missingCount: Int { words.count { $0.mark == .missing } }
    public var extraCount: Int { words.count { $0.mark == .extra } }
    /// The marks alone, in reading order.
    public var marks: [Mark] { words.map(\.mark) }

    /// The whole typed text against the whole passage.
    public static func compare(passage: String, typed: String) -> RecallComparison {
        RecallComparer(passage: passage).compare(typed)
    }

    /// Partial input against the start of the passage: only words typed so far are judged.
    public static func comparePrefix(passage: String, typed: String) -> RecallComparison {
        RecallComparer(passage: passage).comparePrefix(typed)
    }

    /// Below this similarity a recall counts as forgotten (`again`).
    public static let passingSimilarity = 0.8

    /// The review grade for this recall, by `Grading`'s rule: under `passingSimilarity` it is
    /// wrong (`again`); otherwise similarity under 0.9 or a slow answer make it `hard`, a
    /// fast exact one `easy`, else `good`.
    ///
    /// `milliseconds` and `medianMilliseconds` must be in the same unit — the time for this
    /// recall and the learner's median for recalls of comparable length (per word, say, times
    /// the passage's word count); either nil leaves speed out of it.
    public func grade(
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
public struct RecallComparer: Sendable {
    public let passage: String
    /// The passage's words as written.
    let display: [String]
    /// Their normalised forms.
    let keys: [String]
    /// Normalised word → id; typed words not in it can never match.
    let vocabulary: [String: Int32]
    let ids: [Int32]

    public init(passage: String) {
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
    public var wordCount: Int { ids.count }

    /// The whole typed text against the whole passage.
    public func compare(_ typed: String) -> RecallComparison {
        let tokens = RecallTokenizer.tokens(typed)
        return align(tokens, prefix: false, pending: nil)
    }

    /// Partial input: the typed words against the passage's beginning, the passage words past
    /// where the typing has reached left unjudged. A last word with no space after it is still
    /// being typed: it is reported as `pending` rather than judged (an ideograph never is).
    public func comparePrefix(_ typed: String) -> RecallComparison {
        var tokens = RecallTokenizer.tokens(typed)
        var pending: RecallTokenizer.Token?
        // An ideograph is a whole word as soon as it is typed.
        if let last = typed.unicodeScalars.last, !RecallTokenizer.isSeparator(last), !ClauseWord.isIdeograph(scalarValue: last.value), !tokens.isEmpty {
            pending = tokens.removeLast()
        }
        return align(tokens, prefix: true, pending: pending)
    }

    /// The passage word after those the typed text reaches (the hint a reciting learner asks
    /// for); nil at the end.
    public func nextWord(afterPrefix typed: String) -> String? {
        let reached = comparePrefix(typed).passageWordsJudged
        return reached < display.count ? display[reached] : nil
    }

    func align(_ tokens: [RecallTokenizer.Token], prefix: Bool, pending: RecallTokenizer.Token?) -> RecallComparison {
        let typedIDs = tokens.map { vocabulary[$0.key] ?? -1 }
        let n = ids.count, m = typedIDs.count
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
        let expected = ids[head..<(n - tail)], typedMiddle = typedIDs[head..<(m - tail)]
        let end = RecallAligner.align(
            expected, typedMiddle, prefix: prefix, lowerBound: lowerBound(expected, typedMiddle, prefix: prefix), into: &ops)
        for _ in 0..<tail { ops.append(.match) }
        let judged = prefix ? head + end : n

        var words: [RecallComparison.Word] = []
        words.reserveCapacity(ops.count)
        var e = 0, t = 0, edits = 0
        for op in ops {
            switch op {
            case .match:
                words.append(.init(mark: .correct, expected: display[e], typed: tokens[t].text, expectedIndex: e, typedIndex: t))
                e += 1; t += 1
            case .substitute:
                words.append(.init(mark: .wrong, expected: display[e], typed: tokens[t].text, expectedIndex: e, typedIndex: t))
                e += 1; t += 1; edits += 1
            case .missing:
                words.append(.init(mark: .missing, expected: display[e], typed: nil, expectedIndex: e, typedIndex: nil))
                e += 1; edits += 1
            case .extra:
                words.append(.init(mark: .extra, expected: nil, typed: tokens[t].text, expectedIndex: nil, typedIndex: t))
                t += 1; edits += 1
            }
        }
        let denominator = max(judged, m)
        let similarity = denominator == 0 ? 1 : Double(denominator - edits) / Double(denominator)
        let onTrack = pending.map { judged < keys.count && keys[judged].hasPrefix($0.key) } ?? false
        return RecallComparison(
            words: words, similarity: similarity, passageWordsJudged: judged, pending: pending?.text, pendingOnTrack: onTrack)
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

/// One step of an alignment.
enum AlignmentStep: UInt8 {
    case match, substitute, missing, extra
}

/// Word-level Levenshtein alignment over word ids.
///
/// A recitation usually differs from its passage in a few places, so the cost table is first
/// filled only in a band of `k` cells either side of the diagonal (Ukkonen's cut-off): an
/// alignment costing `c` never strays more than `c` cells from it, so a result of at most `k`
/// is exact. A larger result `r` is still an alignment, so the best costs at most `r`: the
/// next try uses `k = r` (at least double), which is sure to hold it. `k` starts from a lower
/// bound on the cost (typed words the passage lacks, passage words the typing lacks, the
/// difference in length), so a text with nothing in common goes straight to the whole table.
enum RecallAligner {
    static let infinity = Int32.max / 4

    /// Aligns `typed` with `expected`, appending the steps in reading order to `ops`, and
    /// returns how many expected words the alignment covers (all of them unless `prefix`,
    /// where the alignment may stop early: the cheapest end, the furthest on a tie).
    ///
    /// `lowerBound` is a cost the alignment cannot be below. Walking back prefers a match,
    /// then an extra word, then a missing one, then a wrong one, so ties keep the most words
    /// correct.
    static func align(
        _ expected: ArraySlice<Int32>, _ typed: ArraySlice<Int32>, prefix: Bool, lowerBound: Int, into ops: inout [AlignmentStep]
    ) -> Int {
        let n = expected.count, m = typed.count
        if m == 0 {
            if !prefix { for _ in 0..<n { ops.append(.missing) } }
            return prefix ? 0 : n
        }
        if n == 0 {
            for _ in 0..<m { ops.append(.extra) }
            return 0
        }
        let e = Array(expected), t = Array(typed)
        var k = max(16, 2 * lowerBound + 8)
        while 2 * k + 1 < n + 1 {
            let band = Band(e, t, k: k, prefix: prefix)
            if let covered = band.alignment(into: &ops) { return covered }
            // The band's own best is an alignment too, so the true cost is at most that: a band
            // that wide is sure to hold it. (Doubling instead could fill the table many times
            // over for a scrambled text.)
            let found = band.bestCost
            k = found < RecallAligner.infinity ? max(Int(found), 2 * k) : 2 * k
        }
        return Band(e, t, k: max(n, m), prefix: prefix).alignment(into: &ops)!
    }

    /// The cost table restricted to `|i − j| ≤ k` (typed word `i`, expected word `j`); cells
    /// outside it are infinite. With `k ≥ max(n, m)` it is the whole table, kept `n + 1` wide.
    struct Band {
        let e: [Int32], t: [Int32]
        let n: Int, m: Int, k: Int
        let prefix: Bool
        /// Row `i` holds columns `i − k ... i + k` at `i · width + j − i + k`, or, when the band
        /// is the whole table, columns `0...n` at `i · width + j`.
        let width: Int
        let whole: Bool
        var table: [Int32]

        init(_ e: [Int32], _ t: [Int32], k: Int, prefix: Bool) {
            self.e = e
            self.t = t
            n = e.count
            m = t.count
            self.k = k
            self.prefix = prefix
            whole = k >= max(n, m)
            width = whole ? n + 1 : 2 * k + 1
            table = [Int32](repeating: RecallAligner.infinity, count: (m + 1) * width)
            fill()
        }

        /// Where cell `(i, j)` lives, or nil outside the band.
        @inline(__always) func slot(_ i: Int, _ j: Int) -> Int? {
            if whole { return i * width + j }
            let offset = j - i + k
            return offset >= 0 && offset < width ? i * width + offset : nil
        }

        @inline(__always) func cost(_ i: Int, _ j: Int) -> Int32 {
            guard j >= 0, j <= n, let slot = slot(i, j) else { return RecallAligner.infinity }
            return table[slot]
        }

        /// Fills the table row by row. Each row is two passes, so the chain from one cell to
        /// the next is a single `min`: first every cell's best from above (diagonal: match or
        /// wrong; straight up: extra), which has no dependency along the row; then the cells
        /// from the left (missing), as a running minimum of `cost − j`.
        mutating func fill() {
            let (n, m, k, width, whole) = (n, m, k, width, whole)
            let infinity = RecallAligner.infinity
            var scratch = [Int32](repeating: 0, count: n + 1)
            table.withUnsafeMutableBufferPointer { cost in
                scratch.withUnsafeMutableBufferPointer { fromAbove in
                    e.withUnsafeBufferPointer { e in
                        t.withUnsafeBufferPointer { t in
                            // Column j of row i sits at base(i) + j: base is i·width for the
                            // whole table, i·width − i + k in a band.
                            let band = whole ? 0 : k
                            for j in 0...min(n, whole ? n : k) { cost[j + band] = Int32(j) }
                            for i in 1...m {
                                let low = whole ? 0 : max(0, i - k), high = whole ? n : min(n, i + k)
                                guard low <= high else { continue }
                                let base = i * width - (whole ? 0 : i) + band
                                let above = whole ? base - width : base - width + 1
                                let word = t[i - 1]
                                let first = max(low, 1)
                                // (i − 1, j) lies in a band only while j < i + k.
                                let lastWithAbove = whole ? high : min(high, i + k - 1)
                                // Wrapping arithmetic: values stay far below Int32's range
                                // (infinity is a quarter of it), and without overflow checks
                                // the first pass vectorises.
                                var j = first
                                while j <= lastWithAbove {
                                    let diagonal = cost[above &+ j &- 1] &+ (e[j &- 1] == word ? 0 : 1)
                                    fromAbove[j] = min(diagonal, cost[above &+ j] &+ 1)
                                    j &+= 1
                                }
                                if lastWithAbove < high, high >= first {
                                    fromAbove[high] = cost[above &+ high &- 1] &+ (e[high &- 1] == word ? 0 : 1)
                                }
                                var running: Int32
                                if low == 0 {
                                    cost[base] = Int32(i)
                                    running = Int32(i)
                                } else {
                                    running = infinity
                                }
                                j = first
                                while j <= high {
                                    // best(j) − j = min(fromAbove(j) − j, best(j − 1) − (j − 1)).
                                    running = min(running, fromAbove[j] &- Int32(truncatingIfNeeded: j))
                                    cost[base &+ j] = running &+ Int32(truncatingIfNeeded: j)
                                    j &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Where the alignment ends: column `n`, or in prefix mode the cheapest column of the
        /// last row (the furthest of equals).
        var end: Int {
            guard prefix else { return n }
            var best = RecallAligner.infinity, column = n
            for candidate in stride(from: min(n, m + k), through: max(0, m - k), by: -1) where cost(m, candidate) < best {
                best = cost(m, candidate)
                column = candidate
            }
            return column
        }

        /// The cost of the best alignment inside the band (infinite when none ends in it).
        var bestCost: Int32 { cost(m, end) }

        /// Walks the cheapest alignment back into `ops`; nil when its cost exceeds `k` (so a
        /// cheaper one might lie outside the band).
        func alignment(into ops: inout [AlignmentStep]) -> Int? {
            var j = end
            let total = cost(m, j)
            if !whole, total > k { return nil }
            let covered = j
            var i = m
            var reversed: [AlignmentStep] = []
            reversed.reserveCapacity(m + j)
            while i > 0 || j > 0 {
                let here = cost(i, j)
                if i > 0, j > 0, e[j - 1] == t[i - 1], cost(i - 1, j - 1) == here {
                    reversed.append(.match); i -= 1; j -= 1
                } else if i > 0, cost(i - 1, j) + 1 == here {
                    reversed.append(.extra); i -= 1
                } else if j > 0, cost(i, j - 1) + 1 == here {
                    reversed.append(.missing); j -= 1
                } else {
                    reversed.append(.substitute); i -= 1; j -= 1
                }
            }
            ops.append(contentsOf: reversed.reversed())
            return covered
        }
    }
}

/// Splits text into normalised words for recall: at white space, punctuation and symbols,
/// and around every ideograph (Han, kana), which is a word of its own.
///
/// Works on the UTF-8 bytes, decoding a scalar only beyond ASCII, because it runs over the
/// whole typed text on every keystroke.
enum RecallTokenizer {
    struct Token: Sendable, Equatable {
        /// As written, from its first to its last word character.
        var text: String
        /// Lower case, without apostrophes or harakat.
        var key: String
    }

    /// Apostrophes join the parts of a word (`don't`, `ma’am`) instead of splitting it.
    @inline(__always) static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "'" || scalar == "\u{2019}" || scalar == "\u{02BC}"
    }

    /// Letters, marks (harakat among them) and digits make words.
    @inline(__always) static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A) || (value >= 0x30 && value <= 0x39)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Whitespace, punctuation and symbols end a word.
    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        !isWordScalar(scalar) && !isApostrophe(scalar)
    }

    static func tokens(_ text: String) -> [Token] {
        var text = text
        return text.withUTF8 { tokens(bytes: $0) }
    }

    static func tokens(bytes: UnsafeBufferPointer<UInt8>) -> [Token] {
        var tokens: [Token] = []
        var key: [UInt8] = []
        key.reserveCapacity(32)
        var start = -1, end = 0
        var ascii = true
        func flush() {
            if start >= 0, !key.isEmpty {
                let word = String(decoding: key, as: UTF8.self)
                tokens.append(Token(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self),
                                    key: ascii ? word : word.lowercased()))
            }
            key.removeAll(keepingCapacity: true)
            start = -1
            ascii = true
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    if start < 0 { start = index }
                    end = index + 1
                    key.append(byte)
                } else if byte >= 0x41, byte <= 0x5A {
                    if start < 0 { start = index }
                    end = index + 1
                    key.append(byte + 0x20)
                } else if byte != 0x27 || start < 0 {
                    flush()
                }
                index += 1
                continue
            }
            // A multi-byte scalar (the text is valid UTF-8).
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            if isWordScalar(scalar) {
                // An ideograph is a word of its own (as the cloze ladder cuts it), so a Chinese
                // recitation is compared character by character, not clause by clause.
                let ideograph = ClauseWord.isIdeograph(scalarValue: value)
                if ideograph { flush() }
                if start < 0 { start = index }
                end = index + length
                if let folded = TypedAnswer.foldedArabic(scalar) {
                    if folded == scalar {
                        key.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                    } else {
                        key.append(contentsOf: Array(String(folded).utf8))
                    }
                    ascii = false
                }
                if ideograph {
                    index += length
                    flush()
                    continue
                }
            } else if !isApostrophe(scalar) || start < 0 {
                flush()
            }
            index += length
        }
        flush()
        return tokens
    }
}
