public import Foundation
public import Git
import RoteModel
public import RoteStore
public import RoteSync

/// A library's life in git: creating one, cloning one, teaching git to merge its files,
/// syncing, and the study sessions its history records. `mergeDriver` is the command git runs
/// for Rote's merge drivers (the `rote` binary's absolute path), written into `.git/config` so
/// a plain `git pull` merges as `rote sync` does.
extension Library {
    /// Creates a library at `root` as `creator` describes it (starter decks, the learner, the
    /// first commit) and sets git up to merge its files. Returns the first commit.
    @discardableResult
    public static func create(at root: URL, with creator: LibraryCreator, mergeDriver: String) throws -> ObjectID {
        let commit = try LibraryError.surfacing { try creator.create(at: root) }
        try setUpGit(at: root, mergeDriver: mergeDriver)
        return commit
    }

    /// Writes Rote's merge drivers into the repository's config and attributes
    /// (`MergeDrivers.configure`): what `rote setup-git` does, and `init`, `clone` and `sync`.
    public static func setUpGit(at root: URL, mergeDriver: String) throws {
        try LibraryError.surfacing { try MergeDrivers.configure(try repository(at: root), rotePath: mergeDriver) }
    }

    /// Clones the library at `url` into `destination` and sets git up to merge its files.
    /// Throws when the clone fails, or when what was cloned has no `rote.yaml`.
    public static func clone(from url: String, to destination: URL, credentials: Credentials, mergeDriver: String)
        throws
    {
        try LibraryError.surfacing {
            let shown = RemoteURL.redactingUserinfo(url)
            do {
                // The URL becomes the clone's origin, so it is the host the token is for.
                let repository = try Repository.clone(
                    from: url, to: destination, credentials: credentials.scopingToken(to: url))
                try repository.adoptRemoteBranchIfHeadIsUnborn()
                try MergeDrivers.configure(repository, rotePath: mergeDriver)
            } catch let error as GitError {
                throw SyncError(.network, "cannot clone \(shown): \(error.message)", cause: error)
            }
            guard LibraryLocation.isLibrary(destination) else {
                throw LibraryError(
                    .notALibrary,
                    "cloned \(shown) into \(destination.path), but it has no rote.yaml, so it is not a Rote library")
            }
        }
    }

    /// Commits pending work, fetches `remote`, merges and pushes (`LibrarySync`), with git set
    /// up first so a clone made by an older Rote merges by today's rules, in this sync and in a
    /// later `git pull`. `progress` hears each step.
    public func sync(
        remote: String, credentials: Credentials, mergeDriver: String,
        progress: @escaping (String) -> Void = { _ in }
    ) throws -> SyncReport {
        let report = try LibraryError.surfacing {
            // The library's writer, like any other: beside a live `rote study` this is refused,
            // and nothing of that session is touched.
            let transaction = try LibraryTransaction(root: root, user: user, purpose: "sync", mode: .sync)
            try MergeDrivers.configure(transaction.repository, rotePath: mergeDriver)
            return try LibrarySync(
                transaction: transaction, remoteName: remote, credentials: credentials, progress: progress
            ).sync()
        }
        // What the merge brought in is for the next launch's check to read.
        indexLock.lock()
        opened = nil
        indexLock.unlock()
        return report
    }

    /// A study session as its commit records it (`SessionCommitMessage`).
    public struct SessionCommit: Sendable {
        public var user: String
        /// The device id (`Rote-Device`); nil for a commit without one.
        public var device: String?
        /// The summary after `Study: `.
        public var summary: String
        public var date: Date
        /// Committed by a recovery after the session was interrupted.
        public var recovered: Bool
        /// Taken back by a later `rote undo` (its `Rote-Undo` names this commit).
        public var undone = false
    }

    /// The study sessions in the history, newest first: this learner's, or everyone's with
    /// `allLearners`; at most `limit`.
    public func sessionCommits(allLearners: Bool, limit: Int?) throws -> [SessionCommit] {
        try LibraryError.surfacing {
            let repository = try Self.repository(at: root)
            guard let head = try repository.headCommit() else { return [] }
            var sessions: [SessionCommit] = []
            var undone = Set<String>()
            for commit in try repository.log(from: head.id) {
                if let limit, sessions.count >= limit { break }
                let message = commit.message
                if let target = SessionCommitMessage.trailer(SessionCommitMessage.undoTrailer, in: message) {
                    undone.insert(target)
                }
                guard SessionCommitMessage.trailer(SessionCommitMessage.sessionTrailer, in: message) != nil else {
                    continue
                }
                let who = SessionCommitMessage.trailer(SessionCommitMessage.userTrailer, in: message) ?? "?"
                if !allLearners, who != user { continue }
                sessions.append(
                    SessionCommit(
                        user: who,
                        device: SessionCommitMessage.trailer(SessionCommitMessage.deviceTrailer, in: message),
                        summary: commit.summary.hasPrefix("Study: ")
                            ? String(commit.summary.dropFirst(7)) : commit.summary,
                        date: commit.authorTime,
                        recovered: SessionCommitMessage.trailer(SessionCommitMessage.recoveredTrailer, in: message)
                            != nil, undone: undone.contains(commit.id.hex)))
            }
            return sessions
        }
    }

    static func repository(at root: URL) throws -> Repository {
        do {
            return try Repository.open(at: root)
        } catch let error as GitError {
            throw LibraryError(
                .notAGitRepository,
                "\(root.path) is not a git repository (\(error.message)); create a library with `rote init`",
                cause: error)
        }
    }
}
