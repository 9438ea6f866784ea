import Foundation
import Git

/// Keeps a library's `LibraryGit` open between writes, for a process that writes again and
/// again (`rote serve`): the next write finds the repository open and git's index already read
/// (`Index.reloadIfChanged` reads it again only when another process changed it). At 100k
/// entries reading the 155 000-entry index is a third of a commit's time. Only a writer holding
/// the library's lock takes the git, so two writers never use it at once.
///
/// With `defersCommits` (`rote serve`), a write's commit is made behind it: the writer's git
/// writes the commit as a `PendingCommit` journal (durable before the write returns), and one
/// serial committer of this pool commits the journals in order with a git of its own. The pool
/// holds the library's lock from the first writer until every journal is committed, so no
/// other process writes in between; one writer of this process at a time, as with the lock.
final class LibraryGitPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: LibraryGit?
    /// True when writers' commits are made behind them (`rote serve`).
    let defersCommits: Bool
    /// The library's lock, while a writer of this process is at work or commits are pending.
    private var libraryLock: LibraryLock?
    /// The purpose of this process's writer at work, if one is.
    private var activeWriter: String?
    /// The git writers use: its commits become journals.
    private var writerGit: LibraryGit?
    /// The git the committer commits with (only on `commits`).
    private var committerGit: LibraryGit?
    /// Journals written and not yet committed.
    private var pending = 0
    private var lastNumber = -1
    /// Why the committer stopped, when it did: the journals stay on disk for the next writer.
    private var stalled: (any Error)?
    private let commits = DispatchQueue(label: "rote commits")
    private let gate = NSCondition()
    private var suspended = false

    init(defersCommits: Bool = false) {
        self.defersCommits = defersCommits
    }

    func take(root: URL, user: String) -> LibraryGit? {
        let git: LibraryGit? = lock.withLock {
            defer { idle = nil }
            return idle
        }
        guard let git, git.root == root, git.user == user else { return nil }
        git.startWriting()
        return git
    }

    func give(_ git: LibraryGit) {
        lock.withLock { idle = git }
    }

    // MARK: Deferred commits

    /// Starts this process's one writer: takes the library's lock unless the pool holds it,
    /// undoes a write a kill left half-done and, when none of this process's commits is
    /// pending (the first write, or after the committer stopped), commits journals left on
    /// disk — by a `rote serve` that crashed — before anything is read. Throws `Busy` when
    /// another writer of this process or another process is at work.
    func beginWriting(root: URL, user: String, purpose: String, now: @escaping @Sendable () -> Date) throws
        -> LibraryGit
    {
        let (git, recover): (LibraryGit, Bool) = try lock.withLock {
            if let activeWriter { throw LibraryLock.Busy(holder: "pid \(getpid()): rote \(activeWriter)") }
            if libraryLock == nil { libraryLock = try LibraryLock(root: root, purpose: purpose) }
            activeWriter = purpose
            do {
                if writerGit == nil || writerGit?.root != root || writerGit?.user != user {
                    let git = try LibraryGit(root: root, user: user, now: now)
                    git.deferral = self
                    writerGit = git
                }
            } catch {
                activeWriter = nil
                releaseLockIfIdle()
                throw error
            }
            writerGit!.startWriting()
            return (writerGit!, pending == 0 || stalled != nil)
        }
        do {
            try git.recoverInterruptedApply()
            if recover {
                // Nothing of this process is queued (or the committer stopped): whatever is on
                // disk was left before, and is committed now, in order, before this write.
                try commitLeftJournals(root: root, user: user)
            }
        } catch {
            endWriting()
            throw error
        }
        return git
    }

    /// Makes every commit promised so far, in order, and those left on disk by a process that
    /// stopped (`commitPendingJournals` with the committer's git, on the committer's queue):
    /// what recovery does before it reads HEAD to decide whether a killed write landed.
    func commitLeftJournals(root: URL, user: String) throws {
        try commits.sync {
            try committer(root: root, user: user).commitPendingJournals()
            lock.withLock {
                pending = 0
                stalled = nil
            }
        }
    }

    /// Ends this process's writer; the lock is let go once no commit is pending.
    func endWriting() {
        lock.withLock {
            activeWriter = nil
            releaseLockIfIdle()
        }
    }

    /// Called with `lock` held. After a failure the lock is let go with journals still on
    /// disk, so the next writer, here or in another process, can commit them.
    private func releaseLockIfIdle() {
        if activeWriter == nil, pending == 0 || stalled != nil { libraryLock = nil }
    }

    private func committer(root: URL, user: String) throws -> LibraryGit {
        if let git = committerGit, git.root == root { return git }
        let git = try LibraryGit(root: root, user: user)
        committerGit = git
        return git
    }

    /// The name of the next journal, after every one on disk.
    func nextJournalName(root: URL) -> String {
        lock.withLock {
            if lastNumber < 0 {
                lastNumber =
                    PendingCommit.journals(in: root).compactMap { Int($0.lastPathComponent.prefix(12)) }.max() ?? 0
            }
            lastNumber += 1
            return String(format: "%012d", lastNumber) + "-\(UUID().uuidString.lowercased()).commit"
        }
    }

    /// Writes `commit` durably as the journal `name` and queues its commit.
    func enqueue(_ commit: PendingCommit, root: URL, user: String, name: String) throws {
        try AtomicFile.write(commit.encoded(), to: root.appending(path: "\(PendingCommit.folder)/\(name)"))
        let settings = commit.changes.keys.contains(where: Self.isSettingsFile)
        lock.withLock {
            pending += 1
            if settings { settingsWriteCount += 1 }
        }
        commits.async { [self] in
            gate.lock()
            while suspended { gate.wait() }
            gate.unlock()
            guard lock.withLock({ stalled == nil }) else { return }
            do {
                try committer(root: root, user: user).commitPendingJournals(committed: { [self] in
                    // Git's index as this commit left it: a reader that finds it so knows the
                    // change is this process's own, already in what it holds.
                    var info = stat()
                    let stamp = stat(root.appending(path: ".git/index").path, &info) == 0 ? FileStamp(info) : nil
                    lock.withLock {
                        pending = max(0, pending - 1)
                        committedIndexStamp = stamp
                    }
                })
            } catch {
                LibraryNotices.send(
                    "rote: could not commit a write (\(error)); its files are saved and the next write commits it")
                lock.withLock { stalled = error }
            }
            lock.withLock { releaseLockIfIdle() }
        }
    }

    /// Waits until every commit queued so far is made (or the committer stopped: `stalled`).
    func waitForCommits() {
        commits.sync {}
    }

    /// Waits, without blocking a thread, until every commit queued so far is made.
    func commitsMade() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in commits.async { done.resume() } }
    }

    /// Git's index (`.git/index`) as this pool's committer last left it: a process that keeps
    /// the library open tells its own commits — already in what it holds, through the writes
    /// it recorded — from another process's, after which it opens the library again.
    var lastCommittedIndexStamp: FileStamp? { lock.withLock { committedIndexStamp } }
    private var committedIndexStamp: FileStamp?

    /// How many writes of this pool changed a file an open library reads once, when it opens
    /// (`LibrarySettings`: `rote.yaml`, a deck's `deck.yaml`, a profile): a process that keeps
    /// the library open opens it again when this moved.
    var settingsWrites: Int { lock.withLock { settingsWriteCount } }
    private var settingsWriteCount = 0

    static func isSettingsFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return path == LibraryLocation.manifestName
            || (parts.count == 3 && parts[0] == LibraryPaths.corpus && parts[2] == "deck.yaml")
            || (parts.count == 3 && parts[0] == LibraryPaths.profiles && parts[2] == "profile.yaml")
    }

    /// Why the committer stopped, when it did; its journals wait for the next writer.
    var committerError: (any Error)? { lock.withLock { stalled } }

    /// How many journals are written and not yet committed.
    var pendingCommits: Int { lock.withLock { pending } }

    /// Holds the committer before its next commit, until `resumeCommits` — for tests that
    /// look at a library between a write's answer and its commit.
    func suspendCommits() {
        gate.withLock { suspended = true }
    }

    func resumeCommits() {
        gate.withLock {
            suspended = false
            gate.broadcast()
        }
    }
}

