import Foundation
import RoteModel
import TestSupport
import Testing

@testable import Study

@Suite struct CalibrationTests {
    /// A frequency list of 5 000 words, ranks 1…5 000, each with a meaning for checks.
    static let bank = (1...5000).map {
        Calibration.Item(id: "bank/w\($0)", word: "w\($0)", rank: $0, translation: "t\($0)")
    }

    /// The starter English deck's ranked words (`corpus/english-a1`), as `rote calibrate --deck
    /// english-a1` asks them: 894 words, ranks 1…6 462, denser below 2 000.
    static let starterDeck: [Calibration.Item] = {
        let folder = Checkout.root.appending(path: "corpus/english-a1")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") && $0 != "deck.yaml" }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appending(path: name).path),
                case let (.vocabulary(word)?, _) = EntryContent.decode(data, kind: .vocabulary, path: name),
                let rank = word.rank
            else { return nil }
            return Calibration.Item(
                id: "english-a1/" + name.dropLast(5), word: word.word, rank: rank,
                translation: word.translation.isEmpty ? nil : word.translation)
        }
    }()

    /// Runs one test to the end against `learner`; the estimate and the questions asked.
    static func run(_ learner: inout SimulatedLearner, seed: UInt64, items: [Calibration.Item] = bank) throws -> (
        Calibration.Estimate, [Calibration.Question]
    ) {
        var test = Calibration(items: items, seed: seed)
        var questions: [Calibration.Question] = []
        while let question = test.nextQuestion() {
            questions.append(question)
            try test.answer(learner.answer(question))
        }
        return (test.estimate, questions)
    }

    /// The learner of #31 (item 14): knows every word up to rank 514 of the starter deck, slips
    /// on 5% of answers, guesses unknown meanings. An early failed check once raised the slip
    /// rate of every "known" to the share of failed checks, the claims counted for little, and
    /// the test ended far below the learner (with these seeds, at 106 after 40 questions).
    @Test func anEarlyFailedCheckDoesNotSinkTheEstimate() throws {
        #expect(Self.starterDeck.count == 894)
        var learner = SimulatedLearner(trueRank: 514, slip: 0.05, seed: 351)
        let (estimate, questions) = try Self.run(&learner, seed: 351, items: Self.starterDeck)
        #expect(questions.count <= 40)
        #expect(
            abs(Double(estimate.lexicalRank - 514)) <= 0.25 * 514,
            "placed at \(estimate.lexicalRank) after \(questions.count) questions")
    }

    /// The acceptance measure of `docs/scheduling.md`, "Calibration": 500 learners on the
    /// starter deck, true ranks log-uniform over 20…5 000, each knowing every word up to its
    /// rank, with 5% slips and random guesses, each with its own seeds. At least 98% within
    /// 25% of their rank, none off by more than 2×, never more than 40 questions.
    @Test func placesFiveHundredLearnersOnTheStarterDeck() throws {
        var random = SeededGenerator(seed: 514)
        let count = 500
        var within = 0
        var worst = 1.0
        var worstCase = ""
        var questionCounts: [Int] = []
        for run in 0..<count {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            let trueRank = Int(exp(log(20.0) + unit * (log(5000.0) - log(20.0))))
            var learner = SimulatedLearner(trueRank: trueRank, slip: 0.05, seed: UInt64(run) &* 104_729 &+ 17)
            let (estimate, questions) = try Self.run(&learner, seed: UInt64(run) &+ 1000, items: Self.starterDeck)
            questionCounts.append(questions.count)
            let placed = Double(estimate.lexicalRank)
            if abs(placed - Double(trueRank)) <= 0.25 * Double(trueRank) { within += 1 }
            let ratio = max(placed / Double(trueRank), Double(trueRank) / placed)
            if ratio > worst { (worst, worstCase) = (ratio, "\(trueRank) placed at \(estimate.lexicalRank)") }
        }
        let mean = Double(questionCounts.reduce(0, +)) / Double(count)
        print(
            "calibration, starter deck: \(within)/\(count) within 25%, worst \(String(format: "%.2f", worst))× (\(worstCase)), questions mean \(String(format: "%.1f", mean)), max \(questionCounts.max()!)"
        )
        #expect(Double(within) >= 0.98 * Double(count), "within 25%: \(within) of \(count)")
        #expect(worst <= 2, "worst placement \(worst)×: \(worstCase)")
        #expect(questionCounts.max()! <= 40)
    }

    /// The issue's acceptance test: 200 seeded learners, each knowing every word up to a
    /// hidden rank (log-uniform over 50…4 000) with 5% slips, are placed within 25% of their
    /// true rank in at least 98% of runs, in at most 40 questions.
    @Test func placesSimulatedLearnersWithinAQuarterOfTheirRank() throws {
        var random = SeededGenerator(seed: 2026)
        var within = 0
        var questionCounts: [Int] = []
        for run in 0..<200 {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            let trueRank = Int(exp(log(50.0) + unit * (log(4000.0) - log(50.0))))
            var learner = SimulatedLearner(trueRank: trueRank, slip: 0.05, seed: UInt64(run) &* 7919 &+ 1)
            let (estimate, questions) = try Self.run(&learner, seed: UInt64(run))
            #expect(questions.count <= 40)
            questionCounts.append(questions.count)
            if abs(Double(estimate.lexicalRank - trueRank)) <= 0.25 * Double(trueRank) { within += 1 }
        }
        let share = Double(within) / 200
        let mean = Double(questionCounts.reduce(0, +)) / Double(questionCounts.count)
        print(
            "calibration: \(within)/200 within 25% (\(share * 100)%), questions mean \(mean), max \(questionCounts.max()!)"
        )
        #expect(share >= 0.98, "placed within 25%: \(within) of 200")
    }

    @Test func everyFourthQuestionIsAMeaningCheckWithTheRightTranslationAmongFour() throws {
        var learner = SimulatedLearner(trueRank: 900, seed: 3)
        let (_, questions) = try Self.run(&learner, seed: 3)
        #expect(questions.count >= Calibration.minimumQuestions)
        for question in questions {
            if question.number % 4 == 0 {
                guard case let .choice(choices, answer) = question.ask else {
                    Issue.record("question \(question.number) is not a check")
                    continue
                }
                #expect(choices.count == 4 && Set(choices).count == 4)
                #expect(choices[answer] == question.item.translation)
            } else {
                #expect(question.ask == .known)
            }
        }
        #expect(Set(questions.map(\.item.id)).count == questions.count, "no word is asked twice")
    }

    /// A learner who says "known" to everything but knows only the first 300 words fails the
    /// checks above 300; the estimate follows the checks, not the claims.
    @Test func overClaimingIsCaughtByTheChecks() throws {
        var test = Calibration(items: Self.bank, seed: 11)
        var guesser = SeededGenerator(seed: 5)
        while let question = test.nextQuestion() {
            switch question.ask {
            case .known: try test.answer(.known)
            case let .choice(choices, answer):
                try test.answer(
                    .choice(
                        question.item.rank <= 300 ? answer : StudyRandom.index(below: choices.count, using: &guesser)))
            }
        }
        #expect(
            test.estimate.lexicalRank < 1500, "an over-claimer of 300 words is placed at \(test.estimate.lexicalRank)")
        var honest = Calibration(items: Self.bank, seed: 11)
        while let question = honest.nextQuestion() {
            if case .known = question.ask {
                try honest.answer(.known)
            } else if case let .choice(_, answer) = question.ask {
                try honest.answer(.choice(answer))
            }
        }
        #expect(honest.estimate.lexicalRank > 4000, "one who knows everything is placed at the top")
    }

    /// A large library's bank is at most `bankLimit` words spread over log rank: no step of
    /// the model's scale is left without a word, and a small deck is asked in full.
    @Test func aLargeLibraryIsAskedFromABankSpreadOverLogRank() {
        let ranks = (1...100_000).reversed().map { $0 }
        let chosen = Calibration.bank(ranks: ranks).map { ranks[$0] }
        // Below rank ~170 every word is its own step and the steps between them stay empty.
        #expect(chosen.count <= Calibration.bankLimit && chosen.count > Calibration.bankLimit / 2)
        #expect(chosen.first == 1 && chosen == chosen.sorted())
        let step = log(100_000.0) / Double(Calibration.bankLimit)
        for (lower, upper) in zip(chosen, chosen.dropFirst()) {
            #expect(upper == lower + 1 || log(Double(upper) / Double(lower)) <= 2 * step, "\(lower) → \(upper)")
        }
        #expect(chosen.last! >= 99_000)
        let small = [30, 10, 20]
        #expect(Calibration.bank(ranks: small) == [1, 2, 0], "a small deck is asked in full, in rank order")
    }

    @Test func sameSeedSameTest() throws {
        var first = SimulatedLearner(trueRank: 1200, seed: 9)
        var second = SimulatedLearner(trueRank: 1200, seed: 9)
        let a = try Self.run(&first, seed: 42)
        let b = try Self.run(&second, seed: 42)
        #expect(a.0 == b.0 && a.1 == b.1)
    }

    @Test func answersOfTheWrongKindAreRefused() throws {
        var test = Calibration(items: Self.bank, seed: 1)
        #expect(throws: Calibration.AnswerError.noQuestion) { try test.answer(.known) }
        _ = test.nextQuestion()
        #expect(throws: Calibration.AnswerError.wrongKind) { try test.answer(.choice(1)) }
        try test.answer(.known)
        for _ in 0..<2 {
            _ = test.nextQuestion()
            try test.answer(.unknown)
        }
        guard case .choice? = test.nextQuestion()?.ask else {
            Issue.record("the fourth question is a check")
            return
        }
        #expect(throws: Calibration.AnswerError.wrongKind) { try test.answer(.known) }
        #expect(throws: Calibration.AnswerError.wrongKind) { try test.answer(.choice(4)) }
        try test.answer(.choice(3))
        #expect(test.answered == 4)
    }

    @Test func aSmallDeckEndsWhenItsWordsRunOut() throws {
        let items = Array(Self.bank.prefix(5))
        var learner = SimulatedLearner(trueRank: 3, seed: 1)
        let (estimate, questions) = try Self.run(&learner, seed: 1, items: items)
        #expect(questions.count == 5)
        #expect(estimate.questions == 5)
    }
}
