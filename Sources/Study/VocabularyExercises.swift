public import RoteModel

/// The card a learner reads before answering questions about a new word (seed 000's word
/// card): word, pronunciation, part of speech, translation, definitions, forms and examples.
///
/// Examples follow seed 000's display logic: the `primary` ones are always shown, in display
/// order; for variety one of the others joins them, rotating with each showing; at least
/// `minimumShown` are shown when the entry has that many. The rest wait in `moreExamples`
/// for the learner to expand.
public struct WordCard: Sendable, Equatable, Codable {
    public struct Definition: Sendable, Equatable, Codable {
        /// Language code, e.g. `en`, `ar`.
        public var language: String
        public var text: String
    }

    public struct Form: Sendable, Equatable, Codable {
        /// `base`, `past`, `plural`, …
        public var name: String
        public var value: String
    }

    /// Examples shown at least, when the entry has them (seed 000: "show 2").
    public static let minimumShown = 2

    public var word: String
    public var ipa: String?
    public var pos: String
    public var translation: String
    public var alternatives: [String]
    public var definitions: [Definition]
    public var forms: [Form]
    public var usageNotes: String?
    /// Shown examples: primary ones first, then the rotating ones.
    public var examples: [VocabularyEntry.Example]
    /// The examples left for "show all", in display order.
    public var moreExamples: [VocabularyEntry.Example]

    /// The card for `entry`; `rotation` (e.g. how many times the word was seen) picks which of
    /// the non-primary examples join the primary ones.
    public init(entry: VocabularyEntry, rotation: Int = 0) {
        word = entry.word
        ipa = entry.ipa
        pos = entry.pos
        translation = entry.translation
        alternatives = entry.alternatives
        definitions = entry.definition.map { Definition(language: $0.0, text: $0.1) }
        forms = entry.forms.map { Form(name: $0.0, value: $0.1) }
        usageNotes = entry.usageNotes
        let primary = entry.examples.filter(\.primary)
        let others = entry.examples.filter { !$0.primary }
        let slots = min(entry.examples.count, max(Self.minimumShown, primary.count + 1))
        var shown = primary
        if !others.isEmpty {
            let start = ((rotation % others.count) + others.count) % others.count
            for offset in 0..<(slots - primary.count) { shown.append(others[(start + offset) % others.count]) }
        }
        examples = shown
        moreExamples = entry.examples.filter { example in !shown.contains(example) }
    }

    /// The card as text; `emphasis` styles the word marked in each example (plain by default).
    public func render(emphasis: (String) -> String = { $0 }) -> String {
        var lines: [String] = []
        lines.append([word, ipa, pos].compactMap { $0 }.joined(separator: "  "))
        lines.append(translation + (alternatives.isEmpty ? "" : "  (also: \(alternatives.joined(separator: ", ")))"))
        for definition in definitions { lines.append("\(definition.language): \(definition.text)") }
        let distinct = forms.map(\.value).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if distinct.count > 1 { lines.append("forms: " + distinct.joined(separator: " · ")) }
        if let usageNotes { lines.append("note: \(usageNotes)") }
        for example in examples {
            lines.append("  • " + Self.emphasize(example.en, emphasis))
            lines.append("    " + Self.emphasize(example.translated, emphasis))
        }
        if !moreExamples.isEmpty {
            lines.append("  (+\(moreExamples.count) more example\(moreExamples.count == 1 ? "" : "s"))")
        }
        return lines.joined(separator: "\n")
    }

    /// Replaces the `{marker}` by the emphasised marked text.
    static func emphasize(_ sentence: String, _ emphasis: (String) -> String) -> String {
        guard let open = sentence.firstIndex(of: "{"), let close = sentence[open...].firstIndex(of: "}") else {
            return sentence
        }
        let marked = String(sentence[sentence.index(after: open)..<close])
        return String(sentence[..<open]) + emphasis(marked)
            + VocabularyEntry.Example.plain(String(sentence[sentence.index(after: close)...]))
    }
}

