import Foundation
import RoteModel

extension LibraryGit {
    /// A study session in progress: what it has answered so far, rewritten after every card,
    /// until the session's own commit removes it.
    static let sessionSnapshotPath = ".git/rote/session.yaml"
    /// The same session whole (`StudySession.saved()`), beside its snapshot, so the next study
    /// session can go on where it stopped; gone once the snapshot is committed.
    static let sessionStatePath = ".git/rote/session-state.json"

    /// Commits a session a kill interrupted: its snapshot names the answers given, whose
    /// reviews are already in the progress files, and every progress or profile file the
    /// learner changed since the last commit goes in with it. Returns true when there was one.
    ///
    /// Internal, reached through `LibraryTransaction.recoverInterruptedSession`: a snapshot is an
    /// interrupted session only when no live process holds the lock. Committed beside a live
    /// `rote study`, it split that session in two and took its snapshot away.
    func recoverInterruptedSession() throws -> Bool {
        // The session is committed, or was: it cannot be resumed any more.
        defer { try? FileManager.default.removeItem(at: root.appending(path: Self.sessionStatePath)) }
        let url = root.appending(path: Self.sessionSnapshotPath)
        guard let data = FileManager.default.contents(atPath: url.path) else { return false }
        guard var session = SessionFile.decode(data, path: Self.sessionSnapshotPath).0 else {
            try? FileManager.default.removeItem(at: url)
            return false
        }
        session.endedAt = session.endedAt ?? session.attempts.last?.at ?? session.startedAt
        // Killed after its commit (or its pending commit) was made and before the snapshot
        // went: the session is already in, whole.
        if try isCommitted(SessionFile.path(for: session)) {
            try FileManager.default.removeItem(at: url)
            return false
        }
        // The kill may have come while a progress file or the session file was being written,
        // leaving that write's temporary file (`.<name>.<pid>.<n>.tmp`): an answer whose write
        // never finished was never shown as recorded, and the session file is written below.
        try removeAbandonedTemporaryFiles()
        var progress: [String: Data] = [:]
        let learner = LibraryPaths(user: session.user)
        for path in try pendingPaths()
        where path.hasPrefix(learner.progressFolder + "/") || path == learner.profile {
            if let file = FileManager.default.contents(atPath: root.appending(path: path).path) {
                progress[path] = file
            }
        }
        let hasWork = !session.attempts.isEmpty || !progress.isEmpty
        if hasWork {
            try AtomicFile.write(session.render(), at: SessionFile.path(for: session), in: root)
            try commitSession(session, progress: progress, recovered: true)
        }
        try FileManager.default.removeItem(at: url)
        return hasWork
    }
}
