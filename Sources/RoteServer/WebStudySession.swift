import Foundation
import RoteLibrary
import RoteModel
import Study

/// A study session in the browser: `StudyStart`'s `StudySession` — the one `rote study`
/// drives — held between requests. Each request applies one action and answers with the next
/// screen; there is no thread and nothing waits. Its answers are written to progress files as
/// they are given and end in the same single commit; stopping it (the learner's q, the
/// server's Ctrl-C) saves it as the end of input saves `rote study`.
final class WebStudySession: @unchecked Sendable {
    private let lock = NSLock()
    private let start: StudyStart
    private let study: StudySession
    /// Grows with every action applied, so a double click cannot answer the next screen.
    private var version = 0

    init(start: StudyStart, typed: Bool?) throws {
        self.start = start
        study = try start.session(typed: typed)
        if study.isFinished { start.close() }
    }

    /// The screen on show, with its version.
    var current: SessionScreen {
        lock.withLock { SessionScreen(version: version, screen: study.screen, practice: study.practice ? true : nil) }
    }

    var isFinished: Bool { lock.withLock { study.isFinished } }

    /// The entry on screen while a passage is recited or recalled, for marking the words typed.
    var recitedEntry: String? {
        lock.withLock {
            guard case let .passage(rung) = study.screen.content, rung.step == .recite || rung.step == .recall
            else { return nil }
            return study.entryOnScreen
        }
    }

    enum Delivery {
        case applied(SessionScreen)
        /// The screen the action answers is no longer the one on show.
        case stale
    }

    /// Applies `action` when it answers the screen of `version` (nil: the one on show). The
    /// check and the action are one step under the lock: a duplicate of an action that passed
    /// the check could otherwise answer a screen the learner never saw.
    func apply(_ action: StudyAction, version answered: Int?, now: Date = Date()) throws -> Delivery {
        try lock.withLock {
            if let answered, answered != version { return .stale }
            guard !study.isFinished else { return .stale }
            try study.apply(action, now: now)
            version += 1
            // The library is let go as soon as the session is over, so the learner's next
            // write does not find the lock still held.
            if study.isFinished { start.close() }
            return .applied(
                SessionScreen(version: version, screen: study.screen, practice: study.practice ? true : nil))
        }
    }

    /// Stops the session, saving and committing what was answered (the server's Ctrl-C).
    func stop() {
        lock.withLock {
            if !study.isFinished {
                _ = try? study.apply(.command(.quit), now: Date())
                version += 1
            }
            start.close()
        }
    }
}

/// A session's screen as the server sends it: the `StudyScreen`'s fields (`docs/web.md`) and
/// the version an action must name.
struct SessionScreen: Encodable, Sendable {
    var version: Int
    var screen: StudyScreen
    /// Set when a session was asked for and there was nothing to study.
    var nothingToStudy: Bool?
    var reviewedToday: Int?
    /// Set on a practice session's screens: its answers do not reschedule.
    var practice: Bool?

    private enum Keys: String, CodingKey { case version, nothingToStudy, reviewedToday, practice }

    func encode(to encoder: any Encoder) throws {
        try screen.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(nothingToStudy, forKey: .nothingToStudy)
        try container.encodeIfPresent(reviewedToday, forKey: .reviewedToday)
        try container.encodeIfPresent(practice, forKey: .practice)
    }
}
