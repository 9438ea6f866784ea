import Foundation
import RoteModel
import RoteStore

/// What planning needs from one progress file, small enough to keep for 100 000 entries in
/// the launch index: the state, when the learner first and last saw the entry, and their
/// latest answer times — not the whole review list.
public struct ProgressSummary: Sendable, Equatable {
    /// Review times kept, newest last: enough to count the reviews of any one day unless an
    /// entry was reviewed more often than this in that day.
    public static let recentLimit = 8
    /// Reviews whose answer times are kept (the planner's pace estimate reads the last five
    /// of each entry, a session's the last three).
    public static let millisecondsLimit = 5

    public var status: ProgressFile.Status
    /// Every review in the file, including those before a reset.
    public var reviewCount: Int
    public var firstReviewAt: Date?
    /// The last `recentLimit` review times, oldest first.
    public var recentReviewTimes: [Date]
    /// The answer times of the last five reviews, oldest first; nil where none was recorded.
    public var recentMilliseconds: [Int?]
    /// A passage stopped part-way up the acquisition ladder.
    public var ladderStarted: Bool
    /// Reviews after the last reset (those that schedule the entry).
    public var hasScheduledReviews: Bool
    public var state: MemoryState?

    public init(status: ProgressFile.Status, reviewCount: Int, firstReviewAt: Date?, recentReviewTimes: [Date], recentMilliseconds: [Int?],
                ladderStarted: Bool, hasScheduledReviews: Bool, state: MemoryState?) {
        self.status = status
        self.reviewCount = reviewCount
        self.firstReviewAt = firstReviewAt
        self.recentReviewTimes = recentReviewTimes
        self.recentMilliseconds = recentMilliseconds
        self.ladderStarted = ladderStarted
        self.hasScheduledReviews = hasScheduledReviews
        self.state = state
    }

    public init(_ file: ProgressFile) {
        let resetAt = file.resetAt
        self.init(
            status: file.status, reviewCount: file.reviews.count, firstReviewAt: file.reviews.first?.at,
            recentReviewTimes: file.reviews.suffix(ProgressSummary.recentLimit).map(\.at),
            recentMilliseconds: file.reviews.suffix(ProgressSummary.millisecondsLimit).map(\.ms),
            ladderStarted: file.ladder.map { $0.level != "read1" || $0.attempts > 0 } ?? false,
            hasScheduledReviews: resetAt.map { reset in file.reviews.contains { $0.at > reset } } ?? !file.reviews.isEmpty,
            state: file.state)
    }

    /// Reviews at or after `time`; nil when the summary keeps too few to tell.
    public func reviews(since time: Date) -> Int? {
        let count = recentReviewTimes.reduce(0) { $0 + ($1 >= time ? 1 : 0) }
        if count == recentReviewTimes.count, reviewCount > recentReviewTimes.count { return nil }
        return count
    }

    /// Where the learner stands with the entry, as `LibraryIndex` reports it.
    public var indexStatus: LibraryIndex.Status {
        LibraryIndex.status(file: status, hasScheduledReviews: hasScheduledReviews, state: state)
    }
}
