import Foundation
import Git
import RoteLibrary
import RoteModel
import Study
import StudyData
import TestSupport
import Testing

@testable import Launch
@testable import RoteStore

/// A console that answers every question with the same reply and keeps what was shown.
final class TranscriptConsole: StudyConsole {
    var transcript: [String] = []
    var replies: Int
    let isInteractive = false

    init(replies: Int) { self.replies = replies }

    func beginCard(done: Int, planned: Int, title: String) { transcript.append("[\(done)/\(planned)] \(title)") }
    func show(_ text: String, style: TextStyle) { transcript.append(text) }
    func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply? {
        transcript.append("? \(prompt)")
        guard replies > 0 else { return nil }
        replies -= 1
        // Alternate right-ish and wrong-ish answers so cards come back within the session.
        return ConsoleReply.parse(line: replies % 3 == 0 ? "2" : "1")
    }
}

@Suite struct LaunchStudySourceTests {
    /// A clock that moves a second each time it is read, so reviews in one session keep
    /// their order (two at the same instant would be ordered by their random ids).
    final class TickingClock: @unchecked Sendable {
        var now: Date
        init(_ start: Date) { now = start }
        func tick() -> Date {
            now += 1
            return now
        }
    }

    /// The same session, with the same seed, answers and clock, over the parsed library and
    /// over the launch index: every card, question, option and verdict must be the same.
    @Test func aSessionOverTheIndexShowsExactlyWhatTheParsedLibraryShows() async throws {
        let start = Timestamp.parse("2026-11-21T10:00:00Z")!
        var transcripts: [[String]] = []
        for useIndex in [false, true] {
            let now = start
            let clock = TickingClock(start)
            let directory = await StarterLibrary.copy()
            let root = directory.url
            let git = try LibraryTransaction(root: root, user: "demo", purpose: "study", mode: .session)
            let console = TranscriptConsole(replies: 60)
            let source: any StudySource
            let plan: SessionPlan
            let limits = SessionPlanner.Limits(reviewsPerDay: 12, newPerDay: 6)
            if useIndex {
                let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
                plan = launch.planner().plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc)
                source = LaunchStudySource(launch)
            } else {
                let library = try LibraryLoader(users: .all, includeSessions: false).load(root)
                let index = LibraryIndex(library: library, user: "demo")
                plan = SessionPlanner(library: library, index: index).plan(
                    limits: limits, now: now, timeZone: LaunchIndexTests.utc)
                source = LoadedStudySource(library: library, index: index)
            }
            #expect(!plan.isEmpty)
            let session = try StudySession(
                root: root, user: "demo", source: source, git: git, plan: plan, now: clock.tick(), seed: 7)
            _ = try StudyConsoleDriver(console: console, now: clock.tick).run(session)
            // Intervals are fuzzed from each review's random id: compare grades, not intervals.
            transcripts.append(
                console.transcript.map { line in
                    line.range(of: " · next").map { String(line[..<$0.lowerBound]) } ?? line
                })
        }
        #expect(transcripts[0].count > 20, "the session showed cards")
        let first = zip(transcripts[0], transcripts[1]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            first == nil && transcripts[0].count == transcripts[1].count,
            "first difference at line \(first ?? -1): \(first.map { transcripts[0][$0] } ?? "") / \(first.map { transcripts[1][$0] } ?? "")"
        )
    }
}
