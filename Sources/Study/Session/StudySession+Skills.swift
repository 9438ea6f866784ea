import Foundation
import RoteModel
import RoteStore
import Scheduling
import StudyData

/// A skill question in a session: one multiple-choice or ordering exercise.
extension StudySession {
    func beginQuestion(_ question: SkillQuestion, now: Date) {
        enter(.skillQuestion(SkillExercise(question: question, using: &random)), now: now)
    }

    func answerQuestion(_ entry: Entry, _ exercise: SkillExercise, _ action: StudyAction, now: Date) throws {
        guard case let .question(question) = entry.content else { throw misfit(action) }
        let correct: Bool
        let expected: String
        switch (exercise, action) {
        case let (.mcq(mcq), .choose(position)):
            guard mcq.choices.indices.contains(position) else { throw misfit(action) }
            correct = mcq.check(position: position)
            expected = mcq.choices[mcq.correctPosition]
            _ = attempt(entry, "mcq_single", mcq.choices[position], correct, now: now)
        case let (.reorder(reorder), .order(positions)):
            guard positions.allSatisfy(reorder.steps.indices.contains) else { throw misfit(action) }
            correct = reorder.check(positions: positions)
            // The steps in their right order, as the learner would have put them.
            expected = reorder.solution.compactMap { stored in reorder.storedIndex.firstIndex(of: stored) }
                .map { reorder.steps[$0] }.joined(separator: " → ")
            _ = attempt(
                entry, "reorder_steps", positions.map { String($0 + 1) }.joined(separator: " "), correct, now: now)
        default:
            throw misfit(action)
        }
        let ms = state.session.attempts.last?.ms ?? 0
        let median = state.medianMilliseconds
        state.visit?.answers.append(GivenAnswer(correct: correct, similarity: nil, milliseconds: ms, median: median))
        enter(
            .feedback(
                .init(
                    correct: correct, expected: correct ? nil : expected, nearly: false, similarity: nil, hints: 0,
                    explanation: question.explanation, proposed: proposedGrade)), now: now)
    }

    static func question(_ exercise: SkillExercise) -> StudyScreen.Question {
        switch exercise {
        case let .mcq(mcq):
            StudyScreen.Question(kind: .choice, prompt: mcq.prompt, choices: mcq.choices, typed: false, hint: nil)
        case let .reorder(reorder):
            StudyScreen.Question(kind: .order, prompt: reorder.prompt, choices: reorder.steps, typed: false, hint: nil)
        }
    }
}
