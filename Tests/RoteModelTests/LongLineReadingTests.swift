import Foundation
import Testing
import Yams

@testable import RoteModel

/// Issue #31: a letter attempt is one line, and a drawing of 32 000 points made reading its
/// file take seconds, as each node's column was counted from the start of the line.
@Suite struct LongLineReadingTests {
    static func attempts(points: Int) -> String {
        let drawing = (0..<points).map { "[\($0 % 97), \($0 % 89).5, \($0)]" }.joined(separator: ", ")
        return """
            letter: alphabet/a
            attempts:
              - {id: a1, mode: memory, score: 86, stroke_order: 90, direction: 80, shape: 85, start: 90, tips: [start-top-right], hint_used: false, started_at: 2026-11-21T10:00:00Z, completed_at: 2026-11-21T10:00:05Z, duration_ms: 5200, drawing: [[\(drawing)]]}

            """
    }

    @Test func marksOnALongLineAreYamsMarks() throws {
        let text = Self.attempts(points: 2_000)
        let fast = try #require(BlockYAMLReader.parse(text))
        let reference = try #require(try Yams.compose(yaml: text))
        #expect(BlockYAMLReader.describe(fast) == BlockYAMLReader.describe(reference))
    }

    /// Quadratic, the 32 000-point attempt made `check` take 19.6 s in a release build and
    /// did not finish in 900 s in a debug one; read in one pass it takes about a second. No time
    /// limit: the suite runs tests side by side, so its times say nothing (`make bench` measures).
    @Test func aDrawingOfThirtyTwoThousandPointsIsReadInOnePass() throws {
        let points = 32_000
        let (file, problems) = LetterAttemptsFile.decode(Self.attempts(points: points), path: "a.yaml")
        let drawing = try #require(file?.attempts.first?.drawing.first)
        #expect(drawing.count == points)
        #expect(
            drawing.last
                == LetterAttempt.Point(
                    x: Double((points - 1) % 97), y: Double((points - 1) % 89) + 0.5, t: Double(points - 1)))
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.severity == .warning)
        #expect(problems.first?.message.contains("has \(points) points, more than the 5000") == true, "\(problems)")
    }
}
