import Foundation
import Testing
import Yams

@testable import RoteModel

/// Files the block reader declines are read by Yams and its tree converted to Rote's: the
/// conversion must keep every string, style, resolved tag and mark, and what the readers ask
/// of a node (null, a number, a flag) must get Yams's answer.
@Suite struct YAMLNodeTests {
    /// Shapes only Yams reads: comments, anchors and aliases, tags, block scalars, multi-line
    /// scalars, document markers, complex keys, tabs, a top-level list.
    static let yamsOnly = [
        "word: run # a comment\nforms: {base: run, past: ran}\n",
        "word: &a run\nother: *a\nlist: [*a, *a]\n",
        "word: !!str 12\nrank: !!int \"7\"\nflag: !!bool yes\ncustom: !thing x\n",
        "text: |\n  line one\n  line two\nfolded: >\n  a\n  b\n",
        "word: run\n  on the next line\nq: \"run\n  away\"\n",
        "---\nword: run\n...\n",
        "? [a, b]\n: pair\n? {k: v}\n: map\n",
        "word:\trun\n",
        "- run\n- {a: 1}\n- [x, 'y', \"z\"]\n",
        "mixed: [1, 0x1F, 1_000, 1:30, 7.5, .inf, -.inf, .nan, ~, null, '', yes, No, on, OFF, 'yes', \"true\", 2026-11-21]\n",
        "empty:\nnested:\n  deeper:\n    - a\n    -\n    - c\n",
        "=: value key\nother: x\n",
    ]

    @Test func convertsYamsTreesExactly() throws {
        for text in Self.yamsOnly + BlockYAMLReaderTests.starterFiles {
            let reference = try #require(try Yams.compose(yaml: text), "\(text)")
            let converted = try #require(YAMLNode(reference), "\(text)")
            #expect(BlockYAMLReader.describe(converted) == BlockYAMLReader.describe(reference), "\(text)")
        }
    }

    /// Asks both nodes, and every node below them, what the readers ask: text, null, whole
    /// number, flag, number. Returns how many nodes were compared.
    @discardableResult
    static func expectSameAnswers(_ mine: YAMLNode, _ theirs: Node, _ text: String) -> Int {
        let float = mine.float
        let reference = theirs.float
        let same =
            mine.string == theirs.string && mine.isNull == (theirs.null != nil) && mine.int == theirs.int
            && mine.bool == theirs.bool
            && (float == reference || (float?.isNaN == true && reference?.isNaN == true))
        #expect(same, "\(BlockYAMLReader.describe(mine).first ?? "") in \(text)")
        var compared = 1
        switch (mine, theirs) {
        case let (.mapping(a), .mapping(b)):
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) {
                compared += expectSameAnswers(x.key, y.key, text) + expectSameAnswers(x.value, y.value, text)
            }
        case let (.sequence(a), .sequence(b)):
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) { compared += expectSameAnswers(x, y, text) }
        default: break
        }
        return compared
    }

    /// Every node of every shape above, converted, answers as Yams's node does.
    @Test func convertedNodesAnswerAsYamsDoes() throws {
        var compared = 0
        for text in Self.yamsOnly {
            let reference = try #require(try Yams.compose(yaml: text), "\(text)")
            compared += Self.expectSameAnswers(try #require(YAMLNode(reference)), reference, text)
        }
        #expect(compared > 60)
    }

    /// The block reader's nodes answer as Yams's tree of the same text does — quoted
    /// `"yes"` is text on both paths, not a flag.
    @Test func blockReaderNodesAnswerAsYamsDoes() throws {
        let sample =
            "a: 12\nb: '12'\nc: \"yes\"\nd: yes\ne: ~\nf: ''\ng: 7.5\nh: -3\ni: [1, x, \"2\", 'on']\nj: {k: null, l: 0x1F, m: \"true\"}\n"
        var compared = 0
        for text in [sample] + BlockYAMLReaderTests.starterFiles {
            guard let fast = BlockYAMLReader.parse(text) else { continue }
            let reference = try #require(try Yams.compose(yaml: text), "\(text)")
            compared += Self.expectSameAnswers(fast, reference, text)
        }
        #expect(compared > 10_000)
    }

    /// Diagnostics on the Yams path name the same lines as on the block reader's.
    @Test func fallbackDiagnosticsKeepTheirLines() {
        struct Sample: YAMLCodable {
            var count: Int?
            init?(reading reader: inout MappingReader) { count = reader.int("count") }
            var yamlValue: YAMLValue { .map([], flow: false) }
        }
        let fast = "name: x\ncount: many\nextra: 1\n"
        let slow = "name: x # a comment sends this file to Yams\ncount: many\nextra: 1\n"
        #expect(BlockYAMLReader.parse(fast) != nil)
        #expect(BlockYAMLReader.parse(slow) == nil)
        let (_, fastProblems) = Sample.decode(fast, path: "s.yaml")
        let (_, slowProblems) = Sample.decode(slow, path: "s.yaml")
        #expect(fastProblems.map(\.line) == [2, 1, 3])
        #expect(slowProblems == fastProblems)
        #expect(slowProblems.map(\.line) == [2, 1, 3])
    }
}
