import Foundation
import Testing
import Yams

@testable import RoteModel

/// Inputs the `yaml-block` and `progress-reader` fuzz targets (Fuzz/README.md) found where a
/// fast reader disagreed with its reference. Each reader must give up (and leave the file to
/// Yams) or give Yams's answer.
@Suite struct FuzzRegressionTests {
    static func agreesWithYams(_ text: String) -> Bool {
        guard let fast = BlockYAMLReader.parse(text) else { return true }
        guard let reference = try? Yams.compose(yaml: text) else { return false }
        return BlockYAMLReader.describe(fast) == BlockYAMLReader.describe(reference)
    }

    @Test(arguments: [
        // A control character in a comment: libyaml's reader refuses the whole text.
        "glyph: latin-small-a\n# the bowl\u{01} anticlockwise\norder: 1\n",
        // A carriage return ends a comment for libyaml; the rest of the line is a key.
        "a: 1\n# note\rb: 2\n",
        // NEL and the line separator are line breaks to libyaml.
        "a: 1\n# note\u{85}b: 2\n", "a: 1\n# note\u{2028}b: 2\n",
        // A space after `[`: YAML skips it; read as part of the scalar it made " 72".
        "strokes:\n  - [[68, 46], [ 72]]\n", "tips: [ a, b]\n",
        // `\u` takes four hex digits, never a sign.
        "ps: \"o\\u+aee?\"\n", "ps: \"\\u-123\"\n",
    ])
    func theBlockReaderGivesUpOrAgreesWithYams(_ text: String) {
        #expect(Self.agreesWithYams(text), "\(text.debugDescription)")
    }

    @Test func theCanonicalProgressReaderLeavesMinusZeroToYams() {
        let text =
            "entry: words/run\nstatus: active\nstate: {phase: review, stability: 3.2, difficulty: 5.1, due: 2026-11-05T09:00:00Z, reps: 2, lapses: -0}\nreviews:\n  - {id: a1, at: 2026-11-01T09:00:00Z, grade: good}\n"
        #expect(ProgressFile.decodeCanonical(Data(text.utf8)) == nil)
        let plain = text.replacingOccurrences(of: "lapses: -0", with: "lapses: 0")
        #expect(ProgressFile.decodeCanonical(Data(plain.utf8)) != nil, "the canonical form itself still reads")
    }
}
