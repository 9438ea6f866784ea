import Foundation
import RoteModel
import Study
import Testing

@Suite struct SkillExercisesTests {
    static let at = StudyFixtures.date("2026-11-21T10:00:00Z")

    static let mcq = SkillQuestion(
        uuid: "d37faec5-38b7-4e59-8a8c-7c4fa8b8f552",
        payload: .mcqSingle(
            prompt: "What is the value of x in 2x = 10?", choices: ["3", "4", "5", "6"], solutionIndex: 2),
        published: true)
    static let reorder = SkillQuestion(
        payload: .reorderSteps(
            prompt: "Put the steps in order.",
            steps: ["Get x = 5", "Write the equation: 2x = 10", "Divide both sides by 2"], solution: [1, 2, 0]),
        published: true)

    // MARK: - mcq_single

    @Test func storedOrderIsCheckedByIndex() {
        var random = SeededGenerator(seed: 1)
        guard case let .mcq(exercise) = SkillExercise(question: Self.mcq, shuffleChoices: false, using: &random) else {
            Issue.record("expected an mcq")
            return
        }
        #expect(exercise.choices == ["3", "4", "5", "6"])
        #expect(exercise.correctPosition == 2)
        #expect((0..<4).map(exercise.check(position:)) == [false, false, true, false])
        #expect(!exercise.check(position: 4) && !exercise.check(position: -1))
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func shuffledChoicesKeepTheirAnswer(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        guard case let .mcq(exercise) = SkillExercise(question: Self.mcq, using: &random) else {
            Issue.record("expected an mcq")
            return
        }
        #expect(exercise.choices.sorted() == ["3", "4", "5", "6"])
        #expect(exercise.choices[exercise.correctPosition] == "5")
        for position in 0..<4 { #expect(exercise.check(position: position) == (exercise.choices[position] == "5")) }
        #expect(
            exercise.answer(position: exercise.correctPosition) == .choice(2), "answers are recorded in stored indexes")
        var again = SeededGenerator(seed: seed)
        #expect(
            SkillExercise(question: Self.mcq, using: &again) == .mcq(exercise), "the same seed shows the same order")
    }

    @Test func shufflingMovesTheAnswerAround() {
        let positions = Set(
            (0..<30 as Range<UInt64>).map { seed -> Int in
                var random = SeededGenerator(seed: seed)
                guard case let .mcq(exercise) = SkillExercise(question: Self.mcq, using: &random) else { return -1 }
                return exercise.correctPosition
            })
        #expect(positions == [0, 1, 2, 3])
    }

    // MARK: - reorder_steps

