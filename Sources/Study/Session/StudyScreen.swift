public import Foundation
public import RoteModel

/// What a study session shows now, as data: a terminal words it in English, the web app in
/// the learner's language from its strings table, an app however it likes. A screen never
/// holds its own answer: a question's screen has the choices but not which is right, and the
/// card that teaches a word is a screen of its own, before its questions.
///
/// Its JSON (`docs/web.md`, "A study session") is the contract a front end codes against:
/// `{"answered": 2, "planned": 10, "number": 3, "deck": "english-a1", "visit": "new",
/// "notices": [...], "kind": "question", "question": {...}}` — the payload is under the key
/// that `kind` names.
public struct StudyScreen: Sendable, Equatable, Codable {
    /// Entries of the plan done (graded, suspended or ignored): the progress bar's count. A
    /// missed entry coming back later in the session does not add to either number.
    public var answered: Int
    /// Entries the session plans to show.
    public var planned: Int
    /// Which showing of an entry this is, counting from 1: a new number is a new card, so a
    /// terminal clears its screen; 0 on the summary.
    public var number: Int
    /// The deck of the entry on screen (its name; a front end shows the deck's title).
    public var deck: String?
    /// Whether the entry on screen is new, due for review, or back after a miss.
    public var visit: Visit?
    /// What the last action did, beyond the next screen: a grade recorded, an undo, a step
    /// down the passage ladder.
    public var notices: [StudyNotice]
    /// The entry's sound and picture, where they do not give the answer away: with a new
    /// word's card, its audio with a question that asks for its meaning, its picture with one
    /// that asks for the word, a passage's mnemonic picture while it is read.
    public var media: Media?
    public var content: Content

    public struct Media: Sendable, Equatable, Codable {
        /// The audio file, as `/media/<path>` serves it (`english-a1/run.mp3`).
        public var audio: String?
        /// The picture (or a passage's mnemonic picture), as `/media/<path>` serves it.
        public var image: String?
        /// The profile's `autoplay_audio`: play the audio as the screen is shown.
        public var autoplay: Bool
        /// With no audio file: the word, for a front end's speech synthesis to say, in `language`.
        public var speak: String?
        public var language: String?
    }

    public enum Visit: String, Sendable, Codable { case new, review, again }

    public init(
        answered: Int, planned: Int, number: Int, deck: String? = nil, visit: Visit? = nil,
        notices: [StudyNotice], media: Media? = nil, content: Content
    ) {
        self.answered = answered
        self.planned = planned
        self.number = number
        self.deck = deck
        self.visit = visit
        self.notices = notices
        self.media = media
        self.content = content
    }

    public enum Content: Sendable, Equatable {
        /// A new word's card, shown before any question on it.
        case card(WordCard)
        case question(Question)
        /// Whether the answer was right, what was expected, and, on the visit's last answer,
        /// the grade proposed from all its answers, which the learner may change.
        case feedback(Feedback)
        /// A grade for the learner to choose: after writing a letter from memory, with its
        /// template beside it, or when a visit had nothing to grade by.
        case gradeChoice(GradeChoice)
        /// A rung of the passage ladder, or a learned passage's recall.
        case passage(PassageRung)
        case reflection(Reflection)
        /// A question about what Rote may keep, asked once and recorded in the profile.
        case consent(Consent)
        /// A letter to write on paper from memory before its template is shown.
        case letter(LetterTask)
        /// An entry forgotten often (`docs/scheduling.md`): suspend it, or go on.
        case leech(Leech)
        case summary(Summary)
    }

    public struct Question: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable {
            /// An English word, answered by its translation.
            case translation
            /// A translation, answered by the English word.
            case reverseTranslation = "reverse_translation"
            /// A sentence with a blank for the right form of the word.
            case sentenceCompletion = "sentence_completion"
            /// A skill question with one right choice.
            case choice
            /// Steps to put in order.
            case order
        }

