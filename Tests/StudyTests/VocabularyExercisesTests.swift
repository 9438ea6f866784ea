import Foundation
import RoteModel
import Scheduling
import Study
import Testing

@Suite struct VocabularyExercisesTests {
    let run = StudyFixtures.run
    let deck = StudyFixtures.deck

    func question(_ id: String) -> VocabularyQuestion { run.questions.first { $0.id == id }! }

    // MARK: - Distractors

    @Test(arguments: [1, 2, 3, 42, 9_999] as [UInt64])
    func aFullPoolGivesThreeOfItsOwnAndTheAnswer(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let exercise = VocabularyExercises.exercise(for: question("translation"), of: run, deck: deck, using: &random)
        #expect(exercise.options.count == 4)
        #expect(Set(exercise.options).count == 4, "no option repeats")
        #expect(exercise.answer == "يجري")
        #expect(exercise.options[exercise.correctIndex] == "يجري")
        let wrong = exercise.options.filter { $0 != "يجري" }
        #expect(Set(wrong).isSubset(of: ["يمشي", "يجلس", "يقف", "يسبح"]), "drawn from the question's own pool")
        #expect(exercise.prompt == "run")
    }

    @Test func theSameSeedGivesTheSameOptionsAndSeedsVary() {
        func options(_ seed: UInt64) -> [String] {
            var random = SeededGenerator(seed: seed)
            return VocabularyExercises.exercise(for: question("translation"), of: run, deck: deck, using: &random)
                .options
        }
        #expect(options(7) == options(7))
        let orders = Set((0..<20).map { options(UInt64($0)) })
        #expect(orders.count > 5, "different seeds give different draws and orders")
    }

