public import Foundation
public import RoteModel

/// A multiple-choice question (`mcq_single`) as shown: its choices in stored order or
/// shuffled, answered by the position the learner picked.
package struct MCQExercise: Sendable, Equatable, Codable {
    package var prompt: String
    /// The choices as displayed.
    package var choices: [String]
    /// For each displayed position, the choice's index in the stored payload.
    package var storedIndex: [Int]
    /// The stored index of the right choice (`solution_index`).
    package var solutionIndex: Int

    /// The choices in stored order.
    package init(prompt: String, choices: [String], solutionIndex: Int) {
        self.prompt = prompt
        self.choices = choices
        self.storedIndex = Array(choices.indices)
        self.solutionIndex = solutionIndex
    }

    /// The choices shuffled with `generator`.
    package init(
        prompt: String, choices: [String], solutionIndex: Int, shuffledWith generator: inout some RandomNumberGenerator
    ) {
        let order = StudyRandom.shuffled(Array(choices.indices), using: &generator)
        self.prompt = prompt
        self.choices = order.map { choices[$0] }
        self.storedIndex = order
        self.solutionIndex = solutionIndex
    }

    /// Where the right choice is displayed.
    package var correctPosition: Int { storedIndex.firstIndex(of: solutionIndex) ?? 0 }

    /// Whether the choice displayed at `position` is the right one (out of range is wrong).
    package func check(position: Int) -> Bool {
        storedIndex.indices.contains(position) && storedIndex[position] == solutionIndex
    }

    /// The answer as recorded: the stored index of the choice picked, so it means the same
    /// whatever order the choices were shown in.
    package func answer(position: Int) -> SkillAnswer {
        .choice(storedIndex.indices.contains(position) ? storedIndex[position] : position)
    }
}

/// A step-ordering question (`reorder_steps`) as shown: its steps shuffled, answered by the
/// displayed positions in the order the learner puts them.
package struct ReorderExercise: Sendable, Equatable, Codable {
    package var prompt: String?
    /// The steps as displayed.
    package var steps: [String]
    /// For each displayed position, the step's index in the stored payload.
    package var storedIndex: [Int]
    /// Stored step indexes in the right order (`solution`).
    package var solution: [Int]

    /// The steps shuffled with `generator`. A shuffle that happens to show the solution order
    /// is rotated by one, so the learner always has something to do.
    package init(prompt: String?, steps: [String], solution: [Int], using generator: inout some RandomNumberGenerator) {
        var order = StudyRandom.shuffled(Array(steps.indices), using: &generator)
        if order == solution, order.count > 1 { order = Array(order.dropFirst()) + [order[0]] }
        self.init(prompt: prompt, steps: steps, solution: solution, displayOrder: order)
    }

    /// The steps in a given display order (stored indexes, one per position).
    package init(prompt: String?, steps: [String], solution: [Int], displayOrder: [Int]) {
        self.prompt = prompt
        self.steps = displayOrder.map { steps[$0] }
        self.storedIndex = displayOrder
        self.solution = solution
    }

    /// Whether the displayed positions, in the learner's order, put the steps in the solution
    /// order. Every step must be placed exactly once.
    package func check(positions: [Int]) -> Bool {
        guard positions.count == solution.count, positions.allSatisfy(storedIndex.indices.contains) else {
            return false
        }
        return positions.map { storedIndex[$0] } == solution
    }

    /// The answer as recorded: the stored step indexes in the learner's order.
    package func answer(positions: [Int]) -> SkillAnswer {
        .order(positions.map { storedIndex.indices.contains($0) ? storedIndex[$0] : $0 })
    }
}

/// A skills question ready to show.
package enum SkillExercise: Sendable, Equatable, Codable {
    case mcq(MCQExercise)
    case reorder(ReorderExercise)

    /// The exercise for a question: mcq choices shuffled when `shuffleChoices` (else in stored
    /// order), reorder steps always shuffled — both with `generator`.
    package init(
        question: SkillQuestion, shuffleChoices: Bool = true, using generator: inout some RandomNumberGenerator
    ) {
        switch question.payload {
        case let .mcqSingle(prompt, choices, solution):
            self = .mcq(
                shuffleChoices
                    ? MCQExercise(prompt: prompt, choices: choices, solutionIndex: solution, shuffledWith: &generator)
                    : MCQExercise(prompt: prompt, choices: choices, solutionIndex: solution))
        case let .reorderSteps(prompt, steps, solution):
            self = .reorder(ReorderExercise(prompt: prompt, steps: steps, solution: solution, using: &generator))
        }
    }

    /// The exercise name a session file records in `question` (`mcq_single`, `reorder_steps`).
    package var exerciseName: String {
        switch self {
        case .mcq: "mcq_single"
        case .reorder: "reorder_steps"
        }
    }
}

