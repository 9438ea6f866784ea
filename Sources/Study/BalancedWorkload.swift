package import Foundation
package import RoteModel
package import Scheduling

/// The learner's due load that a recorder balances answers against (profile `load_balance`),
/// kept up to date as it records, so answers given one after another in a session spread over
/// the days as the last ones left them. Shared by reference: a session's recorder is copied.
package final class BalancedWorkload: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var load: DueLoad

    /// `dueDates`: when each of the learner's active entries is due now.
    package init(dueDates: some Sequence<Date>, easyDays: EasyDays, timeZone: TimeZone = .current, now: Date = Date()) {
        load = DueLoad(dueDates: dueDates, easyDays: easyDays, timeZone: timeZone, now: now)
    }

    /// The interval the workload suggests in `window` for an answer at `reviewedAt`.
    package func interval(in window: ClosedRange<Int>, reviewedAt: Date, unit: Double) -> Int? {
        lock.withLock { load.interval(in: window, reviewedAt: reviewedAt, unit: unit) }
    }

    /// An entry's due date moved from `old` to `new`.
    package func move(from old: Date?, to new: Date?) {
        lock.withLock { load.move(from: old, to: new) }
    }

    /// Reviews due on the day of `date`.
    package func load(on date: Date) -> Int { lock.withLock { load.load(on: date) } }
}
