import Foundation
import Git
import RoteModel
import Scheduling

/// Rote's use of the git repository behind a library: committing what changed, one commit per
/// study session, and the merge drivers' settings. Every write builds the new tree from the
/// previous commit's tree plus the changed paths — the work tree is never re-scanned or
/// re-added as a whole.
final class LibraryGit {
    let root: URL
    let repository: Repository
    let user: String
    let device: String
    /// `rote.yaml`'s privacy setting: whose name Rote's commits carry (`CommitAuthor`).
    let privacy: LibraryManifest.Privacy
    /// The clock commits are dated by (a test sets it).
    let now: @Sendable () -> Date
    /// Every path this git committed and the bytes it committed there (nil: removed), the
    /// latest commit's last: what a launch index records as its own writes.
    private(set) var committedChanges: [String: Data?] = [:]
    /// Set for a writer of `rote serve`: its commits are written as `PendingCommit` journals
    /// and made behind the write by the pool's committer.
    weak var deferral: LibraryGitPool?

    /// A new writer's start, for a git kept open between writers (`LibraryGitPool`): what it
    /// committed is the new writer's alone.
    func startWriting() {
        committedChanges = [:]
    }

    init(root: URL, user: String, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.root = root
        do {
            repository = try Repository.open(at: root)
        } catch let error as GitError {
            throw LibraryError(
                .notAGitRepository,
                "\(root.path) is not a git repository (\(error.message)); create a library with `rote init`",
                cause: error)
        }
        self.user = user
        self.device = DeviceIdentity.id(root: root)
        self.privacy = CommitAuthor.privacy(root: root)
        self.now = now
    }

    /// The branch HEAD is on (`main` for libraries Rote creates).
    var branch: String { repository.headBranchName ?? "main" }

    /// Paths Rote commits: the manifest, attributes, content and learners' files.
    static let libraryPathspecs = ["rote.yaml", ".gitattributes", LibraryPaths.corpus, LibraryPaths.profiles]

    /// Library paths changed in the work tree since the last commit.
    /// A write's temporary file (`AtomicFile`), left by a process killed mid-write, is never
    /// pending work: it is half a file, and `rote check` reports it.
    ///
    /// The scan writes refreshed stat data back to git's index, as `git status` does, so the
    /// cost of a copied library's new file times is paid once; when the index cannot be written
    /// (another git holds its lock) the answer is the same, only not remembered.
    func pendingPaths() throws -> [String] {
        let paths: [String]
        do {
            paths = try repository.statusPaths(pathspecs: LibraryGit.libraryPathspecs, refreshingIndex: true)
        } catch {
            paths = try repository.statusPaths(pathspecs: LibraryGit.libraryPathspecs)
        }
        return paths.filter { !AtomicFile.isTemporary(path: $0) }
    }

    /// Deletes the temporary files (`AtomicFile`) of writes whose process was killed before
    /// their rename: half files that nobody can finish and nobody was told were written, which
    /// `git status` would otherwise list for ever — and those of pending-commit journals
    /// (`PendingCommit.removeAbandonedTemporaryFiles`), which no status lists. Returns their paths.
    @discardableResult
    func removeAbandonedTemporaryFiles() throws -> [String] {
        let abandoned = try repository.statusPaths(pathspecs: LibraryGit.libraryPathspecs).filter {
            AtomicFile.isTemporary(path: $0) && AtomicFile.isAbandoned(path: $0)
        }
        for path in abandoned { try? FileManager.default.removeItem(at: root.appending(path: path)) }
        return abandoned + PendingCommit.removeAbandonedTemporaryFiles(in: root)
    }

    /// Commits `changes` (path → new bytes, nil to delete) on top of HEAD with `message`, then
    /// makes git's index match, so `git status` stays clean. Returns nil when nothing changed,
    /// or when the commit is made behind the write (a writer of `rote serve`: the commit is
    /// written as a durable `PendingCommit` journal first, and the pool commits it in order).
    @discardableResult
    func commit(changes: [String: Data?], message: CommitMessage) throws -> ObjectID? {
        try commit(changes: changes, message: rendered(message), journalName: nil)
    }

    /// `message` as this git commits it, with the trailers every Rote commit carries; a
    /// session's are its own learner's and device's, which a recovery run by another learner
    /// keeps.
    func rendered(_ message: CommitMessage, for session: SessionFile? = nil) -> String {
        message.rendered(device: session?.device ?? device, user: session?.user ?? user)
    }

    func commit(changes: [String: Data?], message: String, journalName: String?) throws -> ObjectID? {
        if let deferral {
            let pending = PendingCommit(changes: changes, message: message, user: user, date: now())
            try deferral.enqueue(
                pending, root: root, user: user, name: journalName ?? deferral.nextJournalName(root: root))
            committedChanges.merge(changes) { _, new in new }
            return nil
        }
        return try commit(changes: changes, message: message, author: try signature())
    }

