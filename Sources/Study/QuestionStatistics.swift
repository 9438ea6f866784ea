import Foundation
public import RoteModel

/// How a question has fared (seed 000's `times_used` and `avg_success_rate`): derived from the
/// attempts that session files keep, each time it is asked for, and never stored.
///
/// A question is an entry and the question's id within it (`english-a1/run` + `q2`); a
/// skills question is its own entry (`math/algebra/linear_equations/one_step` + `mcq_single`).
public struct QuestionStatistics: Sendable, Equatable {
    public var entry: String
    public var question: String
    /// Attempts at it, by every learner whose sessions were counted.
    public var timesUsed: Int
    /// Of those, answered right.
    public var correct: Int

    /// Right answers ÷ attempts, 0…1; nil when never used.
    public var averageSuccessRate: Double? { timesUsed == 0 ? nil : Double(correct) / Double(timesUsed) }

    public init(entry: String, question: String, timesUsed: Int = 0, correct: Int = 0) {
        self.entry = entry
        self.question = question
        self.timesUsed = timesUsed
        self.correct = correct
    }

    /// Every question attempted in `sessions` that `include` admits (by entry id), keyed by
    /// entry then question.
    public static func tally(_ sessions: some Sequence<SessionFile>, include: (String) -> Bool = { _ in true })
        -> [String: [String: QuestionStatistics]]
    {
        var table: [String: [String: QuestionStatistics]] = [:]
        for session in sessions {
            for attempt in session.answers where include(attempt.entry) {
                var statistics =
                    table[attempt.entry]?[attempt.question]
                    ?? QuestionStatistics(entry: attempt.entry, question: attempt.question)
                statistics.timesUsed += 1
                if attempt.correct { statistics.correct += 1 }
                table[attempt.entry, default: [:]][attempt.question] = statistics
            }
        }
        return table
    }

    /// The questions an author should look at first: lowest success rate, then most used,
    /// then by id; only those used at least `minimumUses` times.
    public static func worst(_ table: [String: [String: QuestionStatistics]], minimumUses: Int = 1)
        -> [QuestionStatistics]
    {
        table.values.flatMap(\.values).filter { $0.timesUsed >= minimumUses }.sorted {
            let left = $0.averageSuccessRate ?? 1
            let right = $1.averageSuccessRate ?? 1
            if left != right { return left < right }
            if $0.timesUsed != $1.timesUsed { return $0.timesUsed > $1.timesUsed }
            return ($0.entry, $0.question) < ($1.entry, $1.question)
        }
    }

    /// `used 12 times · 75% right` (`never used` before the first attempt).
    public var summary: String {
        guard let rate = averageSuccessRate else { return "never used" }
        return "used \(timesUsed) time\(timesUsed == 1 ? "" : "s") · \(Int((rate * 100).rounded()))% right"
    }
}
