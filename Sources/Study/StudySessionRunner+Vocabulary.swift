import Foundation
import RoteModel
import RoteStore
import Scheduling
import StudyData

/// A vocabulary entry in a session: its word card and questions, chosen or typed.
extension StudySessionRunner {
    func studyWord(_ entry: Entry, _ word: VocabularyEntry, isNew: Bool) throws -> [Answer] {
        var answers: [Answer] = []
        let reviews = source.scheduledReviews(entry.id)
        let learned = (try? recorder.current(entry.id))?.state?.phase == .review
        let visit: VocabularyExercises.Visit =
            isNew ? .new : .review(number: reviews.count, lastGrade: reviews.last?.grade, learned: learned)
        let learnsTranslations = VocabularyExercises.learnsTranslations(
            deck: source.decks[entry.deck], profile: profile)
        for step in VocabularyExercises.plan(for: word, visit: visit, learnsTranslations: learnsTranslations) {
            switch step {
            case .card:
                console.show(WordCard(entry: word).render())
                if console.isInteractive { _ = try ask("space or Enter to go on", .reveal) }
                // The card gives its questions' answers: they come on a page of their own.
                console.turnPage()
            case let .question(question):
                let exercise = VocabularyExercises.exercise(
                    for: question, of: word, deck: self.source.vocabulary(inDeck: entry.deck), using: &random)
                if typedAnswers {
                    console.show(exercise.typedPrompt, style: .title)
                    let started = now()
                    let reply = try ask("type the answer", .text)
                    let (correct, similarity) = exercise.grade(typed: reply)
                    let ms = milliseconds(since: started)
                    answers.append(
                        Answer(
                            correct: correct, similarity: similarity, milliseconds: ms,
                            medianMilliseconds: medianMilliseconds))
                    attempt(entry, question.id, reply, correct, ms)
                    feedback(
                        correct,
                        correct
                            ? (similarity < 1 ? "nearly: it is spelt \(exercise.answer)" : "correct")
                            : "the answer is \(exercise.answer)")
                    continue
                }
                console.show(exercise.prompt, style: .title)
                console.showChoices(exercise.options)
                let started = now()
                let reply = try ask("answer (number or text)", .choice(count: exercise.options.count))
                let choice = Int(reply.trimmingCharacters(in: .whitespaces))
                let correct = choice.map { exercise.check(choice: $0 - 1) } ?? exercise.check(typed: reply)
                let ms = milliseconds(since: started)
                answers.append(Answer(correct: correct, milliseconds: ms, medianMilliseconds: medianMilliseconds))
                let chosen =
                    choice.flatMap { exercise.options.indices.contains($0 - 1) ? exercise.options[$0 - 1] : nil }
                    ?? reply
                attempt(entry, question.id, chosen, correct, ms)
                feedback(correct, correct ? "correct" : "the answer is \(exercise.answer)")
            }
        }
        return answers
    }
}