    @Test func theRightAnswerIsSpreadOverPositions() {
        var positions = Set<Int>()
        for seed in 0..<40 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            positions.insert(
                VocabularyExercises.exercise(for: question("reverse"), of: run, deck: deck, using: &random).correctIndex
            )
        }
        #expect(positions == [0, 1, 2, 3])
    }

    @Test func aShortPoolIsToppedUpWithSameLevelWordsOfTheSamePartOfSpeech() {
        // One distractor of its own, and it is also walk's translation: walk must not repeat it.
        let short = VocabularyQuestion(
            id: "t", kind: .translationMatch, prompt: "run", answer: "يجري", distractors: [.init(text: "يمشي")])
        for seed in 0..<10 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            let wrong = VocabularyExercises.distractors(for: short, of: run, deck: deck, using: &random)
            #expect(wrong.first == "يمشي", "the question's own pool comes first")
            #expect(
                Set(wrong) == ["يمشي", "يجلس", "يقفز"],
                "the other A1 verbs: sit and jump, never the A2 verbs or the noun")
        }
    }

    @Test func withoutALevelTheNearestRanksAreTaken() {
        var unlevelled = run
        unlevelled.cefr = nil
        unlevelled.rank = 500
        let bare = VocabularyQuestion(id: "t", kind: .translationMatch, prompt: "run", answer: "يجري")
        var random = SeededGenerator(seed: 1)
        let wrong = VocabularyExercises.distractors(for: bare, of: unlevelled, deck: deck, using: &random)
        // Ranks: sit 400 (100 away), walk 300 (200), swim 900 (400), jump 1200, cook 1500.
        #expect(wrong == ["يجلس", "يمشي", "يسبح"])
    }

    @Test func sameLevelWordsComeBeforeNearerRanksOfAnotherLevel() {
        let bare = VocabularyQuestion(id: "t", kind: .translationMatch, prompt: "run", answer: "يجري")
        var random = SeededGenerator(seed: 3)
        let wrong = VocabularyExercises.distractors(for: bare, of: run, deck: deck, using: &random)
        #expect(Set(wrong) == ["يمشي", "يجلس", "يقفز"], "walk, sit and jump are A1 like run; swim (A2) waits")
    }

    @Test func sentenceCompletionTakesTheDeckWordsMatchingForm() {
        let past = VocabularyQuestion(
            id: "s", kind: .sentenceCompletion, answer: "ran", form: "past", sentence: "They ___ a marathon.")
        var random = SeededGenerator(seed: 5)
        let wrong = VocabularyExercises.distractors(for: past, of: run, deck: deck, using: &random)
        #expect(Set(wrong) == ["walked", "sat", "jumped"], "past forms of same-level verbs; the noun has no past")
    }

    @Test func reverseTranslationTakesBaseForms() {
        let reverse = VocabularyQuestion(
            id: "r", kind: .reverseTranslation, prompt: "يجري", answer: "run", form: "base",
            distractors: [.init(text: "walk")])
        var random = SeededGenerator(seed: 5)
        let wrong = VocabularyExercises.distractors(for: reverse, of: run, deck: deck, using: &random)
        #expect(wrong.count == 3)
        #expect(wrong.first == "walk")
        #expect(Set(wrong) == ["walk", "sit", "jump"], "walk is already there, so sit and jump fill the pool")
    }

    @Test func alternativesAreNeverOfferedAsWrongAnswers() {
        let tricky = VocabularyQuestion(
            id: "t", kind: .translationMatch, prompt: "run", answer: "يجري",
            distractors: [.init(text: "يركض"), .init(text: "يَجْرِي"), .init(text: "يقف")])
        var random = SeededGenerator(seed: 2)
        let wrong = VocabularyExercises.distractors(for: tricky, of: run, deck: deck, using: &random)
        #expect(!wrong.contains("يركض"), "an alternative translation is a right answer")
        #expect(!wrong.contains("يَجْرِي"), "the answer with harakat is the answer")
        #expect(wrong.count == 3 && wrong.first == "يقف")
    }

    @Test func aTinyDeckLeavesFewerOptionsRatherThanWrongOnes() {
        let bare = VocabularyQuestion(id: "t", kind: .translationMatch, prompt: "run", answer: "يجري")
        var random = SeededGenerator(seed: 2)
        let wrong = VocabularyExercises.distractors(for: bare, of: run, deck: [run, deck[6]], using: &random)
        #expect(wrong.isEmpty, "the only other word is a noun")
    }

    // MARK: - Typed answers

    @Test(arguments: [
        ("run", "run", true), ("Run", "run", true), ("  RUN. ", "run", true), ("\"run!\"", "run", true),
        ("runs", "run", false), ("", "run", false), ("ru n", "run", false),
        ("يَجْرِي", "يجري", true), ("يجري؟", "يجري", true), ("يجري", "يَجْرِي", true), ("يجرى", "يجري", true),
        ("يجرؤ", "يجري", false),
        ("don't", "dont", false), ("Don't!", "don't", true), ("give  up", "give up", true),
    ])
    func typedAnswersIgnoreCaseSurroundingPunctuationAndHarakat(typed: String, expected: String, same: Bool) {
        #expect(TypedAnswer.matches(typed, accepted: [expected]) == same)
    }

    @Test func translationMatchAcceptsAlternativesTyped() {
        var random = SeededGenerator(seed: 1)
        let match = VocabularyExercises.exercise(for: question("translation"), of: run, deck: deck, using: &random)
        #expect(match.check(typed: "يجري"))
        #expect(match.check(typed: "يَرْكُض"), "an alternative, with harakat")
        #expect(match.check(typed: " يدير. "))
        #expect(!match.check(typed: "يمشي"))
        let reverse = VocabularyExercises.exercise(for: question("reverse"), of: run, deck: deck, using: &random)
        #expect(reverse.check(typed: "Run"))
        #expect(!reverse.check(typed: "يركض"), "alternatives belong to translation_match only")
    }

    @Test func choicesAreCheckedByPosition() {
        var random = SeededGenerator(seed: 11)
        let exercise = VocabularyExercises.exercise(for: question("sentence-3"), of: run, deck: deck, using: &random)
        #expect(exercise.prompt == "They ___ a marathon last year.")
        for position in exercise.options.indices {
            #expect(exercise.check(choice: position) == (exercise.options[position] == "ran"))
        }
        #expect(!exercise.check(choice: 4))
    }

    // MARK: - Session plan

    @Test func aNewWordGetsItsCardThenTranslationAndOneSentence() {
        let steps = VocabularyExercises.plan(for: run, visit: .new)
        #expect(steps == [.card, .question(question("translation")), .question(question("sentence-1"))])
    }

    @Test(arguments: [
        (0, ["translation"]), (1, ["sentence-1"]), (2, ["reverse"]),
        (3, ["translation"]), (4, ["sentence-3"]), (5, ["reverse"]), (7, ["sentence-1"]),
    ])
    func whileLearningReviewsRotateThroughTypesOneQuestionAtATime(number: Int, expected: [String]) {
        let steps = VocabularyExercises.plan(for: run, visit: .review(number: number, lastGrade: .good, learned: false))
        #expect(steps == expected.map { .question(question($0)) })
    }

    /// Seed 000: a learned word's review asks two questions, and its reviews interleave all
    /// three types — each type within every two reviews, each question of a type in turn.
    @Test(arguments: [
        (0, ["translation", "sentence-1"]), (1, ["reverse", "translation"]), (2, ["sentence-3", "reverse"]),
        (3, ["translation", "sentence-1"]),
    ])
    func aLearnedWordGetsTwoQuestionsInterleavingTheTypes(number: Int, expected: [String]) {
        let steps = VocabularyExercises.plan(for: run, visit: .review(number: number, lastGrade: .good, learned: true))
        #expect(steps == expected.map { .question(question($0)) })
    }

    /// A learner whose native language is the deck's word side learns the translations:
    /// recognition shows the translation (reverse_translation) first.
    @Test func aLearnerOfTheTranslationsIsShownTheTranslationFirst() {
        let new = VocabularyExercises.plan(for: run, visit: .new, learnsTranslations: true)
        #expect(new == [.card, .question(question("reverse")), .question(question("sentence-1"))])
        let review = VocabularyExercises.plan(
            for: run, visit: .review(number: 0, lastGrade: .good, learned: true), learnsTranslations: true)
        #expect(review == [.question(question("reverse")), .question(question("sentence-1"))])
        let deck = DeckManifest(kind: .vocabulary, title: "T", sourceLanguage: "en", targetLanguage: "ar")
        func profile(_ native: String?, _ target: String?) -> Profile {
            var profile = Profile(user: "ana")
            profile.settings.nativeLanguage = native
            profile.settings.targetLanguage = target
            return profile
        }
        #expect(!VocabularyExercises.learnsTranslations(deck: deck, profile: profile("ar", "en")))
        #expect(VocabularyExercises.learnsTranslations(deck: deck, profile: profile("en", "ar")))
        #expect(VocabularyExercises.learnsTranslations(deck: deck, profile: profile(nil, "ar")))
        #expect(!VocabularyExercises.learnsTranslations(deck: deck, profile: profile(nil, nil)))
        #expect(
            !VocabularyExercises.learnsTranslations(
                deck: DeckManifest(kind: .vocabulary, title: "T"), profile: profile("en", "ar")))
    }

    /// However many questions of each type an entry has (the deck grows), every one comes up
    /// in turn and every review of a learned word has two different types.
    @Test(arguments: [1, 2, 3, 5])
    func everyQuestionOfEveryTypeComesUpInTurn(perType: Int) {
        var entry = run
        entry.questions = [VocabularyQuestion.Kind.translationMatch, .reverseTranslation, .sentenceCompletion].flatMap {
            kind in
            (0..<perType).map {
                VocabularyQuestion(id: "\(kind.rawValue)-\($0)", kind: kind, prompt: "p", answer: "a\($0)")
            }
        }
        var seen = Set<String>()
        for number in 0..<(3 * perType) {
            let steps = VocabularyExercises.plan(
                for: entry, visit: .review(number: number, lastGrade: .good, learned: true))
            let asked = steps.compactMap { step -> VocabularyQuestion? in
                if case let .question(q) = step { q } else { nil }
            }
            #expect(asked.count == 2 && Set(asked.map(\.kind)).count == 2, "review \(number): \(asked.map(\.id))")
            seen.formUnion(asked.map(\.id))
        }
        #expect(seen.count == 3 * perType, "all \(3 * perType) questions within \(3 * perType) reviews")
    }

    @Test(arguments: [Grade.again, .hard])
    func aShakyWordGetsTwoQuestionsOfDifferentTypes(last: Grade) {
        let steps = VocabularyExercises.plan(for: run, visit: .review(number: 2, lastGrade: last, learned: false))
        #expect(steps == [.question(question("reverse")), .question(question("translation"))])
        let learned = VocabularyExercises.plan(for: run, visit: .review(number: 2, lastGrade: last, learned: true))
        #expect(
            learned == [
                .question(question("sentence-3")), .question(question("reverse")), .question(question("translation")),
            ],
            "a learned word gets two, and a third when it was shaky")
    }

    @Test func missingTypesAreMadeFromTheEntry() {
        var bare = run
        bare.questions = []
        let made = VocabularyExercises.questions(of: bare)
        #expect(made.map(\.kind) == [.translationMatch, .reverseTranslation, .sentenceCompletion])
        #expect(made[0].answer == "يجري" && made[0].prompt == "run")
        #expect(made[1].answer == "run" && made[1].prompt == "يجري")
        #expect(made[2].sentence == "I ___ every morning." && made[2].answer == "run" && made[2].blank == 1)
        let steps = VocabularyExercises.plan(for: bare, visit: .review(number: 2, lastGrade: nil, learned: false))
        #expect(steps == [.question(made[1])])
        var random = SeededGenerator(seed: 4)
        let exercise = VocabularyExercises.exercise(for: made[0], of: bare, deck: deck, using: &random)
        #expect(exercise.options.count == 4, "made-up questions draw their distractors from the deck")
    }

    // MARK: - Word card

    @Test func theCardShowsPrimaryExamplesFirstAndRotatesTheOthers() {
        var entry = run
        entry.examples = [
            .init(en: "A {run}.", translated: "{x}", form: "base"),
            .init(en: "B {run}.", translated: "{x}", form: "base", primary: true),
            .init(en: "C {run}.", translated: "{x}", form: "base"),
            .init(en: "D {run}.", translated: "{x}", form: "base"),
        ]
        func shown(_ rotation: Int) -> [String] { WordCard(entry: entry, rotation: rotation).examples.map(\.en) }
        #expect(shown(0) == ["B {run}.", "A {run}."])
        #expect(shown(1) == ["B {run}.", "C {run}."])
        #expect(shown(2) == ["B {run}.", "D {run}."])
        #expect(shown(3) == shown(0))
        #expect(WordCard(entry: entry, rotation: 1).moreExamples.map(\.en) == ["A {run}.", "D {run}."])
    }

    @Test func theCardReadsLikeSeed000() {
        let card = WordCard(entry: run)
        #expect(card.examples.count == 3, "two primary examples and one other for variety")
        let text = card.render { "*\($0)*" }
        #expect(text.hasPrefix("run  /rʌn/  verb\nيجري  (also: يركض, يدير)"))
        #expect(text.contains("  • I *run* every morning."))
        #expect(text.contains("forms: run · runs · ran · running"))
        #expect(!text.contains("{"))
    }
}

