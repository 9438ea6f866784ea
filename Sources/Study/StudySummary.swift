package import Foundation
package import RoteModel

/// The end-of-session summary: reviews per grade, accuracy, time, and when the next card is due.
package enum StudySummary {
    package static func render(_ session: SessionFile, nextDue: Date?, now: Date, statusChanges: Int = 0) -> String {
        let reviews = session.reviews
        let answers = session.answers
        let correct = answers.filter(\.correct).count
        let accuracy = answers.isEmpty ? "—" : "\(Int((Double(correct) / Double(answers.count) * 100).rounded()))%"
        let passages = session.passagesPractised
        let seconds = Int((session.endedAt ?? now).timeIntervalSince(session.startedAt).rounded())
        var lines = [
            "Session saved: \(reviews) review\(reviews == 1 ? "" : "s") (\(session.again) again, \(session.hard) hard, \(session.good) good, \(session.easy) easy), \(session.new) new\(passages > 0 ? ", \(passages) passage\(passages == 1 ? "" : "s") practised" : ""); \(correct)/\(answers.count) answers right.",
            "accuracy \(accuracy) · time \(seconds / 60)m \(String(format: "%02d", seconds % 60))s"
                + (nextDue.map { " · next due \(relative($0, from: now))" } ?? ""),
        ]
        if statusChanges > 0 {
            lines.append("\(statusChanges) entr\(statusChanges == 1 ? "y" : "ies") suspended or ignored.")
        }
        return lines.joined(separator: "\n")
    }

    /// `now`, `in 10 min`, `in 3 h`, `in 4 days`.
    package static func relative(_ date: Date, from now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        if seconds <= 60 { return "now" }
        if seconds < 3600 { return "in \(Int((seconds / 60).rounded())) min" }
        if seconds < 86400 { return "in \(Int((seconds / 3600).rounded())) h" }
        let days = Int((seconds / 86400).rounded())
        return "in \(days) day\(days == 1 ? "" : "s")"
    }
}
