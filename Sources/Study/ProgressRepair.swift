package import Foundation
package import RoteModel
import RoteStore
package import Scheduling

/// `rote check --repair`: rebuilds a progress file that does not read from the lines of it
/// that still do. Rote never does this on its own (`ReadBeforeRewrite`): a learner asks for
/// it, sees what was kept and what was not, and the file's old text stays in git's history
/// (and, when it was never committed, in `.git/rote/repaired/`).
///
/// The salvage reads the file line by line, as the canonical writer lays it out: each review
/// is one flow mapping on its own line, and `status`, `status_at`, `reset_at` and `ladder` are
/// one line each. Every line is read on its own, so one damaged line — a typo, a grade Rote
/// does not know, conflict markers from a merge — costs only itself. Reviews that appear twice
/// (both sides of a conflict) are kept once; `state` is replayed, never trusted.
package enum ProgressRepair {
    package struct Outcome: Sendable {
        package var file: ProgressFile
        /// Reviews kept.
        package var reviews: Int
        /// 1-based line numbers and text of the lines that held something and could not be read.
        package var dropped: [(line: Int, text: String)]
    }

    /// Keys whose one-line values are carried over when they read.
    static let singleLineKeys = ["status", "status_at", "reset_at", "ladder"]

    /// The file rebuilt from `data`, for `entry` (which the path names).
    package static func salvage(_ data: Data, path: String, entry: String, settings: SchedulerSettings) -> Outcome {
        let text = String(decoding: data, as: UTF8.self)
        var file = ProgressFile(entry: entry)
        var seen = Set<String>()
        var dropped: [(Int, String)] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line == "reviews:" || line == "reviews: []" { continue }
            if line.hasPrefix("entry:") || line.hasPrefix("state:") { continue }
            if line.hasPrefix("- ") {
                let probe = "entry: \(entry)\nreviews:\n  \(line)\n"
                let (value, problems) = ProgressFile.decode(probe, path: path)
                if let review = value?.reviews.first, value?.reviews.count == 1,
                    !problems.contains(where: { $0.severity == .error }),
                    !Timestamp.isTooFarAhead(review.at)
                {
                    if seen.insert(review.id).inserted { file.reviews.append(review) }
                    continue
                }
            } else if let key = singleLineKeys.first(where: { line.hasPrefix($0 + ":") }) {
                let (value, problems) = ProgressFile.decode("entry: \(entry)\n\(line)\n", path: path)
                if let value, problems.isEmpty {
                    switch key {
                    case "status": file.status = value.status
                    case "status_at": file.statusAt = value.statusAt
                    case "reset_at": file.resetAt = value.resetAt
                    default: file.ladder = value.ladder
                    }
                    continue
                }
            }
            dropped.append((number + 1, String(raw)))
        }
        file.reviews.sort(by: ReviewEvent.replayOrder)
        file.state =
            file.scheduledReviews.isEmpty
            ? nil : Scheduler.replay(file.scheduledReviews, entryID: entry, settings: settings)
        return Outcome(file: file, reviews: file.reviews.count, dropped: dropped)
    }
}
