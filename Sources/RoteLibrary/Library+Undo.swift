public import Foundation
import Git
public import RoteModel
import RoteStore
import Scheduling

/// `rote undo`: takes back the learner's last study session or last single write in one new
/// commit, never a rewrite of history (`docs/sync.md`, "Undo").
///
/// What is undone is the newest commit of this learner's (`Rote-User`) that no later undo
/// took back (`Rote-Undo`), merges aside. Its changes are taken back file by file:
/// - a progress file keeps every review: those the commit added are marked `undone` (they
///   stay in the history and count nowhere), those it removed come back, and its status,
///   reset, ladder and reflection go back to what they were before it; the state is replayed;
/// - any other file of the learner's (the session file, `profile.yaml`, letter attempts) goes
///   back to its bytes before the commit, or away when the commit created it.
///
/// A later change **depends** on the commit when it touched what the undo would take back:
/// a progress file with a review after the commit's first review of it that the commit did
/// not add (that review was scheduled from the state being undone), or whose status, reset,
/// ladder or reflection changed since; any other file whose bytes changed since. Then nothing
/// is written and the error names that change.
extension Library {
    /// What `undo` took back, or would (`dryRun`).
    public struct Undo: Sendable, Equatable {
        /// The undone commit's id, in full.
        public var commit: String
        /// Its subject (`Study: 12 reviews …`, `Suspend: english-a1/run`).
        public var subject: String
        public var date: Date
        /// A study session (`Rote-Session`), not a single write.
        public var isSession: Bool
        /// Reviews marked `undone`.
        public var reviewsUndone: Int
        /// Reviews the commit had removed, put back.
        public var reviewsRestored: Int
        /// Entries whose progress file the undo changes.
        public var entries: [String]
        /// The learner's other files put back as they were before (a session file, the profile).
        public var restored: [String]
        /// The undo's own commit; nil on a dry run, or when commits are made behind the write.
        public var undoCommit: String?
    }

    /// Takes back the learner's last session or single write in one commit (see above);
    /// with `dryRun`, only says what it would take back. With `session`, only when the last
    /// write is that study session (its `Rote-Session` id): a button under a session's
    /// summary must not undo something else. Throws `.notFound` when there is
    /// nothing of the learner's to undo, `.wrongKind` when the commit changed files outside
    /// the learner's folder or erased them, and `.dependedOn` naming the later change that
    /// depends on it.
    public func undo(session: String? = nil, dryRun: Bool = false, now: Date = Date()) throws -> Undo {
        try requireProfile()
        // The last write must be in the history to be found: behind-the-write commits
        // (`rote serve`) are made first.
        commits?.waitForCommits()
        return try write(purpose: "undo") { git in
            let repository = git.repository
            guard let head = try repository.headCommit() else {
                throw LibraryError(.notFound, "Nothing to undo: the library has no commits yet.")
            }
            let log = try repository.log(from: head.id, limit: Self.undoSearchLimit)
            guard let target = try Self.lastUndoable(in: log, user: user) else {
                throw LibraryError(
                    .notFound,
                    "Nothing of \(user)'s to undo: no study session or write of yours in the last \(log.count) commits that is not undone already."
                )
            }
            let label = Self.describe(target)
            if let session,
                SessionCommitMessage.trailer(SessionCommitMessage.sessionTrailer, in: target.message) != session
            {
                throw LibraryError(
                    .dependedOn,
                    "That session is no longer your last write (\(label) is), or it is undone already; `rote undo` takes back the newest first."
                )
            }
            if SessionCommitMessage.trailer(SessionCommitMessage.erasureTrailer, in: target.message) != nil {
                throw LibraryError(.wrongKind, "Cannot undo \(label): it is an erasure (`rote forget`).")
            }
            guard let parent = try target.parents().first else {
                throw LibraryError(.wrongKind, "Cannot undo \(label): it is the library's first commit.")
            }
            let after = try target.tree()
            let before = try parent.tree()
            let changed = try repository.changedPaths(from: before, to: after)
            let folder = paths.folder + "/"
            let outside = changed.filter { !$0.hasPrefix(folder) }
            guard outside.isEmpty else {
                throw LibraryError(
                    .wrongKind,
                    "Cannot undo \(label): it changed files outside \(folder) (\(outside.prefix(3).joined(separator: ", "))\(outside.count > 3 ? ", …" : "")). Only your own sessions and writes are undone; use `git revert` for the rest."
                )
            }
            func blob(_ tree: Tree, _ path: String) throws -> Data? {
                try tree.entryID(atPath: path).map { try repository.blob($0) }
            }
            let undoneAt = Timestamp.wholeSeconds(now)
            var changes: [String: Data?] = [:]
            var result = Undo(
                commit: target.id.hex, subject: target.summary, date: target.authorTime,
                isSession: SessionCommitMessage.trailer(SessionCommitMessage.sessionTrailer, in: target.message) != nil,
                reviewsUndone: 0, reviewsRestored: 0, entries: [], restored: [])
            for path in changed {
                let then = try blob(after, path)
                let current = FileManager.default.contents(atPath: root.appending(path: path).path)
                func refuse() throws -> Never {
                    throw try Self.dependedOn(label, path: path, log: log, until: target, repository: repository)
                }
                // A progress file the commit removed comes back like any other file.
                guard LibraryPaths.isProgress(path), then != nil else {
                    guard current == then else { try refuse() }
                    changes[path] = try blob(before, path)
                    result.restored.append(path)
                    continue
                }
                guard let current, let present = ProgressFile.decode(current, path: path).0,
                    let committed = then.flatMap({ ProgressFile.decode($0, path: path).0 })
                else { try refuse() }
                let earlier = try blob(before, path).flatMap { ProgressFile.decode($0, path: path).0 }
                let ids = Set(committed.reviews.map(\.id))
                let added = ids.subtracting(earlier?.reviews.map(\.id) ?? [])
                let firstAdded = committed.reviews.filter { added.contains($0.id) }.map(\.at).min()
                let laterReview = present.reviews.contains { review in
                    !ids.contains(review.id) && review.undone == nil && firstAdded.map { review.at >= $0 } ?? false
                }
                // `status_at` alone may have moved since: an undo of a later write sets it when
                // it puts a status back, and leaves the status as this commit left it.
                guard !laterReview, present.status == committed.status, present.resetAt == committed.resetAt,
                    present.ladder == committed.ladder,
                    present.reflection == committed.reflection
                else { try refuse() }
                var file = present
                for index in file.reviews.indices where added.contains(file.reviews[index].id) {
                    guard file.reviews[index].undone == nil else { continue }
                    file.reviews[index].undone = undoneAt
                    result.reviewsUndone += 1
                }
                let kept = Set(file.reviews.map(\.id))
                // Those this commit removed (not those a later change did).
                let removed = (earlier?.reviews ?? []).filter { !ids.contains($0.id) && !kept.contains($0.id) }
                file.reviews = (file.reviews + removed).sorted(by: ReviewEvent.replayOrder)
                result.reviewsRestored += removed.count
                let old = earlier ?? ProgressFile(entry: committed.entry)
                if old.status != committed.status {
                    // The undo is the latest word on the status, so a merge with a device
                    // that still has the undone one keeps it (last writer wins by status_at).
                    file.status = old.status
                    file.statusAt = undoneAt
                }
                file.resetAt = old.resetAt
                file.ladder = old.ladder
                file.reflection = old.reflection
                let deck = String(file.entry.split(separator: "/")[0])
                file.state =
                    file.scheduledReviews.isEmpty
                    ? nil
                    : Scheduler.replay(
                        file.scheduledReviews, entryID: file.entry,
                        settings: .forDeck(decks[deck], profile: profile, deckName: deck))
                changes[path] = Data(file.render().utf8)
                result.entries.append(file.entry)
            }
            guard !dryRun else { return result }
            let id = try git.apply(changes: changes, message: Self.undoMessage(result, label: label))
            result.undoCommit = id?.hex
            return result
        }
    }

