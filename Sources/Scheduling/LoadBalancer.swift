public import Foundation
public import RoteModel

/// Chooses, among the days fuzz allows an answer (`Fuzz.bounds`), one that evens out the
/// learner's reviews per day and keeps easy days light: the profile's `load_balance` and
/// `easy_days`, as Anki 24.11's load balancer does.
///
/// Each day `k` days out weighs `1 / (load⁴ · k)`, where `load` is one more than the reviews
/// already due that day, divided by the day's share (`EasyDays`): an emptier day is much more
/// likely, a nearer one slightly (an earlier review is the safer error), and a day with share 0
/// is never chosen while another is allowed. (Anki squares the load; the fourth power evened a
/// simulated year's days more — 4.4 reviews of day-to-day deviation against 5.0 — and kept
/// easy days lighter, at the same recall.) The pick draws on the answer's own fuzz draw, so
/// answers given together still spread. The counts are the recording device's, at that moment:
/// that is why the choice is written into the review (`ReviewEvent.balancedInterval`), and the
/// due date every device replays depends only on the file (`docs/scheduling.md`).
package enum LoadBalancer {
    /// How much a day `interval` days out, already holding `load` reviews, is worth choosing.
    package static func weight(interval: Int, load: Int, share: Double) -> Double {
        guard share > 0, interval > 0 else { return 0 }
        let load = Double(load + 1) / share
        return 1 / (load * load * load * load * Double(interval))
    }

    /// The interval in `window` that `unit` (in `0..<1`) picks with the weights given; nil
    /// when every day weighs nothing.
    package static func pick(in window: ClosedRange<Int>, unit: Double, weight: (Int) -> Double) -> Int? {
        let weights = window.map(weight)
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        var remaining = unit * total
        var last: Int?
        for (offset, value) in weights.enumerated() where value > 0 {
            last = window.lowerBound + offset
            if remaining < value { return last }
            remaining -= value
        }
        return last
    }
}

/// The learner's reviews due per day, as the recording device sees them: what the load
/// balancer weighs. Days are counted from 1970-01-01 in the time zone's offset at the time the
/// counts were made (a daylight-saving change moves a day boundary by an hour, which the
/// balance does not need to follow).
package struct DueLoad: Sendable {
    package let easyDays: EasyDays
    package let utcOffset: Int
    private var counts: [Int: Int] = [:]

    package init(dueDates: some Sequence<Date>, easyDays: EasyDays, timeZone: TimeZone = .current, now: Date = Date()) {
        self.easyDays = easyDays
        self.utcOffset = timeZone.secondsFromGMT(for: now)
        for date in dueDates { counts[day(of: date), default: 0] += 1 }
    }

    /// The day number of `date`.
    package func day(of date: Date) -> Int {
        Int(((date.timeIntervalSince1970 + Double(utcOffset)) / 86_400).rounded(.down))
    }

    /// Reviews due on the day of `date`.
    package func load(on date: Date) -> Int { counts[day(of: date)] ?? 0 }

    /// The interval in `window` the workload suggests for an answer at `reviewedAt`, drawn with
    /// `unit`; nil when no day in the window may take a review.
    package func interval(in window: ClosedRange<Int>, reviewedAt: Date, unit: Double) -> Int? {
        LoadBalancer.pick(in: window, unit: unit) { days in
            let day = day(of: reviewedAt.addingTimeInterval(Double(days) * 86_400))
            return LoadBalancer.weight(
                interval: days, load: counts[day] ?? 0,
                share: easyDays.share(ofWeekday: EasyDays.weekday(ofDayNumber: day)))
        }
    }

    /// An entry's due date moved (nil: it had none, or has none now).
    package mutating func move(from old: Date?, to new: Date?) {
        if let old {
            let day = day(of: old)
            if let count = counts[day] { counts[day] = count > 1 ? count - 1 : nil }
        }
        if let new { counts[day(of: new), default: 0] += 1 }
    }
}
