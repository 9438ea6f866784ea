public import Foundation
public import RoteModel
public import RoteStore
import Scheduling

/// What planning needs from one progress file, small enough to keep for 100 000 entries in
/// the launch index: the state, when the learner first and last saw the entry, and their
/// latest answer times — not the whole review list. Practice reviews (`practice: true`) are
/// left out of all of it but the digest: they neither schedule nor count against a day's
/// limits.
public struct ProgressSummary: Sendable, Equatable {
    /// Review times kept, newest last: enough to count the reviews of any one day unless an
    /// entry was reviewed more often than this in that day.
    public static let recentLimit = 8
    /// Reviews whose answer times are kept (the planner's pace estimate reads the last five
    /// of each entry, a session's the last three).
    public static let millisecondsLimit = 5

    public var status: ProgressFile.Status
    /// Every review in the file, including those before a reset; not those `rote undo` marked
    /// `undone`, which count nowhere.
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
    /// What statistics need of every review, when the summary was made with the decks'
    /// schedulers (the launch index's are); nil otherwise.
    public var digest: ReviewDigest?

    public init(
        status: ProgressFile.Status, reviewCount: Int, firstReviewAt: Date?, recentReviewTimes: [Date],
        recentMilliseconds: [Int?],
        ladderStarted: Bool, hasScheduledReviews: Bool, state: MemoryState?, digest: ReviewDigest? = nil
    ) {
        self.status = status
        self.reviewCount = reviewCount
        self.firstReviewAt = firstReviewAt
        self.recentReviewTimes = recentReviewTimes
        self.recentMilliseconds = recentMilliseconds
        self.ladderStarted = ladderStarted
        self.hasScheduledReviews = hasScheduledReviews
        self.state = state
        self.digest = digest
    }

    /// The summary of a file; with `schedulers`, its digest too. Reviews `rote undo` marked
    /// `undone` count nowhere, so the summary leaves them out.
    public init(_ file: ProgressFile, schedulers: DeckSchedulers? = nil) {
        let resetAt = file.resetAt
        // Undone reviews count nowhere; practice ones leave the planner's counts alone.
        let reviews =
            file.reviews.contains(where: { $0.undone != nil || $0.practice })
            ? file.reviews.filter { $0.undone == nil && !$0.practice } : file.reviews
        self.init(
            status: file.status, reviewCount: reviews.count, firstReviewAt: reviews.first?.at,
            recentReviewTimes: reviews.suffix(ProgressSummary.recentLimit).map(\.at),
            recentMilliseconds: reviews.suffix(ProgressSummary.millisecondsLimit).map(\.ms),
            ladderStarted: file.ladder.map { $0.level != "read1" || $0.attempts > 0 } ?? false,
            hasScheduledReviews: resetAt.map { reset in reviews.contains { $0.at > reset } } ?? !reviews.isEmpty,
            state: file.state,
            // The digest marks practice reviews and leaves undone ones out itself.
            digest: schedulers.map {
                ReviewDigest(reviews: file.reviews, entryID: file.entry, scheduler: $0.scheduler(forEntry: file.entry))
            })
    }

    /// The summary of a progress file in Rote's canonical form, read without building its
    /// reviews, with the entry it names: the same as `ProgressSummary(file)` of the file
    /// `ProgressFile.decode` gives (with `schedulers`, its digest too). Nil where
    /// `ProgressFile.scanCanonical` gives up; then read the file in full.
    public static func canonical(_ data: Data, schedulers: DeckSchedulers? = nil) -> (
        entry: String, summary: ProgressSummary
    )? {
        data.withUnsafeBytes { canonical(bytes: $0, schedulers: schedulers) }
    }

    /// `canonical` of a file's bytes.
    public static func canonical(bytes: UnsafeRawBufferPointer, schedulers: DeckSchedulers? = nil) -> (
        entry: String, summary: ProgressSummary
    )? {
        var count = 0
        var first: Date?
        // The last few reviews, in rings: slot `count % limit` holds the newest.
        var times: [Date] = []
        var milliseconds: [Int?] = []
        times.reserveCapacity(recentLimit)
        milliseconds.reserveCapacity(millisecondsLimit)
        // The digest replays every review, so it needs them as events.
        var events: [ReviewEvent] = []
        guard
            let file = ProgressFile.scanCanonical(
                bytes: bytes,
                review: { review in
                    guard review.undone == nil else { return }  // counts nowhere, as above
                    let at = review.at
                    let ms = review.ms
                    if schedulers != nil { events.append(review.event) }
                    if review.practice { return }
                    if first == nil { first = at }
                    if times.count < recentLimit { times.append(at) } else { times[count % recentLimit] = at }
                    if milliseconds.count < millisecondsLimit {
                        milliseconds.append(ms)
                    } else {
                        milliseconds[count % millisecondsLimit] = ms
                    }
                    count += 1
                })
        else { return nil }
        // Which reviews come after a reset, and where the ladder stands, are not worked out
        // here: the canonical form has neither.
        guard file.resetAt == nil, file.ladder == nil else { return nil }
        func oldestFirst<T>(_ ring: [T], limit: Int) -> [T] {
            guard count > limit else { return ring }
            let oldest = count % limit
            return Array(ring[oldest...] + ring[..<oldest])
        }
        let summary = ProgressSummary(
            status: file.status, reviewCount: count, firstReviewAt: first,
            recentReviewTimes: oldestFirst(times, limit: recentLimit),
            recentMilliseconds: oldestFirst(milliseconds, limit: millisecondsLimit),
            ladderStarted: false, hasScheduledReviews: count > 0, state: file.state,
            digest: schedulers.map {
                ReviewDigest(reviews: events, entryID: file.entry, scheduler: $0.scheduler(forEntry: file.entry))
            })
        return (file.entry, summary)
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
