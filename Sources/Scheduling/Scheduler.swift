public import Foundation
public import RoteModel

/// Replays an entry's review events into its `MemoryState` with FSRS-6 or SM-2.
///
/// The state is derived data: a pure function of the events and the settings. Events are
/// taken in `ReviewEvent.replayOrder` (time, then id) whatever order they arrive in, so two
/// devices that merged the same set of reviews compute the same state, and fuzz comes from
/// the entry id and each review's id (`Fuzz`), so they compute the same due dates too.
///
/// ```swift
/// let state = Scheduler.replay(progress.reviews, entryID: "english-a1/run", settings: .default)
/// let recall = Scheduler.retrievability(of: state, at: now, settings: .default)
/// ```
///
/// Build one `Scheduler` per settings and reuse it when replaying many entries: it
/// precomputes what the formulas share.
public struct Scheduler: Sendable {
    public let settings: SchedulerSettings
    private let engine: Engine

    private enum Engine: Sendable {
        case fsrs(FSRS)
        case sm2(SM2)
    }

    public init(settings: SchedulerSettings) {
        self.settings = settings
        switch settings.scheduler {
        case .fsrs: engine = .fsrs(FSRS(settings: settings))
        case .sm2: engine = .sm2(SM2(settings: settings))
        }
    }

    /// The state after all `events`, or nil when there are none.
    public func replay(_ events: [ReviewEvent], entryID: String) -> MemoryState? {
        switch engine {
        case .fsrs(let fsrs):
            return run(events, entryID: entryID, start: FSRS.Card(nil), emit: { _ in }) {
                fsrs.review(&$0, grade: $1, at: $2, fuzz: $3)
            }?.memoryState
        case .sm2(let sm2):
            return run(events, entryID: entryID, start: sm2.newCard, emit: { _ in }) {
                sm2.review(&$0, grade: $1, at: $2, fuzz: $3?.unit)
            }?.memoryState
        }
    }

    /// The state after each review, in replay order: what `replay` would return for every
    /// prefix of the history.
    public func history(_ events: [ReviewEvent], entryID: String) -> [MemoryState] {
        var states: [MemoryState] = []
        states.reserveCapacity(events.count)
        switch engine {
        case .fsrs(let fsrs):
            _ = run(events, entryID: entryID, start: FSRS.Card(nil), emit: { states.append($0.memoryState) }) {
                fsrs.review(&$0, grade: $1, at: $2, fuzz: $3)
            }
        case .sm2(let sm2):
            _ = run(events, entryID: entryID, start: sm2.newCard, emit: { states.append($0.memoryState) }) {
                sm2.review(&$0, grade: $1, at: $2, fuzz: $3?.unit)
            }
        }
        return states
    }

    /// The state after one more review: for showing a learner what each grade would do, and
    /// for updating a state as a session goes.
    ///
    /// Equal to replaying the whole history when `review` comes last in replay order.
    public func next(after state: MemoryState?, review: ReviewEvent, entryID: String) -> MemoryState {
        let fuzz =
            settings.enableFuzzing
            ? Fuzz.Draw(
                unit: Fuzz.unit(entryID: entryID, reviewID: review.id), balancedInterval: review.balancedInterval)
            : nil
        switch engine {
        case .fsrs(let fsrs): return fsrs.next(after: state, grade: review.grade, at: review.at, fuzz: fuzz)
        case .sm2(let sm2): return sm2.next(after: state, grade: review.grade, at: review.at, fuzz: fuzz?.unit)
        }
    }

    /// The whole days fuzz may give `review` after `state`: where the workload balancer may put
    /// it. Nil when the answer does not land in review, the interval is too short to fuzz, fuzz
    /// is off, or the deck schedules with SM-2 (whose hard, good and easy intervals bound each
    /// other, so one chosen day cannot stand for all three).
    package func fuzzWindow(after state: MemoryState?, review: ReviewEvent) -> ClosedRange<Int>? {
        guard settings.enableFuzzing, case .fsrs(let fsrs) = engine else { return nil }
        let exact = fsrs.next(after: state, grade: review.grade, at: review.at, fuzz: nil)
        guard exact.phase == .review, let last = exact.lastReview else { return nil }
        let days = (exact.due.timeIntervalSince(last) / 86_400).rounded()
        guard days >= Fuzz.smallestFuzzedInterval else { return nil }
        return Fuzz.bounds(forInterval: days, maximum: settings.maximumInterval)
    }

    /// The probability of recalling the entry at `time`; 0 for an entry never reviewed.
    ///
    /// FSRS's forgetting curve over whole days since the last review; for SM-2, the same curve
    /// with the interval as stability (see `SM2.retrievability`).
    public func retrievability(of state: MemoryState?, at time: Date) -> Double {
        guard let state else { return 0 }
        switch engine {
        case .fsrs(let fsrs): return fsrs.retrievability(of: state, at: time)
        case .sm2(let sm2): return sm2.retrievability(of: state, at: time)
        }
    }

    /// `Scheduler(settings:).replay(events, entryID:)`.
    public static func replay(_ events: [ReviewEvent], entryID: String, settings: SchedulerSettings) -> MemoryState? {
        Scheduler(settings: settings).replay(events, entryID: entryID)
    }

    /// `Scheduler(settings:).retrievability(of:at:)`.
    public static func retrievability(of state: MemoryState?, at time: Date, settings: SchedulerSettings) -> Double {
        Scheduler(settings: settings).retrievability(of: state, at: time)
    }

    // MARK: - The loop

    /// Feeds `events` in replay order through `review`, calling `emit` after each; nil when
    /// there are no events. Sorts only when the events are not already in order, and skips
    /// an event repeated with the same id and time (a set holds it once).
    @inline(__always)
    private func run<Card>(
        _ events: [ReviewEvent], entryID: String, start: Card, emit: (Card) -> Void,
        review: (inout Card, Grade, Double, Fuzz.Draw?) -> Void
    ) -> Card? {
        guard !events.isEmpty else { return nil }
        let ordered = Self.isInReplayOrder(events) ? events : events.sorted(by: ReviewEvent.replayOrder)
        let fuzzing = settings.enableFuzzing
        let seed = fuzzing ? Fuzz.seed(entryID: entryID) : 0
        var card = start
        var previousTime = -Double.infinity
        for index in ordered.indices {
            let time = ordered[index].at.timeIntervalSince1970
            if time == previousTime, ordered[index - 1].id == ordered[index].id { continue }
            previousTime = time
            let fuzz =
                fuzzing
                ? Fuzz.Draw(
                    unit: Fuzz.unit(seed: seed, reviewID: ordered[index].id),
                    balancedInterval: ordered[index].balancedInterval) : nil
            review(&card, ordered[index].grade, time, fuzz)
            emit(card)
        }
        return card
    }

    static func isInReplayOrder(_ events: [ReviewEvent]) -> Bool {
        var index = events.startIndex
        while index + 1 < events.endIndex {
            if ReviewEvent.replayOrder(events[index + 1], events[index]) { return false }
            index += 1
        }
        return true
    }
}
