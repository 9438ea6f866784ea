import Foundation
public import RoteModel

/// Where one learner's files live in a library, relative to its root — the one place these
/// paths are spelled, so a reader, a writer and the validator cannot disagree about them.
public struct LibraryPaths: Sendable, Hashable {
    public let user: String

    public init(user: String) { self.user = user }

    /// `profiles/<user>`, everything of the learner's.
    public var folder: String { "profiles/\(user)" }
    /// `profiles/<user>/profile.yaml`.
    public var profile: String { "\(folder)/profile.yaml" }
    /// `profiles/<user>/progress/<entry>.yaml`.
    public func progress(_ entry: String) -> String { "\(folder)/progress/\(entry).yaml" }
    /// `profiles/<user>/letters/<letter>.yaml`.
    public func letterAttempts(_ letter: String) -> String { "\(folder)/letters/\(letter).yaml" }
    /// `profiles/<user>/saved`, the learner's saved texts.
    public var saved: String { "\(folder)/saved" }
    /// `profiles/<user>/sessions/<yyyy>/<mm>/<id>.yaml`, by the session's start (UTC).
    public static func session(_ session: SessionFile) -> String {
        let date = Timestamp.format(session.startedAt)
        return "profiles/\(session.user)/sessions/\(date.prefix(4))/\(date.dropFirst(5).prefix(2))/\(session.id).yaml"
    }
}
