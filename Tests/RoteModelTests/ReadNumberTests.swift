import Foundation
import Testing

@testable import RoteModel

/// Numbers read from files that no integer can hold — `.nan`, `.inf`, `1e300` — are refused
/// with the file's line, or bounded before a conversion, never a trap (issue #31, item 2).
@Suite struct ReadNumberTests {
    @Test func aMemoryStateOfNaNOrInfinityIsAnErrorOnItsLine() throws {
        for value in [".nan", ".inf", "-.inf"] {
            let text = """
                entry: english-a1/run
                status: active
                state:
                  phase: review
                  stability: \(value)
                  due: 2026-01-01T00:00:00Z
                """
            let (_, problems) = ProgressFile.decode(text, path: "profiles/demo/progress/english-a1/run.yaml")
            let problem = try #require(problems.first { $0.message.contains("stability") }, "\(value)")
            #expect(problem.message.contains("must be a finite number"), "\(problem)")
            #expect(problem.line == 5, "\(problem)")
        }
    }

    @Test func aTimestampOfADatePastAnyYearIsWrittenNotATrap() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -1e300)) == "0000-01-01T00:00:00Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: .nan)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_800_000_000)) == "2027-01-15T08:00:00Z")
    }
}
