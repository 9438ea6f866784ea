import Foundation

/// One word of a vocabulary deck (the English-for-Arabic-speakers seed and the lexical reader
/// seed): its meaning, forms, pronunciation, examples and questions.
public struct VocabularyEntry: YAMLCodable {
    /// Content people write and Rote shows: control characters in it are warned of.
    public static var warnsOfControlCharacters: Bool { true }

    public var word: String
    public var pos: String
    /// Primary translation into the learner's language.
    public var translation: String
    public var alternatives: [String]
    /// Definitions by language code (`en`, `ar`), in file order.
    public var definition: [(String, String)]
    /// Inflected forms by name (`base`, `past`, `plural`, ...), in file order.
    public var forms: [(String, String)]
    public var ipa: String?
    public var audio: String?
    public var image: String?
    /// Frequency rank (1 = most frequent).
    public var rank: Int?
    public var cefr: String?
    public var batch: Int?
    public var level: String?
    /// Which source put the word in its deck and level, e.g. `cefrpy A1, wordfreq rank`
    /// (written by the deck's authoring script, for a reader checking the selection).
    public var placement: String?
    public var difficulty: String?
    /// Morphological root id (seed 002's `MorphologicalRoot`), e.g. `run`.
    public var root: String?
    /// Related words by relation (`synonyms`, `antonyms`, `family`, `collocations`, ...).
    public var related: [(String, [String])]
    public var usageNotes: String?
    /// In display order; the first `primary` ones are always shown.
    public var examples: [Example]
    public var questions: [VocabularyQuestion]
    /// The Anki note the entry was imported from (its note id), so a later import of the same
    /// deck finds the entry by the note rather than by a file name that can shift.
    public var ankiNote: Int?

    public struct Example: Sendable, Equatable, Codable {
        /// English sentence with the word in one `{marker}`.
        public var en: String
        /// Translation with the matching words in one `{marker}`.
        public var translated: String
        /// The key in `forms` of the marked form.
        public var form: String
        public var context: String?
        public var difficulty: String?
        public var primary: Bool

        public init(
            en: String, translated: String, form: String, context: String? = nil, difficulty: String? = nil,
            primary: Bool = false
        ) {
            self.en = en
            self.translated = translated
            self.form = form
            self.context = context
            self.difficulty = difficulty
            self.primary = primary
        }

        /// The text inside the first `{...}` of a sentence.
        public static func marked(in sentence: String) -> String? {
            guard let open = sentence.firstIndex(of: "{"), let close = sentence[open...].firstIndex(of: "}") else {
                return nil
            }
            return String(sentence[sentence.index(after: open)..<close])
        }

        /// Number of `{...}` markers in a sentence.
        public static func markerCount(in sentence: String) -> Int {
            var count = 0
            var open = false
            for character in sentence {
                if character == "{" {
                    open = true
                } else if character == "}", open {
                    count += 1
                    open = false
                }
            }
            return count
        }

        /// The sentence with markers removed: `I {run} daily.` → `I run daily.`
        public static func plain(_ sentence: String) -> String {
            sentence.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
        }
    }

    public init(
        word: String, pos: String, translation: String, forms: [(String, String)], examples: [Example] = [],
        questions: [VocabularyQuestion] = []
    ) {
        self.word = word
        self.pos = pos
        self.translation = translation
        self.alternatives = []
        self.definition = []
        self.forms = forms
        self.related = []
        self.examples = examples
        self.questions = questions
    }

    public static let partsOfSpeech: Set<String> = [
        "verb", "noun", "adjective", "adverb", "pronoun", "determiner", "preposition", "conjunction",
        "interjection", "number", "phrase",
    ]

    /// The form value for a form name.
    public func form(_ name: String) -> String? { forms.first { $0.0 == name }?.1 }

