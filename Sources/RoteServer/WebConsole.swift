import Foundation
import RoteModel
import Study

/// A study session's screen, as the browser draws it: the card, what has been shown on it
/// since, and the question waiting for a reply.
struct SessionScreen: Encodable, Sendable {
    struct Line: Encodable, Sendable {
        var text: String
        var style: String
    }

    struct Prompt: Encodable, Sendable {
        var text: String
        /// choice, order, text, reveal, grade or yes_no.
        var kind: String
        /// How many choices or steps, for choice and order.
        var count: Int?
        /// The grade Enter accepts, for grade.
        var proposed: String?
    }

    var number = 0
    var total = 0
    var title = ""
    var lines: [Line] = []
    var choices: [String] = []
    var prompt: Prompt?
    /// The entry on screen is a passage being recited, so typing can be marked as it goes.
    var recall = false
    /// A letter's stroke template to draw (100×100 box, as in its file), once revealed.
    var letter: [[[Double]]]?
    var finished = false
    /// The end-of-session summary, as `rote study` prints it.
    var summary: String?
    /// Why the session stopped early, when it failed.
    var error: String?
    /// Grows with every change, so a client can tell a new screen from the one it has.
    var version = 0
}

/// The `StudyConsole` of a browser session. `StudySessionRunner` runs on a thread of its own
/// and calls `ask`, which waits until the browser replies (or the session is stopped, which
/// answers nil: stop and save, as the end of input does for `rote study`). HTTP handlers read
/// the screen and wait for the next one with `next(after:)`.
final class WebConsole: StudyConsole, @unchecked Sendable {
    let isInteractive = true
    private let condition = NSCondition()
    private var screen = SessionScreen()
    private var reply: ConsoleReply?
    /// The version of the last screen whose question had its reply: the same screen is not answered twice.
    private var answeredVersion: Int?
    private var stopped = false
    private var waiters: [(after: Int, continuation: CheckedContinuation<SessionScreen, Never>)] = []
    /// The runner, read only on its own thread (inside `ask`), for the entry on screen.
    weak var runner: StudySessionRunner?
    /// The entry on screen when the runner last asked.
    private(set) var entryOnScreen: String? {
        get { condition.withLock { storedEntry } }
        set { condition.withLock { storedEntry = newValue } }
    }
    private var storedEntry: String?

    var current: SessionScreen { condition.withLock { screen } }

    func beginCard(number: Int, total: Int, title: String) {
        update {
            $0.number = number
            $0.total = total
            $0.title = title
            Self.clear(&$0)
        }
    }

    func turnPage() {
        update(Self.clear)
    }

    /// The screen with the card's header alone.
    private static func clear(_ screen: inout SessionScreen) {
        screen.lines = []
        screen.choices = []
        screen.prompt = nil
        screen.letter = nil
    }

    func showLetter(_ letter: LetterEntry) {
        update { $0.letter = letter.strokes.map { $0.map { [$0.x, $0.y] } } }
    }

    func show(_ text: String, style: TextStyle) {
        update { $0.lines.append(.init(text: text, style: "\(style)")) }
    }

    func showChoices(_ choices: [String]) {
        update { $0.choices = choices }
    }

    func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply? {
        let onScreen = runner?.onScreen
        let recall = prompt == StudySessionRunner.recitePrompt || prompt == StudySessionRunner.recallPrompt
        condition.lock()
        storedEntry = onScreen
        reply = nil
        condition.unlock()
        update {
            $0.prompt = Self.prompt(prompt, kind)
            $0.recall = recall
        }
        condition.lock()
        defer { condition.unlock() }
        while reply == nil, !stopped { condition.wait() }
        if stopped { return nil }
        let answer = reply
        reply = nil
        screen.prompt = nil
        if case .answer = answer {
            // The choices stay until the card changes, but an answered question's are spent.
            screen.choices = []
        }
        return answer
    }

    enum Delivery: Equatable {
        case accepted
        /// The screen the reply answers has had its reply, or is no longer the one shown.
        case stale
        /// No question is waiting.
        case notWaiting
    }

    /// Hands the browser's reply to the waiting runner when it answers the screen of `version`,
    /// and only the first reply to that screen. The check and the
    /// handing over are one step under the lock: checked apart, a duplicate reply that passed
    /// the check could arrive after the runner had asked the next question, and answer a card
    /// the learner never saw.
    func answer(_ reply: ConsoleReply, version: Int) -> Delivery {
        condition.lock()
        defer { condition.unlock() }
        if version != screen.version || version == answeredVersion { return .stale }
        guard screen.prompt != nil, !stopped, self.reply == nil else { return .notWaiting }
        self.reply = reply
        answeredVersion = screen.version
        condition.broadcast()
        return .accepted
    }

    /// Stops the session: the waiting question answers nil, and the runner saves and commits.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    func finish(summary: String?, error: String?) {
        update {
            $0.prompt = nil
            $0.finished = true
            $0.summary = summary
            $0.error = error
        }
    }

    /// The first screen newer than `version`: at once when there is one, else when the
    /// runner next asks or finishes.
    func next(after version: Int) async -> SessionScreen {
        await withCheckedContinuation { continuation in
            condition.lock()
            let ready = screen.version > version && (screen.prompt != nil || screen.finished)
            if ready {
                let screen = screen
                condition.unlock()
                continuation.resume(returning: screen)
            } else {
                waiters.append((version, continuation))
                condition.unlock()
            }
        }
    }

    private func update(_ change: (inout SessionScreen) -> Void) {
        condition.lock()
        change(&screen)
        screen.version += 1
        var ready: [CheckedContinuation<SessionScreen, Never>] = []
        if screen.prompt != nil || screen.finished {
            ready = waiters.filter { $0.after < screen.version }.map(\.continuation)
            waiters.removeAll { $0.after < screen.version }
        }
        let snapshot = screen
        condition.unlock()
        for waiter in ready { waiter.resume(returning: snapshot) }
    }

    static func prompt(_ text: String, _ kind: AnswerKind) -> SessionScreen.Prompt {
        switch kind {
        case let .choice(count): .init(text: text, kind: "choice", count: count)
        case let .order(count): .init(text: text, kind: "order", count: count)
        case .text: .init(text: text, kind: "text")
        case .reveal: .init(text: text, kind: "reveal")
        case let .grade(proposed): .init(text: text, kind: "grade", proposed: proposed?.name)
        case .yesNo: .init(text: text, kind: "yes_no")
        }
    }
}
