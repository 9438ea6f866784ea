public import Foundation

/// The scheduler's view of one entry after replaying its reviews. It is derived data: written
/// into progress files for readers, never merged, always recomputable from the events.
///
/// FSRS fills `stability` and `difficulty`; SM-2 fills `ease` and `interval`.
public struct MemoryState: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        case learning, review, relearning
    }

    public var phase: Phase
    /// Index into the learning or relearning steps; nil in review.
    public var step: Int?
    /// FSRS stability in days.
    public var stability: Double?
    /// FSRS difficulty, 1...10.
    public var difficulty: Double?
    /// SM-2 ease factor (2.5 = 250%).
    public var ease: Double?
    /// SM-2 current interval in days.
    public var interval: Double?
    public var due: Date
    /// Number of reviews replayed.
    public var reps: Int
    /// Number of times a review-phase card was forgotten.
    public var lapses: Int
    /// Time of the last replayed review.
    public var lastReview: Date?

    public init(
        phase: Phase, step: Int? = nil, stability: Double? = nil, difficulty: Double? = nil,
        ease: Double? = nil, interval: Double? = nil, due: Date, reps: Int = 0, lapses: Int = 0,
        lastReview: Date? = nil
    ) {
        self.phase = phase
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.ease = ease
        self.interval = interval
        self.due = due
        self.reps = reps
        self.lapses = lapses
        self.lastReview = lastReview
    }
}
