import Foundation
import RoteModel
import RoteSync
import Scheduling
import Testing

/// The merge rules for what study sessions add: the ladder position, reflections and resets in
/// progress files, and tracing attempts in letters files.
@Suite struct LadderAndLettersMergeTests {
    func progress(_ extra: String, reviews: [String] = []) -> Data {
        Data(
            ("entry: kjv/joh-11-35\nstatus: active\n" + extra
                + (reviews.isEmpty ? "" : "reviews:\n" + reviews.map { "  - \($0)\n" }.joined())).utf8)
    }

    func mergeBothWays(_ ours: Data, _ theirs: Data, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ProgressFile
    {
        func text(_ outcome: MergeOutcome) -> String? {
            guard case let .merged(data) = outcome else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        let forward = text(ProgressMerge.merge(base: nil, ours: ours, theirs: theirs, settings: .default))
        let backward = text(ProgressMerge.merge(base: nil, ours: theirs, theirs: ours, settings: .default))
        #expect(forward == backward, sourceLocation: sourceLocation)
        let merged = try #require(forward, sourceLocation: sourceLocation)
        return try #require(ProgressFile.decode(merged, path: "merged.yaml").0, sourceLocation: sourceLocation)
    }

    let early = "{id: r1, at: 2026-11-01T09:00:00Z, grade: good}"
    let late = "{id: r2, at: 2026-11-10T09:00:00Z, grade: good}"

    @Test func theLaterLadderAndReflectionWin() throws {
        let ours = progress(
            "ladder: {level: cloze2, covered: [0], attempts: 5, at: 2026-11-02T09:00:00Z}\nreflection:\n  text: old\n  at: 2026-11-01T09:00:00Z\n"
        )
        let theirs = progress(
            "ladder: {level: cloze1, attempts: 4, at: 2026-11-03T09:00:00Z}\nreflection:\n  text: new\n  at: 2026-11-04T09:00:00Z\n"
        )
        let merged = try mergeBothWays(ours, theirs)
        #expect(merged.ladder?.level == "cloze1", "the later rung wins, even when it is lower (a failure dropped it)")
        #expect(merged.reflection?.text == "new")
        #expect(
            try mergeBothWays(ours, progress("")).ladder?.level == "cloze2",
            "a side without a ladder takes nothing away")
    }

    @Test func aResetOnOneDeviceKeepsEveryReviewButSchedulesOnlyLaterOnes() throws {
        let reset = progress("reset_at: 2026-11-05T09:00:00Z\n", reviews: [early])
        let other = progress("", reviews: [early, late])
        let merged = try mergeBothWays(reset, other)
        #expect(merged.reviews.map(\.id) == ["r1", "r2"])
        #expect(merged.resetAt == Timestamp.parse("2026-11-05T09:00:00Z"))
        #expect(merged.scheduledReviews.map(\.id) == ["r2"])
        #expect(merged.state?.reps == 1, "replayed from the review after the reset only")
    }

    func letters(_ attempts: [String], letter: String = "alphabet/a") -> Data {
        Data(("letter: \(letter)\nattempts:\n" + attempts.map { "  - \($0)\n" }.joined()).utf8)
    }

    func attempt(_ id: String, _ second: Int, score: Int = 80) -> String {
        "{id: \(id), mode: memory, score: \(score), stroke_order: 90, direction: 90, shape: 90, start: 90, hint_used: false, started_at: 2026-11-21T10:00:0\(second)Z, completed_at: 2026-11-21T10:00:0\(second)Z, duration_ms: 0}"
    }

    @Test func letterAttemptsMergeAsAUnionById() throws {
        let ours = letters([attempt("a", 1), attempt("b", 3)])
        let theirs = letters([attempt("a", 1), attempt("c", 2, score: 95)])
        guard
            case let .merged(forward) = SemanticMerge.merge(
                kind: .letters, base: nil, ours: ours, theirs: theirs, path: "profiles/ana/letters/alphabet/a.yaml",
                settings: .default),
            case let .merged(backward) = SemanticMerge.merge(
                kind: .letters, base: nil, ours: theirs, theirs: ours, path: "p", settings: .default)
        else {
            Issue.record("letters files must always merge")
            return
        }
        #expect(forward == backward)
        let merged = try #require(LetterAttemptsFile.decode(forward, path: "merged.yaml").0)
        #expect(merged.attempts.map(\.id) == ["a", "c", "b"], "every attempt once, in completion order")
        let outcome = LetterAttemptsMerge.merge(ours: forward, theirs: theirs)
        let again = try #require(
            { () -> Data? in if case let .merged(again) = outcome { again } else { nil } }(),
            "merging twice must merge, not \(outcome)")
        #expect(again == forward, "merging twice changes nothing")
        #expect(MergeKind.forPath("profiles/ana/letters/alphabet/a.yaml") == .letters)
    }

    @Test func lettersFilesForDifferentLettersConflict() {
        let outcome = LetterAttemptsMerge.merge(
            ours: letters([attempt("a", 1)]), theirs: letters([attempt("b", 1)], letter: "alphabet/b"), path: "x.yaml")
        guard case let .conflict(reason) = outcome else {
            Issue.record("expected a conflict")
            return
        }
        #expect(reason.contains("'alphabet/a'") && reason.contains("'alphabet/b'"))
    }
}
