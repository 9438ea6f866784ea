import Foundation
import Testing
import Yams

@testable import RoteModel

/// parse(render(x)) == x for every file format, and render is stable (render(parse(render(x)))
/// is byte-identical), so files Rote writes never churn.
@Suite struct CodecRoundTripTests {
    static let at = Timestamp.parse("2026-11-21T10:00:00Z")!

    func roundTrip<T: YAMLCodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = value.render()
        let (decoded, problems) = T.decode(text, path: "x.yaml")
        #expect(
            problems.filter { $0.severity == .error }.isEmpty, "\(problems)\n\(text)", sourceLocation: sourceLocation)
        #expect(decoded == value, "\(text)", sourceLocation: sourceLocation)
        #expect(decoded?.render() == text, sourceLocation: sourceLocation)
    }

    @Test func libraryManifest() {
        roundTrip(LibraryManifest(title: "Mine", defaultUser: "ana", decks: ["english-a1", "kjv"]))
        roundTrip(LibraryManifest())
    }

    @Test func deckManifest() {
        roundTrip(
            DeckManifest(
                kind: .vocabulary, title: "English: A1", description: "Words #1", sourceLanguage: "en",
                targetLanguage: "ar",
                version: "2.1.3", license: "CC-BY-4.0", source: "Written for Rote", scheduler: .sm2, order: .rank))
        roundTrip(
            DeckManifest(kind: .letters, title: "Letters", unlock: .init(mode: "memory", minScore: 80, passes: 2)))
        roundTrip(
            DeckManifest(
                kind: .vocabulary, title: "French", anki: .init(deckID: 1_700_000_000_123, deckName: "French::Basics")))
        roundTrip(
            DeckManifest(
                kind: .passages, title: "Batch 10", version: "1.1.0",
                upstream: .init(
                    url: "https://example.org/decks.git", path: "english/batch-10", ref: "v1.1.0",
                    commit: String(repeating: "0a", count: 20), version: "1.1.0")))
    }

    @Test func vocabularyEntry() {
        var word = VocabularyEntry(
            word: "run", pos: "verb", translation: "يجري",
            forms: [("base", "run"), ("third_person", "runs"), ("past", "ran")],
            examples: [
                .init(
                    en: "I {run} daily.", translated: "أنا {أجري} يوميًا.", form: "base", context: "daily_routine",
                    difficulty: "basic", primary: true),
                .init(en: "She {runs}: fast!", translated: "هي {تجري} بسرعة!", form: "third_person"),
            ],
            questions: [
                .init(
                    id: "translation", kind: .translationMatch, prompt: "run", answer: "يجري",
                    explanation: "'Run' is يجري.",
                    distractors: [.init(text: "يمشي", note: "walk"), .init(text: "يقف")]),
                .init(
                    id: "sentence-1", kind: .sentenceCompletion, answer: "run", form: "base", example: 1,
                    sentence: "I ___ daily.", blank: 1,
                    distractors: [.init(text: "runs"), .init(text: "ran"), .init(text: "true")]),
            ])
        word.alternatives = ["يركض"]
        word.definition = [("en", "to move fast on foot"), ("ar", "يتحرك بسرعة")]
        word.ipa = "/rʌn/"
        word.rank = 157
        word.cefr = "A1"
        word.batch = 2
        word.level = "beginner_2"
        word.difficulty = "basic"
        word.root = "run"
        word.related = [("synonyms", ["jog"]), ("antonyms", ["walk", "stop"])]
        word.usageNotes = "Also: run a shop — to manage it."
        word.audio = "run.mp3"
        word.ankiNote = 1_767_261_600_123
        roundTrip(word)
    }

    @Test func passageEntry() {
        var passage = PassageEntry(
            reference: "John 3:16",
            text:
                "For God so loved the world, that he gave his only begotten Son: that whosoever believeth in him should not perish, but have everlasting life.",
            translation: "KJV", tags: ["love", "gospel"], order: 20)
        passage.book = "John"
        passage.chapter = 3
        passage.verses = "16"
        passage.mnemonic = "God → world → Son → life"
        passage.rights = .init(license: "public-domain", holder: "none", note: "Crown rights in the UK")
        passage.ankiNote = 1_767_261_600_456
        roundTrip(passage)
    }

    @Test func letterEntry() {
        roundTrip(
            LetterEntry(
                glyph: "latin-small-a", character: "a", name: "small a", order: 1,
                strokes: [[.init(x: 68, y: 46), .init(x: 58.5, y: 40)], [.init(x: 68, y: 40), .init(x: 68, y: 80)]],
                tips: ["start-top-right"]))
    }

    @Test func skillsContent() {
        roundTrip(
            SkillDomain(
                uuid: "b3e738f6-245e-401a-8a49-641fdaed1e7a", title: "Algebra", description: "Letters for numbers",
                sortOrder: 1, published: true))
        roundTrip(
            SkillQuestion(
                uuid: "d37faec5-38b7-4e59-8a8c-7c4fa8b8f552",
                payload: .mcqSingle(prompt: "What is x in 2x = 10?", choices: ["3", "4", "5", "6"], solutionIndex: 2),
                explanation: "Divide both sides by 2.", sortOrder: 0, published: true))
        roundTrip(
            SkillQuestion(
                uuid: nil,
                payload: .reorderSteps(
                    prompt: "Order the steps", steps: ["Get x = 5", "Write 2x = 10", "Divide by 2"],
                    solution: [1, 2, 0]),
                explanation: "Write, divide, read off.", sortOrder: 3, published: false))
    }

    @Test func profile() {
        var profile = Profile(user: "ana", name: "Ana María", createdAt: Self.at, updatedAt: Self.at)
        profile.settings.newPerDay = 10
        profile.settings.desiredRetention = 0.85
        profile.settings.leftHanded = true
        profile.settings.lastLetter = "alphabet/c"
        profile.lexicalRank = 1200
        profile.interests = [("travel", 0.7), ("food", 0.25)]
        profile.ignoredWords = ["the", "a"]
        profile.consent = [.init(topic: "reflections", granted: true, at: Self.at, version: "1")]
        profile.easyRatingVelocity = 0.3
        profile.cycleCount = 4
        profile.setSeenVersion("1.1.0", of: "kjv")
        profile.setSeenVersion("1.0.0", of: "alphabet")
        #expect(profile.deckVersions.map(\.0) == ["alphabet", "kjv"], "kept sorted by deck")
        roundTrip(profile)
        roundTrip(Profile(user: "bo"))
    }

    @Test func progressFile() {
        let state = MemoryState(
            phase: .review, stability: 12.410000000000002, difficulty: 5.12,
            due: Self.at.addingTimeInterval(86_400 * 12), reps: 7, lapses: 1, lastReview: Self.at)
        roundTrip(
            ProgressFile(
                entry: "english-a1/run", status: .suspended, statusAt: Self.at, state: state,
                reviews: [
                    ReviewEvent(
                        id: "0193a4f2-0000-7000-8000-000000000001", at: Self.at.addingTimeInterval(-86_400),
                        grade: .good, ms: 3200, device: "laptop"),
                    ReviewEvent(id: "0193a4f2-0000-7000-8000-000000000002", at: Self.at, grade: .again),
                ]))
        roundTrip(
            ProgressFile(
                entry: "kjv/joh-3-16",
                state: MemoryState(phase: .learning, step: 1, ease: 2.5, interval: 0, due: Self.at)))
    }

    @Test func sessionFile() {
        roundTrip(
            SessionFile(
                id: "2026-11-21-abc", user: "ana", device: "desktop", kind: .review, startedAt: Self.at,
                endedAt: Self.at.addingTimeInterval(840),
                decks: ["english-a1"], again: 1, hard: 0, good: 2, easy: 0, new: 1,
                attempts: [
                    .init(
                        entry: "english-a1/run", question: "translation", answer: "يجري", correct: true, at: Self.at,
                        ms: 2100),
                    .init(
                        entry: "english-a1/run", question: "sentence-1", answer: "ran, quickly", correct: false,
                        at: Self.at, ms: 5400),
                ]))
    }

    @Test func progressFileWritesOneReviewPerLine() {
        let file = ProgressFile(
            entry: "english-a1/run", reviews: [ReviewEvent(id: "a", at: Self.at, grade: .good, ms: 10, device: "x")])
        let lines = file.render().split(separator: "\n")
        #expect(lines.contains("  - {id: a, at: 2026-11-21T10:00:00Z, grade: good, ms: 10, device: x}"))
    }
}

