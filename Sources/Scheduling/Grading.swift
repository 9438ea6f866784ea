package import RoteModel

/// One answer to one of an entry's questions in a session.
package struct Answer: Sendable, Hashable {
    /// Whether the answer was right, as the exercise judged it.
    package var correct: Bool
    /// For a typed answer, how close it was to the expected text, 0…1 (1 = exact); nil when
    /// nothing was typed (multiple choice, tracing).
    package var similarity: Double?
    /// Response time divided by the learner's own median response time (1 = typical for this
    /// learner, 0.5 = twice as fast); nil when not measured.
    package var relativeLatency: Double?

    package init(correct: Bool, similarity: Double? = nil, relativeLatency: Double? = nil) {
        self.correct = correct
        self.similarity = similarity
        self.relativeLatency = relativeLatency
    }

    /// An answer timed in milliseconds against the learner's median; a median of 0 or less
    /// leaves latency unknown.
    package init(correct: Bool, similarity: Double? = nil, milliseconds: Int, medianMilliseconds: Int) {
        self.init(
            correct: correct, similarity: similarity,
            relativeLatency: medianMilliseconds > 0 ? Double(milliseconds) / Double(medianMilliseconds) : nil)
    }
}

/// The named thresholds grading uses.
package struct GradingThresholds: Sendable, Hashable {
    /// Faster than this fraction of the learner's median is *fast* (strictly under).
    package var fastLatency: Double
    /// Slower than this multiple of the learner's median is *slow* (strictly over).
    package var slowLatency: Double
    /// A typed answer less similar than this is *imprecise* (strictly under).
    package var minimumSimilarity: Double

    package init(fastLatency: Double = 0.6, slowLatency: Double = 2.0, minimumSimilarity: Double = 0.9) {
        self.fastLatency = fastLatency
        self.slowLatency = slowLatency
        self.minimumSimilarity = minimumSimilarity
    }

    /// fast < 0.6× median, slow > 2× median, imprecise < 0.9 similarity.
    package static let `default` = GradingThresholds()
}

/// Turns what happened in a session into a grade, by the seeds' rule: a wrong answer is always
/// `again`; latency and similarity only move a correct answer between hard, good and easy.
///
/// For all the answers to one entry's questions in a session:
/// 1. any wrong answer → `again`;
/// 2. else any answer *slow* (over 2× the learner's median) or *imprecise* (typed with
///    similarity under 0.9) → `hard`;
/// 3. else every answer *fast* (timed, under 0.6× the median) and *exact* (similarity 1, or
///    not typed) → `easy`;
/// 4. else → `good`.
///
/// Latency is relative to the learner's own median so a slow typist is not graded down for
/// being themselves; an answer without timing is neither fast nor slow.
package enum Grading {
    /// The grade for one entry's answers in a session; nil when there were none.
    package static func grade(_ answers: some Collection<Answer>, thresholds: GradingThresholds = .default) -> Grade? {
        guard !answers.isEmpty else { return nil }
        if answers.contains(where: { !$0.correct }) { return .again }
        if answers.contains(where: { isSlow($0, thresholds) || isImprecise($0, thresholds) }) { return .hard }
        if answers.allSatisfy({ isFast($0, thresholds) && isExact($0) }) { return .easy }
        return .good
    }

    static func isSlow(_ answer: Answer, _ thresholds: GradingThresholds) -> Bool {
        answer.relativeLatency.map { $0 > thresholds.slowLatency } ?? false
    }

    static func isFast(_ answer: Answer, _ thresholds: GradingThresholds) -> Bool {
        answer.relativeLatency.map { $0 < thresholds.fastLatency } ?? false
    }

    static func isImprecise(_ answer: Answer, _ thresholds: GradingThresholds) -> Bool {
        answer.similarity.map { $0 < thresholds.minimumSimilarity } ?? false
    }

    static func isExact(_ answer: Answer) -> Bool {
        answer.similarity.map { $0 >= 1 } ?? true
    }
}