    /// Commits `changes` now, as `author`.
    func commit(changes: [String: Data?], message: String, author: Signature) throws -> ObjectID? {
        try explainStaleLocks()
        let head = try repository.headCommit()
        let base = try head?.tree()
        let tree = try repository.buildTree(from: base, changes: changes)
        if let base, base.id == tree.id { return nil }
        // The commit is made without moving the branch: git's index is written first and the
        // branch moved last. A process killed between the two then leaves the index ahead of
        // HEAD (the new files staged, as a plain `git commit` would take them), never behind it
        // — an index behind HEAD stages the reverse of the commit, and the next `git commit`
        // would quietly undo it.
        let id = try repository.createCommit(
            tree: tree, parents: head.map { [$0] } ?? [], message: message, author: author, committer: author,
            updateReference: nil)
        // Only the changed entries: the rest keep the stat data that lets status skip them.
        let index = try repository.index()
        try index.reloadIfChanged()
        var changed: [String] = []
        for (path, contents) in changes {
            if let contents {
                // Already in the object store: this only hashes the bytes to name the blob.
                let blob = try repository.writeBlob(contents)
                try index.stage(contents, id: blob, at: path, workTree: root)
                if base?.entryID(atPath: path) != blob { changed.append(path) }
            } else {
                try index.remove(path: path)
                try index.removeDirectory(path)
                if base?.entryID(atPath: path) != nil { changed.append(path) }
            }
        }
        try index.write()
        try interruption?("index written")
        let summary = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        try repository.setReference(named: "HEAD", to: id, message: "commit: \(summary)", expected: head?.id)
        committedChanges.merge(changes) { _, new in new }
        ChangedPathsCache.forRecording(root: root).record(id, paths: changed)
        return id
    }

    /// The author and committer of a commit Rote makes now (`CommitAuthor`).
    func signature() throws -> Signature {
        try CommitAuthor.signature(in: repository, privacy: privacy, user: user, at: now())
    }

    /// A test's stand-in for a kill: called between the steps of a write, it throws (a
    /// `SimulatedKill` to skip every clean-up, as a real kill would) to stop it there.
    var interruption: ((String) throws -> Void)?

    /// Commits one finished study session: its session file and the progress files it wrote,
    /// with a message summarising it (`Study: 24 reviews (…) — english-a1 · 14 min`).
    /// Writes and commits a session recorded outside `rote study` (`rote review`) all or
    /// nothing: should the commit fail, no file of it is left behind, so a retry records once.
    @discardableResult
    func applySession(_ session: SessionFile, progress: [String: Data]) throws -> ObjectID? {
        var changes: [String: Data?] = progress.mapValues { $0 }
        changes[SessionFile.path(for: session)] = Data(session.render().utf8)
        return try apply(
            changes: changes, message: rendered(SessionCommitMessage.make(for: session), for: session),
            protectingUncommittedEdits: false)
    }

    @discardableResult
    func commitSession(_ session: SessionFile, progress: [String: Data], recovered: Bool = false) throws
        -> ObjectID?
    {
        var changes: [String: Data?] = progress.mapValues { $0 }
        changes[SessionFile.path(for: session)] = Data(session.render().utf8)
        return try commit(
            changes: changes,
            message: rendered(SessionCommitMessage.make(for: session, recovered: recovered), for: session),
            journalName: nil)
    }

    /// Commits whatever library files changed in the work tree: hand edits to decks, or a
    /// session interrupted before its own commit. Returns the commit, or nil when clean.
    @discardableResult
    func commitPending() throws -> ObjectID? {
        try recoverInterruptedWrites()
        let paths = try pendingPaths()
        guard !paths.isEmpty else { return nil }
        var changes: [String: Data?] = [:]
        for path in paths {
            changes[path] = FileManager.default.contents(atPath: root.appending(path: path).path)
        }
        return try commit(changes: changes, message: PendingCommitMessage.make(paths: paths, changes: changes))
    }

    /// Explains git lock files left by a crashed git or rote, and removes those no live process
    /// could own; one that a live process may own is reported, never removed. A git waiting
    /// for its editor (`git commit --edit`) has closed its `index.lock` but still owns it, so a
    /// lock counts as live while any git process works in this repository, not only while one
    /// has the file open.
    func explainStaleLocks() throws {
        for lock in repository.staleLockFiles() { try LibraryGit.removeIfStale(lock, repository: root) }
    }

    /// Removes a git lock file no live process can own (none has it open, no git works in
    /// `repository`), saying so; one a live process may own is reported, never removed.
    static func removeIfStale(_ lock: URL, repository: URL) throws {
        guard FileManager.default.fileExists(atPath: lock.path) else { return }
        if let holder = ProcessScan.processHolding(lock) ?? ProcessScan.gitProcess(workingIn: repository) {
            throw LibraryError(
                .busy,
                "\(lock.path) is in use by process \(holder); wait for it to finish (or stop it), then try again")
        }
        try? FileManager.default.removeItem(at: lock)
        LibraryNotices.send(
            "rote: removed \(lock.path), left by a git or rote process that stopped before finishing; no running process held it"
        )
    }
}