/// Quoting: any string written by Rote reads back as the same string.
@Suite struct YAMLQuotingTests {
    static let awkward = [
        "", " ", "true", "No", "null", "~", "123", "1.5", "-1", ".5", "0x1F", "2026-11-21", "a: b", "a #b", "#x", "- x",
        "[x]",
        "{x}", "x, y", "'q'", "\"q\"", "back\\slash", "line\nbreak", "tab\there", "ends:", "*star", "&amp", "!tag",
        "%p", "@at",
        "`tick`", "? q", "| pipe", "> fold", "يجري", "a b", "snake_case", "x:y", "\u{7}", "  lead", "trail  ", "é",
    ]

    @Test(arguments: awkward) func readsBackTheSameString(_ text: String) throws {
        let document = YAMLValue.map(
            [("key", .string(text)), ("list", .list([.string(text)], flow: true))], flow: false
        ).renderDocument()
        let node = try #require(try Yams.compose(yaml: document))
        #expect(node["key"]?.string == text, "\(document)")
        #expect(node["list"]?.array().first?.string == text, "\(document)")
    }

    @Test func randomStringsReadBack() throws {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array("ab :#-,[]{}'\"\\\n\t?!*&|>%@`.0123456789يجري~é")
        for _ in 0..<500 {
            let length = Int.random(in: 0...12, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let document = YAMLValue.map([("k", .string(text))], flow: true).renderDocument()
            let node = try #require(try Yams.compose(yaml: document))
            #expect(node["k"]?.string == text, "\(document)")
        }
    }
}

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2026-11-21T10:00:00Z", 1_795_255_200.0),
        ("1970-01-01T00:00:00Z", 0.0),
        ("2000-02-29T23:59:59Z", 951_868_799.0),
        ("2026-11-21T12:30:00+02:30", 1_795_255_200.0),
        ("2026-11-21 10:00:00Z", 1_795_255_200.0),
        ("2026-11-21T10:00:00.250Z", 1_795_255_200.25),
    ])
    func parses(_ text: String, _ seconds: Double) {
        #expect(Timestamp.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: [
        "2026-11-21T10:00:00", "2026-11-21", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "yesterday",
        "2026-11-21T10:00:00Zjunk", "2026-11-21T25:00:00Z",
    ])
    func rejects(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func formatsAndParsesBack() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<1000 {
            let seconds = Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Timestamp.parse(Timestamp.format(date)) == date)
        }
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_795_255_200)) == "2026-11-21T10:00:00Z")
    }
}

