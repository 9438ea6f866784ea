import Foundation

/// The message for work committed by `rote sync` before it fetches.
enum PendingCommitMessage {
    static func make(paths: [String], changes: [String: Data?]) -> CommitMessage {
        let sessions = paths.filter { LibraryPaths.isSession($0) && changes[$0] != nil }
        let progress = paths.filter { LibraryPaths.isProgress($0) }
        let content = paths.filter { LibraryPaths.isContent($0) }
        var parts: [String] = []
        if !content.isEmpty {
            let decks = Set(content.map { $0.split(separator: "/")[1] }).sorted()
            parts.append(
                "\(content.count) content file\(content.count == 1 ? "" : "s") (\(decks.joined(separator: ", ")))")
        }
        if !sessions.isEmpty { parts.append("\(sessions.count) session\(sessions.count == 1 ? "" : "s")") }
        if !progress.isEmpty { parts.append("\(progress.count) progress file\(progress.count == 1 ? "" : "s")") }
        let other = paths.count - content.count - sessions.count - progress.count
        if other > 0 { parts.append("\(other) other file\(other == 1 ? "" : "s")") }
        let recovered = !progress.isEmpty && sessions.isEmpty
        return CommitMessage(
            subject: (recovered ? "Recover: " : "Update: ") + parts.joined(separator: ", "),
            body: recovered
                ? "Reviews written by a session that ended before it could commit; every answer is kept." : "",
            trailers: recovered ? [.init(SessionCommitMessage.recoveredTrailer, "yes")] : [])
    }
}