extension LibraryGit {

    /// Writes `changes` (library path → new bytes, nil to delete) into the work tree and
    /// commits them as one commit: all or nothing. Each file is written atomically; should a
    /// write or the commit fail, every file already written is put back as it was, so the
    /// library is left exactly as before and the error is rethrown. Returns the commit, or nil
    /// when the changes match what is already committed.
    ///
    /// Callers hold the `LibraryLock` and have checked everything they can before calling, so
    /// a failure here means the disk or git failed, not the input. With
    /// `protectingUncommittedEdits`, a path (or folder) with edits not yet committed is refused
    /// (`LibraryError.Code.uncommittedChanges`) rather than overwritten — for imports, which
    /// rewrite content a person may be editing.
    @discardableResult
    func apply(changes: [String: Data?], message: CommitMessage, protectingUncommittedEdits: Bool = false)
        throws -> ObjectID?
    {
        try apply(changes: changes, message: rendered(message), protectingUncommittedEdits: protectingUncommittedEdits)
    }

    func apply(changes: [String: Data?], message: String, protectingUncommittedEdits: Bool) throws -> ObjectID? {
        if protectingUncommittedEdits {
            let pending = Set(try pendingPaths())
            let touched = changes.keys.filter { path in
                pending.contains(path) || pending.contains { $0.hasPrefix(path + "/") }
            }.sorted()
            if !touched.isEmpty {
                throw LibraryError(
                    .uncommittedChanges,
                    "\(touched.prefix(3).joined(separator: ", "))\(touched.count > 3 ? " and \(touched.count - 3) more" : "") \(touched.count == 1 ? "has" : "have") uncommitted changes that this would overwrite; commit them (`rote sync` or `git commit`) or discard them, then run it again"
                )
            }
        }
        // A git lock in the way fails the whole operation before any file is written. A write
        // whose commit is made behind it touches no git lock (the committer's are its own).
        if deferral == nil { try explainStaleLocks() }
        // Every path is checked before any file is written: a symbolic link on the way out of
        // the library fails the whole operation, not its second half.
        for path in changes.keys { try AtomicFile.requireInside(path, in: root) }
        try recoverInterruptedApply()
        var previous: [(path: String, data: Data?)] = []
        for path in changes.keys.sorted() {
            let old = FileManager.default.contents(atPath: root.appending(path: path).path)
            if old != (changes[path] ?? nil) { previous.append((path, old)) }
        }
        // Deferred, the change is done once its pending commit is written: the journal names it.
        let pendingName = deferral?.nextJournalName(root: root)
        try writeJournal(previous, changes: changes, message: message, pending: pendingName)
        do {
            for (path, old) in previous {
                let url = root.appending(path: path)
                let new = changes[path] ?? nil
                try interruption?("file written")
                if let new {
                    try AtomicFile.write(new, at: path, in: root)
                } else if old != nil {
                    try FileManager.default.removeItem(at: url)
                    removeEmptyFolders(above: url)
                }
            }
            let id = try commit(changes: changes, message: message, journalName: pendingName)
            // A kill here leaves the journal with a commit made (or, deferred, promised and
            // perhaps already made by the committer): recovery finds it in HEAD.
            try interruption?("committed")
            try? FileManager.default.removeItem(at: journalURL)
            return id
        } catch {
            if error is SimulatedKill { throw error }
            defer { try? FileManager.default.removeItem(at: journalURL) }
            for (path, data) in previous.reversed() {
                let url = root.appending(path: path)
                if let data {
                    try? AtomicFile.write(data, to: url)
                } else {
                    try? FileManager.default.removeItem(at: url)
                    removeEmptyFolders(above: url)
                }
            }
            throw error
        }
    }