    @Test(arguments: 0..<12 as Range<UInt64>)
    func reorderIsCheckedThroughTheDisplayedPositions(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        guard case let .reorder(exercise) = SkillExercise(question: Self.reorder, using: &random) else {
            Issue.record("expected a reorder")
            return
        }
        #expect(exercise.storedIndex != [1, 2, 0], "never shown already solved")
        #expect(exercise.steps.sorted() == ["Divide both sides by 2", "Get x = 5", "Write the equation: 2x = 10"])
        let right = [1, 2, 0].map { exercise.storedIndex.firstIndex(of: $0)! }
        #expect(exercise.check(positions: right))
        #expect(
            right.map { exercise.steps[$0] } == ["Write the equation: 2x = 10", "Divide both sides by 2", "Get x = 5"])
        #expect(!exercise.check(positions: right.reversed()))
        #expect(!exercise.check(positions: Array(right.prefix(2))), "every step must be placed")
        #expect(!exercise.check(positions: [right[0], right[0], right[1]]))
        #expect(!exercise.check(positions: right.map { $0 + 3 }))
        #expect(exercise.answer(positions: right) == .order([1, 2, 0]))
    }

    @Test func aTwoStepShuffleThatLandsSolvedIsTurned() throws {
        let two = SkillQuestion(
            payload: .reorderSteps(prompt: nil, steps: ["a", "b"], solution: [0, 1]), published: true)
        for seed in 0..<20 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            let made = SkillExercise(question: two, using: &random)
            let exercise = try #require(
                { () -> ReorderExercise? in if case let .reorder(exercise) = made { exercise } else { nil } }(),
                "seed \(seed): a reorder question makes a reorder exercise, not \(made)")
            #expect(exercise.steps == ["b", "a"])
            #expect(exercise.check(positions: [1, 0]))
        }
    }

    // MARK: - Attempts and progress

    @Test func attemptsRecordAnswerCorrectnessAndTime() {
        let exercise = SkillExercise.mcq(MCQExercise(prompt: "?", choices: ["3", "4", "5", "6"], solutionIndex: 2))
        let right = SkillAttempt(
            question: "math/algebra/linear/one_step", exercise: exercise, positions: [2], at: Self.at,
            milliseconds: 2_400)
        #expect(right.correct && right.answer == .choice(2))
        #expect(
            right.sessionAttempt
                == SessionFile.Attempt(
                    entry: "math/algebra/linear/one_step", question: "mcq_single", answer: "2", correct: true,
                    at: Self.at, ms: 2_400))
        let wrong = SkillAttempt(question: "q", exercise: exercise, positions: [0], at: Self.at, milliseconds: 10)
        #expect(!wrong.correct && wrong.sessionAttempt.answer == "0")
        let none = SkillAttempt(question: "q", exercise: exercise, positions: [], at: Self.at, milliseconds: 10)
        #expect(!none.correct)
        let order = SkillExercise.reorder(
            ReorderExercise(prompt: nil, steps: ["a", "b", "c"], solution: [1, 2, 0], displayOrder: [2, 0, 1]))
        let placed = SkillAttempt(question: "q", exercise: order, positions: [2, 0, 1], at: Self.at, milliseconds: 5)
        #expect(
            placed.correct && placed.sessionAttempt.answer == "1,2,0"
                && placed.sessionAttempt.question == "reorder_steps")
    }

    static func attempt(_ entry: String, _ correct: Bool, _ minute: Int) -> SessionFile.Attempt {
        SessionFile.Attempt(
            entry: entry, question: "mcq_single", answer: "0", correct: correct,
            at: at.addingTimeInterval(Double(minute) * 60), ms: 1_000)
    }

    @Test func progressIsTheShareOfQuestionsWhoseLatestAttemptWasRight() {
        let skill = "math/algebra/linear"
        let attempts = [
            Self.attempt("\(skill)/a", false, 1), Self.attempt("\(skill)/a", true, 5),  // fixed: counts
            Self.attempt("\(skill)/b", true, 2), Self.attempt("\(skill)/b", false, 9),  // lost again
            Self.attempt("\(skill)/draft", true, 20),  // not published
            Self.attempt("math/algebra/other/a", true, 30),  // another skill
        ]
        let progress = SkillProgress(
            skill: skill, publishedQuestions: ["\(skill)/a", "\(skill)/b", "\(skill)/c"], attempts: attempts.reversed())
        #expect(progress.total == 3 && progress.attempted == 2 && progress.mastered == 1)
        #expect(progress.progress == 1.0 / 3)
        #expect(progress.lastAttemptAt == Self.at.addingTimeInterval(9 * 60))
    }

    @Test func progressOfAnUntouchedOrEmptySkill() {
        let untouched = SkillProgress(skill: "s", publishedQuestions: ["s/a"], attempts: [])
        #expect(untouched.progress == 0 && untouched.lastAttemptAt == nil)
        let empty = SkillProgress(skill: "s", publishedQuestions: [], attempts: [Self.attempt("s/a", true, 0)])
        #expect(empty.progress == 0 && empty.total == 0)
    }

    @Test func aTieInTimeGoesToTheLaterAttempt() {
        let progress = SkillProgress(
            skill: "s", publishedQuestions: ["s/a"],
            attempts: [Self.attempt("s/a", false, 0), Self.attempt("s/a", true, 0)])
        #expect(progress.progress == 1)
    }

    @Test func progressForEverySkillOfADeck() {
        func entry(_ id: String, published: Bool) -> Entry {
            var question = Self.mcq
            question.published = published
            return Entry(id: id, deck: "math", path: "corpus/\(id).yaml", content: .question(question))
        }
        let entries = [
            entry("math/algebra/linear/a", published: true), entry("math/algebra/linear/b", published: true),
            entry("math/algebra/linear/c", published: false), entry("math/arithmetic/addition/x", published: true),
        ]
        let attempts = [Self.attempt("math/algebra/linear/a", true, 0), Self.attempt("math/algebra/linear/c", true, 1)]
        let all = SkillProgress.all(entries: entries, attempts: attempts)
        #expect(Set(all.keys) == ["math/algebra/linear", "math/arithmetic/addition"])
        #expect(all["math/algebra/linear"]?.progress == 0.5)
        #expect(all["math/arithmetic/addition"]?.progress == 0)
        #expect(
            SkillProgress.all(entries: entries, attempts: attempts, includeDrafts: true)["math/algebra/linear"]?
                .mastered == 2)
    }
}
