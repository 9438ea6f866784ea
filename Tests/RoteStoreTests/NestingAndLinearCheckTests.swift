import Foundation
import RoteModel
import TestSupport
import Testing

@testable import RoteStore

/// Issue #31: a deeply nested file killed every command that read it, and the content rules
/// searched a file once per warning.
@Suite struct NestingAndLinearCheckTests {
    static let runPath = "corpus/words/run.yaml"
    static let progressPath = "profiles/ana/progress/words/run.yaml"

    @Test func aDeeplyNestedFileIsOneErrorOnItsLineAndTheRestLoads() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                Self.runPath: "word: run\npos: verb\ntranslation: " + String(repeating: "[", count: 40_000) + "\n",
                Self.progressPath: "entry: words/run\nreviews:\n  - " + String(repeating: "[", count: 50_000)
                    + String(repeating: "]", count: 50_000) + "\n",
            ])
        let library = try LibraryLoader().load(directory.url)
        for (path, line) in [(Self.runPath, 3), (Self.progressPath, 3)] {
            #expect(
                library.errors.contains {
                    $0.path == path && $0.line == line && $0.message.contains("nest more than 100 levels deep")
                }, "\(library.diagnostics)")
        }
        #expect(library.entries.count == 5)
        #expect(library.entries.contains { $0.id == "words/go" })
    }

    /// 40 000 warnings, each reading and searching the file again, took 279 s: the file is
    /// read once for all of them, and a word or a whole line is found without a search.
    @Test func aFileIsReadOnceHowEverManyOfItsLinesAreAskedFor() async throws {
        let directory = TemporaryDirectory()
        let count = 5_000
        let text = "reviews:\n" + (0..<count).map { "  - {id: r-\($0), grade: good}\n" }.joined()
        try text.write(to: directory.url.appending(path: "a.yaml"), atomically: true, encoding: .utf8)
        let finder = LineFinder(root: directory.url)
        for index in 0..<count {
            #expect(finder.line(containing: "r-\(index)", in: "a.yaml") == index + 2)
            #expect(finder.line(containing: "reviews:", in: "a.yaml") == 1)
        }
        #expect(finder.fileReads == 1)
        #expect(finder.lineSearches == 0)
    }

    @Test func fourThousandNonArabicAlternativesAreWarnedOnTheirLine() async throws {
        let directory = TemporaryDirectory()
        let alternatives = (0..<4_000).map { "walk\($0)" }.joined(separator: ", ")
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "corpus/words/deck.yaml": FixtureLibrary.files["corpus/words/deck.yaml"]!
                    + "languages: {target: ar}\n",
                Self.runPath: FixtureLibrary.files[Self.runPath]! + "alternatives: [\(alternatives)]\n",
            ])
        let library = try LibraryLoader().load(directory.url)
        let warnings = library.diagnostics.filter {
            $0.path == Self.runPath && $0.message.hasPrefix("alternatives[")
        }
        #expect(warnings.count == 4_000)
        let line = FixtureLibrary.files[Self.runPath]!.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(warnings.allSatisfy { $0.line == line }, "\(warnings.prefix(2))")
    }

    /// Each warning names its own line: 2 000 reviews dated ahead, each found by its id.
    @Test func twoThousandReviewsDatedAheadAreWarnedOnTheirLines() async throws {
        let directory = TemporaryDirectory()
        let count = 2_000
        let reviews = (0..<count).map {
            "  - {id: ahead-\($0), at: 2099-01-01T00:00:00Z, grade: good, ms: 1000, device: laptop}\n"
        }
        await FixtureLibrary.write(
            into: directory,
            overrides: [Self.progressPath: "entry: words/run\nstatus: active\nreviews:\n" + reviews.joined()])
        let library = try LibraryLoader().load(directory.url)
        let warnings = library.diagnostics.filter { $0.path == Self.progressPath && $0.message.contains("dated") }
        #expect(warnings.count == count, "\(library.diagnostics.prefix(3))")
        #expect(
            warnings.allSatisfy { warning in
                warning.message.hasPrefix("review ahead-\((warning.line ?? 0) - 4) ")
            }, "\(warnings.prefix(2))")
    }
}
