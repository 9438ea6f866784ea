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
    /// `profiles/<user>/progress`, one file per entry the learner has met.
    package var progressFolder: String { "\(folder)/progress" }
    /// `profiles/<user>/sessions`, one file per study session.
    package var sessionsFolder: String { "\(folder)/sessions" }
    /// `profiles/<user>/progress/<entry>.yaml`.
    public func progress(_ entry: String) -> String { "\(progressFolder)/\(entry).yaml" }
    /// `profiles/<user>/letters/<letter>.yaml`.
    public func letterAttempts(_ letter: String) -> String { "\(folder)/letters/\(letter).yaml" }
    /// `profiles/<user>/saved`, the learner's saved texts.
    public var saved: String { "\(folder)/saved" }
    /// `profiles/<user>/sessions/<yyyy>/<mm>/<id>.yaml`, by the session's start (UTC).
    public static func session(_ session: SessionFile) -> String {
        let date = Timestamp.format(session.startedAt)
        return
            "\(LibraryPaths(user: session.user).sessionsFolder)/\(date.prefix(4))/\(date.dropFirst(5).prefix(2))/\(session.id).yaml"
    }
}

/// Where the content and the learners' folders are, for every learner.
extension LibraryPaths {
    /// `corpus`, the content: one folder per deck.
    package static let corpus = "corpus"
    /// `profiles`, one folder per learner.
    package static let profiles = "profiles"

    /// `corpus/<a>/<b>…`: a deck's folder (`content(deck)`), or a file or folder inside it.
    package static func content(_ parts: String...) -> String {
        ([corpus] + parts).joined(separator: "/")
    }
    /// `corpus/<deck>/<slug>.yaml`, the file of the entry `<deck>/<slug>`.
    package static func entry(_ id: String) -> String { "\(corpus)/\(id).yaml" }
    /// `corpus/<deck>/deck.yaml`.
    package static func deckManifest(_ deck: String) -> String { content(deck, "deck.yaml") }
    /// `corpus/<folder>/skill.yaml`, a skill of a skills deck.
    package static func skill(_ folder: String) -> String { content(folder, "skill.yaml") }
    /// `corpus/<folder>/domain.yaml`, a domain of a skills deck.
    package static func domain(_ folder: String) -> String { content(folder, "domain.yaml") }

    /// True for a path under `corpus/`.
    package static func isContent(_ path: some StringProtocol) -> Bool { path.hasPrefix(corpus + "/") }
    /// True for `profiles/<user>/progress/…`, anyone's progress file.
    package static func isProgress(_ path: some StringProtocol) -> Bool { kind(of: path) == "progress" }
    /// True for `profiles/<user>/sessions/…`, anyone's session file.
    package static func isSession(_ path: some StringProtocol) -> Bool { kind(of: path) == "sessions" }
    /// The learner whose folder holds `path` (`profiles/<user>/…`), if it is in one.
    package static func learner(ofPath path: some StringProtocol) -> String? {
        let parts = path.split(separator: "/", maxSplits: 2)
        return parts.count >= 3 && parts[0] == profiles ? String(parts[1]) : nil
    }

    /// The folder of a learner's that holds `path`: "progress", "sessions", "letters"….
    private static func kind(of path: some StringProtocol) -> String? {
        let parts = path.split(separator: "/", maxSplits: 3)
        return parts.count >= 4 && parts[0] == profiles ? String(parts[2]) : nil
    }
}