/// What a learner answered to a skills question, in stored indexes (seed 001's answer JSON,
/// `{"choice": 2}`).
package enum SkillAnswer: Sendable, Hashable {
    /// The stored index of the choice picked.
    case choice(Int)
    /// Stored step indexes in the learner's order.
    case order([Int])

    /// The text a session file keeps: `2` for a choice, `1,2,0` for an order.
    package var text: String {
        switch self {
        case let .choice(index): String(index)
        case let .order(indexes): indexes.map(String.init).joined(separator: ",")
        }
    }
}

/// One answered skills question: what was answered, whether it was right, when and how fast
/// (seed 001's `attempts` row).
package struct SkillAttempt: Sendable, Equatable {
    /// The question's entry id, e.g. `math/algebra/linear_equations/one_step`.
    package var question: String
    package var exercise: String
    package var answer: SkillAnswer
    package var correct: Bool
    package var at: Date
    package var milliseconds: Int

    /// Checks `positions` against `exercise` and records the result.
    package init(question: String, exercise: SkillExercise, positions: [Int], at: Date, milliseconds: Int) {
        self.question = question
        self.exercise = exercise.exerciseName
        switch exercise {
        case let .mcq(mcq):
            let position = positions.first ?? -1
            answer = mcq.answer(position: position)
            correct = positions.count == 1 && mcq.check(position: position)
        case let .reorder(reorder):
            answer = reorder.answer(positions: positions)
            correct = reorder.check(positions: positions)
        }
        self.at = at
        self.milliseconds = milliseconds
    }

    /// The line a session file keeps for it.
    package var sessionAttempt: SessionFile.Attempt {
        SessionFile.Attempt(
            entry: question, question: exercise, answer: answer.text, correct: correct, at: at, ms: milliseconds)
    }
}

/// A learner's progress in one skill, derived from attempts (seed 001's `skill_progress`,
/// computed rather than stored, so it can never disagree with the attempts).
///
/// progress = published questions of the skill whose latest attempt was correct ÷ published
/// questions of the skill (0 when it has none). A question never attempted counts as not yet
/// right; a later wrong answer takes back an earlier right one. `lastAttemptAt` is the latest
/// attempt at any of those questions.
public struct SkillProgress: Sendable, Equatable {
    /// `<deck>/<domain>/<skill>`.
    public var skill: String
    public var progress: Double
    /// Published questions whose latest attempt was right.
    public var mastered: Int
    /// Published questions attempted at least once.
    public var attempted: Int
    /// Published questions in the skill.
    public var total: Int
    public var lastAttemptAt: Date?

    /// Progress in `skill` over its published question ids, from attempts (any order; ties
    /// in time go to the later one in the sequence). Attempts at other entries are ignored.
    public init(skill: String, publishedQuestions: some Sequence<String>, attempts: some Sequence<SessionFile.Attempt>)
    {
        let questions = Set(publishedQuestions)
        var latest: [String: SessionFile.Attempt] = [:]
        for attempt in attempts where questions.contains(attempt.entry) {
            if let known = latest[attempt.entry], known.at > attempt.at { continue }
            latest[attempt.entry] = attempt
        }
        self.skill = skill
        total = questions.count
        attempted = latest.count
        mastered = latest.values.count { $0.correct }
        progress = total == 0 ? 0 : Double(mastered) / Double(total)
        lastAttemptAt = latest.values.map(\.at).max()
    }

    /// Progress in every skill of `entries` (skills question entries; others are skipped):
    /// questions are grouped by the first three segments of their id, and only published ones
    /// count (pass `includeDrafts` to count all).
    public static func all(entries: [Entry], attempts: [SessionFile.Attempt], includeDrafts: Bool = false) -> [String:
        SkillProgress]
    {
        var questionsBySkill: [String: [String]] = [:]
        for entry in entries {
            guard case let .question(question) = entry.content, includeDrafts || question.published else { continue }
            let skill = entry.id.split(separator: "/").prefix(3).joined(separator: "/")
            questionsBySkill[skill, default: []].append(entry.id)
        }
        var result: [String: SkillProgress] = [:]
        for (skill, ids) in questionsBySkill {
            result[skill] = SkillProgress(skill: skill, publishedQuestions: ids, attempts: attempts)
        }
        return result
    }
}