/// Typed answers to vocabulary questions (`rote study --typed`).
@Suite struct TypedVocabularyTests {
    let run = StudyFixtures.run

    func exercise(_ question: VocabularyQuestion) -> VocabularyExercise {
        var random = SeededGenerator(seed: 1)
        return VocabularyExercises.exercise(for: question, of: run, deck: StudyFixtures.deck, using: &random)
    }

    @Test func similarityCountsCharacterEditsOverTheLongerWord() {
        #expect(TypedAnswer.similarity("running", "running") == 1)
        #expect(TypedAnswer.similarity("Running.", "running") == 1, "normalised first")
        #expect(abs(TypedAnswer.similarity("runing", "running") - 6.0 / 7) < 1e-9)
        #expect(abs(TypedAnswer.similarity("recieve", "receive") - 6.0 / 7) < 1e-9, "a swap of neighbours is one edit")
        #expect(abs(TypedAnswer.similarity("ran", "run") - 2.0 / 3) < 1e-9)
        #expect(TypedAnswer.similarity("", "run") == 0)
        #expect(TypedAnswer.similarity("يَجْرِي", "يجري") == 1, "harakat ignored")
    }

    @Test func arabicSpellingVariantsAreOneAnswer() {
        // Alef maqsura and ya.
        #expect(TypedAnswer.matches("مستشفي", accepted: ["مستشفى"]))
        #expect(TypedAnswer.matches("على", accepted: ["علي"]))
        // The hamza and madda forms of alef, and alef wasla.
        #expect(TypedAnswer.matches("اكل", accepted: ["أكل"]))
        #expect(TypedAnswer.matches("انسان", accepted: ["إنسان"]))
        #expect(TypedAnswer.matches("اخر", accepted: ["آخر"]))
        #expect(TypedAnswer.matches("ٱلله", accepted: ["الله"]))
        // Ta marbuta and ha.
        #expect(TypedAnswer.matches("مدرسه", accepted: ["مدرسة"]))
        // Tatweel and every diacritic, the superscript alef included.
        #expect(TypedAnswer.matches("كـــتاب", accepted: ["كتاب"]))
        #expect(TypedAnswer.matches("الرحمٰن", accepted: ["الرحمن"]))
        #expect(TypedAnswer.matches("مُدَرِّسَةٌ", accepted: ["مدرسه"]))
        #expect(TypedAnswer.similarity("أكلَ", "اكل") == 1)
        // Different letters stay different.
        #expect(!TypedAnswer.matches("مدرس", accepted: ["مدرسة"]), "a dropped ta marbuta is another word")
        #expect(!TypedAnswer.matches("يكتب", accepted: ["يلعب"]))
        #expect(!TypedAnswer.matches("باب", accepted: ["ناب"]))
        // Passage recall keys its words the same way.
        #expect(RecallComparison.compare(passage: "إلى المدرسة", typed: "الي المدرسه").similarity == 1)
    }

