import Foundation
import RoteModel
import Study
import StudyData
import Testing

@Suite struct LetterPracticeTests {
    static let json = """
        {"id": "0193a4f2-0000-7000-8000-000000000001", "mode": "memory", "score": 86, "stroke_order": 90,
         "direction": 80, "shape": 85, "start": 90, "tips": ["start-top-right", "bowl-anticlockwise"],
         "hint_used": false, "started_at": "2026-11-21T10:00:00Z", "completed_at": "2026-11-21T10:00:05Z",
         "duration_ms": 5200, "drawing": [[[68, 46, 0], [58.5, 40, 16]], [[68, 40], [68, 80]]]}
        """

    static func attempt(_ mode: LetterAttempt.Mode, _ score: Int, minute: Int = 0) -> LetterAttempt {
        let start = StudyFixtures.date("2026-11-21T10:00:00Z").addingTimeInterval(Double(minute) * 60)
        return LetterAttempt(
            mode: mode, score: score, strokeOrder: score, direction: score, shape: score, start: score,
            startedAt: start,
            completedAt: start.addingTimeInterval(5), durationMs: 5_000)
    }

    // MARK: - JSON

    @Test func aFullAttemptParses() throws {
        let attempt = try LetterAttempt.parse(json: Self.json)
        #expect(attempt.id == "0193a4f2-0000-7000-8000-000000000001")
        #expect(attempt.mode == .memory)
        #expect(
            [attempt.score, attempt.strokeOrder, attempt.direction, attempt.shape, attempt.start] == [
                86, 90, 80, 85, 90,
            ] as [Int])
        #expect(attempt.tips == ["start-top-right", "bowl-anticlockwise"])
        #expect(!attempt.hintUsed)
        #expect(attempt.startedAt == StudyFixtures.date("2026-11-21T10:00:00Z"))
        #expect(attempt.completedAt == StudyFixtures.date("2026-11-21T10:00:05Z"))
        #expect(attempt.durationMs == 5_200)
        #expect(
            attempt.drawing == [
                [.init(x: 68, y: 46, t: 0), .init(x: 58.5, y: 40, t: 16)], [.init(x: 68, y: 40), .init(x: 68, y: 80)],
            ])
    }

    @Test func optionalFieldsTakeTheirDefaults() throws {
        let attempt = try LetterAttempt.parse(
            json: """
                {"mode": "trace", "score": 70, "stroke_order": 60, "direction": 70, "shape": 80, "start": 75,
                 "started_at": "2026-11-21T10:00:00.250Z", "completed_at": "2026-11-21T12:00:03+02:00"}
                """)
        #expect(attempt.id == nil && attempt.tips.isEmpty && !attempt.hintUsed && attempt.drawing.isEmpty)
        #expect(attempt.durationMs == 2_750, "from the timestamps, offsets honoured")
        #expect(attempt.startedAt == StudyFixtures.date("2026-11-21T10:00:00Z"), "stored to whole seconds")
    }

    @Test(arguments: [
        ("{\"mode\": ", "", LetterAttemptError.Code.invalidJSON),
        ("[1, 2]", "", .wrongType),
        (attemptJSON("mode", nil), "mode", .missingField),
        (attemptJSON("mode", "null"), "mode", .missingField),
        (attemptJSON("mode", "\"sketch\""), "mode", .invalidValue),
        (attemptJSON("mode", "3"), "mode", .wrongType),
        (attemptJSON("score", "101"), "score", .outOfRange),
        (attemptJSON("shape", "-1"), "shape", .outOfRange),
        (attemptJSON("score", "\"high\""), "score", .wrongType),
        (attemptJSON("stroke_order", "85.5"), "stroke_order", .wrongType),
        (attemptJSON("start", nil), "start", .missingField),
        (attemptJSON("started_at", "\"2026-11-21T10:00:00\""), "started_at", .invalidValue),
        (attemptJSON("completed_at", "\"2026-11-21T09:59:59Z\""), "completed_at", .invalidValue),
        (attemptJSON("hint_used", "\"yes\""), "hint_used", .wrongType),
        (attemptJSON("hint_used", "1"), "hint_used", .wrongType),
        (attemptJSON("duration_ms", "-5"), "duration_ms", .outOfRange),
        (attemptJSON("tips", "\"start\""), "tips", .wrongType),
        (attemptJSON("tips", "[\"a\", 1]"), "tips[1]", .wrongType),
        (attemptJSON("drawing", "[[1, 2]]"), "drawing[0][0]", .wrongType),
        (attemptJSON("drawing", "[[[1, 2]], []]"), "drawing[1]", .invalidValue),
        (attemptJSON("drawing", "[[[1, 2], [1]]]"), "drawing[0][1]", .wrongType),
        (attemptJSON("drawing", "[[[1, \"a\"]]]"), "drawing[0][0][1]", .wrongType),
        (attemptJSON("drawing", "{}"), "drawing", .wrongType),
        (attemptJSON("strokeOrderScore", "90"), "strokeOrderScore", .unknownField),
        (attemptJSON("colour", "\"red\""), "colour", .unknownField),
    ])
    func badJSONNamesTheField(json: String, field: String, code: LetterAttemptError.Code) {
        do {
            let attempt = try LetterAttempt.parse(json: json)
            Issue.record("parsed \(attempt) from \(json)")
        } catch {
            #expect(error.field == field, "\(error)")
            #expect(error.code == code, "\(error)")
            #expect(field.isEmpty || error.description.hasPrefix(field + ": "))
        }
    }

    @Test func messagesSayWhatToDo() {
        #expect(
            throws: LetterAttemptError(
                .unknownField, "strokeOrderScore", "unknown field 'strokeOrderScore'; did you mean 'stroke_order'?")
        ) {
            try LetterAttempt.parse(json: attemptJSON("strokeOrderScore", "90"))
        }
        #expect(throws: LetterAttemptError(.outOfRange, "score", "'score' must be 0…100, found 101")) {
            try LetterAttempt.parse(json: attemptJSON("score", "101"))
        }
        #expect(throws: LetterAttemptError(.invalidValue, "mode", "unknown mode 'sketch'; use trace, ghost or memory"))
        {
            try LetterAttempt.parse(json: attemptJSON("mode", "\"sketch\""))
        }
    }

    // MARK: - YAML

    @Test func theFileKeepsOneAttemptPerLineAndRoundTrips() throws {
        let first = try LetterAttempt.parse(json: Self.json)
        let file = LetterAttemptsFile(letter: "alphabet/a", attempts: [Self.attempt(.ghost, 75, minute: 10), first])
        let text = file.render()
        #expect(
            text == """
                letter: alphabet/a
                attempts:
                  - {id: 0193a4f2-0000-7000-8000-000000000001, mode: memory, score: 86, stroke_order: 90, direction: 80, shape: 85, start: 90, tips: [start-top-right, bowl-anticlockwise], hint_used: false, started_at: 2026-11-21T10:00:00Z, completed_at: 2026-11-21T10:00:05Z, duration_ms: 5200, drawing: [[[68, 46, 0], [58.5, 40, 16]], [[68, 40], [68, 80]]]}
                  - {mode: ghost, score: 75, stroke_order: 75, direction: 75, shape: 75, start: 75, hint_used: false, started_at: 2026-11-21T10:10:00Z, completed_at: 2026-11-21T10:10:05Z, duration_ms: 5000}

                """)
        let (decoded, problems) = LetterAttemptsFile.decode(text, path: "letters.yaml")
        #expect(problems.isEmpty)
        #expect(decoded == file)
        #expect(decoded?.render() == text)
    }

    @Test func addingAnAttemptAddsOneLine() throws {
        let file = LetterAttemptsFile(letter: "alphabet/a", attempts: [Self.attempt(.trace, 60)])
        let grown = file.adding(Self.attempt(.memory, 90, minute: 5))
        let before = file.render().split(separator: "\n")
        let after = grown.render().split(separator: "\n")
        #expect(after.count == before.count + 1)
        #expect(Array(after.prefix(before.count)) == before)
        let parsed = try LetterAttempt.parse(json: Self.json)
        #expect(
            grown.adding(parsed).adding(parsed).attempts.count == 3, "an attempt with a known id is not added twice")
    }

    @Test func badStoredAttemptsAreReportedWithTheirLine() {
        let text = """
            letter: alphabet/a
            attempts:
              - {mode: memory, score: 150, stroke_order: 90, direction: 80, shape: 85, start: 90, started_at: 2026-11-21T10:00:00Z, completed_at: 2026-11-21T10:00:05Z, duration_ms: 5200}
              - {mode: doodle, score: 50, stroke_order: 90, direction: 80, shape: 85, start: 90, started_at: 2026-11-21T10:00:00Z, completed_at: 2026-11-21T10:00:05Z, duration_ms: 5200}
              - {mode: trace, score: 50, stroke_order: 90, direction: 80, shape: 85, start: 90, started_at: 2026-11-21T10:00:00Z, completed_at: 2026-11-21T10:00:05Z, duration_ms: 5200}

            """
        let (file, problems) = LetterAttemptsFile.decode(text, path: "letters.yaml")
        #expect(file?.attempts.map(\.mode) == [.trace], "the good attempt still loads")
        #expect(
            problems.map(\.description) == [
                "letters.yaml:3: error: 'attempts[1].score' must be 0…100, found 150",
                "letters.yaml:4: error: unknown mode 'doodle'; use trace, ghost or memory",
            ])
    }

    // MARK: - Mastery and unlocking

    @Test func masteryIsDerivedFromTheAttempts() {
        let attempts = [
            Self.attempt(.trace, 95, minute: 0), Self.attempt(.memory, 95, minute: 3),
            Self.attempt(.ghost, 95, minute: 2),
            Self.attempt(.memory, 80, minute: 5), Self.attempt(.memory, 79, minute: 9),
            Self.attempt(.ghost, 85, minute: 7),
        ]
        let mastery = LetterMastery(attempts: attempts)
        #expect(mastery.bestScore == 95)
        #expect(mastery.bestMode == .memory, "of equal best scores the hardest mode")
        #expect(mastery.attemptCount == 6)
        #expect(mastery.lastPracticedAt == StudyFixtures.date("2026-11-21T10:09:05Z"))
        #expect(mastery.passes == 2, "memory 95 and 80; 79 and other modes do not count")
        let none = LetterMastery(attempts: [])
        #expect(
            none.bestScore == nil && none.bestMode == nil && none.attemptCount == 0 && none.lastPracticedAt == nil
                && none.passes == 0)
    }

    static let letters: [(id: String, order: Int)] = [("alphabet/c", 3), ("alphabet/a", 1), ("alphabet/b", 2)]

    @Test(arguments: [
        ([], false),
        ([(LetterAttempt.Mode.memory, 80)], false),
        ([(.memory, 80), (.memory, 80)], true),
        ([(.memory, 79), (.memory, 80)], false),
        ([(.memory, 79), (.memory, 79)], false),
        ([(.memory, 100), (.memory, 95), (.memory, 10)], true),
        ([(.ghost, 100), (.trace, 100), (.memory, 90)], false),
        ([(.ghost, 90), (.ghost, 90), (.ghost, 90)], false),
    ])
    func theNextLetterUnlocksAfterTwoMemoryPassesOf80(scores: [(LetterAttempt.Mode, Int)], unlocksB: Bool) {
        let attempts = ["alphabet/a": scores.enumerated().map { Self.attempt($1.0, $1.1, minute: $0) }]
        let unlocked = LetterUnlock.unlocked(letters: Self.letters, attempts: attempts)
        #expect(unlocked.contains("alphabet/a"), "order 1 is always unlocked")
        #expect(unlocked.contains("alphabet/b") == unlocksB)
        #expect(!unlocked.contains("alphabet/c"), "b has no passes")
    }

    @Test func theDecksRuleDecides() {
        let attempts = [
            "alphabet/a": [Self.attempt(.ghost, 70)],
            "alphabet/b": [Self.attempt(.memory, 99), Self.attempt(.memory, 99)],
        ]
        let lenient = DeckManifest.UnlockRule(mode: "ghost", minScore: 70, passes: 1)
        #expect(
            LetterUnlock.unlocked(letters: Self.letters, attempts: attempts, rule: lenient) == [
                "alphabet/a", "alphabet/b",
            ])
        #expect(
            LetterUnlock.unlocked(letters: Self.letters, attempts: attempts) == ["alphabet/a", "alphabet/c"],
            "by default only the letter just before counts")
    }

    @Test func lettersOfADeckUnlockByTheirOrder() {
        func letter(_ name: String, _ order: Int) -> Entry {
            Entry(
                id: "alphabet/\(name)", deck: "alphabet", path: "corpus/alphabet/\(name).yaml",
                content: .letter(
                    LetterEntry(glyph: "latin-small-\(name)", order: order, strokes: [[.init(x: 0, y: 0)]])))
        }
        let entries = [letter("b", 2), letter("a", 1), letter("c", 3)]
        let attempts = ["alphabet/a": [Self.attempt(.memory, 80), Self.attempt(.memory, 85, minute: 1)]]
        #expect(LetterUnlock.unlocked(entries: entries, attempts: attempts) == ["alphabet/a", "alphabet/b"])
        #expect(LetterUnlock.unlocked(entries: entries, attempts: [:]) == ["alphabet/a"])
    }
}

