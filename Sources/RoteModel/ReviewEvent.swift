import Foundation

/// One answered review of one entry: the append-only truth from which scheduling state is
/// replayed. Two devices' events for the same entry merge as a set keyed by `id`.
public struct ReviewEvent: Sendable, Hashable {
    /// Unique id (a UUID, lowercase); the merge key.
    public var id: String
    /// When the answer was given, in whole seconds.
    public var at: Date
    public var grade: Grade
    /// Time taken to answer, in milliseconds, when known.
    public var ms: Int?
    /// The device that recorded the review, when known.
    public var device: String?

    public init(id: String, at: Date, grade: Grade, ms: Int? = nil, device: String? = nil) {
        self.id = id
        self.at = at
        self.grade = grade
        self.ms = ms
        self.device = device
    }

    /// The replay order: by time, then by id, so every device sorts a history the same way.
    public static func replayOrder(_ lhs: ReviewEvent, _ rhs: ReviewEvent) -> Bool {
        lhs.at != rhs.at ? lhs.at < rhs.at : lhs.id < rhs.id
    }
}
