import Foundation
import RoteModel
import Scheduling

/// Files the tests read, found from this source file's path so `swift test` works from any
/// directory.
enum TestFiles {
    /// The package root: two folders above `Tests/SchedulingTests/`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The py-fsrs 6.3.2 reference vectors, copied into the repository (see the README beside them).
    static let fsrsVectors = packageRoot.appendingPathComponent(
        "Tests/SchedulingTests/Fixtures/fsrs/fsrs6-vectors.jsonl")
}

/// 2026-01-01T00:00:00Z, the start of every hand-built history.
let t0 = Timestamp.parse("2026-01-01T00:00:00Z")!
let minute: TimeInterval = 60
let day: TimeInterval = 86_400

/// A review `offset` seconds after `t0`.
func review(_ id: String, _ offset: TimeInterval, _ grade: Grade) -> ReviewEvent {
    ReviewEvent(id: id, at: t0 + offset, grade: grade)
}

/// Reviews one per `spacing` from `t0`, ids r0, r1, ….
func reviews(_ grades: [Grade], every spacing: TimeInterval) -> [ReviewEvent] {
    grades.enumerated().map { index, grade in review("r\(index)", Double(index) * spacing, grade) }
}

func relativeError(_ actual: Double?, _ expected: Double) -> Double {
    guard let actual else { return .infinity }
    return abs(actual - expected) / max(abs(expected), .leastNormalMagnitude)
}

extension SchedulerSettings {
    /// Defaults with fuzz off: the settings hand-checked cases use.
    static let unfuzzed = SchedulerSettings.default.withFuzzing(false)
    static let sm2Unfuzzed = try! SchedulerSettings(scheduler: .sm2, enableFuzzing: false)
}
