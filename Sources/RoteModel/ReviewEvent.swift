public import Foundation

/// One answered review of one entry: the append-only truth from which scheduling state is
/// replayed. Two devices' events for the same entry merge as a set keyed by `id`.
public struct ReviewEvent: Sendable, Hashable {
    /// Whether text can be a review id given from outside (`rote review --id`): 1–100 of
    /// letters, digits, `-`, `_`, `.`, which the canonical file writes without quoting.
    public static func isValidID(_ text: String) -> Bool {
        (1...100).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                    || [0x2D, 0x5F, 0x2E].contains($0)
            }
    }

    /// Unique id (a UUID, lowercase); the merge key.
    public var id: String
    /// When the answer was given, in whole seconds.
    public var at: Date
    public var grade: Grade
    /// Time taken to answer, in milliseconds, when known.
    public var ms: Int?
    /// The device that recorded the review, when known.
    public var device: String?
    /// Set on a review no one answered, written to give a word a known state: `calibration`
    /// (seed 002's warm start, `rote calibrate`) or `known` (`rote known`). It schedules like
    /// any review; `rote calibrate --undo` removes the calibration ones.
    public var synthetic: String?
    /// When `rote undo` took the review back (`undone:`): it stays in the history, marked, but
    /// schedules nothing and counts nowhere (replay, stats, the optimiser). A merge keeps the
    /// mark once either side has it (the earlier time when both do).
    public var undone: Date?
    /// Set on an answer of a practice session (`rote study --practice`): kept in the history
    /// and counted in statistics as practice, but it does not schedule — the replay, the
    /// optimiser and the planner's daily counts leave it out (`ProgressFile.scheduledReviews`).
    public var practice: Bool
    /// The interval in days the workload balancer chose for this answer (`balanced_interval:`,
    /// profile setting `load_balance`): the replay gives it instead of the hashed fuzz pick while
    /// it lies inside the answer's fuzz bounds. Recorded with the answer, so every device that
    /// holds the review computes the same due date (`Fuzz.Draw`).
    public var balancedInterval: Int?

    public init(
        id: String, at: Date, grade: Grade, ms: Int? = nil, device: String? = nil, synthetic: String? = nil,
        undone: Date? = nil, practice: Bool = false, balancedInterval: Int? = nil
    ) {
        self.id = id
        self.at = at
        self.grade = grade
        self.ms = ms
        self.device = device
        self.synthetic = synthetic
        self.undone = undone
        self.practice = practice
        self.balancedInterval = balancedInterval
    }

    /// The `synthetic` mark of warm-start reviews.
    public static let calibration = "calibration"
    /// The `synthetic` mark of reviews `rote known` writes.
    public static let known = "known"

    /// The replay order: by time, then by id, so every device sorts a history the same way.
    public static func replayOrder(_ lhs: ReviewEvent, _ rhs: ReviewEvent) -> Bool {
        lhs.at != rhs.at ? lhs.at < rhs.at : lhs.id < rhs.id
    }
}