    @Test func anExactAnswerIsRightANearMissIsHardAnotherFormIsWrong() {
        let sentence = exercise(
            VocabularyQuestion(
                id: "s", kind: .sentenceCompletion, answer: "running", form: "present_participle",
                sentence: "She is ___ late."))
        #expect(sentence.grade(typed: " Running! ") == (true, 1))
        let near = sentence.grade(typed: "runing")
        #expect(near.correct && near.similarity < GradingThresholds.default.minimumSimilarity)
        #expect(Grading.grade([Answer(correct: near.correct, similarity: near.similarity)]) == .hard)
        #expect(sentence.grade(typed: "runs").correct == false, "another form of the word")
        #expect(sentence.grade(typed: "walking").correct == false)
        #expect(
            sentence.hint == "يجري"
                && sentence.typedPrompt == "Fill the blank with the right form of يجري: She is ___ late.")
        // A form close to the answer is still wrong: `rejected` holds every other form.
        let past = exercise(
            VocabularyQuestion(
                id: "p", kind: .sentenceCompletion, answer: "ran", form: "past", sentence: "They ___ home."))
        #expect(past.rejected.contains("run") && past.rejected.contains("runs") && !past.rejected.contains("ran"))
    }

    @Test func translationMatchAcceptsAlternativesAndAsksWithoutChoices() {
        let match = exercise(VocabularyQuestion(id: "t", kind: .translationMatch, prompt: "run", answer: "يجري"))
        #expect(match.typedPrompt == "Translate: run")
        #expect(match.grade(typed: "يَجْرِي").correct)
        for alternative in run.alternatives { #expect(match.grade(typed: alternative).correct) }
        let reverse = exercise(
            VocabularyQuestion(id: "r", kind: .reverseTranslation, prompt: "يجري", answer: "run", form: "base"))
        #expect(reverse.typedPrompt == "Translate back: يجري")
        #expect(reverse.grade(typed: "Run").correct && !reverse.grade(typed: "ran").correct)
    }
}
