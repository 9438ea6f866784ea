import Foundation
import RoteModel
import Scheduling
import Testing

/// `rote replay`'s core: vectors-format lines in, per-review states out, one diagnostic per
/// bad line without stopping.
@Suite struct ReplayJSONLinesTests {
    static let goodLine =
        #"{"id": "card-1", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 3}, {"at": "2026-01-01T00:10:00Z", "rating": 3}]}"#

    @Test func theWholeVectorsFileReproducesPyFSRS() throws {
        let text = try String(contentsOf: TestFiles.fsrsVectors, encoding: .utf8)
        let output = ReplayJSONLines.replay(text)
        #expect(output.diagnostics.isEmpty)
        #expect(output.lines.count == 300)
        let vectors = try FSRSVector.load(from: TestFiles.fsrsVectors)
        for (line, vector) in zip(output.lines, vectors) {
            let written = try JSONDecoder().decode(WrittenLine.self, from: Data(line.utf8))
            #expect(written.id == vector.id)
            #expect(written.reviews.count == vector.reviews.count)
            for (got, want) in zip(written.reviews, vector.reviews.map(\.expect)) {
                #expect(got.state == want.state && got.step == want.step && got.due == want.due, "\(vector.id)")
                #expect(relativeError(got.stability, want.stability) <= 1e-9, "\(vector.id)")
                #expect(relativeError(got.difficulty, want.difficulty) <= 1e-9, "\(vector.id)")
            }
        }
    }

