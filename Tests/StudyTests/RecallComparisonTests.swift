import Foundation
import RoteModel
import Scheduling
import Study
import Testing

@Suite struct RecallComparisonTests {
    static let verse = "Love your enemies, bless them that curse you."

    func compare(_ typed: String, _ passage: String = verse) -> RecallComparison {
        RecallComparison.compare(passage: passage, typed: typed)
    }

    @Test(arguments: [
        "Love your enemies, bless them that curse you.",
        "love your enemies bless them that curse you",
        "LOVE YOUR ENEMIES; BLESS THEM THAT CURSE YOU!",
        "  love   your\nenemies —bless them that curse you ",
    ])
    func caseAndPunctuationAreIgnored(typed: String) {
        let result = compare(typed)
        #expect(result.marks == Array(repeating: .correct, count: 8))
        #expect(result.similarity == 1)
    }

    @Test func aMissingWord() {
        let result = compare("Love enemies, bless them that curse you.")
        #expect(result.marks == [.correct, .missing, .correct, .correct, .correct, .correct, .correct, .correct])
        #expect(
            result.words[1].expected == "your" && result.words[1].typed == nil && result.words[1].expectedIndex == 1)
        #expect(result.similarity == 7.0 / 8)
    }

    @Test func anExtraWord() {
        let result = compare("Love all your enemies, bless them that curse you.")
        #expect(
            result.marks == [.correct, .extra, .correct, .correct, .correct, .correct, .correct, .correct, .correct])
        #expect(result.words[1].typed == "all" && result.words[1].expected == nil && result.words[1].typedIndex == 1)
        #expect(result.similarity == 8.0 / 9)
    }

    @Test func aWrongWord() {
        let result = compare("Love thine enemies, bless them that curse you.")
        #expect(result.marks == [.correct, .wrong, .correct, .correct, .correct, .correct, .correct, .correct])
        #expect(result.words[1].expected == "your" && result.words[1].typed == "thine")
        #expect(result.similarity == 7.0 / 8)
    }

    @Test func swappedWordsAreOneMissingAndOneExtra() {
        let result = compare("your Love enemies, bless them that curse you.")
        // Seven words stay correct: "Love" was typed one place late.
        #expect(result.correctCount == 7)
        #expect(result.missingCount == 1 && result.extraCount == 1 && result.wrongCount == 0)
        #expect(
            result.marks == [.missing, .correct, .extra, .correct, .correct, .correct, .correct, .correct, .correct])
        #expect(result.words[0].expected == "Love" && result.words[2].typed == "Love")
        #expect(result.similarity == 6.0 / 8)
    }

    @Test func aReplacedStretchPairsWrongWordsThenMarksTheRest() {
        let result = compare("Love your friends and neighbours, bless them that curse you.")
        #expect(
            result.marks == [
                .correct, .correct, .wrong, .extra, .extra, .correct, .correct, .correct, .correct, .correct,
            ])
        #expect(result.similarity == 7.0 / 10)
    }

    @Test func nothingTypedIsAllMissing() {
        let result = compare("   ")
        #expect(result.marks == Array(repeating: .missing, count: 8))
        #expect(result.similarity == 0)
        #expect(RecallComparison.compare(passage: "", typed: "").similarity == 1)
        #expect(RecallComparison.compare(passage: "", typed: "word").marks == [.extra])
    }

    @Test func harakatAndApostrophesAreIgnored() {
        let arabic = RecallComparison.compare(passage: "بِسْمِ اللَّهِ الرَّحْمَٰنِ", typed: "بسم الله الرحمٰن")
        #expect(arabic.similarity == 1)
        let english = RecallComparison.compare(passage: "Don't fear, ma’am.", typed: "dont fear maam")
        #expect(english.similarity == 1)
        #expect(english.words[0].expected == "Don't", "words are reported as written")
    }

    // MARK: - Prefix mode

    @Test func prefixModeJudgesOnlyWhatWasTyped() {
        let result = RecallComparison.comparePrefix(passage: Self.verse, typed: "Love your enemies, ")
        #expect(result.marks == [.correct, .correct, .correct], "the untyped rest is not missing")
        #expect(result.similarity == 1)
        #expect(result.passageWordsJudged == 3)
        #expect(result.pending == nil)
    }

    @Test func theWordBeingTypedIsPending() {
        let onTrack = RecallComparison.comparePrefix(passage: Self.verse, typed: "Love your ene")
        #expect(onTrack.marks == [.correct, .correct])
        #expect(onTrack.pending == "ene" && onTrack.pendingOnTrack)
        let offTrack = RecallComparison.comparePrefix(passage: Self.verse, typed: "Love your fri")
        #expect(offTrack.pending == "fri" && !offTrack.pendingOnTrack)
    }

    @Test func prefixModeMarksMistakesSoFar() {
        let skipped = RecallComparison.comparePrefix(passage: Self.verse, typed: "Love enemies bless ")
        #expect(skipped.marks == [.correct, .missing, .correct, .correct])
        #expect(skipped.passageWordsJudged == 4)
        #expect(skipped.similarity == 3.0 / 4)
        let wrong = RecallComparison.comparePrefix(passage: Self.verse, typed: "Love thy ")
        #expect(wrong.marks == [.correct, .wrong], "a wrong word stands for the passage word at its place")
        #expect(wrong.passageWordsJudged == 2)
        let extra = RecallComparison.comparePrefix(passage: Self.verse, typed: "Love , all your ")
        #expect(extra.marks == [.correct, .extra, .correct])
    }

    @Test func prefixOfTheWholeTextEqualsTheWholeComparison() {
        let typed = "Love thine enemies, bless them curse you. "
        let whole = RecallComparison.compare(passage: Self.verse, typed: typed)
        let prefix = RecallComparison.comparePrefix(passage: Self.verse, typed: typed)
        #expect(prefix.marks == whole.marks)
        #expect(prefix.similarity == whole.similarity)
    }

    // MARK: - Against a reference

    /// Word-level Levenshtein distance, the textbook way.
    static func levenshtein(_ a: [String], _ b: [String]) -> Int {
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                current.append(min(previous[j] + (a[i] == b[j] ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    @Test(arguments: 0..<40)
    func alignmentsAreMinimalAndAccountForEveryWord(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let vocabulary = ["and", "the", "light", "shineth", "in", "darkness", "comprehended", "it", "not", "word"]
        let passage = (0..<(5 + StudyRandom.index(below: 40, using: &random))).map { _ in
            vocabulary[StudyRandom.index(below: vocabulary.count, using: &random)]
        }
        var typed = passage
        for _ in 0..<StudyRandom.index(below: 8, using: &random) {
            let position = StudyRandom.index(below: typed.count + 1, using: &random)
            switch StudyRandom.index(below: 3, using: &random) {
            case 0: typed.insert(vocabulary[StudyRandom.index(below: vocabulary.count, using: &random)], at: position)
            case 1: if position < typed.count { typed.remove(at: position) }
            default: if position < typed.count { typed[position] = "other" }
            }
        }
        let result = RecallComparison.compare(
            passage: passage.joined(separator: " "), typed: typed.joined(separator: " "))
        let edits = result.wrongCount + result.missingCount + result.extraCount
        #expect(edits == Self.levenshtein(typed, passage), "the alignment is a shortest one")
        #expect(result.correctCount + result.wrongCount + result.missingCount == passage.count)
        #expect(result.correctCount + result.wrongCount + result.extraCount == typed.count)
        #expect(result.words.compactMap(\.expectedIndex) == Array(passage.indices), "passage words in order")
        #expect(result.words.compactMap(\.typedIndex) == Array(typed.indices), "typed words in order")
        for word in result.words where word.mark == .correct { #expect(word.expected == word.typed) }
        for word in result.words where word.mark == .wrong { #expect(word.expected != word.typed) }
    }

    /// The last row of the word-level Levenshtein table: distance of `typed` to each prefix of
    /// `passage`.
    static func lastRow(_ typed: [String], _ passage: [String]) -> [Int] {
        var previous = Array(0...passage.count)
        for i in typed.indices {
            var current = [i + 1]
            for j in passage.indices {
                current.append(min(previous[j] + (typed[i] == passage[j] ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous
    }

    /// A long passage, and a recitation of it with a few slips or, every third seed, with a
    /// long stretch moved (many known words out of place, so the first band is too narrow).
    static func longCase(_ seed: Int) -> (passage: [String], typed: [String]) {
        var random = SeededGenerator(seed: UInt64(1_000 + seed))
        let vocabulary = [
            "and", "the", "light", "shineth", "in", "darkness", "comprehended", "it", "not", "word", "was", "god",
        ]
        let passage = (0..<(150 + StudyRandom.index(below: 250, using: &random))).map { _ in
            vocabulary[StudyRandom.index(below: vocabulary.count, using: &random)]
        }
        var typed = passage
        if seed % 3 == 2 {
            let cut = StudyRandom.index(below: passage.count, using: &random)
            typed = Array(passage[cut...] + passage[..<cut])
        }
        for _ in 0..<StudyRandom.index(below: 25, using: &random) {
            let position = StudyRandom.index(below: typed.count, using: &random)
            switch StudyRandom.index(below: 3, using: &random) {
            case 0: typed.insert("other", at: position)
            case 1: typed.remove(at: position)
            default: typed[position] = vocabulary[StudyRandom.index(below: vocabulary.count, using: &random)]
            }
        }
        return (passage, typed)
    }

    @Test(arguments: 0..<24)
    func longRecitationsAlignMinimallyInBothModes(seed: Int) {
        let (passage, typed) = Self.longCase(seed)
        let comparer = RecallComparer(passage: passage.joined(separator: " "))
        let whole = comparer.compare(typed.joined(separator: " "))
        let row = Self.lastRow(typed, passage)
        #expect(whole.wrongCount + whole.missingCount + whole.extraCount == row[passage.count])
        #expect(whole.words.compactMap(\.expectedIndex) == Array(passage.indices))
        #expect(whole.words.compactMap(\.typedIndex) == Array(typed.indices))

        // Prefix mode on the first two thirds of the typing: the cheapest prefix of the passage.
        let part = Array(typed.prefix(typed.count * 2 / 3))
        let prefix = comparer.comparePrefix(part.joined(separator: " ") + " ")
        let partRow = Self.lastRow(part, passage)
        let edits = prefix.wrongCount + prefix.missingCount + prefix.extraCount
        #expect(edits == partRow.min())
        #expect(partRow[prefix.passageWordsJudged] == edits, "it stops where that cost is reached")
        #expect(partRow.lastIndex(of: edits) == prefix.passageWordsJudged, "the furthest such place")
        #expect(prefix.words.compactMap(\.typedIndex) == Array(part.indices))
        #expect(prefix.words.compactMap(\.expectedIndex) == Array(0..<prefix.passageWordsJudged))
    }

    // MARK: - Grading

    @Test(arguments: [
        ("Love your enemies, bless them that curse you.", 1_000, 1_000, Grade.good),
        ("Love your enemies, bless them that curse you.", 500, 1_000, .easy),
        ("Love your enemies, bless them that curse you.", 2_500, 1_000, .hard),
        ("Love enemies, bless them that curse you.", 500, 1_000, .hard),
        ("Love enemies, bless them curse you.", 1_000, 1_000, .again),
        ("Love enemies, bless them curse.", 1_000, 1_000, .again),
        ("bless them", 100, 1_000, .again),
    ])
    func gradesFollowSimilarityAndTime(typed: String, milliseconds: Int, median: Int, expected: Grade) {
        #expect(compare(typed).grade(milliseconds: milliseconds, medianMilliseconds: median) == expected)
    }

    @Test func aRecallPassesFromFourFifthsOfTheWords() {
        let passage = "one two three four five six seven eight nine ten"
        let eightOfTen = RecallComparison.compare(passage: passage, typed: "one two four five six seven nine ten")
        #expect(eightOfTen.similarity == 0.8)
        #expect(eightOfTen.grade(milliseconds: 1_000, medianMilliseconds: 1_000) == .hard)
        let sevenOfTen = RecallComparison.compare(passage: passage, typed: "one two four five seven nine ten")
        #expect(sevenOfTen.grade(milliseconds: 1_000, medianMilliseconds: 1_000) == .again)
    }

    @Test func withoutTimingAnExactRecallIsGood() {
        #expect(compare(Self.verse).grade(milliseconds: nil, medianMilliseconds: nil) == .good)
    }
}
