import RoteModel
import Scheduling
import Testing

/// Wrong is always again; latency and similarity move a correct answer between hard, good
/// and easy at the named thresholds (fast < 0.6× median, slow > 2× median, imprecise < 0.9).
@Suite struct GradingTests {
    @Test func noAnswersNoGrade() {
        #expect(Grading.grade([Answer]()) == nil)
    }

    @Test func anyWrongAnswerIsAgain() {
        let fastExact = Answer(correct: true, similarity: 1, relativeLatency: 0.2)
        #expect(Grading.grade([Answer(correct: false)]) == .again)
        #expect(
            Grading.grade([fastExact, fastExact, Answer(correct: false, similarity: 0.95, relativeLatency: 0.1)])
                == .again)
    }

    @Test(arguments: [
        (0.59, Grade.easy),  // under 0.6: fast
        (0.6, .good),  // exactly 0.6 is not fast
        (1.0, .good),
        (2.0, .good),  // exactly 2.0 is not slow
        (2.01, .hard),  // over 2.0: slow
    ])
    func latencyThresholds(latency: Double, expected: Grade) {
        #expect(Grading.grade([Answer(correct: true, similarity: 1, relativeLatency: latency)]) == expected)
    }

    @Test(arguments: [
        (1.0, Grade.easy),  // exact and fast
        (0.99, .good),  // not exact: fast is not enough for easy
        (0.9, .good),  // exactly 0.9 is precise enough
        (0.89, .hard),  // under 0.9: imprecise
    ])
    func similarityThresholdsForAFastAnswer(similarity: Double, expected: Grade) {
        #expect(Grading.grade([Answer(correct: true, similarity: similarity, relativeLatency: 0.3)]) == expected)
    }

    @Test func untypedAnswersAreExactAndUntimedAnswersAreNeitherFastNorSlow() {
        #expect(Grading.grade([Answer(correct: true, relativeLatency: 0.3)]) == .easy)
        #expect(Grading.grade([Answer(correct: true)]) == .good)
        #expect(Grading.grade([Answer(correct: true, similarity: 1)]) == .good)
    }

    @Test func theWeakestCorrectAnswerDecides() {
        let fast = Answer(correct: true, similarity: 1, relativeLatency: 0.3)
        #expect(Grading.grade([fast, fast]) == .easy)
        #expect(Grading.grade([fast, Answer(correct: true, relativeLatency: 1)]) == .good)
        #expect(Grading.grade([fast, Answer(correct: true, relativeLatency: 3)]) == .hard)
    }

    @Test func latencyIsRelativeToTheLearnersMedian() {
        // 1200 ms against a 3000 ms median is 0.4× → fast; 7000 ms is 2.33× → slow
        #expect(Answer(correct: true, milliseconds: 1200, medianMilliseconds: 3000).relativeLatency == 0.4)
        #expect(Grading.grade([Answer(correct: true, milliseconds: 1200, medianMilliseconds: 3000)]) == .easy)
        #expect(Grading.grade([Answer(correct: true, milliseconds: 7000, medianMilliseconds: 3000)]) == .hard)
        #expect(Answer(correct: true, milliseconds: 1200, medianMilliseconds: 0).relativeLatency == nil)
    }

    @Test func thresholdsCanBeTuned() {
        let strict = GradingThresholds(fastLatency: 0.3, slowLatency: 1.5, minimumSimilarity: 0.95)
        #expect(Grading.grade([Answer(correct: true, relativeLatency: 0.4)], thresholds: strict) == .good)
        #expect(Grading.grade([Answer(correct: true, relativeLatency: 1.6)], thresholds: strict) == .hard)
        #expect(Grading.grade([Answer(correct: true, similarity: 0.93)], thresholds: strict) == .hard)
        #expect(
            GradingThresholds.default == GradingThresholds(fastLatency: 0.6, slowLatency: 2.0, minimumSimilarity: 0.9))
    }
}