    /// `.git/rote/apply-journal`: what an `apply` in progress is changing, so that one killed
    /// half-way — an import that wrote 215 of 3 000 files — is undone by the next command that
    /// writes, instead of being committed as it stands by `rote sync`. Its first line is the
    /// commit the change builds on (`none` before the first), its second the change's subject,
    /// then one line per file: the blob id of the file's old bytes (kept in git's object store),
    /// or `-` when it did not exist, a tab, and the path. A change whose commit is made behind
    /// it (`PendingCommit`) has `pending <journal>` as its first line, and each file's line
    /// holds, after the old bytes' id and a space, the id of the bytes the change gives it (or
    /// `-` for a removal): the committer removes the journal once its commit is made, so
    /// whether the change landed is read from HEAD, never from the journal's absence.
    var journalURL: URL { root.appending(path: ".git/rote/apply-journal") }

    func writeJournal(
        _ previous: [(path: String, data: Data?)], changes: [String: Data?], message: String, pending: String? = nil
    ) throws {
        var text = try pending.map { "pending \($0)\n" } ?? "\(repository.headCommit()?.id.hex ?? "none")\n"
        text += (message.split(separator: "\n").first.map(String.init) ?? "") + "\n"
        for (path, old) in previous {
            text += try old.map { try repository.writeBlob($0).hex } ?? "-"
            if pending != nil {
                // Written to the object store now; the commit would write the same blob.
                text += try " " + ((changes[path] ?? nil).map { try repository.writeBlob($0).hex } ?? "-")
            }
            text += "\t\(path)\n"
        }
        try AtomicFile.write(text, to: journalURL)
    }