    /// How far back `undo` looks for the learner's last write.
    static let undoSearchLimit = 5_000

    /// The newest commit of `user`'s in `log` (newest first) that is neither a merge, nor an
    /// undo, nor undone by a later one.
    static func lastUndoable(in log: [Commit], user: String) throws -> Commit? {
        var undone = Set<String>()
        for commit in log where commit.parentCount == 1 {
            let message = commit.message
            if let target = SessionCommitMessage.trailer(SessionCommitMessage.undoTrailer, in: message) {
                undone.insert(target)
                continue
            }
            guard SessionCommitMessage.trailer(SessionCommitMessage.userTrailer, in: message) == user,
                !undone.contains(commit.id.hex)
            else { continue }
            return commit
        }
        return nil
    }

    /// The refusal naming the newest commit after `target` that changed `path`, or the work
    /// tree when no commit did.
    static func dependedOn(_ label: String, path: String, log: [Commit], until target: Commit, repository: Repository)
        throws -> LibraryError
    {
        let what =
            LibraryPaths.isProgress(path)
            ? "your progress with \(path.split(separator: "/").dropFirst(3).joined(separator: "/").replacing(".yaml", with: ""))"
            : path
        // The commit that made the change rather than the merge that brought it, when there is one.
        var later: [Commit] = []
        for commit in log {
            if commit.id == target.id { break }
            later.append(commit)
        }
        for merges in [false, true] {
            for commit in later where (commit.parentCount > 1) == merges {
                let tree = try commit.tree()
                let parents = try commit.parents()
                guard parents.contains(where: { (try? $0.tree().entryID(atPath: path)) != tree.entryID(atPath: path) })
                else { continue }
                return LibraryError(
                    .dependedOn,
                    "Cannot undo \(label): a later change depends on it — \(describe(commit)) changed \(what) after it. `rote undo` takes back only your own latest write; revert that change first (`git revert \(commit.id.hex.prefix(10))`) if it should go too."
                )
            }
        }
        return LibraryError(
            .dependedOn,
            "Cannot undo \(label): \(path) changed after it and the change is not committed. Commit it or put it back first."
        )
    }

    /// `1a2b3c4d5e "Suspend: english-a1/run" (2026-11-21 09:14)`.
    static func describe(_ commit: Commit) -> String {
        "\(commit.id.hex.prefix(10)) \"\(commit.summary)\" (\(Timestamp.local(commit.authorTime)))"
    }

    static func undoMessage(_ undo: Undo, label: String) -> CommitMessage {
        var parts: [String] = []
        if undo.reviewsUndone > 0 {
            parts.append(
                "\(undo.reviewsUndone) review\(undo.reviewsUndone == 1 ? "" : "s") marked undone (they stay in the history and schedule nothing)"
            )
        }
        if undo.reviewsRestored > 0 {
            parts.append("\(undo.reviewsRestored) removed review\(undo.reviewsRestored == 1 ? "" : "s") put back")
        }
        let entries = undo.entries.count
        if entries > 0 { parts.append("\(entries) entr\(entries == 1 ? "y" : "ies") as before") }
        if !undo.restored.isEmpty { parts.append("put back: " + undo.restored.joined(separator: ", ")) }
        return CommitMessage(
            subject: "Undo: \(undo.subject)",
            body: "Takes back \(label)" + (parts.isEmpty ? "." : ": " + parts.joined(separator: "; ") + "."),
            trailers: [.init(SessionCommitMessage.undoTrailer, undo.commit)])
    }
}
