import Foundation
import RoteModel
import Study
import Testing

@Suite struct PassageLadderTests {
    let passage = StudyFixtures.matthew
    let id = "kjv/mat-5-44"
    var clauseCount: Int { passage.clauses.count }

    @Test func theFixtureHasSixClauses() {
        #expect(passage.clauses == [
            "But I say unto you,", "Love your enemies,", "bless them that curse you,", "do good to them that hate you,",
            "and pray for them which despitefully use you,", "and persecute you;",
        ])
    }

    // MARK: - Moves

    @Test func successClimbsEveryRungToReview() {
        var ladder = PassageLadder()
        var visited: [LadderLevel] = [ladder.level]
        while ladder.level != .review {
            ladder.record(.success, clauseCount: clauseCount)
            if visited.last != ladder.level { visited.append(ladder.level) }
            #expect(ladder.attempts < 30, "the ladder must finish")
            if ladder.attempts >= 30 { break }
        }
        #expect(visited == LadderLevel.allCases)
        #expect(ladder.attempts == 6 + 6, "one success per rung, and cloze2 once per clause")
        ladder.record(.success, clauseCount: clauseCount)
        #expect(ladder.level == .review, "review is the top")
    }

    @Test(arguments: LadderLevel.allCases)
    func failureDropsOneRungNeverBelowRead1(level: LadderLevel) {
        var ladder = PassageLadder(level: level)
        ladder.record(.failure, clauseCount: clauseCount)
        let expected = LadderLevel.allCases[max(0, LadderLevel.allCases.firstIndex(of: level)! - 1)]
        #expect(ladder.level == expected)
        #expect(ladder.attempts == 1)
    }

    @Test(arguments: LadderLevel.allCases.filter { $0 != .cloze2 })
    func successMovesUpOneRung(level: LadderLevel) {
        var ladder = PassageLadder(level: level)
        ladder.record(.success, clauseCount: clauseCount)
        #expect(ladder.level == level.up)
        #expect(level == .review ? ladder.level == .review : ladder.level > level)
    }

    @Test func retryStaysButCounts() {
        var ladder = PassageLadder(level: .recite, attempts: 4)
        ladder.record(.retry, clauseCount: clauseCount)
        #expect(ladder.level == .recite && ladder.attempts == 5)
    }

    @Test func cloze2RotatesThroughEveryClauseAndRemembersAcrossAFall() {
        var ladder = PassageLadder(level: .cloze2)
        var removed: [Int] = []
        func step(_ outcome: LadderOutcome) {
            removed.append(ladder.prompt(for: passage, entryID: id).removedClause ?? -1)
            ladder.record(outcome, clauseCount: clauseCount)
        }
        step(.success)
        step(.success)
        #expect(ladder.level == .cloze2 && ladder.clausesCovered == [0, 1])
        step(.failure)
        #expect(ladder.level == .cloze1, "a failure drops to cloze1")
        #expect(ladder.clausesCovered == [0, 1], "but the covered clauses are remembered")
        ladder.record(.success, clauseCount: clauseCount)
        #expect(ladder.level == .cloze2)
        for _ in 0..<3 { step(.success) }
        #expect(ladder.level == .cloze2, "one clause is still to go")
        step(.success)
        #expect(removed == [0, 1, 2, 2, 3, 4, 5], "the failed clause comes back, then the rest in order")
        #expect(ladder.level == .cloze3)
        #expect(ladder.clausesCovered == [0, 1, 2, 3, 4, 5])
    }

    @Test func afterFallingBackFromCloze3Cloze2TakesClausesInTurnAndOneSuccessClimbs() {
        var ladder = PassageLadder(level: .cloze3, clausesCovered: [0, 1, 2, 3, 4, 5], attempts: 8)
        ladder.record(.failure, clauseCount: clauseCount)
        #expect(ladder.level == .cloze2)
        #expect(ladder.clauseToRemove(clauseCount: clauseCount) == 9 % 6)
        ladder.record(.success, clauseCount: clauseCount)
        #expect(ladder.level == .cloze3)
    }

    @Test func theStateSurvivesJSON() throws {
        let ladder = PassageLadder(level: .cloze2, clausesCovered: [3, 1, 3], attempts: 7)
        #expect(ladder.clausesCovered == [1, 3])
        let decoded = try JSONDecoder().decode(PassageLadder.self, from: JSONEncoder().encode(ladder))
        #expect(decoded == ladder)
    }

    @Test func outcomes() {
        #expect(PassageLadder.outcome(cloze: [true, true]) == .success)
        #expect(PassageLadder.outcome(cloze: [true, false]) == .failure)
        #expect(PassageLadder.outcome(recitationSimilarity: 1, hintsUsed: 0) == .success)
        #expect(PassageLadder.outcome(recitationSimilarity: 0.9, hintsUsed: 0) == .success)
        #expect(PassageLadder.outcome(recitationSimilarity: 0.95, hintsUsed: 2) == .retry)
        #expect(PassageLadder.outcome(recitationSimilarity: 0.89, hintsUsed: 0) == .failure)
    }

    // MARK: - Prompts

    @Test func readingRungsShowTheWholeText() {
        for level in [LadderLevel.read1, .read2, .reflect] {
            let prompt = PassageLadder(level: level).prompt(for: passage, entryID: id)
            #expect(prompt.text == passage.text)
            #expect(prompt.blanks.isEmpty)
        }
        #expect(PassageLadder(level: .read2).prompt(for: passage, entryID: id).instruction == "Read Matthew 5:44 aloud (2 of 2).")
    }

    @Test func cloze1BlanksOneOrTwoContentWordsPerClause() {
        for attempts in 0..<20 {
            let prompt = PassageLadder(level: .cloze1, attempts: attempts).prompt(for: passage, entryID: id)
            #expect(prompt.blanks.count == 6, "each clause here has one to three content words: one blank each")
            #expect(prompt.blanks.first == "say", "'say' is the only content word of 'But I say unto you,'")
            #expect(prompt.blanks.last == "persecute")
            for word in prompt.blanks { #expect(!PassageLadder.stopWords.contains(word.lowercased())) }
            #expect(prompt.text.components(separatedBy: "____").count - 1 == 6)
            #expect(prompt.text.hasPrefix("But I ____ unto you, "))
            #expect(prompt.text.hasSuffix("and ____ you;"))
        }
    }

    @Test func cloze1BlanksTwoInALongClause() {
        let fox = PassageEntry(reference: "Fox", text: "The quick brown fox jumps over the lazy dog. It sleeps.")
        let prompt = PassageLadder(level: .cloze1).prompt(for: fox, entryID: "test/fox")
        #expect(prompt.blanks.count == 3, "two of the first clause's seven content words, one in 'It sleeps.'")
        #expect(prompt.blanks.last == "sleeps")
        #expect(prompt.text.hasSuffix("It ____."), "punctuation stays outside the blank")
    }

    @Test func blanksAreDeterministicFromEntryAndAttempt() {
        func blanks(_ entry: String, _ attempt: Int) -> [String] {
            PassageLadder(level: .cloze1, attempts: attempt).prompt(for: passage, entryID: entry).blanks
        }
        #expect(blanks(id, 3) == blanks(id, 3))
        #expect(Set((0..<12).map { blanks(id, $0) }).count > 3, "attempts vary the blanks")
        #expect((0..<12).contains { blanks(id, $0) != blanks("kjv/other", $0) }, "so do entries")
        // A stable hash, not Swift's per-process Hasher: these exact words on every run.
        #expect(blanks(id, 0) == Self.goldenAttempt0)
        #expect(blanks(id, 1) == Self.goldenAttempt1)
    }

    static let goldenAttempt0 = ["say", "Love", "curse", "good", "despitefully", "persecute"]
    static let goldenAttempt1 = ["say", "Love", "bless", "hate", "use", "persecute"]

    @Test func cloze2BlanksOneWholeClause() {
        let prompt = PassageLadder(level: .cloze2, clausesCovered: [0], attempts: 0).prompt(for: passage, entryID: id)
        #expect(prompt.removedClause == 1)
        #expect(prompt.blanks == ["Love", "your", "enemies"])
        #expect(prompt.text.hasPrefix("But I say unto you, ____ ____ ____, bless them that curse you,"))
        #expect(prompt.check(["love", "YOUR", "enemies,"]) == [true, true, true])
        #expect(prompt.check(["love", "thy"]) == [true, false, false])
    }

    @Test func cloze3ShowsTheFirstTwoWordsOfEachClause() {
        let prompt = PassageLadder(level: .cloze3).prompt(for: passage, entryID: id)
        #expect(prompt.text == "But I ____ ____ ____, Love your ____, bless them ____ ____ ____, do good ____ ____ ____ ____ ____, and pray ____ ____ ____ ____ ____ ____, and persecute ____;")
        #expect(prompt.blanks.prefix(4) == ["say", "unto", "you", "enemies"])
    }

    @Test func recitationShowsNothingAndHintsRevealTheNextWord() {
        let prompt = PassageLadder(level: .recite).prompt(for: passage, entryID: id)
        #expect(prompt.text.isEmpty && prompt.blanks.isEmpty)
        #expect(PassageLadder.hint(for: passage, typed: "") == "But")
        #expect(PassageLadder.hint(for: passage, typed: "But I say ") == "unto")
        #expect(PassageLadder.hint(for: passage, typed: "But I say un") == "unto", "the word being typed")
        #expect(PassageLadder.hint(for: passage, typed: "but i say unto you love ") == "your")
        #expect(PassageLadder.hint(for: passage, typed: passage.text + " ") == nil)
    }
}
