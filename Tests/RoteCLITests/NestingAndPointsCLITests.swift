import Foundation
import RoteModel
import TestSupport
import Testing

/// Issue #31 through the `rote` binary: a deeply nested file killed every command at start,
/// and a drawing of any size was recorded.
@Suite struct NestingAndPointsCLITests {
    /// `LetterAttempt.maximumPoints`.
    static let maximumPoints = 5000

    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    let directory = TemporaryDirectory()
    var lib: URL { directory.url }

    init() async {
        await FixtureLibrary.write(into: directory)
    }

    @discardableResult
    func rote(_ arguments: [String], input: String? = nil) async -> Shell.Output {
        await Shell.run(
            Self.binary, ["-C", lib.path, "--user", "ana"] + arguments, input: input, environment: ["NO_COLOR": "1"])
    }

    @Test func aDeeplyNestedEntryIsReportedOnItsLineAndEveryCommandStillRuns() async throws {
        directory.write(
            "corpus/words/run.yaml",
            "word: run\npos: verb\ntranslation: " + String(repeating: "[", count: 40_000) + "\n")
        let check = await rote(["check"])
        #expect(check.status == 1, "\(check.stderr)")
        #expect(
            check.stdout.contains(
                "corpus/words/run.yaml:3: error: lists and mappings here nest more than 100 levels deep"),
            "\(check.stdout)")
        let list = await rote(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("words/go "), "\(list.stdout)")
        #expect(!list.stdout.contains("words/run "))
        for command in [["stats"], ["lookup", "go"], ["show", "words/go"]] {
            let output = await rote(command)
            #expect(output.status == 0, "\(command): \(output.stderr)")
        }
    }

    static func attempt(points: Int) -> String {
        let drawing = (0..<points).map { "[\($0 % 100), 50, \($0)]" }.joined(separator: ", ")
        return """
            {"letter": "l", "mode": "memory", "score": 86, "stroke_order": 90, "direction": 80, "shape": 85, "start": 90, "started_at": "2026-11-21T10:00:00Z", "completed_at": "2026-11-21T10:00:05Z", "drawing": [[\(drawing)]]}
            """
    }

    @Test func aDrawingOverThePointLimitIsNotRecorded() async throws {
        let over = await rote(["letters", "record", "-"], input: Self.attempt(points: Self.maximumPoints + 1))
        #expect(over.status == 1)
        #expect(
            over.stderr.contains("has \(Self.maximumPoints + 1) points, more than the \(Self.maximumPoints)"),
            "\(over.stderr)")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
        let within = await rote(["letters", "record", "-"], input: Self.attempt(points: Self.maximumPoints))
        #expect(within.status == 0, "\(within.stderr)")
    }
}