    public init?(reading reader: inout MappingReader) {
        let word = reader.string("word", required: true)
        let pos = reader.string("pos", required: true)
        let translation = reader.string("translation", required: true)
        alternatives = reader.strings("alternatives") ?? []
        definition = reader.stringMap("definition") ?? []
        let forms = reader.stringMap("forms", required: true)
        ipa = reader.string("ipa")
        audio = reader.string("audio")
        image = reader.string("image")
        rank = reader.int("rank")
        cefr = reader.string("cefr")
        batch = reader.int("batch")
        level = reader.string("level")
        placement = reader.string("placement")
        difficulty = reader.string("difficulty")
        root = reader.string("root")
        related = []
        if var relations = reader.mapping("related") {
            for name in relations.keys {
                if let words = relations.strings(name) { related.append((name, words)) }
            }
            reader.absorb(relations)
        }
        usageNotes = reader.string("usage_notes")
        ankiNote = reader.int("anki_note")
        examples = []
        var exampleLines: [Int?] = []
        for (index, node) in (reader.list("examples") ?? []).enumerated() {
            guard var item = reader.item(node, "examples", index) else { continue }
            let en = item.string("en", required: true)
            let arabic = item.string("ar")
            let translated = arabic ?? item.string("translation")
            if let arabic, !ContentQuality.hasArabicLetter(arabic) {
                item.warning(
                    "ar",
                    "examples[\(index + 1)].ar has no Arabic letter ('\(arabic)'); write the translation in Arabic script"
                )
            }
            let form = item.string("form", required: true)
            let example = Example(
                en: en ?? "", translated: translated ?? "", form: form ?? "", context: item.string("context"),
                difficulty: item.string("difficulty"), primary: item.bool("primary") ?? false)
            if translated == nil { item.error("en", "examples[\(index + 1)] needs its translation ('ar')") }
            if en != nil, form != nil {
                examples.append(example)
                exampleLines.append(node.mark.line)
            }
            reader.absorb(item)
        }
        questions = []
        var questionLines: [Int?] = []
        for (index, node) in (reader.list("questions") ?? []).enumerated() {
            guard var item = reader.item(node, "questions", index) else { continue }
            if let question = VocabularyQuestion(reading: &item) {
                questions.append(question)
                questionLines.append(node.mark.line)
            }
            reader.absorb(item)
        }
        guard let word, let pos, let translation, let forms else { return nil }
        self.word = word
        self.pos = pos
        self.translation = translation
        self.forms = forms
        if let arabic = definition.first(where: { $0.0 == "ar" })?.1, !ContentQuality.hasArabicLetter(arabic) {
            reader.warning("definition", "definition.ar has no Arabic letter ('\(arabic)'); write it in Arabic script")
        }
        if let cefr, let problem = ContentQuality.cefrProblem(cefr: cefr, batch: batch) {
            reader.warning("cefr", problem)
        }
        checkExamples(lines: exampleLines, log: &reader.log)
        checkQuestions(lines: questionLines, log: &reader.log)
        if !VocabularyEntry.partsOfSpeech.contains(pos) {
            reader.warning(
                "pos",
                "unusual part of speech '\(pos)'; expected one of \(VocabularyEntry.partsOfSpeech.sorted().joined(separator: ", "))"
            )
        }
    }

    /// Every example marks exactly one word, in both languages, and the English mark is the
    /// form it claims to be.
    func checkExamples(lines: [Int?], log: inout DiagnosticLog) {
        if examples.isEmpty { log.warning(nil, "no examples; learners see the word in context first") }
        for (index, example) in examples.enumerated() {
            let line = lines[index]
            let label = "examples[\(index + 1)]"
            if Example.markerCount(in: example.en) != 1 {
                log.error(line, "\(label).en must mark the word once with {braces}, e.g. 'I {run} daily.'")
            } else if let marked = Example.marked(in: example.en) {
                if let expected = form(example.form) {
                    if marked.lowercased() != expected.lowercased() {
                        log.error(line, "\(label) marks '\(marked)' but forms.\(example.form) is '\(expected)'")
                    }
                } else {
                    log.error(
                        line,
                        "\(label).form '\(example.form)' is not one of forms: \(forms.map(\.0).joined(separator: ", "))"
                    )
                }
            }
            if Example.markerCount(in: example.translated) != 1 {
                log.error(line, "\(label).ar must mark the translated word once with {braces}")
            }
        }
    }