        public var kind: Kind
        /// The word, the translation, the sentence with `___`, or the skill question.
        public var prompt: String?
        /// The options (or the steps, in shown order); empty when the answer is typed.
        public var choices: [String]
        /// Whether the answer is typed rather than chosen.
        public var typed: Bool
        /// For a typed sentence completion, which word goes in the blank (its translation).
        public var hint: String?
    }

    public struct Feedback: Sendable, Equatable, Codable {
        public var correct: Bool
        /// What was expected, when the answer was wrong or nearly right: the right choice, the
        /// missing words, or a passage's text.
        public var expected: String?
        /// For a typed answer accepted though misspelt: it is right, spelt `expected`.
        public var nearly: Bool
        /// For typed recall: the share of the passage's words typed right (0–1).
        public var similarity: Double?
        /// Hints asked for while reciting.
        public var hints: Int
        /// The question's explanation, when it has one.
        public var explanation: String?
        /// On the visit's last answer: the grade the answers give. The learner accepts it
        /// (`proceed`) or chooses another (`grade`). Nil: `proceed` goes to the next answer.
        public var proposed: Grade?
    }

    public struct GradeChoice: Sendable, Equatable, Codable {
        /// The grade `proceed` accepts; nil when the learner must choose.
        public var proposed: Grade?
        /// The letter written from memory, to compare with.
        public var letter: LetterTask?
    }

    public struct PassageRung: Sendable, Equatable, Codable {
        public enum Step: String, Sendable, Codable {
            /// Read it aloud (`proceed` when done).
            case read
            /// Read it aloud once more.
            case readAgain = "read_again"
            /// Type the missing words, in order.
            case cloze
            /// Recite it all; a `hint` action gives the next word.
            case recite
            /// A learned passage, typed from memory without hints.
            case recall
        }

        public var step: Step
        /// The ladder's rung, which says which cloze round it is (missing words, a missing
        /// clause, each clause from its first words).
        public var level: LadderLevel
        public var reference: String
        /// The text shown: the whole passage to read, or with `____` blanks; nil when it is
        /// recited from memory.
        public var text: String?
        /// How many words the blanks take.
        public var blanks: Int
        /// While reciting: the text typed before the hints, and the words the hints gave.
        public var typed: String
        public var hintWords: [String]
        /// The hint came after the last word: the passage is all typed.
        public var atEnd: Bool
    }

    public struct Reflection: Sendable, Equatable, Codable {
        public var reference: String
        public var text: String
        /// Whether what is typed is kept (the learner agreed to saving reflections).
        public var saved: Bool
    }

    public struct Consent: Sendable, Equatable, Codable {
        public enum Topic: String, Sendable, Codable {
            /// Keeping passage practice at all (seed 004 §6).
            case passages
            /// Saving the learner's reflections on scripture.
            case reflections
        }

        public var topic: Topic
    }

    public struct LetterTask: Sendable, Equatable, Codable {
        public var name: String
        public var glyph: String
        public var character: String?
        /// The stroke template, 100×100 as in the letter's file: only on the grade choice,
        /// after the learner wrote it.
        public var strokes: [[[Double]]]?
        /// How to write it, once revealed.
        public var tips: [Tip]

        public struct Tip: Sendable, Equatable, Codable {
            /// The tip's id in the letter's file (`stem-down`), which a front end may word in the
            /// learner's language.
            public var id: String
            /// The tip in English (`LetterTips`); a front end words it from `letterTip.<id>`.
            public var text: String
        }
    }

    public struct Leech: Sendable, Equatable, Codable {
        public var lapses: Int
        /// True when the deck's leech rule suspended it: the screen says so and offers no
        /// suspend.
        public var suspended: Bool
    }

    public struct Summary: Sendable, Equatable, Codable {
        /// False when nothing was answered, so nothing was saved.
        public var saved: Bool
        public var reviews: Int
        public var again: Int
        public var hard: Int
        public var good: Int
        public var easy: Int
        public var new: Int
        public var passagesPractised: Int
        public var answers: Int
        public var correctAnswers: Int
        public var seconds: Int
        public var nextDue: Date?
        /// Entries suspended or ignored in the session.
        public var statusChanges: Int
        /// Passages were left out because the learner did not agree to Rote keeping them.
        public var passagesLeftOut: Bool
        /// The saved session's id (its `Rote-Session`), which `Library.undo(session:)` takes.
        public var session: String? = nil
    }
}

/// Something the last action did that the next screen tells.
public enum StudyNotice: Sendable, Equatable {
    /// A grade recorded, and when the entry is next due.
    case graded(Grade, next: Date?)
    /// The last answered entry is back, its review taken out.
    case undone(entry: String)
    case nothingToUndo
    /// The entry left every queue until the learner makes it active again.
    case suspended(entry: String)
    case ignored(entry: String)
    /// An entry left out because its progress file does not read; `reason` says where.
    case skipped(reason: String)
    /// Passages left out of the session: the learner did not agree to keeping them.
    case passagesLeftOut
    /// The passage went one rung down the ladder.
    case stepBack(to: LadderLevel)
    /// The passage climbed the whole ladder and is reviewed from now on.
    case graduated
    /// A reflection typed, not kept: the learner chose not to save reflections.
    case reflectionNotSaved
}

