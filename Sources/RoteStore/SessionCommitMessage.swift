import Foundation
package import RoteModel

/// The commit message of one study session, readable in `git log --oneline`:
///
///     Study: 24 reviews (3 again, 5 hard, 14 good, 2 easy), 6 new — english-a1, kjv · 14 min
///
///     Rote-Session: 0f5313ad-17cb-4db7-8b73-c903620b64dc
///     Rote-Device: laptop-3f2a
///     Rote-User: ana
///
/// The trailers let `rote log` rebuild the session list from history alone.
package enum SessionCommitMessage {
    package static let sessionTrailer = "Rote-Session"
    package static let deviceTrailer = "Rote-Device"
    package static let userTrailer = "Rote-User"
    package static let recoveredTrailer = "Rote-Recovered"
    package static let erasureTrailer = "Rote-Erasure"
    /// Beside `Rote-Erasure`: what of the learner was erased; absent for all of it (`rote forget`).
    package static let erasureScopeTrailer = "Rote-Erasure-Scope"
    /// The scope of `rote consent withdraw`: the learner's passage practice.
    package static let passagesScope = "passages"
    /// `rote undo`'s commit: the id of the commit it took back.
    package static let undoTrailer = "Rote-Undo"

    package static func make(for session: SessionFile, recovered: Bool = false) -> CommitMessage {
        let reviews = session.reviews
        var summary =
            "Study: \(reviews) review\(reviews == 1 ? "" : "s") (\(session.again) again, \(session.hard) hard, \(session.good) good, \(session.easy) easy)"
        if session.new > 0 { summary += ", \(session.new) new" }
        let passages = session.passagesPractised
        if passages > 0 { summary += ", \(passages) passage\(passages == 1 ? "" : "s") practised" }
        if !session.decks.isEmpty { summary += " — " + session.decks.joined(separator: ", ") }
        if let end = session.endedAt {
            let minutes = Int((end.timeIntervalSince(session.startedAt) / 60).rounded())
            summary += minutes < 1 ? " · <1 min" : " · \(minutes) min"
        }
        var trailers = [CommitMessage.Trailer(sessionTrailer, session.id)]
        if recovered { trailers.append(.init(recoveredTrailer, "yes")) }
        return CommitMessage(
            subject: summary,
            body: recovered
                ? "Recovered after an interrupted session: every answer given before the interruption is kept." : "",
            trailers: trailers)
    }

    /// The value of a `Key: value` trailer in a commit message, if present.
    package static func trailer(_ key: String, in message: String) -> String? {
        for line in message.split(separator: "\n").reversed() where line.hasPrefix(key + ": ") {
            return String(line.dropFirst(key.count + 2)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
