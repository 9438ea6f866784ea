package import Foundation
package import Git
package import RoteModel

/// One write to a library, from taking its lock to the last commit: the only way any module
/// but this one changes a library. It holds the library's lock (`LibraryLock`) for as long as
/// it lives, and has finished whatever a killed write left (`recoverInterruptedWrites`) before
/// its caller reads anything it will base its change on, so "callers hold the lock" is the
/// type's promise, not a comment's. The git behind it (`LibraryGit`), the pool that keeps one
/// open between writes and the journals of deferred commits are this module's own.
///
/// A transaction declares how a kill in the middle of it is made good (`Mode`); each kind of
/// write asks for the mode that journals it, and a call of another mode's is a programming
/// error, stopped at once.
package final class LibraryTransaction {
    /// How a transaction's changes land, and so what a kill in the middle leaves.
    package enum Mode: Sendable {
        /// Every change is all or nothing (`apply`): a kill leaves no file of it.
        case atomic
        /// A study session: each answer is written to its progress file as it is given and
        /// journaled in the session's snapshot, and the session is one commit at its end
        /// (`commitSession`); a kill leaves the answers, which the next writer commits.
        case session
        /// A sync: the branch and work tree moved to merges and fast-forwards
        /// (`moveBranchAndWorkTree`, journaled), besides all-or-nothing changes.
        case sync
    }

    package let mode: Mode
    let git: LibraryGit
    private let lock: LibraryLock?
    private let commits: LibraryCommits?

    /// Waits for nothing: a library another process is writing throws `LibraryError` with
    /// the code `busy`, naming it and its purpose (its `cause` is the `LibraryLock.Busy`).
    /// With `commits` (a `Library`'s), the git they keep open is used (and given back when
    /// the transaction ends) rather than a new one opened; when they are deferred, they hold
    /// the lock (`LibraryGitPool.beginWriting`) and the commits are made behind the write.
    /// Before anything else, a write a kill left half-done is undone and the commits a
    /// `rote serve` promised are made (`recoverInterruptedWrites`).
    package init(
        root: URL, user: String, purpose: String, mode: Mode = .atomic,
        now: @escaping @Sendable () -> Date = { Date() }, commits: LibraryCommits? = nil
    ) throws {
        let pool = commits?.pool
        (git, lock) = try LibraryError.surfacing {
            if let pool, pool.defersCommits {
                return (try pool.beginWriting(root: root, user: user, purpose: purpose, now: now), nil)
            }
            let lock = try LibraryLock(root: root, purpose: purpose)
            let git = try pool?.take(root: root, user: user) ?? LibraryGit(root: root, user: user, now: now)
            try git.recoverInterruptedWrites()
            return (git, lock)
        }
        self.mode = mode
        self.commits = commits
    }

    deinit {
        guard let pool = commits?.pool else { return }
        if pool.defersCommits { pool.endWriting() } else { pool.give(git) }
    }

    /// Runs `body` in a transaction of `mode`, the lock released when it returns; what it
    /// throws is surfaced as a `LibraryError`.
    package static func run<Result>(
        root: URL, user: String, purpose: String, mode: Mode = .atomic,
        now: @escaping @Sendable () -> Date = { Date() }, commits: LibraryCommits? = nil,
        _ body: (LibraryTransaction) throws -> Result
    ) throws -> Result {
        let transaction = try LibraryTransaction(
            root: root, user: user, purpose: purpose, mode: mode, now: now, commits: commits)
        return try withExtendedLifetime(transaction) { try LibraryError.surfacing { try body(transaction) } }
    }

    // MARK: What every mode may do

    package var root: URL { git.root }
    package var user: String { git.user }
    /// This clone's device id, which its commits and sessions carry.
    package var device: String { git.device }
    /// The branch HEAD is on.
    package var branch: String { git.branch }
    /// The repository, for what reads git (a history, a merge base) inside the lock.
    package var repository: Repository { git.repository }
    /// Every path this transaction committed and the bytes it committed there (nil: removed):
    /// what the launch index records as its writes.
    package var committedChanges: [String: Data?] { git.committedChanges }

    /// Writes `changes` (path → new bytes, nil to delete) and commits them together, all or
    /// nothing (`LibraryGit.apply`). Returns nil when nothing changed or the commit is made
    /// behind the write.
    @discardableResult
    package func apply(changes: [String: Data?], message: CommitMessage, protectingUncommittedEdits: Bool = false)
        throws -> ObjectID?
    {
        try git.apply(changes: changes, message: message, protectingUncommittedEdits: protectingUncommittedEdits)
    }

    /// Writes and commits a session recorded outside a study (`rote review`), all or nothing.
    @discardableResult
    package func applySession(_ session: SessionFile, progress: [String: Data]) throws -> ObjectID? {
        try git.applySession(session, progress: progress)
    }

    /// Library paths changed in the work tree since the last commit.
    package func pendingPaths() throws -> [String] { try git.pendingPaths() }

    /// Commits a study session a kill interrupted, from its snapshot
    /// (`LibraryGit.recoverInterruptedSession`); true when there was one. Holding the lock is
    /// what says the session that wrote the snapshot is not running.
    @discardableResult
    package func recoverInterruptedSession() throws -> Bool { try git.recoverInterruptedSession() }

    // MARK: A study session's

    /// The session so far, rewritten after every answer: the journal of `.session`.
    package static let sessionSnapshotPath = LibraryGit.sessionSnapshotPath
    /// A study session's whole state beside its snapshot, for going on after a kill.
    package static let sessionStatePath = LibraryGit.sessionStatePath

    /// Commits one finished study session: its session file and the progress files it wrote.
    @discardableResult
    package func commitSession(_ session: SessionFile, progress: [String: Data]) throws -> ObjectID? {
        precondition(mode == .session, "commitSession in a \(mode) transaction; open it with mode: .session")
        return try git.commitSession(session, progress: progress)
    }

    /// Commits whatever library files changed in the work tree (hand edits, an interrupted
    /// session); nil when clean.
    @discardableResult
    package func commitPending() throws -> ObjectID? { try git.commitPending() }

    // MARK: A sync's

    /// Checks out `target` over `head` and moves the branch to it, journaled.
    package func moveBranchAndWorkTree(from head: Commit, to target: Commit, message: String) throws {
        precondition(mode == .sync, "moveBranchAndWorkTree in a \(mode) transaction; open it with mode: .sync")
        try git.moveBranchAndWorkTree(from: head, to: target, message: message)
    }

    /// `message` with the trailers every Rote commit carries (a session's: its own learner's
    /// and device's).
    package func rendered(_ message: CommitMessage, for session: SessionFile? = nil) -> String {
        git.rendered(message, for: session)
    }
    /// Who this library's commits are by.
    package func signature() throws -> Signature { try git.signature() }
    /// Explains git lock files a crash left, removing those no live process could own.
    package func explainStaleLocks() throws { try git.explainStaleLocks() }
    /// Removes `lock` (a git lock file) when no live process could own it.
    package static func removeIfStale(_ lock: URL, repository: URL) throws {
        try LibraryGit.removeIfStale(lock, repository: repository)
    }
}