    @Test func missingSettingsTakePyFSRSDefaultsWithFuzzOff() {
        // Default parameters: good → S = 2.3065, D = 2.118103970459016 (py-fsrs), step 1, due in 10m;
        // the same-day good graduates with round(2.3065) = 2 days.
        let output = ReplayJSONLines.replay(Self.goodLine)
        #expect(output.diagnostics.isEmpty)
        #expect(
            output.lines == [
                #"{"id": "card-1", "reviews": [{"state": "learning", "step": 1, "stability": 2.3065, "difficulty": 2.118103970459016, "due": "2026-01-01T00:10:00Z"}, {"state": "review", "step": null, "stability": 2.3065, "difficulty": 2.111214235785395, "due": "2026-01-03T00:10:00Z"}]}"#
            ])
    }

    @Test func sm2ModeWritesEaseAndInterval() {
        // good → step 1 (10m); good → graduates with 1 day; ease 2.5 throughout
        let line =
            #"{"id": "w", "scheduler": "sm2", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": "good"}, {"at": "2026-01-01T00:10:00Z", "rating": "good"}]}"#
        let output = ReplayJSONLines.replay(line)
        #expect(
            output.lines == [
                #"{"id": "w", "reviews": [{"state": "learning", "step": 1, "ease": 2.5, "interval": 0, "due": "2026-01-01T00:10:00Z"}, {"state": "review", "step": null, "ease": 2.5, "interval": 1, "due": "2026-01-02T00:10:00Z"}]}"#
            ])
        // The same line through defaults that say sm2.
        let viaDefaults = ReplayJSONLines.replay(
            line.replacingOccurrences(of: #""scheduler": "sm2", "#, with: ""),
            defaults: .sm2Unfuzzed)
        #expect(viaDefaults == output)
    }

    @Test func fuzzCanBeTurnedOnPerLineAndIsDeterministic() {
        let lines = (0..<10).map { entry in
            #"{"id": "f\#(entry)", "enable_fuzzing": true, "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 4, "id": "a"}, {"at": "2026-01-10T00:00:00Z", "rating": 3, "id": "b"}, {"at": "2026-02-20T00:00:00Z", "rating": 3, "id": "c"}]}"#
        }
        let fuzzed = ReplayJSONLines.replay(lines: lines)
        #expect(fuzzed.diagnostics.isEmpty)
        #expect(fuzzed == ReplayJSONLines.replay(lines: lines))
        let unfuzzed = ReplayJSONLines.replay(lines: lines.map { $0.replacingOccurrences(of: "true", with: "false") })
        #expect(fuzzed.lines.count == 10 && unfuzzed.lines.count == 10)
        #expect(fuzzed.lines != unfuzzed.lines)
        // Without fuzz every entry has the same history, hence the same output but for its id.
        #expect(
            Set(
                unfuzzed.lines.map {
                    $0.replacingOccurrences(of: #"^\{"id": "f\d""#, with: "", options: .regularExpression)
                }
            ).count == 1)
    }

    @Test func otherKeysAreIgnoredAndBlankLinesSkipped() {
        let line =
            #"{"id": "card-1", "deck": "x", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 3, "expect": {"anything": 1}, "ms": 1200}, {"at": "2026-01-01T00:10:00Z", "rating": 3}]}"#
        let output = ReplayJSONLines.replay("\n" + line + "\n\n  \n")
        #expect(output.diagnostics.isEmpty)
        #expect(output.lines == ReplayJSONLines.replay(Self.goodLine).lines)
    }

    @Test func idsAreEscapedAndMayBeMissing() {
        let quoted = ReplayJSONLines.replay(#"{"id": "a\"b\\c\nd", "reviews": []}"#)
        #expect(quoted.lines == [#"{"id": "a\"b\\c\nd", "reviews": []}"#])
        let missing = ReplayJSONLines.replay(#"{"reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 1}]}"#)
        #expect(missing.lines.first?.hasPrefix(#"{"id": null, "reviews": [{"state": "learning", "step": 0"#) == true)
    }

    /// Every kind of bad input gives one diagnostic naming its line and why; the lines after
    /// it are still replayed.
    @Test(arguments: [
        (#"{"id": "x", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 3}"#, "malformed JSON"),
        (#"not json at all"#, "malformed JSON"),
        (#"[1, 2, 3]"#, "expected a JSON object"),
        (#"{"id": "x"}"#, #"missing "reviews""#),
        (#"{"reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 5}]}"#, "reviews[0]: unknown rating 5"),
        (#"{"reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 0}]}"#, "reviews[0]: unknown rating 0"),
        (#"{"reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 2.5}]}"#, "reviews[0]: unknown rating 2.5"),
        (#"{"reviews": [{"at": "2026-01-01T00:00:00Z", "rating": "meh"}]}"#, #"reviews[0]: unknown rating "meh""#),
        (#"{"reviews": [{"at": "2026-01-01T00:00:00Z", "rating": true}]}"#, "reviews[0]: unknown rating true"),
        (#"{"reviews": [{"at": "2026-01-01T00:00:00Z"}]}"#, #"reviews[0]: missing "rating""#),
        (
            #"{"reviews": [{"at": "2026-01-01T00:00:00", "rating": 3}]}"#,
            "reviews[0]: timestamp \"2026-01-01T00:00:00\" is not ISO-8601 with a zone"
        ),
        (
            #"{"reviews": [{"at": "yesterday", "rating": 3}]}"#,
            "reviews[0]: timestamp \"yesterday\" is not ISO-8601 with a zone"
        ),
        (#"{"reviews": [{"rating": 3}]}"#, #"reviews[0]: missing "at""#),
        (
            #"{"reviews": [{"at": "2026-01-02T00:00:00Z", "rating": 3}, {"at": "2026-01-01T00:00:00Z", "rating": 3}]}"#,
            "reviews[1] at 2026-01-01T00:00:00Z is before reviews[0] at 2026-01-02T00:00:00Z; reviews must be in time order"
        ),
        (#"{"parameters": [0.212, 1.2931], "reviews": []}"#, "expected 21 FSRS parameters, got 2"),
        (
            #"{"parameters": [0.212, 1.2931, 2.3065, 8.2956, 11.0, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.9], "reviews": []}"#,
            "parameters[4] = 11.0 is out of bounds (1.0...10.0); parameters[20] = 0.9 is out of bounds (0.1...0.8)"
        ),
        (#"{"parameters": "default", "reviews": []}"#, "parameters must be an array of numbers"),
        (#"{"desired_retention": 1.5, "reviews": []}"#, "desired retention 1.5 must be between 0 and 1"),
        (#"{"learning_steps_s": [60, -1], "reviews": []}"#, "learning step -1.0 must be 0 or more seconds"),
        (#"{"maximum_interval": 36.5, "reviews": []}"#, "maximum_interval must be a whole number"),
        (#"{"maximum_interval": 0, "reviews": []}"#, "maximum interval 0 must be at least 1 day"),
        (#"{"scheduler": "anki", "reviews": []}"#, #"unknown scheduler "anki" (use fsrs or sm2)"#),
        (#"{"enable_fuzzing": "yes", "reviews": []}"#, "enable_fuzzing must be true or false"),
    ])
    func badInputIsReportedWithItsLineAndProcessingGoesOn(bad: String, reason: String) {
        let input = [Self.goodLine, bad, Self.goodLine].joined(separator: "\n")
        let output = ReplayJSONLines.replay(input)
        #expect(output.lines.count == 2)
        #expect(output.diagnostics.count == 1)
        let diagnostic = output.diagnostics.first
        #expect(diagnostic?.line == 2)
        #expect(diagnostic?.message.contains(reason) == true, "\(diagnostic?.message ?? "no diagnostic")")
        #expect(diagnostic?.inFile("in.jsonl").description.hasPrefix("in.jsonl:2: error: ") == true)
    }

    @Test func lineNumbersCountBlankLines() {
        let output = ReplayJSONLines.replay(lines: ["", Self.goodLine, "", "{"])
        #expect(output.lines.count == 1)
        #expect(output.diagnostics.map(\.line) == [4])
        #expect(
            output.diagnostics.first?.inFile("x.jsonl").description.hasPrefix("x.jsonl:4: error: malformed JSON")
                == true)
    }

    @Test func parametersAreReadExactly() throws {
        // JSONSerialization on Linux reads some doubles one ulp off; parity needs exact reads.
        let tricky = 0.8592494032169566
        var values = FSRSParameters.defaultValues
        values[7] = 0.07040894539999507  // w7 within 0.001…0.75
        values[5] = tricky
        let list = values.map { $0.description }.joined(separator: ", ")
        let line =
            #"{"id": "p", "parameters": [\#(list)], "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 1}, {"at": "2026-01-03T00:00:00Z", "rating": 3}]}"#
        let settings = try SchedulerSettings(parameters: values, enableFuzzing: false)
        let events = [review("#000000", 0, .again), review("#000001", 2 * day, .good)]
        let expected = Scheduler(settings: settings).history(events, entryID: "p")
        let written = try JSONDecoder().decode(WrittenLine.self, from: Data(ReplayJSONLines.replay(line).lines[0].utf8))
        #expect(written.reviews.map(\.difficulty) == expected.map(\.difficulty))
        #expect(written.reviews.map(\.stability) == expected.map(\.stability))
    }
}

/// One output line, read back.
private struct WrittenLine: Decodable {
    struct Review: Decodable {
        var state: String
        var step: Int?
        var stability: Double
        var difficulty: Double
        var due: String
    }
    var id: String
    var reviews: [Review]
}
