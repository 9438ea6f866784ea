/// Deterministic interval fuzz: FSRS's ranges, with the random draw replaced by a hash of the
/// entry id and the review id.
///
/// Fuzz spreads reviews of entries learned together over neighbouring days. py-fsrs draws it
/// from `random()`, which would make two devices replaying the same history disagree on due
/// dates; here the draw is a pure function of `(entry id, review id)`, so every device, every
/// replay, gets the same interval. The hash is FNV-1a 64 over the UTF-8 bytes followed by
/// SplitMix64's finaliser — never Swift's `Hasher`, which is seeded per process.
///
/// Ranges (py-fsrs `FUZZ_RANGES`): an interval of `d` days may move by
/// `delta = 1 + 0.15·overlap(d, 2.5…7) + 0.10·overlap(d, 7…20) + 0.05·overlap(d, 20…∞)`
/// days either way, where `overlap(d, a…b) = max(0, min(d, b) − a)`. Intervals under 2.5 days
/// are never fuzzed; a fuzzed interval is never under 2 days nor over the maximum interval.
/// For example 10 days → delta 1.975 → 8…12 days; 100 days → delta 6.975 → 93…107 days.
package enum Fuzz {
    /// One band of FSRS's fuzz: intervals between `start` and `end` days add `factor` of a
    /// day of spread per day inside the band.
    package struct Range: Sendable, Hashable {
        package var start: Double
        package var end: Double
        package var factor: Double
    }

    /// py-fsrs 6.3.2's `FUZZ_RANGES`.
    package static let ranges: [Range] = [
        Range(start: 2.5, end: 7, factor: 0.15),
        Range(start: 7, end: 20, factor: 0.1),
        Range(start: 20, end: .infinity, factor: 0.05),
    ]

    /// Intervals below this many days are left alone.
    package static let smallestFuzzedInterval = 2.5
    /// A fuzzed interval is at least this many days.
    package static let minimumFuzzedInterval = 2

    /// The draw for one review: a number in `0..<1` derived only from the two ids.
    ///
    /// ```swift
    /// Fuzz.unit(entryID: "english-a1/run", reviewID: "0193a4f2-…")  // same on every device
    /// ```
    package static func unit(entryID: String, reviewID: String) -> Double {
        unit(seed: seed(entryID: entryID), reviewID: reviewID)
    }

    /// How far an interval of `days` may move either way.
    package static func delta(forInterval days: Double) -> Double {
        guard days >= smallestFuzzedInterval else { return 0 }
        var delta = 1.0
        for range in ranges {
            delta += range.factor * max(min(days, range.end) - range.start, 0.0)
        }
        return delta
    }

    /// The whole days fuzz may pick from for an interval of `days`, never below `minimum`
    /// (and never below 2 days once fuzzed) nor above `maximum`.
    ///
    /// Bounds round half to even, as py-fsrs's `_get_fuzz_range` does with Python's `round`.
    /// An interval under 2.5 days gives a single day: itself, rounded and clamped.
    package static func bounds(forInterval days: Double, minimum: Int = 1, maximum: Int) -> ClosedRange<Int> {
        let maximum = max(maximum, 1)
        let minimum = min(max(minimum, 1), maximum)
        func clamped(_ value: Double, _ low: Int) -> Int {
            let rounded = value.rounded(.toNearestOrEven)
            // NaN takes the maximum too, rather than trapping in `Int(_:)`.
            guard rounded < Double(maximum) else { return maximum }
            return max(Int(rounded), low)
        }
        guard days >= smallestFuzzedInterval else {
            let only = clamped(days, minimum)
            return only...only
        }
        let delta = delta(forInterval: days)
        let upper = clamped(days + delta, minimum)
        let lower = min(clamped(days - delta, max(minimum, minimumFuzzedInterval)), upper)
        return lower...upper
    }

    /// One review's fuzz: the hashed draw, and the interval the workload balancer chose when
    /// the review was recorded (`ReviewEvent.balancedInterval`), if it did.
    ///
    /// The chosen interval is part of the review, like its grade, so the replay stays a pure
    /// function of the file: every device that holds the review computes the same due date.
    /// It counts only while it lies inside the fuzz bounds the replay computes (settings may
    /// have changed since); outside them the hashed draw picks, as for any review.
    package struct Draw: Sendable, Equatable {
        package var unit: Double
        package var balancedInterval: Int?

        package init(unit: Double, balancedInterval: Int? = nil) {
            self.unit = unit
            self.balancedInterval = balancedInterval
        }
    }

    /// The fuzzed interval for `draw`: its balanced interval when that lies in the bounds,
    /// else the day `draw.unit` picks.
    package static func interval(_ days: Double, draw: Draw, minimum: Int = 1, maximum: Int) -> Int {
        if let chosen = draw.balancedInterval,
            bounds(forInterval: days, minimum: minimum, maximum: maximum).contains(chosen)
        {
            return chosen
        }
        return interval(days, unit: draw.unit, minimum: minimum, maximum: maximum)
    }

    /// The fuzzed interval: the day in `bounds(forInterval:minimum:maximum:)` picked by `unit`.
    ///
    /// Every day in the bounds is equally likely (`lower + ⌊unit·count⌋`); py-fsrs rounds
    /// instead of flooring, which gives the ends half weight and can step one day past its
    /// upper bound, so Rote floors as ts-fsrs and Anki do.
    package static func interval(_ days: Double, unit: Double, minimum: Int = 1, maximum: Int) -> Int {
        let range = bounds(forInterval: days, minimum: minimum, maximum: maximum)
        let offset = Int((unit * Double(range.count)).rounded(.down))
        return min(range.lowerBound + max(offset, 0), range.upperBound)
    }

    // MARK: - Hash

    /// FNV-1a state after the entry id and a separator: computed once per replayed entry.
    static func seed(entryID: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in entryID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        // 0x1F (unit separator) keeps ("ab", "c") and ("a", "bc") apart.
        return (hash ^ 0x1f) &* 0x0000_0100_0000_01b3
    }

    static func unit(seed: UInt64, reviewID: String) -> Double {
        var hash = seed
        for byte in reviewID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        // SplitMix64's finaliser spreads FNV's weak low bits over the whole word.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Double(hash >> 11) * 0x1p-53
    }
}
