public import Foundation
public import RoteModel
public import RoteStore
import Scheduling
import StudyData

/// A study session other than today's plan (`docs/scheduling.md`, "Practice and review
/// ahead"): practice of studied entries that leaves their schedule alone, or real reviews of
/// entries not yet due.
public enum CustomStudy: Sendable, Equatable {
    /// `rote study --practice`: every answer is recorded as a practice review
    /// (`practice: true`), which the replay, the optimiser and the planner's daily counts leave
    /// out. Only entries with reviews that schedule them, never new ones.
    case practice(PracticeFilter)
    /// `rote study --review-ahead N`: real reviews of the entries due within the next `days`
    /// days, those due now first, then the soonest; FSRS schedules each one not yet due as an
    /// early review. What is due now is included, so a learner who reviews ahead never
    /// leaves today's reviews behind.
    case reviewAhead(days: Int)

    /// Which studied entries a practice session takes; every condition given must hold, and
    /// with none every studied entry of the decks is taken.
    public struct PracticeFilter: Sendable, Equatable {
        /// Answered `again` today (a practice answer too).
        public var forgottenToday: Bool
        /// Due within this many days from now, overdue ones included.
        public var dueWithinDays: Int?
        /// Lapsed (forgotten in the review phase) at or after this time.
        public var lapsedSince: Date?

        public init(forgottenToday: Bool = false, dueWithinDays: Int? = nil, lapsedSince: Date? = nil) {
            self.forgottenToday = forgottenToday
            self.dueWithinDays = dueWithinDays
            self.lapsedSince = lapsedSince
        }
    }

    public var isPractice: Bool {
        if case .practice = self { return true }
        return false
    }

    /// The plan of a custom session over the parsed library: the chosen entries as its due
    /// items (no new ones), at most `limit` of them when given (`dueDeferred` counts the rest).
    /// Practice takes the lowest recall first, review ahead the soonest due first. Entries
    /// that are suspended, ignored, new, locked or (without `drafts`) unpublished never come.
    package func plan(
        library: LoadedLibrary, index: LibraryIndex, decks requested: [String],
        only: (@Sendable (String) -> Bool)?, limit: Int?, drafts: Bool, now: Date, timeZone: TimeZone = .current
    ) -> SessionPlan {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let startOfDay = calendar.startOfDay(for: now)
        let chosen = Set(requested.isEmpty ? library.deckOrder : requested)
        let locked = library.lockedLetters(user: index.user)
        var schedulers: [String: Scheduler] = [:]
        var picked: [SessionPlan.Item] = []
        for id in index.orderedIDs {
            guard let entry = index.entries[id], chosen.contains(entry.deck), only?(id) ?? true,
                !locked.contains(id), drafts || library.isPublished(entry),
                [.learning, .review, .relearning].contains(index.status(of: id)), let file = index.progress[id]
            else { continue }
            let reviews = file.scheduledReviews
            guard !reviews.isEmpty else { continue }
            let scheduler =
                schedulers[entry.deck]
                ?? Scheduler(
                    settings: .forDeck(library.decks[entry.deck], profile: index.profile, deckName: entry.deck))
            schedulers[entry.deck] = scheduler
            guard let state = file.state ?? scheduler.replay(reviews, entryID: id) else { continue }
            switch self {
            case .practice(let filter):
                guard filter.admits(file: file, state: state, scheduler: scheduler, startOfDay: startOfDay, now: now)
                else { continue }
            case .reviewAhead(let days):
                guard state.due <= now.addingTimeInterval(Double(days) * 86_400) else { continue }
            }
            picked.append(
                SessionPlan.Item(
                    id: id, deck: entry.deck, retrievability: scheduler.retrievability(of: state, at: now),
                    due: state.due))
        }
        switch self {
        case .practice:
            picked.sort {
                $0.retrievability != $1.retrievability
                    ? ($0.retrievability ?? 0) < ($1.retrievability ?? 0) : $0.id < $1.id
            }
        case .reviewAhead:
            picked.sort { $0.due != $1.due ? ($0.due ?? now) < ($1.due ?? now) : $0.id < $1.id }
        }
        let kept = limit.map { Array(picked.prefix(max(0, $0))) } ?? picked
        return SessionPlan(
            due: kept, new: [], dueDeferred: picked.count - kept.count, dueTotal: picked.count, dueLaterToday: 0,
            reviewedToday: 0, introducedToday: 0, newPerDay: index.profile?.settings.newPerDay ?? 10)
    }
}

extension CustomStudy.PracticeFilter {
    /// Whether a studied entry, in `state` now, is one to practise.
    func admits(file: ProgressFile, state: MemoryState, scheduler: Scheduler, startOfDay: Date, now: Date) -> Bool {
        if forgottenToday,
            !file.reviews.contains(where: { $0.at >= startOfDay && $0.at <= now && $0.grade == .again })
        {
            return false
        }
        if let dueWithinDays, state.due > now.addingTimeInterval(Double(dueWithinDays) * 86_400) { return false }
        if let lapsedSince {
            // A lapse: `again` on a review whose state before was in the review phase.
            let reviews = file.scheduledReviews
            let states = scheduler.history(reviews, entryID: file.entry)
            guard states.count == reviews.count,
                reviews.indices.dropFirst().contains(where: {
                    reviews[$0].grade == .again && reviews[$0].at >= lapsedSince && states[$0 - 1].phase == .review
                })
            else { return false }
        }
        return true
    }
}