    /// Whether a change whose commit was deferred (`pending <journal>`) is in HEAD. Every
    /// commit promised before it is made first — by this process's committer for a writer of
    /// `rote serve` — so HEAD is then the library with every promised write in, this one's
    /// included when its journal was written; the change landed when HEAD's tree holds the
    /// bytes it gives each of its files. A journal's absence says nothing: the committer
    /// removes each journal once its commit is made.
    func deferredChangeLanded(_ lines: ArraySlice<Substring>) throws -> Bool {
        if let deferral { try deferral.commitLeftJournals(root: root, user: user) } else { try commitPendingJournals() }
        let tree = try repository.headCommit()?.tree()
        for line in lines where !line.isEmpty {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let ids = parts[0].split(separator: " ")
            let committed = tree?.entryID(atPath: String(parts[1]))
            if ids.count == 2 {
                let wanted = ids[1] == "-" ? nil : ObjectID(hex: String(ids[1]))
                if committed != wanted { return false }
            } else {
                // A journal from before new bytes were recorded: landed if the file moved on.
                let old = ids[0] == "-" ? nil : ObjectID(hex: String(ids[0]))
                if committed == old { return false }
            }
        }
        return true
    }

    /// Finishes what a killed `apply` left: when its commit landed there is nothing to do;
    /// when it did not, every file it named is put back as it was, and a note says so. Called
    /// under the library's lock before any change is written or pending work is committed.
    func recoverInterruptedApply() throws {
        try recoverInterruptedCheckout()
        guard let text = try? String(contentsOf: journalURL, encoding: .utf8) else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2 else {
            try? FileManager.default.removeItem(at: journalURL)
            return
        }
        let landed: Bool
        if lines[0].hasPrefix("pending ") {
            landed = try deferredChangeLanded(lines.dropFirst(2))
        } else {
            landed = String(lines[0]) != (try repository.headCommit()?.id.hex ?? "none")
        }
        if !landed {
            // The write that was killed may have left its temporary file.
            try removeAbandonedTemporaryFiles()
            var restored = 0
            // The index may already hold the new files (a kill after it was written): it is
            // put back with the work tree, so nothing of the change stays staged.
            let index = try repository.index()
            try index.reloadIfChanged()
            defer { try? index.write() }
            for line in lines.dropFirst(2) where !line.isEmpty {
                let parts = line.split(separator: "\t", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let path = String(parts[1])
                let committed = try repository.headCommit()?.tree().entryID(atPath: path)
                // The old bytes' id; a deferred change's line has the new bytes' after it.
                let old = parts[0].split(separator: " ").first ?? ""
                if old == "-" {
                    if FileManager.default.fileExists(atPath: root.appending(path: path).path) {
                        try AtomicFile.remove(at: path, in: root)
                        removeEmptyFolders(above: root.appending(path: path))
                    }
                } else if let id = ObjectID(hex: String(old)) {
                    try AtomicFile.write(try repository.blob(id), at: path, in: root)
                }
                if let committed {
                    try index.stage(try repository.blob(committed), id: committed, at: path, workTree: root)
                } else {
                    try index.remove(path: path)
                }
                restored += 1
            }
            LibraryNotices.send(
                "rote: undid an interrupted change (\(lines[1])): \(restored) file\(restored == 1 ? "" : "s") put back as before; run it again"
            )
        }
        try FileManager.default.removeItem(at: journalURL)
    }

    /// Removes folders left empty by a deletion, up to (not including) the library root.
    private func removeEmptyFolders(above file: URL) {
        var folder = file.deletingLastPathComponent().standardizedFileURL
        let top = root.standardizedFileURL.path
        while folder.path.hasPrefix(top + "/"),
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
        {
            try? FileManager.default.removeItem(at: folder)
            folder = folder.deletingLastPathComponent()
        }
    }
}
