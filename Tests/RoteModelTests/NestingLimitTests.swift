import Foundation
import Testing
import Yams

@testable import RoteModel

/// Issue #31: a file nested tens of thousands of levels deep overflowed the stack of whichever
/// reader took it (the block reader, Yams, the tree's conversion and destruction) and killed the
/// process. Every reader now refuses it, before building a tree, with an error on its line.
@Suite struct NestingLimitTests {
    /// `NestingLimit.maximumDepth`.
    static let limit = 100

    /// The one error a deep text gets, on `line`.
    func expectRefused(_ text: String, line: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let (node, problems) = YAMLSource.parse(Data(text.utf8), path: "corpus/english-a1/run.yaml")
        #expect(node == nil, sourceLocation: sourceLocation)
        #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
        #expect(problems.first?.severity == .error, sourceLocation: sourceLocation)
        #expect(problems.first?.line == line, "\(problems)", sourceLocation: sourceLocation)
        #expect(
            problems.first?.message.contains("nest more than \(Self.limit) levels deep") == true, "\(problems)",
            sourceLocation: sourceLocation)
    }

    func expectRead(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (node, problems) = YAMLSource.parse(Data(text.utf8), path: "corpus/english-a1/run.yaml")
        #expect(node != nil, "\(problems)", sourceLocation: sourceLocation)
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
    }

    static func brackets(_ depth: Int, open: String = "[", close: String = "]") -> String {
        String(repeating: open, count: depth) + String(repeating: close, count: depth)
    }

    @Test func fortyThousandUnclosedBracketsAreAnErrorOnTheirLine() {
        // The issue's 80 KB file: Yams's turn, after the block reader declines it.
        expectRefused("word: run\npos: verb\ntranslation: " + String(repeating: "[", count: 40_000) + "\n", line: 3)
    }

    @Test func fortyThousandClosedBracketsAreAnErrorOnTheirLine() {
        // Well-formed: the block reader would read this one itself.
        expectRefused("word: run\ntranslation: " + Self.brackets(40_000) + "\n", line: 2)
        expectRefused("word: run\ntranslation: " + Self.brackets(40_000, open: "{a: ", close: "}") + "\n", line: 2)
    }

    @Test func deepNestingThatOnlyYamsReadsIsAnErrorOnItsLine() {
        // A comment, a block sequence written `- - -`, a multi-line flow collection: the
        // block reader declines all of these, so the check before Yams must count them.
        expectRefused("# a comment\nword: run\ntranslation: " + Self.brackets(40_000) + "\n", line: 3)
        expectRefused("word: run\nforms:\n" + String(repeating: "- ", count: 40_000) + "x\n", line: 3)
        expectRefused("word: run\nforms: " + String(repeating: "[\n", count: 40_000), line: 1 + Self.limit)
        var indented = "word: run\n"
        for level in 0..<(Self.limit + 5) { indented += String(repeating: " ", count: level) + "k\(level):\n" }
        expectRefused(indented + String(repeating: " ", count: Self.limit + 5) + "x\n", line: 2 + Self.limit)
    }

    @Test func theLimitItselfIsRead() {
        let atLimit = Self.limit - 1  // the root mapping is one level
        expectRead("word: run\ntranslation: " + Self.brackets(atLimit) + "\n")
        expectRead("# read by Yams\nword: run\ntranslation: " + Self.brackets(atLimit) + "\n")
        expectRefused("word: run\ntranslation: " + Self.brackets(atLimit + 1) + "\n", line: 2)
        expectRefused("# read by Yams\nword: run\ntranslation: " + Self.brackets(atLimit + 1) + "\n", line: 3)
        #expect(BlockYAMLReader.parse("word: run\ntranslation: " + Self.brackets(atLimit) + "\n") != nil)
        #expect(BlockYAMLReader.parse("word: run\ntranslation: " + Self.brackets(atLimit + 1) + "\n") == nil)
    }

    @Test func deepJSONIsAnErrorWithItsPlace() throws {
        guard case let .failure(problem) = JSONValue.parse(Data(("{\"a\":\n " + Self.brackets(40_000)).utf8)) else {
            Issue.record("deep JSON was read")
            return
        }
        #expect(problem.message.contains("nest more than \(Self.limit) levels deep"), "\(problem)")
        #expect(problem.line == 2)
        #expect(problem.column == Self.limit + 1)
        #expect(try JSONValue.parse(Data(Self.brackets(Self.limit).utf8)).get() != .null)
        #expect(
            try JSONValue.parse(Data("[\"[[[[\\\"[[\"]".utf8)).get() == .array([.string("[[[[\"[[")]),
            "brackets in strings")
    }
}
