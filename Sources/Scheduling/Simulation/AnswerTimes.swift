import Foundation
public import RoteModel

extension WorkloadSimulator {
    /// A learner's own seconds per answer, by state and rating, in the shape of
    /// `Configuration.stateRatingCosts`: each the mean of the recorded answer times (over 0 and
    /// under 20 minutes, fsrs-rs's `extract_simulator_config` filter) of that state and rating.
    public struct AnswerTimes: Sendable, Equatable {
        public var costs: [[Double]]
        /// How many timed answers each cell's mean is over; 0 keeps fsrs-rs's default there.
        public var counts: [[Int]]

        public var timedAnswers: Int { counts.joined().reduce(0, +) }

        /// Times from `histories` (each one entry's reviews in time order). A review a day or
        /// more after the one before is a review (again starts relearning); the entry's first
        /// answer and the same-day answers after it are learning steps, and the same-day
        /// answers after a lapse relearning steps.
        public init(histories: [[ReviewEvent]], defaults: [[Double]] = Configuration().stateRatingCosts) {
            var sums = [[Double]](repeating: [0, 0, 0, 0], count: 3)
            var counts = [[Int]](repeating: [0, 0, 0, 0], count: 3)
            for history in histories {
                var previous: ReviewEvent?
                var shortTermState = 0
                for event in history {
                    let state: Int
                    if let previous, event.at.timeIntervalSince(previous.at) >= 86_400 {
                        state = 1
                        shortTermState = event.grade == .again ? 2 : 1
                    } else {
                        state = previous == nil ? 0 : shortTermState
                    }
                    previous = event
                    guard let ms = event.ms, ms > 0, ms < 1_200_000 else { continue }
                    sums[state][event.grade.rawValue - 1] += Double(ms) / 1_000
                    counts[state][event.grade.rawValue - 1] += 1
                }
            }
            costs = (0..<3).map { state in
                (0..<4).map { rating in
                    counts[state][rating] > 0
                        ? sums[state][rating] / Double(counts[state][rating]) : defaults[state][rating]
                }
            }
            self.counts = counts
        }
    }
}
