public import Foundation
public import RoteModel

/// Seed 002's rank promotion: the learner's lexical rank follows their study. When easy
/// ratings come fast, the words they find easy sit above the rank they were given, and the
/// rank moves up to meet them.
///
/// The rule (`docs/scheduling.md`, "Rank promotion"), over the real reviews (synthetic ones
/// left out) of ranked words in the 14 days before `now`:
///
/// - `easy_rating_velocity` = easy reviews ÷ all reviews in the window, once there are at
///   least 20 (nil before);
/// - `cycle_count` = the days in the window with at least one review (days the daily loop
///   ran);
/// - when the velocity is at least 0.5 and the learner studied on at least 3 days, the rank
///   becomes the larger of itself and the 90th percentile of the ranks of the words
///   answered `easy` in the window.
///
/// A function of the window and the current rank, never lowering it: applying it twice
/// changes nothing more than once.
public enum RankPromotion {
    public struct Review: Sendable, Equatable {
        public var rank: Int
        public var grade: Grade
        public var at: Date

        public init(rank: Int, grade: Grade, at: Date) {
            self.rank = rank
            self.grade = grade
            self.at = at
        }
    }

    public struct Outcome: Sendable, Equatable {
        public var easyRatingVelocity: Double?
        public var cycleCount: Int
        public var lexicalRank: Int?
        public var promoted: Bool
    }

    public static let windowDays = 14
    public static let minimumReviews = 20
    public static let velocityThreshold = 0.5
    public static let minimumDays = 3

    public static func apply(reviews: [Review], lexicalRank: Int?, now: Date) -> Outcome {
        let start = now.addingTimeInterval(-Double(windowDays) * 86_400)
        let window = reviews.filter { $0.at > start && $0.at <= now }
        let days = Set(window.map { Int(($0.at.timeIntervalSince1970 / 86_400).rounded(.down)) }).count
        guard window.count >= minimumReviews else {
            return Outcome(easyRatingVelocity: nil, cycleCount: days, lexicalRank: lexicalRank, promoted: false)
        }
        let easy = window.filter { $0.grade == .easy }
        let velocity = (Double(easy.count) / Double(window.count) * 1000).rounded() / 1000
        var rank = lexicalRank
        if velocity >= velocityThreshold, days >= minimumDays, !easy.isEmpty {
            let ranks = easy.map(\.rank).sorted()
            let target = ranks[min(ranks.count - 1, Int((Double(ranks.count) * 0.9).rounded(.down)))]
            rank = max(lexicalRank ?? 0, target)
        }
        return Outcome(easyRatingVelocity: velocity, cycleCount: days, lexicalRank: rank, promoted: rank != lexicalRank)
    }
}
