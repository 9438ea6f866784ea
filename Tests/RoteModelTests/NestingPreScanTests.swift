import Foundation
import Testing
import Yams

@testable import RoteModel

/// The count `YAMLSource` makes before handing a text to Yams (`NestingLimit.lineTooDeep`):
/// never fewer levels than Yams builds, and none where real text only looks deep.
@Suite struct NestingPreScanTests {
    static let limit = NestingLimit.maximumDepth

    static func brackets(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static func flagged(_ text: String) -> Bool {
        var bytes = text
        return bytes.withUTF8 { NestingLimit.lineTooDeep(yaml: $0) } != nil
    }

    /// The count before Yams may only err high, and never on real text: brackets in quoted
    /// and plain scalars, comments and block scalars are not nesting.
    @Test func textThatLooksDeepIsNot() {
        let deep = String(repeating: "[", count: 300)
        for text in [
            "word: run\nnote: \"\(deep)\"\n# \(deep)\nusage: see \(deep) # \(deep)\n",
            "word: run\nnote: '\(deep)'\nlist: [a, 'b \(deep)', \"\(deep)\"]\n",
            "word: run\nstory: |\n  \(deep)\n  more \(deep)\nnext: >\n  \(deep)\n",
            "word: run\nplain: a long line\n  continued \(deep)\n",
        ] {
            #expect(YAMLSource.parse(Data(text.utf8), path: "w.yaml").1.isEmpty, "\(text.prefix(40))")
            #expect(!Self.flagged(text), "\(text.prefix(40))")
        }
    }

    @Test func thePreScanNeverCountsLessThanYamsBuilds() throws {
        // Shapes YAML nests by, each read by Yams under the limit and its depth compared with
        // the pre-scan's verdict just over it.
        let shapes: [(String) -> String] = [
            { "a: \($0)\n" },
            { "# c\n- \($0)\n" },
            { "a:\n  b:\n  - - \($0)\n" },
            { "? \($0)\n: x\n" },
            { "\"q\": \($0)\n" },
            { "--- \($0)\n" },
            { "a: &x !!seq \($0)\n" },
        ]
        var compared = 0
        for shape in shapes {
            for inner in [Self.brackets(Self.limit), String(repeating: "- ", count: Self.limit) + "x"] {
                let text = shape(inner)
                if let node = try? Yams.compose(yaml: text), Self.depth(node) > Self.limit {
                    compared += 1
                    #expect(
                        Self.flagged(text),
                        "Yams nests \(Self.depth(node)) levels in \(text.prefix(60).debugDescription)")
                }
            }
        }
        #expect(compared >= 8)
    }

    static func depth(_ node: Node) -> Int {
        switch node {
        case let .sequence(items): 1 + (items.map(depth).max() ?? 0)
        case let .mapping(pairs): 1 + (pairs.map { max(depth($0.key), depth($0.value)) }.max() ?? 0)
        default: 0
        }
    }

    @Test func noStarterFileIsFlagged() {
        #expect(BlockYAMLReaderTests.starterFiles.count > 400)
        for text in BlockYAMLReaderTests.starterFiles { #expect(!Self.flagged(text), "\(text.prefix(60))") }
    }
}
