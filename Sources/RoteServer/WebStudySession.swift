import Foundation
import RoteLibrary
import RoteModel
import Study

/// A study session in the browser: `StudyStart`'s runner — the one `rote study` uses — on a
/// thread of its own, talking through a `WebConsole`. It writes each answer to its progress
/// file as it is given and ends in the same single commit; stopping it (the learner's q, the
/// server's Ctrl-C) saves it as the end of input saves `rote study`.
final class WebStudySession: @unchecked Sendable {
    let console = WebConsole()
    private let start: StudyStart
    private let runner: StudySessionRunner
    private let done = DispatchSemaphore(value: 0)
    /// The entries the session started with.
    let planned: Int

    init(start: StudyStart, typed: Bool?) throws {
        self.start = start
        runner = try start.runner(console: console, typed: typed)
        console.runner = runner
        planned = start.plan.due.count + start.plan.new.count
    }

    func begin() {
        let thread = Thread { [self] in
            var summary: String?
            var failure: String?
            do {
                if let session = try runner.run(plan: start.plan) {
                    summary = StudySummary.render(
                        session, nextDue: runner.nextDue(), now: Date(), statusChanges: runner.statusChanges.count)
                } else {
                    summary = "Nothing answered; nothing saved."
                }
            } catch {
                failure = WebError.from(error).message
            }
            // The library is let go before the page hears the session is over, so its next
            // write does not find the lock still held.
            start.close()
            console.finish(summary: summary, error: failure)
            done.signal()
        }
        // The runner's exercises recurse a little; a thread's default stack is small on Linux.
        thread.stackSize = 8 << 20
        thread.name = "rote study session"
        thread.start()
    }

    var isFinished: Bool { console.current.finished }

    /// Stops the session and waits until it is saved and committed.
    func stopAndWait() {
        console.stop()
        done.wait()
        done.signal()
    }
}