/// Study limits and the maximum interval below 1 are errors on their line, and the bad
/// value is dropped so the default applies.
@Suite struct ProfileSettingsBoundsTests {
    @Test func limitsBelowOneAreErrorsAndFallBackToTheDefault() throws {
        let text =
            "user: ana\nsettings:\n  new_per_day: 0\n  reviews_per_day: -3\n  working_set: 0\n  maximum_interval: 0\n  daily_goal: 0\n"
        let (profile, problems) = Profile.decode(text, path: "profiles/ana/profile.yaml")
        let decoded = try #require(profile)
        #expect(decoded.settings.newPerDay == nil && decoded.settings.reviewsPerDay == nil)
        #expect(decoded.settings.workingSet == nil && decoded.settings.maximumInterval == nil)
        #expect(
            problems.map(\.description) == [
                "profiles/ana/profile.yaml:3: error: settings.new_per_day is 0, but it must be at least 1; write a positive whole number, or remove the line for the default (10)",
                "profiles/ana/profile.yaml:4: error: settings.reviews_per_day is -3, but it must be at least 1; write a positive whole number, or remove the line for the default (200)",
                "profiles/ana/profile.yaml:5: error: settings.working_set is 0, but it must be at least 1; write a positive whole number, or remove the line for the default (no cap)",
                "profiles/ana/profile.yaml:6: error: settings.maximum_interval is 0, but it must be at least 1; write a positive whole number, or remove the line for the default (36500 days)",
            ])
        let (fine, none) = Profile.decode(
            "user: ana\nsettings: {new_per_day: 1, reviews_per_day: 1, working_set: 1, maximum_interval: 1}\n",
            path: "p.yaml")
        #expect(none.isEmpty, "\(none)")
        #expect(fine?.settings.maximumInterval == 1)
    }
}

/// `YAMLValue.doubleQuoted` copies text that needs no escape whole after one pass over its
/// bytes; for any text it must give what escaping scalar by scalar gives.
@Suite struct DoubleQuotedTests {
    @Test func theBytePassAgreesWithEscapingEveryScalar() {
        // Every scalar that is escaped, its neighbours, and plain text of each width.
        let special: [Unicode.Scalar] = [
            "\u{0}", "\u{1F}", "\"", "\\", "\n", "\t", "\r", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\u{FEFF}",
            "\u{FEFE}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "a", "é", "ب", "€", "😀", "\u{BF}", "\u{C0}",
        ]
        var generator = SystemRandomNumberGenerator()
        var texts = special.map { String(Character($0)) } + ["", "plain text", "قال يسوع", "mixed \"quotes\" and ب"]
        for _ in 0..<2_000 {
            texts.append(
                String(
                    String.UnicodeScalarView(
                        (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                            special.randomElement(using: &generator)!
                        })))
        }
        for text in texts {
            #expect(
                YAMLValue.doubleQuoted(text) == YAMLValue.escapedDoubleQuoted(text),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
