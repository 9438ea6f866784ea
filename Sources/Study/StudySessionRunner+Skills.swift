import Foundation
import RoteModel
import RoteStore
import Scheduling
import StudyData

/// A skill question in a session: one multiple-choice or ordering exercise.
extension StudySessionRunner {
    func studyQuestion(_ entry: Entry, _ question: SkillQuestion) throws -> [Answer] {
        let exercise = SkillExercise(question: question, using: &random)
        let started = now()
        let answer: Answer
        switch exercise {
        case let .mcq(mcq):
            console.show(mcq.prompt, style: .title)
            console.showChoices(mcq.choices)
            let reply = try ask("answer (number)", .choice(count: mcq.choices.count))
            let position = (Int(reply.trimmingCharacters(in: .whitespaces)) ?? 0) - 1
            let correct = mcq.check(position: position)
            let ms = milliseconds(since: started)
            answer = Answer(correct: correct, milliseconds: ms, medianMilliseconds: medianMilliseconds)
            attempt(
                entry, "mcq_single", mcq.choices.indices.contains(position) ? mcq.choices[position] : reply, correct, ms
            )
            feedback(correct, correct ? "correct" : "the answer is \(mcq.choices[mcq.correctPosition])")
        case let .reorder(reorder):
            console.show(reorder.prompt ?? "Put the steps in order:", style: .title)
            console.showChoices(reorder.steps)
            let reply = try ask("order (e.g. 2 1 3)", .order(count: reorder.steps.count))
            let positions = reply.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) }.map {
                $0 - 1
            }
            let correct = reorder.check(positions: positions)
            let ms = milliseconds(since: started)
            answer = Answer(correct: correct, milliseconds: ms, medianMilliseconds: medianMilliseconds)
            attempt(entry, "reorder_steps", reply, correct, ms)
            feedback(correct, correct ? "correct" : "not quite")
        }
        if let explanation = question.explanation { console.show("  \(explanation)", style: .dim) }
        return [answer]
    }
}