extension StudyNotice: Codable {
    private enum Keys: String, CodingKey { case kind, grade, next, reason, level, entry }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case let .graded(grade, next):
            try container.encode("graded", forKey: .kind)
            try container.encode(grade, forKey: .grade)
            try container.encodeIfPresent(next, forKey: .next)
        case let .undone(entry):
            try container.encode("undone", forKey: .kind)
            try container.encode(entry, forKey: .entry)
        case .nothingToUndo: try container.encode("nothing_to_undo", forKey: .kind)
        case let .suspended(entry):
            try container.encode("suspended", forKey: .kind)
            try container.encode(entry, forKey: .entry)
        case let .ignored(entry):
            try container.encode("ignored", forKey: .kind)
            try container.encode(entry, forKey: .entry)
        case let .skipped(reason):
            try container.encode("skipped", forKey: .kind)
            try container.encode(reason, forKey: .reason)
        case .passagesLeftOut: try container.encode("passages_left_out", forKey: .kind)
        case let .stepBack(level):
            try container.encode("step_back", forKey: .kind)
            try container.encode(level, forKey: .level)
        case .graduated: try container.encode("graduated", forKey: .kind)
        case .reflectionNotSaved: try container.encode("reflection_not_saved", forKey: .kind)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "graded":
            self = .graded(
                try container.decode(Grade.self, forKey: .grade),
                next: try container.decodeIfPresent(Date.self, forKey: .next))
        case "undone": self = .undone(entry: try container.decode(String.self, forKey: .entry))
        case "nothing_to_undo": self = .nothingToUndo
        case "suspended": self = .suspended(entry: try container.decode(String.self, forKey: .entry))
        case "ignored": self = .ignored(entry: try container.decode(String.self, forKey: .entry))
        case "skipped": self = .skipped(reason: try container.decode(String.self, forKey: .reason))
        case "passages_left_out": self = .passagesLeftOut
        case "step_back": self = .stepBack(to: try container.decode(LadderLevel.self, forKey: .level))
        case "graduated": self = .graduated
        case "reflection_not_saved": self = .reflectionNotSaved
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "no notice '\(other)'")
        }
    }
}

extension StudyScreen {
    private enum Keys: String, CodingKey {
        case answered, planned, number, deck, visit, notices, media, kind
        case card, question, feedback
        case gradeChoice = "grade_choice"
        case passage, reflection, consent, letter, leech, summary
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(answered, forKey: .answered)
        try container.encode(planned, forKey: .planned)
        try container.encode(number, forKey: .number)
        try container.encodeIfPresent(deck, forKey: .deck)
        try container.encodeIfPresent(visit, forKey: .visit)
        try container.encode(notices, forKey: .notices)
        try container.encodeIfPresent(media, forKey: .media)
        try container.encode(content.kind.rawValue, forKey: .kind)
        switch content {
        case let .card(value): try container.encode(value, forKey: .card)
        case let .question(value): try container.encode(value, forKey: .question)
        case let .feedback(value): try container.encode(value, forKey: .feedback)
        case let .gradeChoice(value): try container.encode(value, forKey: .gradeChoice)
        case let .passage(value): try container.encode(value, forKey: .passage)
        case let .reflection(value): try container.encode(value, forKey: .reflection)
        case let .consent(value): try container.encode(value, forKey: .consent)
        case let .letter(value): try container.encode(value, forKey: .letter)
        case let .leech(value): try container.encode(value, forKey: .leech)
        case let .summary(value): try container.encode(value, forKey: .summary)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        answered = try container.decode(Int.self, forKey: .answered)
        planned = try container.decode(Int.self, forKey: .planned)
        number = try container.decode(Int.self, forKey: .number)
        deck = try container.decodeIfPresent(String.self, forKey: .deck)
        visit = try container.decodeIfPresent(Visit.self, forKey: .visit)
        notices = try container.decode([StudyNotice].self, forKey: .notices)
        media = try container.decodeIfPresent(Media.self, forKey: .media)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "card": content = .card(try container.decode(WordCard.self, forKey: .card))
        case "question": content = .question(try container.decode(Question.self, forKey: .question))
        case "feedback": content = .feedback(try container.decode(Feedback.self, forKey: .feedback))
        case "grade_choice": content = .gradeChoice(try container.decode(GradeChoice.self, forKey: .gradeChoice))
        case "passage": content = .passage(try container.decode(PassageRung.self, forKey: .passage))
        case "reflection": content = .reflection(try container.decode(Reflection.self, forKey: .reflection))
        case "consent": content = .consent(try container.decode(Consent.self, forKey: .consent))
        case "letter": content = .letter(try container.decode(LetterTask.self, forKey: .letter))
        case "leech": content = .leech(try container.decode(Leech.self, forKey: .leech))
        case "summary": content = .summary(try container.decode(Summary.self, forKey: .summary))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "no screen '\(kind)'")
        }
    }
}

extension StudyScreen.Content {
    /// The screen's kind as its JSON names it.
    public enum Kind: String, Sendable {
        case card, question, feedback
        case gradeChoice = "grade_choice"
        case passage, reflection, consent, letter, leech, summary
    }

    public var kind: Kind {
        switch self {
        case .card: .card
        case .question: .question
        case .feedback: .feedback
        case .gradeChoice: .gradeChoice
        case .passage: .passage
        case .reflection: .reflection
        case .consent: .consent
        case .letter: .letter
        case .leech: .leech
        case .summary: .summary
        }
    }
}
