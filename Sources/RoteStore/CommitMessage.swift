import Foundation

/// What a Rote commit says: a subject for `git log --oneline`, an optional body, and the
/// trailers particular to it (`Rote-Session`, `Rote-Erasure`…). The trailers every Rote commit
/// carries, `Rote-Device` and `Rote-User`, are added by `LibraryGit` when it commits, from its
/// own device and learner, so no writer spells them and none can leave them out: `rote log`
/// rebuilds its list of sessions and of who did what from them alone.
public struct CommitMessage: Sendable, Equatable {
    public struct Trailer: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public var subject: String
    /// Paragraphs between the subject and the trailers; empty for none.
    public var body: String
    /// Trailers before `Rote-Device` and `Rote-User`.
    public var trailers: [Trailer]

    public init(subject: String, body: String = "", trailers: [Trailer] = []) {
        self.subject = subject
        self.body = body
        self.trailers = trailers
    }

    /// The message as git stores it, with `Rote-Device: device` and `Rote-User: user` after
    /// this message's own trailers.
    public func rendered(device: String, user: String) -> String {
        var text = subject + "\n"
        let body = body.trimmingCharacters(in: .newlines)
        if !body.isEmpty { text += "\n" + body + "\n" }
        text += "\n"
        for trailer in trailers
            + [Trailer(SessionCommitMessage.deviceTrailer, device), Trailer(SessionCommitMessage.userTrailer, user)]
        {
            text += "\(trailer.key): \(trailer.value)\n"
        }
        return text
    }
}

extension CommitMessage: ExpressibleByStringLiteral {
    /// A message written out: its first line is the subject, the rest the body.
    public init(stringLiteral text: String) {
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(subject: String(parts[0]), body: parts.count > 1 ? String(parts[1]) : "")
    }
}