/// A valid attempt with one field replaced (or removed, with nil).
func attemptJSON(_ key: String, _ value: String?) -> String {
    var fields: [(String, String)] = [
        ("mode", "\"ghost\""), ("score", "86"), ("stroke_order", "90"), ("direction", "80"), ("shape", "85"),
        ("start", "90"),
        ("started_at", "\"2026-11-21T10:00:00Z\""), ("completed_at", "\"2026-11-21T10:00:05Z\""),
    ]
    if let index = fields.firstIndex(where: { $0.0 == key }) {
        if let value { fields[index].1 = value } else { fields.remove(at: index) }
    } else if let value {
        fields.append((key, value))
    }
    return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
}

@Suite struct LetterReviewTests {
    func attempt(_ mode: LetterAttempt.Mode, _ score: Int, hint: Bool = false) -> LetterAttempt {
        var attempt = LetterPracticeTests.attempt(mode, score)
        attempt.hintUsed = hint
        return attempt
    }

    @Test func onlyMemoryAttemptsAreReviewsGradedByScore() {
        #expect(LetterReview.grade(for: attempt(.trace, 100)) == nil)
        #expect(LetterReview.grade(for: attempt(.ghost, 95)) == nil)
        #expect(LetterReview.grade(for: attempt(.memory, 79)) == .again)
        #expect(LetterReview.grade(for: attempt(.memory, 80)) == .hard)
        #expect(LetterReview.grade(for: attempt(.memory, 89)) == .hard)
        #expect(LetterReview.grade(for: attempt(.memory, 90)) == .good)
        #expect(LetterReview.grade(for: attempt(.memory, 100)) == .good, "no latency, so never easy")
        #expect(LetterReview.grade(for: attempt(.memory, 95, hint: true)) == .hard, "a hint caps it")
        #expect(LetterReview.grade(for: attempt(.memory, 60, hint: true)) == .again)
        #expect(
            LetterReview.grade(for: attempt(.memory, 85), rule: .init(minScore: 90)) == .again, "the deck's pass score")
    }
}