/// One vocabulary question as shown: a prompt and four options (or a typed answer), with
/// what counts as right.
package struct VocabularyExercise: Sendable, Equatable, Codable {
    /// The question's id within its entry (what a session file records).
    package var questionID: String
    package var kind: VocabularyQuestion.Kind
    /// What the learner is asked: the word, its translation, or a sentence with `___`.
    package var prompt: String
    /// The right answer and its distractors, shuffled.
    package var options: [String]
    /// Position of the right answer in `options`.
    package var correctIndex: Int
    /// Typed answers accepted: the answer, and for translation_match the alternatives too.
    package var accepted: [String]
    package var explanation: String?
    /// Typed answers that are wrong however close they come to the answer: the distractors
    /// and the word's other forms (`runs` where `ran` is expected).
    package var rejected: [String]
    /// For a typed sentence completion, which word to put in the blank: the word's
    /// translation, so the learner knows the word without being given its form.
    package var hint: String?

    package init(
        questionID: String, kind: VocabularyQuestion.Kind, prompt: String, options: [String], correctIndex: Int,
        accepted: [String],
        explanation: String? = nil, rejected: [String] = [], hint: String? = nil
    ) {
        self.questionID = questionID
        self.kind = kind
        self.prompt = prompt
        self.options = options
        self.correctIndex = correctIndex
        self.accepted = accepted
        self.explanation = explanation
        self.rejected = rejected
        self.hint = hint
    }

    /// The question asked for a typed answer, without choices: translate the word (EN→AR),
    /// translate back (AR→EN), or fill the blank with the right form of the word given.
    package var typedPrompt: String {
        switch kind {
        case .translationMatch: "Translate: \(prompt)"
        case .reverseTranslation: "Translate back: \(prompt)"
        case .sentenceCompletion:
            "Fill the blank with the right form" + (hint.map { " of \($0)" } ?? "") + ": \(prompt)"
        }
    }

    /// A typed answer judged with seed 000's rules: right when it matches an accepted answer
    /// after `TypedAnswer` normalisation (similarity 1); right but imprecise when it is a near
    /// miss — at least `RecallComparison.passingSimilarity` similar, the bar typed recall of a passage
    /// passes — so grading makes it `hard` (under 0.9); wrong otherwise, and always wrong when
    /// it is one of the `rejected` answers (another form or a distractor), however close.
    package func grade(typed: String) -> (correct: Bool, similarity: Double) {
        if check(typed: typed) { return (true, 1) }
        let similarity = accepted.map { TypedAnswer.similarity(typed, $0) }.max() ?? 0
        if TypedAnswer.matches(typed, accepted: rejected) { return (false, similarity) }
        return (similarity >= RecallComparison.passingSimilarity, similarity)
    }

    package var answer: String { options[correctIndex] }

    /// Whether the option at `choice` (0-based, as displayed) is right.
    package func check(choice: Int) -> Bool { choice == correctIndex }

    /// Whether a typed answer is right, after `TypedAnswer` normalisation (case, surrounding
    /// punctuation and Arabic harakat ignored).
    package func check(typed: String) -> Bool { TypedAnswer.matches(typed, accepted: accepted) }
}

