package import Foundation
import RoteModel
package import Scheduling

/// The merge driver for `profiles/*/progress/**`: two devices' histories of one entry.
///
/// Reviews are a grow-only set keyed by id, so the merge is their union — a review recorded
/// on either device survives, and the base adds nothing (a review is never deleted by a
/// merge) — except a synthetic one (seed 002's warm start) that the base held and one side
/// no longer does: that side undid or replaced a calibration, and the merge keeps it undone.
/// A review `rote undo` marked `undone` on either side is undone in the merge (the earlier
/// mark when both are), so an undo reaches every device however the merges run.
/// `status` is last-writer-wins by `status_at`. `state` is derived data, so it is not
/// merged but replayed from the merged reviews. Each rule is commutative, associative and
/// idempotent, which is what lets any number of devices merge in any order and end with the
/// same bytes.
///
/// A side that cannot be read (it does not decode, or decoding reported an error such as a
/// review line with an unknown grade) is a conflict: writing a merge of the part that did
/// decode would drop the rest, so git keeps both versions and the caller reports the reason.
package enum ProgressMerge {
    /// Merges three versions of one progress file into its canonical text.
    ///
    /// - Parameters:
    ///   - base: the common ancestor, read only for its synthetic reviews (a real review is
    ///     never deleted by a merge); one that does not read is taken as none.
    ///   - settings: the scheduler settings `state` is replayed with.
    ///   - path: the file's library path, for conflict reasons.
    package static func merge(
        base: Data?, ours: Data, theirs: Data, settings: SchedulerSettings, path: String = "progress.yaml"
    ) -> MergeOutcome {
        let result = ProgressFile.decodeForMerge(ours, side: .ours, path: path).flatMap { ours in
            ProgressFile.decodeForMerge(theirs, side: .theirs, path: path).flatMap { theirs in
                let base = base.flatMap { ProgressFile.decode($0, path: path).0 }
                return merge(ours, theirs, base: base, scheduler: Scheduler(settings: settings), path: path).map {
                    $0.render()
                }
            }
        }
        return MergeOutcome(result)
    }

    /// The merge of two decoded versions; refused only when they name different entries.
    static func merge(
        _ ours: ProgressFile, _ theirs: ProgressFile, base: ProgressFile? = nil, scheduler: Scheduler, path: String
    ) -> Result<ProgressFile, MergeRefusal> {
        // Two different entries in one path means a file was copied or renamed by hand; which
        // one the path should hold is a person's call, and a union would mix two histories.
        guard ours.entry == theirs.entry else {
            return .failure(
                MergeRefusal(
                    "\(path): ours is progress for '\(ours.entry)' but theirs is for '\(theirs.entry)'; keep the right one by hand"
                ))
        }
        let (status, statusAt) = laterStatus(ours, theirs)
        var reviews = union(ours.reviews, theirs.reviews)
        if let base {
            let oursIDs = Set(ours.reviews.map(\.id))
            let theirsIDs = Set(theirs.reviews.map(\.id))
            let undone = Set(
                base.reviews.filter { $0.synthetic != nil && !(oursIDs.contains($0.id) && theirsIDs.contains($0.id)) }
                    .map(\.id))
            if !undone.isEmpty { reviews.removeAll { undone.contains($0.id) } }
        }
        let resetAt = [ours.resetAt, theirs.resetAt].compactMap { $0 }.max()
        var merged = ProgressFile(
            entry: ours.entry, status: status, statusAt: statusAt, resetAt: resetAt,
            ladder: later(
                ours.ladder, theirs.ladder, at: \.at, tieBreak: { "\($0.level) \($0.covered) \($0.attempts)" }),
            reflection: later(ours.reflection, theirs.reflection, at: \.at, tieBreak: \.text), reviews: reviews)
        merged.state = scheduler.replay(merged.scheduledReviews, entryID: ours.entry)
        return .success(merged)
    }

    /// Last writer wins by `at` for the ladder position and the reflection; on a tie the
    /// larger tie-break text wins, so the choice does not depend on which side is ours.
    static func later<Value>(_ ours: Value?, _ theirs: Value?, at: (Value) -> Date, tieBreak: (Value) -> String)
        -> Value?
    {
        guard let ours else { return theirs }
        guard let theirs else { return ours }
        if at(ours) != at(theirs) { return at(ours) > at(theirs) ? ours : theirs }
        return tieBreak(ours) >= tieBreak(theirs) ? ours : theirs
    }

    /// The union of two review lists by id, in replay order.
    ///
    /// Ids are UUIDs, so one id with two different contents should not happen; if a hand edit
    /// makes it happen, both devices must still keep the same one, so the copy that sorts
    /// first by `(at, grade, ms, device, synthetic, balanced_interval, practice)` wins — a minimum, which does not
    /// depend on which side is which nor on the order several merges happen in.
    static func union(_ ours: [ReviewEvent], _ theirs: [ReviewEvent]) -> [ReviewEvent] {
        var byID: [String: ReviewEvent] = [:]
        byID.reserveCapacity(ours.count + theirs.count)
        for review in ours + theirs {
            if let kept = byID[review.id] {
                // `rote undo`'s mark is monotone: once either copy is undone the merged one
                // is, at the earlier of the two times, whichever copy is kept.
                let undone = [kept.undone, review.undone].compactMap { $0 }.min()
                byID[review.id] = precedes(review, kept) ? review : kept
                byID[review.id]!.undone = undone
                continue
            }
            byID[review.id] = review
        }
        return byID.values.sorted(by: ReviewEvent.replayOrder)
    }

    /// A total order on reviews sharing an id, for choosing between two copies.
    static func precedes(_ lhs: ReviewEvent, _ rhs: ReviewEvent) -> Bool {
        if lhs.at != rhs.at { return lhs.at < rhs.at }
        if lhs.grade != rhs.grade { return lhs.grade < rhs.grade }
        if lhs.ms != rhs.ms { return isBefore(lhs.ms, rhs.ms) }
        if lhs.device != rhs.device { return isBefore(lhs.device, rhs.device) }
        if lhs.synthetic != rhs.synthetic { return isBefore(lhs.synthetic, rhs.synthetic) }
        if lhs.balancedInterval != rhs.balancedInterval { return isBefore(lhs.balancedInterval, rhs.balancedInterval) }
        // The copy that schedules (not practice) comes first: a review is never lost to the replay.
        return !lhs.practice && rhs.practice
    }

    /// Last writer wins by `status_at`; a missing `status_at` is older than any time.
    ///
    /// On a tie (same time, or neither has one) the status whose name sorts last wins:
    /// `suspended` > `ignored` > `active`. Any fixed order would keep the merge symmetric;
    /// this one lets a status set by hand without a time beat the implicit default `active`.
    static func laterStatus(_ ours: ProgressFile, _ theirs: ProgressFile) -> (ProgressFile.Status, Date?) {
        let theirsWins =
            ours.statusAt != theirs.statusAt
            ? isBefore(ours.statusAt, theirs.statusAt)
            : theirs.status.rawValue > ours.status.rawValue
        let winner = theirsWins ? theirs : ours
        return (winner.status, winner.statusAt)
    }
}