    /// Questions have unique ids, answers that are not also distractors, and sentence
    /// completions that match the example they come from.
    func checkQuestions(lines: [Int?], log: inout DiagnosticLog) {
        var ids = Set<String>()
        for (index, question) in questions.enumerated() {
            let line = lines[index]
            let label = "question '\(question.id)'"
            if !ids.insert(question.id).inserted { log.error(line, "duplicate question id '\(question.id)'") }
            // Distractors are compared as a learner would see them: case and surrounding
            // space aside.
            func key(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
            if question.distractors.contains(where: { key($0.text) == key(question.answer) }) {
                log.error(line, "\(label): the answer '\(question.answer)' is also listed as a distractor")
            }
            var seen = Set<String>()
            for distractor in question.distractors where !seen.insert(key(distractor.text)).inserted {
                log.warning(line, "\(label): distractor '\(distractor.text)' is listed twice; each wrong answer once")
            }
            if question.distractors.count < 3 {
                log.warning(
                    line,
                    "\(label) has \(question.distractors.count) distractors; multiple choice needs 3 (others are drawn from same-level words)"
                )
            }
            if let name = question.form, form(name) == nil {
                log.error(
                    line, "\(label): form '\(name)' is not one of forms: \(forms.map(\.0).joined(separator: ", "))")
            }
            guard question.kind == .sentenceCompletion else { continue }
            guard let sentence = question.sentence else {
                log.error(line, "\(label): sentence_completion needs 'sentence' with ___ for the blank")
                continue
            }
            let words = sentence.split(whereSeparator: \.isWhitespace)
            guard let position = words.firstIndex(where: { $0.contains("___") }) else {
                log.error(line, "\(label): sentence has no ___ blank")
                continue
            }
            if let blank = question.blank, blank != position {
                log.error(line, "\(label): blank is \(blank) but ___ is word \(position) (0-based)")
            }
            if let number = question.example {
                guard examples.indices.contains(number - 1) else {
                    log.error(line, "\(label): example \(number) does not exist (there are \(examples.count))")
                    continue
                }
                let source = examples[number - 1]
                if let marked = Example.marked(in: source.en), marked != question.answer {
                    log.error(
                        line,
                        "\(label): answer '\(question.answer)' differs from example \(number)'s marked '\(marked)'")
                }
            }
        }
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("word", .string(word))
        map.add("pos", .string(pos))
        map.add("translation", .string(translation))
        map.add("alternatives", strings: alternatives)
        map.add("definition", .map(definition.map { ($0.0, .string($0.1)) }, flow: false))
        map.add("forms", .map(forms.map { ($0.0, .string($0.1)) }, flow: true))
        map.add("ipa", ipa)
        map.add("audio", audio)
        map.add("image", image)
        map.add("rank", rank)
        map.add("cefr", cefr)
        map.add("batch", batch)
        map.add("level", level)
        map.add("placement", placement)
        map.add("difficulty", difficulty)
        map.add("root", root)
        map.add("related", .map(related.map { ($0.0, .strings($0.1)) }, flow: false))
        map.add("usage_notes", usageNotes)
        map.add(
            "examples",
            .list(
                examples.map { example in
                    var item = YAMLMapBuilder()
                    item.add("en", .string(example.en))
                    item.add("ar", .string(example.translated))
                    item.add("form", .string(example.form))
                    item.add("context", example.context)
                    item.add("difficulty", example.difficulty)
                    if example.primary { item.add("primary", .bool(true)) }
                    return item.build()
                }, flow: false))
        map.add("questions", .list(questions.map(\.yamlValue), flow: false))
        map.add("anki_note", ankiNote)
        return map.build()
    }

    public static func == (lhs: VocabularyEntry, rhs: VocabularyEntry) -> Bool {
        lhs.word == rhs.word && lhs.pos == rhs.pos && lhs.translation == rhs.translation
            && lhs.alternatives == rhs.alternatives && lhs.definition.elementsEqual(rhs.definition, by: ==)
            && lhs.forms.elementsEqual(rhs.forms, by: ==) && lhs.ipa == rhs.ipa && lhs.audio == rhs.audio
            && lhs.image == rhs.image && lhs.rank == rhs.rank && lhs.cefr == rhs.cefr && lhs.batch == rhs.batch
            && lhs.level == rhs.level && lhs.placement == rhs.placement && lhs.difficulty == rhs.difficulty
            && lhs.root == rhs.root
            && lhs.related.elementsEqual(rhs.related, by: ==) && lhs.usageNotes == rhs.usageNotes
            && lhs.examples == rhs.examples && lhs.questions == rhs.questions && lhs.ankiNote == rhs.ankiNote
    }
}

/// A question about a word, with its pool of wrong answers.
public struct VocabularyQuestion: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// English word → translation.
        case translationMatch = "translation_match"
        /// Translation → English word.
        case reverseTranslation = "reverse_translation"
        /// Fill the blank in an example sentence with the right form.
        case sentenceCompletion = "sentence_completion"
    }

    public struct Distractor: Sendable, Equatable {
        public var text: String
        /// Why it makes a good wrong answer (for authors).
        public var note: String?

        public init(text: String, note: String? = nil) {
            self.text = text
            self.note = note
        }
    }

    /// Unique within the entry, e.g. `translation`, `sentence-1`.
    public var id: String
    public var kind: Kind
    public var prompt: String?
    public var answer: String
    /// The form name expected (`base`, `past`, ...).
    public var form: String?
    /// Sentence completion: the 1-based example it was made from.
    public var example: Int?
    /// Sentence completion: the sentence with `___` for the missing word.
    public var sentence: String?
    /// Sentence completion: 0-based index of `___` among the sentence's words.
    public var blank: Int?
    public var difficulty: String?
    public var explanation: String?
    public var distractors: [Distractor]

    public init(
        id: String, kind: Kind, prompt: String? = nil, answer: String, form: String? = nil, example: Int? = nil,
        sentence: String? = nil, blank: Int? = nil, difficulty: String? = nil, explanation: String? = nil,
        distractors: [Distractor] = []
    ) {
        self.id = id
        self.kind = kind
        self.prompt = prompt
        self.answer = answer
        self.form = form
        self.example = example
        self.sentence = sentence
        self.blank = blank
        self.difficulty = difficulty
        self.explanation = explanation
        self.distractors = distractors
    }

    public init?(reading item: inout MappingReader) {
        let id = item.string("id", required: true)
        let typeText = item.string("type", required: true)
        prompt = item.string("prompt")
        let answer = item.string("answer", required: true)
        form = item.string("form")
        example = item.int("example")
        sentence = item.string("sentence")
        blank = item.int("blank")
        difficulty = item.string("difficulty")
        explanation = item.string("explanation")
        distractors = []
        for (index, node) in (item.list("distractors") ?? []).enumerated() {
            if case .scalar = node, let text = node.string {
                distractors.append(Distractor(text: text))
            } else if var choice = item.item(node, "distractors", index) {
                if let text = choice.string("text", required: true) {
                    distractors.append(Distractor(text: text, note: choice.string("note")))
                }
                item.absorb(choice)
            }
        }
        guard let id, let typeText, let answer else { return nil }
        guard let kind = Kind(rawValue: typeText) else {
            item.error(
                "type",
                "unknown question type '\(typeText)'; use \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        self.id = id
        self.kind = kind
        self.answer = answer
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("id", .string(id))
        map.add("type", .string(kind.rawValue))
        map.add("example", example)
        map.add("prompt", prompt)
        map.add("sentence", sentence)
        map.add("answer", .string(answer))
        map.add("form", form)
        map.add("blank", blank)
        map.add("difficulty", difficulty)
        map.add("explanation", explanation)
        map.add(
            "distractors",
            .list(
                distractors.map { distractor in
                    distractor.note.map {
                        .map([("text", .string(distractor.text)), ("note", .string($0))], flow: true)
                    } ?? .string(distractor.text)
                }, flow: false))
        return map.build()
    }
}