/// Builds vocabulary exercises: word cards, multiple-choice and typed questions, and which of
/// them an entry gets in a session.
///
/// Pure: the deck and a seeded generator are parameters, so the same seed gives the same
/// options in the same order.
package enum VocabularyExercises {
    /// Options shown besides the right answer.
    package static let distractorCount = 3

    /// A step of an entry's turn in a session.
    package enum Step: Sendable, Equatable {
        /// Show the word card.
        case card
        case question(VocabularyQuestion)
    }

    /// Where an entry stands when it comes up.
    package enum Visit: Sendable, Equatable {
        /// First meeting.
        case new
        /// A review: `number` reviews came before it (the rotation counter); `lastGrade` is
        /// the previous review's grade; `learned` says the word has left its learning steps
        /// (its state is in the review phase).
        case review(number: Int, lastGrade: Grade?, learned: Bool)
    }

    /// The order reviews rotate through: recognition, then production in context, then free
    /// production.
    package static let reviewRotation: [VocabularyQuestion.Kind] = [
        .translationMatch, .sentenceCompletion, .reverseTranslation,
    ]

    /// Questions a review asks: one while the word is in its learning steps, two once it is
    /// learned (seed 000's review flow).
    package static func questionsPerReview(learned: Bool) -> Int { learned ? 2 : 1 }

    /// Whether a learner learns a deck's translations rather than its words: their native
    /// language is the deck's source language, or the language they learn is its target.
    /// Unset languages keep the deck's own direction.
    package static func learnsTranslations(deck: DeckManifest?, profile: Profile?) -> Bool {
        guard let deck, let source = deck.sourceLanguage, let target = deck.targetLanguage, source != target else {
            return false
        }
        let settings = profile?.settings
        return settings?.nativeLanguage == source || settings?.targetLanguage == target
    }

    /// What an entry gets in one session.
    ///
    /// - A new word: the card, then a translation_match and one sentence_completion (the first
    ///   whose example is primary, else the first) — seed 000's learning flow.
    /// - A review: `questionsPerReview` questions (one more when the word was shaky last
    ///   time, `again` or `hard`), their types interleaved across the entry's reviews: the
    ///   questions of all its reviews follow `reviewRotation` (translation, sentence,
    ///   reverse, translation, …; types the entry lacks are skipped), review `number` taking
    ///   the next ones from position `number × questionsPerReview`. Within a type the
    ///   questions take turns, however many there are of it. No question repeats in a review.
    ///
    /// With `learnsTranslations` (a learner whose native language is the deck's word side, who
    /// learns the translations: `native_language` / `target_language` in the profile), the
    /// sides swap: recognition shows the translation and asks for the word
    /// (reverse_translation), production shows the word and asks for the translation.
    package static func plan(for entry: VocabularyEntry, visit: Visit, learnsTranslations: Bool = false) -> [Step] {
        let all = questions(of: entry)
        let byKind = Dictionary(grouping: all, by: \.kind)
        let recognition: VocabularyQuestion.Kind = learnsTranslations ? .reverseTranslation : .translationMatch
        let rotation =
            learnsTranslations ? [.reverseTranslation, .sentenceCompletion, .translationMatch] : reviewRotation
        switch visit {
        case .new:
            var steps: [Step] = [.card]
            if let match = byKind[recognition]?.first { steps.append(.question(match)) }
            let sentences = byKind[.sentenceCompletion] ?? []
            let primary = sentences.first { question in
                question.example.map { entry.examples.indices.contains($0 - 1) && entry.examples[$0 - 1].primary }
                    ?? false
            }
            if let sentence = primary ?? sentences.first { steps.append(.question(sentence)) }
            return steps
        case let .review(number, lastGrade, learned):
            let kinds = rotation.filter { byKind[$0] != nil }
            guard !kinds.isEmpty else { return [] }
            let perReview = questionsPerReview(learned: learned)
            let wanted = perReview + ((lastGrade == .again || lastGrade == .hard) ? 1 : 0)
            let start = max(0, number) * perReview
            var chosen: [VocabularyQuestion] = []
            for position in start..<(start + wanted) {
                let pool = byKind[kinds[position % kinds.count]]!
                let question = pool[(position / kinds.count) % pool.count]
                if !chosen.contains(question) { chosen.append(question) }
            }
            return chosen.map { .question($0) }
        }
    }

    /// The entry's questions, with the basic ones made up from the entry when the author wrote
    /// none of that type: a translation_match (`translation_match`: word → translation), a
    /// reverse_translation (`reverse_translation`: translation → base form) and a
    /// sentence_completion from the first example (`example-1`). Their distractors come from
    /// the deck.
    package static func questions(of entry: VocabularyEntry) -> [VocabularyQuestion] {
        var questions = entry.questions
        let kinds = Set(questions.map(\.kind))
        if !kinds.contains(.translationMatch) {
            questions.append(
                VocabularyQuestion(
                    id: "translation_match", kind: .translationMatch, prompt: entry.word, answer: entry.translation))
        }
        if !kinds.contains(.reverseTranslation) {
            let base = entry.form("base") ?? entry.forms.first?.1 ?? entry.word
            let form = entry.form("base") != nil ? "base" : entry.forms.first?.0
            questions.append(
                VocabularyQuestion(
                    id: "reverse_translation", kind: .reverseTranslation, prompt: entry.translation, answer: base,
                    form: form))
        }
        if !kinds.contains(.sentenceCompletion), let example = entry.examples.first,
            let marked = VocabularyEntry.Example.marked(in: example.en)
        {
            let sentence = blanked(example.en)
            let blank = sentence.split(whereSeparator: \.isWhitespace).firstIndex { $0.contains("___") }
            questions.append(
                VocabularyQuestion(
                    id: "example-1", kind: .sentenceCompletion, answer: marked, form: example.form, example: 1,
                    sentence: sentence, blank: blank))
        }
        return questions
    }

    /// A question ready to show: prompt, the answer with `distractorCount` distractors
    /// shuffled with `generator`, and the accepted typed answers.
    package static func exercise(
        for question: VocabularyQuestion, of entry: VocabularyEntry, deck: @autoclosure () -> [VocabularyEntry],
        using generator: inout some RandomNumberGenerator
    ) -> VocabularyExercise {
        let wrong = distractors(for: question, of: entry, deck: deck(), using: &generator)
        let options = StudyRandom.shuffled([question.answer] + wrong, using: &generator)
        return VocabularyExercise(
            questionID: question.id, kind: question.kind, prompt: prompt(for: question, of: entry), options: options,
            correctIndex: options.firstIndex(of: question.answer) ?? 0, accepted: accepted(for: question, of: entry),
            explanation: question.explanation, rejected: rejected(for: question, of: entry),
            hint: question.kind == .sentenceCompletion ? entry.translation : nil)
    }

    /// What the learner is asked.
    package static func prompt(for question: VocabularyQuestion, of entry: VocabularyEntry) -> String {
        switch question.kind {
        case .translationMatch: return question.prompt ?? entry.word
        case .reverseTranslation: return question.prompt ?? entry.translation
        case .sentenceCompletion:
            if let sentence = question.sentence { return sentence }
            if let number = question.example, entry.examples.indices.contains(number - 1) {
                return blanked(entry.examples[number - 1].en)
            }
            return question.prompt ?? "___"
        }
    }

    /// Typed answers that count as right: the answer, plus the word's other translations for
    /// translation_match.
    package static func accepted(for question: VocabularyQuestion, of entry: VocabularyEntry) -> [String] {
        question.kind == .translationMatch ? [question.answer] + entry.alternatives : [question.answer]
    }

    /// Typed answers that are wrong even when close to the answer: the question's distractors
    /// and, for the English side, the word's other forms.
    package static func rejected(for question: VocabularyQuestion, of entry: VocabularyEntry) -> [String] {
        let right = Set(accepted(for: question, of: entry).map(TypedAnswer.normalized))
        let forms = question.kind == .translationMatch ? [] : [entry.word] + entry.forms.map(\.1)
        return (question.distractors.map(\.text) + forms).reduce(into: [String]()) { list, text in
            if !right.contains(TypedAnswer.normalized(text)), !list.contains(text) { list.append(text) }
        }
    }

    /// `count` wrong answers for a question.
    ///
    /// Drawn at random (with `generator`) from the question's own pool. When the pool holds
    /// fewer than `count`, all of it is used and the rest come from other words of the same
    /// part of speech in `deck`: first those of the same CEFR level (in random order), then the
    /// others nearest in frequency rank (unranked last, ties by word). A deck word offers its
    /// `translation` for translation_match, and for reverse_translation and
    /// sentence_completion its form of the same name as the expected one (a word without that
    /// form is skipped, so every option is grammatically plausible). Nothing that would also
    /// be a right answer is offered, and no option repeats; a tiny deck can leave fewer.
    package static func distractors(
        for question: VocabularyQuestion, of entry: VocabularyEntry, deck: @autoclosure () -> [VocabularyEntry],
        count: Int = distractorCount,
        using generator: inout some RandomNumberGenerator
    ) -> [String] {
        var taken = Set(accepted(for: question, of: entry).map(TypedAnswer.normalized))
        var pool: [String] = []
        for distractor in question.distractors where taken.insert(TypedAnswer.normalized(distractor.text)).inserted {
            pool.append(distractor.text)
        }
        if pool.count >= count {
            return Array(StudyRandom.shuffled(pool, using: &generator).prefix(count))
        }
        var chosen = pool
        let formName = expectedFormName(for: question, of: entry)
        // The deck is read only here: most questions bring enough wrong options of their own.
        let others = deck().filter {
            $0.pos == entry.pos && !($0.word == entry.word && $0.translation == entry.translation)
        }
        let sameLevel = entry.cefr.map { level in others.filter { $0.cefr == level } } ?? []
        let rest = others.filter { candidate in entry.cefr == nil || candidate.cefr != entry.cefr }
            .sorted { lhs, rhs in
                let left = rankDistance(lhs, entry)
                let right = rankDistance(rhs, entry)
                return left != right ? left < right : lhs.word < rhs.word
            }
        for candidate in StudyRandom.shuffled(sameLevel, using: &generator) + rest {
            guard chosen.count < count else { break }
            guard let text = option(from: candidate, kind: question.kind, formName: formName) else { continue }
            if taken.insert(TypedAnswer.normalized(text)).inserted { chosen.append(text) }
        }
        return chosen
    }

    /// The form a question expects, by name: its `form`, else the form whose value is the
    /// answer, else `base`.
    static func expectedFormName(for question: VocabularyQuestion, of entry: VocabularyEntry) -> String {
        question.form ?? entry.forms.first { $0.1 == question.answer }?.0 ?? "base"
    }

    /// What a deck word offers as a wrong option for a question of `kind`.
    static func option(from candidate: VocabularyEntry, kind: VocabularyQuestion.Kind, formName: String) -> String? {
        switch kind {
        case .translationMatch: candidate.translation
        case .reverseTranslation: candidate.form(formName) ?? candidate.word
        case .sentenceCompletion: candidate.form(formName)
        }
    }

    static func rankDistance(_ candidate: VocabularyEntry, _ entry: VocabularyEntry) -> Int {
        guard let rank = candidate.rank, let target = entry.rank else { return Int.max }
        return abs(rank - target)
    }

    /// An example sentence with its `{marker}` replaced by `___`.
    static func blanked(_ sentence: String) -> String {
        guard let open = sentence.firstIndex(of: "{"), let close = sentence[open...].firstIndex(of: "}") else {
            return sentence
        }
        return String(sentence[..<open]) + "___" + String(sentence[sentence.index(after: close)...])
    }
}
