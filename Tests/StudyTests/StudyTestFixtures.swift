import Foundation
import RoteModel
import Testing

/// Small hand-made content for the study engine's tests.
enum StudyFixtures {
    static let utc = TimeZone(identifier: "UTC")!

    static func date(_ text: String) -> Date { Timestamp.parse(text)! }

    /// Decodes a vocabulary entry, failing the test on any error.
    static func word(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> VocabularyEntry {
        let (entry, problems) = VocabularyEntry.decode(yaml, path: "corpus/words/test.yaml")
        #expect(!problems.contains { $0.severity == .error }, "\(problems)", sourceLocation: sourceLocation)
        return entry!
    }

    /// Seed 000's "run", as format.md writes it.
    static let run = word(
        """
        word: run
        pos: verb
        translation: يجري
        alternatives: [يركض, يدير]
        forms: {base: run, third_person: runs, past: ran, past_participle: run, present_participle: running}
        ipa: /rʌn/
        rank: 157
        cefr: A1
        examples:
          - en: I {run} every morning.
            ar: أنا {أجري} كل صباح.
            form: base
            primary: true
          - en: She {runs} to the bus stop.
            ar: هي {تجري} إلى موقف الحافلة.
            form: third_person
            primary: true
          - en: They {ran} a marathon last year.
            ar: هم {ركضوا} ماراثونًا في العام الماضي.
            form: past
        questions:
          - id: translation
            type: translation_match
            prompt: run
            answer: يجري
            distractors: [يمشي, يجلس, يقف, يسبح]
          - id: reverse
            type: reverse_translation
            prompt: يجري
            answer: run
            form: base
            distractors: [walk, sit, swim, jump]
          - id: sentence-1
            type: sentence_completion
            example: 1
            sentence: I ___ every morning.
            answer: run
            form: base
            blank: 1
            distractors: [runs, running, runner]
          - id: sentence-3
            type: sentence_completion
            example: 3
            sentence: They ___ a marathon last year.
            answer: ran
            form: past
            blank: 1
            distractors: [run, runs, running]
        """)

    /// A deck word with the forms a regular verb has.
    static func verb(_ base: String, past: String, translation: String, rank: Int?, cefr: String?) -> VocabularyEntry {
        var entry = VocabularyEntry(
            word: base, pos: "verb", translation: translation,
            forms: [("base", base), ("third_person", base + "s"), ("past", past)])
        entry.rank = rank
        entry.cefr = cefr
        return entry
    }

    /// Verbs around "run", a noun, and "run" itself (which must never be its own distractor).
    static let deck: [VocabularyEntry] = [
        run,
        verb("walk", past: "walked", translation: "يمشي", rank: 300, cefr: "A1"),
        verb("sit", past: "sat", translation: "يجلس", rank: 400, cefr: "A1"),
        verb("jump", past: "jumped", translation: "يقفز", rank: 1200, cefr: "A1"),
        verb("swim", past: "swam", translation: "يسبح", rank: 900, cefr: "A2"),
        verb("cook", past: "cooked", translation: "يطبخ", rank: 1500, cefr: "A2"),
        {
            var house = VocabularyEntry(
                word: "house", pos: "noun", translation: "بيت", forms: [("singular", "house"), ("plural", "houses")])
            house.rank = 200
            house.cefr = "A1"
            return house
        }(),
    ]

    /// Matthew 5:44 (KJV): six clauses.
    static let matthew = PassageEntry(
        reference: "Matthew 5:44",
        text:
            "But I say unto you, Love your enemies, bless them that curse you, do good to them that hate you, and pray for them which despitefully use you, and persecute you;"
    )
}
