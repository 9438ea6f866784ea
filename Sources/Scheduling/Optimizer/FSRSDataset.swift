import Foundation
public import RoteModel

/// Review histories turned into what the FSRS optimizer learns from, the way fsrs-rs turns an
/// Anki review log into `FSRSItem`s.
///
/// Each history is one entry's reviews in time order. Every review after the first is given
/// `delta_t`: the whole days since the review before it, counted as Rote's scheduler counts
/// them (24-hour periods, floored — `FSRS.wholeDays`), so the model is fitted on the same
/// elapsed days it is later used with. A review at least a day after the previous one is an
/// *item*: something the model predicts (will the learner recall it after `delta_t` days?) from
/// the reviews before it. Reviews on the same day as the previous one are not predicted — they
/// only move the memory state, through FSRS-6's short-term formula — exactly as fsrs-rs's
/// conversion (`convert_to_fsrs_items` keeps items whose `delta_t > 0`) and model do.
///
/// Items are ordered by the time of the review they predict (ties: history, then position),
/// as Anki orders them by revlog id; the order matters, because fsrs-rs weighs recent items
/// more (`recency_weighted_fsrs_items`) in both training and evaluation.
///
/// Storage is flat and per history ("card"): one pass over a card computes every item's
/// prediction, where fsrs-rs (without card ids) replays each item's whole prefix again.
public struct FSRSDataset: Sendable {
    /// Offsets of each card's first review in the review arrays; `cardStart.count == cards + 1`.
    let cardStart: [Int]
    /// Whole days since the card's previous review (0 for its first review).
    let deltaT: [Double]
    /// Ratings 1 (again) … 4 (easy).
    let rating: [UInt8]
    /// For each review that is an item, its place in time order among all items; -1 otherwise.
    let itemRank: [Int32]
    /// Number of items (long-term reviews with a review before them).
    public let itemCount: Int

    /// Number of histories.
    public var cardCount: Int { cardStart.count - 1 }
    /// Number of reviews read, including first and same-day reviews.
    public var reviewCount: Int { rating.count }

    /// Builds the dataset from histories of review events. Each history is replayed in
    /// `ReviewEvent.replayOrder` and an event repeated with the same id and time counts once,
    /// as `Scheduler.replay` does; empty histories are skipped.
    public init(histories: [[ReviewEvent]]) {
        var cardStart = [0]
        var deltaT: [Double] = []
        var rating: [UInt8] = []
        let total = histories.reduce(0) { $0 + $1.count }
        deltaT.reserveCapacity(total)
        rating.reserveCapacity(total)
        cardStart.reserveCapacity(histories.count + 1)
        // (time, card, review index in the flat arrays) of every item, to rank them.
        var items: [(time: Double, card: Int32, review: Int32)] = []
        items.reserveCapacity(total)
        for events in histories where !events.isEmpty {
            let ordered = Scheduler.isInReplayOrder(events) ? events : events.sorted(by: ReviewEvent.replayOrder)
            var previous: ReviewEvent? = nil
            let card = Int32(cardStart.count - 1)
            for event in ordered {
                if let previous, previous.at == event.at, previous.id == event.id { continue }
                let time = event.at.timeIntervalSince1970
                if let previous {
                    let days = Double(max(0, FSRS.wholeDays(from: previous.at.timeIntervalSince1970, to: time)))
                    deltaT.append(days)
                    if days > 0 { items.append((time, card, Int32(rating.count))) }
                } else {
                    deltaT.append(0)
                }
                rating.append(UInt8(event.grade.rawValue))
                previous = event
            }
            cardStart.append(rating.count)
        }
        items.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.card != b.card { return a.card < b.card }
            return a.review < b.review
        }
        var itemRank = [Int32](repeating: -1, count: rating.count)
        for (rank, item) in items.enumerated() { itemRank[Int(item.review)] = Int32(rank) }
        self.cardStart = cardStart
        self.deltaT = deltaT
        self.rating = rating
        self.itemRank = itemRank
        self.itemCount = items.count
    }

    /// The reviews of one card, as a range of the flat arrays.
    func reviews(ofCard card: Int) -> Range<Int> { cardStart[card]..<cardStart[card + 1] }

    /// fsrs-rs's recency weight of the item at `rank` among `count` items:
    /// `0.25 + 0.75·(rank / (count − 1))³`, computed in single precision as fsrs-rs does, so
    /// the weights (and the log loss they average) are the same numbers.
    static func recencyWeight(rank: Int, count: Int) -> Double {
        let length = max(Float(count) - 1, 1)
        let x = Float(rank) / length
        return Double(0.25 + 0.75 * (x * x * x))
    }

    /// fsrs-rs's `r_matrix_index`: the bin an item falls in for RMSE(bins) — by its `delta_t`,
    /// the number of long-term reviews so far, and the lapses among them.
    ///
    /// `longTermBefore` counts reviews before this one with `delta_t > 0`; `lapsesBefore` those
    /// of them graded again. Rust's `x.log(b)` is `ln x / ln b`, written the same way here so
    /// values next to a bin edge fall on the same side.
    static func rmseBin(deltaT: Double, longTermBefore: Int, lapsesBefore: Int) -> RMSEBin {
        let deltaBin = (2.48 * pow(3.62, (log(deltaT) / log(3.62)).rounded(.down)) * 100).rounded()
        // `long_term_review_cnt() + 1`, where the count includes this (long-term) review.
        let length = Double(longTermBefore + 1) + 1
        let lengthBin = (1.99 * pow(1.89, (log(length) / log(1.89)).rounded(.down))).rounded()
        var lapseBin: UInt32 = 0
        if lapsesBefore > 0 {
            lapseBin = UInt32((1.65 * pow(1.73, (log(Double(lapsesBefore)) / log(1.73)).rounded(.down))).rounded())
        }
        return RMSEBin(deltaT: UInt32(deltaBin), length: UInt32(lengthBin), lapses: lapseBin)
    }

    struct RMSEBin: Hashable {
        var deltaT: UInt32
        var length: UInt32
        var lapses: UInt32
    }
}
