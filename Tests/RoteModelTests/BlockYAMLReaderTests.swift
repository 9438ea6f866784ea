import Foundation
import TestSupport
import Testing
import Yams

@testable import RoteModel

/// The block reader is a shortcut past libyaml, so on any text it must either give up (nil)
/// or build the very tree `Yams.compose` builds: same strings, resolved tags, scalar styles,
/// and line and column of every node (diagnostics name lines from them).
@Suite struct BlockYAMLReaderTests {
    static func yams(_ text: String) -> Node? { try? Yams.compose(yaml: text) }

    /// Every YAML file in the starter decks and the demo profile.
    static let starterFiles: [String] = {
        let root = Checkout.root
        var texts: [String] = []
        for folder in ["corpus", "profiles"] {
            let walker = FileManager.default.enumerator(
                at: root.appending(path: folder), includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "yaml", let text = try? String(contentsOf: url, encoding: .utf8) {
                    texts.append(text)
                }
            }
        }
        return texts.sorted()
    }()

    @Test func readsEveryStarterFileExactlyAsYamsDoes() throws {
        #expect(Self.starterFiles.count > 400)
        var read = 0
        for text in Self.starterFiles {
            guard let fast = BlockYAMLReader.parse(text) else { continue }
            read += 1
            let reference = try #require(Self.yams(text), "\(text)")
            #expect(BlockYAMLReader.describe(fast) == BlockYAMLReader.describe(reference), "\(text)")
        }
        // Rote writes these files, so nearly all of them take the short way.
        #expect(read * 10 >= Self.starterFiles.count * 9, "only \(read) of \(Self.starterFiles.count) read")
    }

    /// One to three small edits to a file: mostly harmless characters (a changed letter or
    /// digit keeps a file readable), some YAML indicators, a few that only Yams may judge,
    /// and duplicated lines, as a bad merge or a paste would leave.
    static func mutate(_ source: String, _ random: inout SeededGenerator) -> String {
        let alphabet = Array("aZ05 .-_/ aZ05 .-_/ :#\"'{}[],-.\n\t0a!&*|>~?%@`\\\u{0661}").map(String.init)
        var text = Array(source)
        for _ in 0..<(1 + Int(random.next() % 3)) {
            let position = Int(random.next() % UInt64(text.count + 1))
            let piece = alphabet[Int(random.next() % UInt64(alphabet.count))]
            switch random.next() % 4 {
            case 0: text.insert(contentsOf: piece, at: position)
            case 1: if position < text.count { text.remove(at: position) }
            case 2: if position < text.count { text[position] = Character(piece) }
            default:
                let lines = String(text).split(separator: "\n", omittingEmptySubsequences: false)
                let line = Int(random.next() % UInt64(lines.count))
                text = Array((lines[...line] + [lines[line]] + lines[(line + 1)...]).joined(separator: "\n"))
            }
        }
        return String(text)
    }

    @Test func mutatedFilesReadExactlyAsYamsDoesOrNotAtAll() {
        var random = SeededGenerator(seed: 11)
        var accepted = 0
        var disagreements = 0
        let sources = Self.starterFiles.filter { $0.utf8.count < 3_000 }
        for round in 0..<4_000 {
            let mutated = Self.mutate(sources[Int(random.next() % UInt64(sources.count))], &random)
            guard let fast = BlockYAMLReader.parse(mutated) else { continue }
            accepted += 1
            guard let reference = Self.yams(mutated) else {
                disagreements += 1
                Issue.record("round \(round): the block reader read a file Yams refuses:\n\(mutated)")
                continue
            }
            if BlockYAMLReader.describe(fast) != BlockYAMLReader.describe(reference) {
                disagreements += 1
                Issue.record(
                    "round \(round): trees differ:\n\(mutated)\n\(zip(BlockYAMLReader.describe(fast), BlockYAMLReader.describe(reference)).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "lengths differ")"
                )
            }
            if disagreements > 5 { break }
        }
        #expect(accepted > 500, "most mutations keep a file readable")
    }

    @Test func givesUpOnWhatOnlyYamsUnderstands() {
        let plain = "word: run\nforms: {base: run, past: ran}\nexamples:\n  - en: \"I {run}.\"\n    primary: true\n"
        #expect(BlockYAMLReader.parse(plain) != nil)
        for variant in [
            "word: run # a comment\n", "word: &a run\nother: *a\n", "word: !!str run\n", "word: |\n  run\n",
            "word: run\n  on the next line\n", "---\nword: run\n", "word: \"run\n  away\"\n", "word:\tx\n",
            "word: run\nword: go\n", "word:\n", "- run\n", "run\n", "{word: run}\n", "word: [a, [b]]x\n",
            "<<<<<<< ours\nword: run\n=======\nword: go\n>>>>>>> theirs\n",
        ] {
            #expect(BlockYAMLReader.parse(variant) == nil, "\(variant)")
        }
    }

    /// The headline reads null and integers without asking Yams for the common spellings;
    /// every spelling, common or not, must get Yams's answer.
    @Test func nullsAndIntegersAsYamsReadsThem() {
        let spellings = [
            "", "~", "null", "Null", "NULL", "nULL", "nul", "none", "0", "7", "007", "-3", "+7", "1_000", "0x1F",
            "0o17", "0b101",
            "1:30", "7.0", "12a", "93964", "999999999999999999", "9999999999999999999", "123456789012345678901", "١٢",
            " 7",
        ]
        for text in spellings {
            for style in [Node.Scalar.Style.plain, .singleQuoted, .doubleQuoted] {
                let yams = BlockYAMLReader.yamsScalar(text, style: style)
                #expect(BlockYAMLReader.isNull(text, style: style) == (yams.null != nil), "\(text) \(style)")
                #expect(BlockYAMLReader.int(text, style: style) == yams.int, "\(text) \(style)")
            }
        }
    }
}