/// How a `Library`'s writes are committed: at once (a command), or behind them, in order, by
/// one committer (`rote serve`, whose writes return before their commit, each journaled
/// first). Either way the git of the last write stays open for the next, with git's index
/// already read. A `Library` holds one (`Library.commits`) and each of its transactions
/// commits by it; what is behind it (`LibraryGitPool`, `PendingCommit`) is this module's own.
package final class LibraryCommits: Sendable {
    let pool: LibraryGitPool

    /// `deferred`: commits made behind the writes (`rote serve`).
    package init(deferred: Bool) {
        pool = LibraryGitPool(defersCommits: deferred)
    }

    /// Waits until every write's commit is made (or the committer stopped).
    package func waitForCommits() { pool.waitForCommits() }
    package func commitsMade() async { await pool.commitsMade() }
    /// Why the committer stopped, when it did: its journals stay for the next writer.
    package var committerError: (any Error)? { pool.committerError }
    /// Writes journaled and not yet committed.
    package var pendingCommits: Int { pool.pendingCommits }
    /// git's index as the last commit left it, so a reader can tell another process's change.
    package var lastCommittedIndexStamp: FileStamp? { pool.lastCommittedIndexStamp }
    /// How many writes changed settings (a profile, a deck), for readers that cache them.
    package var settingsWrites: Int { pool.settingsWrites }
    /// Holds the committer back (a test of what a crash between write and commit leaves).
    package func suspendCommits() { pool.suspendCommits() }
    package func resumeCommits() { pool.resumeCommits() }
}
