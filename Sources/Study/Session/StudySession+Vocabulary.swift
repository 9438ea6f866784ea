import Foundation
import RoteModel
import RoteStore
import Scheduling
import StudyData

/// A vocabulary entry in a session: its word card, then its questions, chosen or typed.
extension StudySession {
    func beginWord(_ entry: Entry, _ word: VocabularyEntry, now: Date) throws {
        // From the progress file as it is now, not as the source read it when the session
        // began: after an undo, and in a session restored elsewhere, the two differ.
        let file = try? recorder.current(entry.id)
        let reviews = file?.scheduledReviews ?? source.scheduledReviews(entry.id)
        let learned = file?.state?.phase == .review
        guard let visit = state.visit else { return }
        let kind: VocabularyExercises.Visit =
            visit.visit.isNew ? .new : .review(number: reviews.count, lastGrade: reviews.last?.grade, learned: learned)
        let learnsTranslations = VocabularyExercises.learnsTranslations(
            deck: source.decks[entry.deck], profile: profile)
        state.visit?.steps = VocabularyExercises.plan(for: word, visit: kind, learnsTranslations: learnsTranslations)
            .map { step in
                switch step {
                case .card: nil
                case let .question(question): question.id
                }
            }
        state.visit?.step = -1
        try nextWordStep(entry, now: now)
    }

    /// The visit's next step: its card, a question, or its grade when the steps are done.
    func nextWordStep(_ entry: Entry, now: Date) throws {
        guard var visit = state.visit, case let .vocabulary(word) = entry.content else { return }
        visit.step += 1
        state.visit = visit
        guard visit.step < visit.steps.count else { return try gradeVisit(entry, now: now) }
        guard let questionID = visit.steps[visit.step],
            let question = VocabularyExercises.questions(of: word).first(where: { $0.id == questionID })
        else { return enter(.card, now: now) }
        let exercise = VocabularyExercises.exercise(
            for: question, of: word, deck: source.vocabulary(inDeck: entry.deck), using: &random)
        enter(.wordQuestion(exercise, typed: typedAnswers), now: now)
    }

    func answerWord(
        _ entry: Entry, _ exercise: VocabularyExercise, typed: Bool, _ action: StudyAction, now: Date
    ) throws {
        let correct: Bool
        var similarity: Double?
        let given: String
        switch action {
        case let .choose(index) where !typed:
            guard exercise.options.indices.contains(index) else { throw misfit(action) }
            correct = exercise.check(choice: index)
            given = exercise.options[index]
        case let .type(text):
            if typed {
                (correct, similarity) = exercise.grade(typed: text)
            } else {
                correct = exercise.check(typed: text)
            }
            given = text
        default:
            throw misfit(action)
        }
        let ms = attempt(entry, exercise.questionID, given, correct, now: now)
        let median = state.medianMilliseconds
        state.visit?.answers.append(
            GivenAnswer(correct: correct, similarity: similarity, milliseconds: ms, median: median))
        let nearly = correct && (similarity ?? 1) < 1
        let last = (state.visit.map { $0.step == $0.steps.count - 1 }) ?? true
        enter(
            .feedback(
                .init(
                    correct: correct, expected: correct && !nearly ? nil : exercise.answer, nearly: nearly,
                    similarity: nil, hints: 0, explanation: nil, proposed: last ? proposedGrade : nil)), now: now)
    }

    static func question(_ exercise: VocabularyExercise, typed: Bool) -> StudyScreen.Question {
        let kind: StudyScreen.Question.Kind =
            switch exercise.kind {
            case .translationMatch: .translation
            case .reverseTranslation: .reverseTranslation
            case .sentenceCompletion: .sentenceCompletion
            }
        return StudyScreen.Question(
            kind: kind, prompt: exercise.prompt, choices: typed ? [] : exercise.options, typed: typed,
            hint: typed ? exercise.hint : nil)
    }
}
