package import Foundation
public import Git
public import RoteModel
public import RoteStore
import Scheduling

/// What one `rote sync` did.
public struct SyncReport: Sendable, Equatable {
    /// The commit made of pending work before fetching, if any.
    public var committedPending: Bool = false
    public var fastForwarded: Bool = false
    public var merged: MergeSummary?
    public var pushed: Bool = false
    /// Fetch–merge–push rounds (more than one when a push was rejected).
    public var rounds: Int = 0
    /// Files left with conflict markers (a side that is not YAML that parses, or a file
    /// that is not YAML, changed on the same lines by both sides).
    public var conflicts: [String] = []
    /// Values two devices changed differently in the files this sync brought in, each kept
    /// in its file's `conflicts:` list (`EntryMerge`).
    public var editConflicts: [EntryConflict] = []
    /// Files with conflict markers that this sync did not push, so no other device gets a
    /// file it cannot read; fixed and committed, the next sync pushes.
    public var heldBack: [String] = []
    /// Files of an erased learner the merge dropped (docs/sync.md, "The rules").
    public var erasureDrops: [ErasureDrop] = []
    public var upToDate: Bool = false
    /// True when a study session a kill interrupted was committed first, from its snapshot.
    public var recoveredSession: Bool = false
}

/// A value two devices changed differently, in the file at `path`.
public struct EntryConflict: Sendable, Equatable {
    public var path: String
    public var conflict: EditConflict

    package init(path: String, conflict: EditConflict) {
        self.path = path
        self.conflict = conflict
    }

    /// `corpus/english-a1/run.yaml:52: two devices changed 'translation' differently: …`.
    public var text: String { "\(path):\(conflict.line.map(String.init) ?? "1"): \(conflict.message)" }
}

/// What a merge brought in from the other side.
public struct MergeSummary: Sendable, Equatable {
    public var sessions: Int
    public var reviews: Int
    public var files: Int

    public var text: String {
        "\(sessions) session\(sessions == 1 ? "" : "s"), \(reviews) review\(reviews == 1 ? "" : "s"), \(files) file\(files == 1 ? "" : "s")"
    }
}

/// `rote sync`: commit pending work → fetch → fast-forward or merge in process (with Rote's
/// merge drivers) → commit the merge → push; a rejected push (someone pushed meanwhile)
/// fetches and merges again, a bounded number of times.
package final class LibrarySync {
    /// The sync's transaction (mode `.sync`): it holds the library's lock for every round.
    package let git: LibraryTransaction
    package let remoteName: String
    package let credentials: Credentials
    package let maximumRounds: Int
    let progress: (String) -> Void

    package init(
        transaction git: LibraryTransaction, remoteName: String = "origin", credentials: Credentials = Credentials(),
        maximumRounds: Int = 5,
        progress: @escaping (String) -> Void = { _ in }
    ) {
        precondition(git.mode == .sync, "a sync runs in a transaction of mode .sync")
        self.git = git
        self.remoteName = remoteName
        self.credentials = credentials
        self.maximumRounds = maximumRounds
        // Progress lines quote the remote's URL; a password in it stays hidden.
        self.progress = { progress(RemoteURL.redactingUserinfo($0)) }
    }

    var repository: Repository { git.repository }

    /// Syncs the library at `root` in a transaction of its own, taken here and released when
    /// the sync ends: a sync run by itself, as a script or a test runs one.
    package static func sync(
        root: URL, user: String, now: @escaping @Sendable () -> Date = { Date() }, remoteName: String = "origin",
        credentials: Credentials = Credentials(), progress: @escaping (String) -> Void = { _ in }
    ) throws -> SyncReport {
        let transaction = try LibraryTransaction(root: root, user: user, purpose: "sync", mode: .sync, now: now)
        return try LibrarySync(
            transaction: transaction, remoteName: remoteName, credentials: credentials, progress: progress
        ).sync()
    }

    package func sync() throws -> SyncReport {
        var report = SyncReport()
        guard LibraryLocation.isLibrary(git.root) else {
            throw LibraryError(.notALibrary, "\(git.root.path) has no rote.yaml, so it is not a Rote library")
        }
        try installMergeDrivers()
        // The merge rules of this Rote, whatever the library's tracked .gitattributes predates.
        try MergeRules.installInfoAttributes(gitDirectory: repository.gitDirectory)

        // Before pending work: a killed session's answers are its own commit, with its session
        // file, not part of "pending work".
        report.recoveredSession = try git.recoverInterruptedSession()
        if report.recoveredSession {
            progress("Committed the answers of an interrupted session (see `rote log`).")
        }
        report.committedPending = try git.commitPending() != nil
        guard let remote = try repository.remote(named: remoteName) else {
            let names = (try? repository.remoteNames()) ?? []
            let hint =
                names.isEmpty
                ? "add one with `git -C \(git.root.path) remote add \(remoteName) URL` (a path, file://, git://, ssh or https URL)"
                : "this library's remotes are \(names.joined(separator: ", ")); use --remote NAME"
            throw SyncError(.noRemote, "no remote named '\(remoteName)'; \(hint)")
        }
        let branch = git.branch
        // The token goes only to the host of this library's origin (or ROTE_GIT_TOKEN_HOST),
        // whichever remote this sync talks to.
        let credentials = credentials.scopedToLibrary(repository)
        let shownURL = RemoteURL.redactingUserinfo(remote.url)
        for round in 1...maximumRounds {
            report.rounds = round
            progress("Fetching from \(remoteName) (\(shownURL))…")
            let trackingName = "refs/remotes/\(remoteName)/\(branch)"
            let before = try repository.reference(named: trackingName)
            // A sync killed mid-fetch leaves its ref lock (`refs/remotes/…/main.lock`), and
            // every later fetch was refused (found by the fault-injection test).
            try git.explainStaleLocks()
            do {
                try remote.fetch(credentials: credentials)
            } catch let error as GitError {
                throw SyncError(
                    .network, "cannot fetch from \(remoteName) (\(shownURL)): \(error.message)", cause: error)
            }
            try refuseRewrittenHistory(trackingName: trackingName, before: before, branch: branch)
            if let theirs = try repository.reference(named: "refs/remotes/\(remoteName)/\(branch)") {
                try integrate(theirs, into: &report)
            }
            if try isRemoteCurrent(branch: branch) {
                return report
            }
            report.heldBack = try filesWithConflictMarkers(toPush: branch)
            if !report.heldBack.isEmpty { return report }
            progress("Pushing to \(remoteName)…")
            do {
                try removeStaleLocks(inFolderRemote: remote.url, branch: branch)
            } catch LibraryError.Code.busy {
                // Another device's push holds the folder remote's branch lock at this moment: a
                // race like a rejected push, which the next round wins or merges.
                progress("Another device is pushing at the same moment; trying again…")
                backOff(round)
                continue
            }
            do {
                try remote.push(refspecs: ["refs/heads/\(branch):refs/heads/\(branch)"], credentials: credentials)
                // Some transports (a plain folder as the remote) update the branch without a
                // compare-and-swap, so a push racing another can be overwritten after it
                // "succeeded". Look again: the remote must now contain what was pushed.
                try remote.fetch(credentials: credentials)
                if try pushedWorkIsOnRemote(branch: branch) {
                    report.pushed = true
                    return report
                }
                progress("Another device pushed at the same moment; merging again…")
                backOff(round)
                continue
            } catch let error as GitError where error.isNonFastForward {
                progress("The push was rejected: \(remoteName) has new commits. Fetching and merging again…")
                backOff(round)
                continue
            } catch let error as GitError where error.isRejectedPush {
                // A hook or a rule on the server said no; another round would only hear it again.
                throw SyncError(
                    .pushRefused,
                    "\(remoteName) (\(shownURL)) refused the push of \(branch): \(error.message). Your commits are safe in this "
                        + "library. Fix what the remote's message asks for (or ask whoever runs the remote), then run `rote sync` again.",
                    cause: error)
            } catch let error as GitError {
                throw SyncError(.network, "cannot push to \(remoteName) (\(shownURL)): \(error.message)", cause: error)
            }
        }
        throw SyncError(
            .pushRejected, "\(remoteName) kept changing while syncing (\(maximumRounds) rounds); run `rote sync` again")
    }

    /// A push into a folder (a remote given as a path) locks the branch there itself, with
    /// `refs/heads/<branch>.lock`; a push killed half-way leaves that lock behind, and every
    /// later push was refused as if the remote kept changing (found by the fault-injection
    /// test). A lock no live process holds is removed, as this library's own git locks are.
    func removeStaleLocks(inFolderRemote url: String, branch: String) throws {
        let path: String
        if url.hasPrefix("file://") {
            path = String(url.dropFirst("file://".count))
        } else if url.hasPrefix("/") {
            path = url
        } else {
            return
        }
        var folder = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: folder.appending(path: ".git").path) {
            folder = folder.appending(path: ".git")
        }
        for lock in [folder.appending(path: "refs/heads/\(branch).lock"), folder.appending(path: "packed-refs.lock")] {
            try LibraryTransaction.removeIfStale(lock, repository: folder)
        }
    }

    /// Waits a random while, longer each round, before trying again after losing a race to
    /// push: devices that sync at the same moment would otherwise keep colliding in step.
    func backOff(_ round: Int) {
        Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.15) * Double(round))
    }

    /// Refuses to merge when the remote branch replaced commits this clone last saw there
    /// with rewritten copies (`rote forget --purge-history` keeps each commit's message,
    /// author and dates): merging the old history into the new would bring erased files
    /// back. The remote-tracking branch is put back, so every later sync refuses too until
    /// the histories agree again.
    ///
    /// A remote that merely lost commits is not a rewrite: a plain folder as the remote has
    /// no compare-and-swap, so two devices pushing at once can overwrite each other's push.
    /// Those commits are still here, and the usual merge puts them back on the remote.
    func refuseRewrittenHistory(trackingName: String, before: ObjectID?, branch: String) throws {
        guard let before, let after = try repository.reference(named: trackingName), after != before,
            !(try repository.isDescendant(after, of: before))
        else { return }
        func fingerprint(_ commit: Commit) -> String {
            "\(commit.authorTime.timeIntervalSince1970) \(commit.committerTime.timeIntervalSince1970) \(commit.authorEmail)\n\(commit.message)"
        }
        // A rewritten copy has the same message, author and dates, and its tree is the
        // original's with files taken out (or the same tree on new parents); two devices'
        // commits with the same message in the same second differ by changed files instead.
        // The walks cover only the commits that differ between the two tips.
        var gone: [String: [Commit]] = [:]
        for commit in try repository.log(from: before, hiding: after) {
            gone[fingerprint(commit), default: []].append(commit)
        }
        func isRewrittenCopy(_ copy: Commit, of original: Commit) throws -> Bool {
            let (old, new) = (try original.tree(), try copy.tree())
            return try repository.changedPaths(from: old, to: new).allSatisfy {
                old.entryID(atPath: $0) != nil && new.entryID(atPath: $0) == nil
            }
        }
        let rewritten = try repository.log(from: after, hiding: before).contains { copy in
            // Either side may hold the rewrite: the remote, or this clone before pushing it.
            try (gone[fingerprint(copy)] ?? []).contains {
                try isRewrittenCopy(copy, of: $0) || isRewrittenCopy($0, of: copy)
            }
        }
        guard rewritten else { return }
        try repository.setReference(named: trackingName, to: before, message: "rote sync: refused a rewritten history")
        throw SyncError(
            .mergeFailed,
            """
            \(remoteName)/\(branch) (\(after.description.prefix(7))) does not continue the history this clone last synced \
            (\(before.description.prefix(7))): one side's history was rewritten, e.g. by `rote forget --purge-history`. \
            Merging the two would bring erased data back, so nothing was merged. If this clone rewrote it, push it: \
            git -C \(git.root.path) push --force \(remoteName) \(branch). If the remote was rewritten, clone the library \
            again (`rote clone URL`), or run `git fetch \(remoteName) && git reset --hard \(remoteName)/\(branch)` here \
            (commits not yet pushed from this clone are then dropped).
            """)
    }

    /// True when the remote branch is HEAD or a descendant of it.
    func pushedWorkIsOnRemote(branch: String) throws -> Bool {
        guard let head = try repository.headCommit()?.id,
            let remoteHead = try repository.reference(named: "refs/remotes/\(remoteName)/\(branch)")
        else { return false }
        if remoteHead == head { return true }
        return try repository.isDescendant(remoteHead, of: head)
    }

    /// True when the remote branch already points at HEAD (nothing to push).
    func isRemoteCurrent(branch: String) throws -> Bool {
        try repository.reference(named: "refs/remotes/\(remoteName)/\(branch)") == repository.headCommit()?.id
    }

    /// Brings the fetched commit into HEAD: nothing, a fast-forward, or a merge commit.
    func integrate(_ theirs: ObjectID, into report: inout SyncReport) throws {
        let analysis = try repository.mergeAnalysis(theirs: theirs)
        guard let head = try repository.headCommit() else { return }
        if analysis.upToDate {
            report.upToDate = true
            return
        }
        report.upToDate = false
        let theirCommit = try repository.commit(theirs)
        if analysis.fastForward {
            try git.moveBranchAndWorkTree(from: head, to: theirCommit, message: "rote sync: fast-forward")
            report.fastForwarded = true
            let changed = try repository.changedPaths(from: try head.tree(), to: try theirCommit.tree())
            report.merged = try summary(ours: head.tree(), merged: theirCommit.tree(), changed: changed)
            report.editConflicts += try editConflicts(in: theirCommit.tree(), paths: changed)
            return
        }
        let merge = try mergeCommit(ours: head, theirs: theirCommit)
        let summary = merge.summary
        let mergeCommit = merge.commit
        try git.moveBranchAndWorkTree(
            from: head, to: try repository.commit(mergeCommit), message: "rote sync: merge \(remoteName)")
        report.merged = summary
        report.conflicts += merge.conflicts
        report.editConflicts += try editConflicts(in: merge.tree, paths: merge.changed)
        report.erasureDrops += merge.erasureDrops
    }

    struct Resolution {
        var contents: Data?
        var hasMarkers: Bool
    }

    /// Decides a path the merge could not: a deletion against a change, or text both sides
    /// changed on the same lines.
    /// The merge of `theirs` into `ours` as a sync makes it, up to its commit, moving no branch
    /// and writing no file: libgit2's merge with Rote's drivers, every conflict resolved by
    /// `resolve`, the merged tree, what it brought in, and the merge commit. The merge
    /// benchmark times this, so its figure is the product's.
    package func mergeCommit(ours head: Commit, theirs theirCommit: Commit) throws -> (
        tree: Tree, commit: ObjectID, summary: MergeSummary, changed: [String], conflicts: [String],
        erasureDrops: [ErasureDrop]
    ) {
        let index = try repository.mergeCommits(ours: head.id, theirs: theirCommit.id)
        var conflicts: [String] = []
        if index.hasConflicts {
            let base = try repository.mergeBase(head.id, theirCommit.id)
            for conflict in try index.conflicts() {
                let resolution = try resolve(conflict, ours: head.id, theirs: theirCommit.id, base: base)
                try index.resolveConflict(at: conflict.path, with: resolution.contents)
                if resolution.hasMarkers { conflicts.append(conflict.path) }
            }
        }
        // An erasure on either side also drops the files the other side made meanwhile, which
        // no conflict shows: a file new on one side merges without one.
        let (tree, drops) = try ErasureRule.enforce(
            on: try index.writeTree(), ours: head, theirs: theirCommit, in: repository)
        let oursTree = try head.tree()
        let changed = try repository.changedPaths(from: oursTree, to: tree)
        let summary = try summary(ours: oursTree, merged: tree, changed: changed)
        var body: [String] = []
        if !conflicts.isEmpty {
            body.append("Conflicts left with markers (fix, then commit): \(conflicts.joined(separator: ", "))")
        }
        for drop in drops { body.append("Erasure kept: \(drop.text).") }
        let message = git.rendered(
            CommitMessage(
                subject: "Sync: merge \(summary.text) from \(remoteName)", body: body.joined(separator: "\n\n")))
        let signature = try git.signature()
        let commit = try repository.createCommit(
            tree: tree, parents: [head, theirCommit], message: message, author: signature, committer: signature,
            updateReference: nil)
        return (tree, commit, summary, changed, conflicts, drops)
    }

    func resolve(_ conflict: IndexConflict, ours: ObjectID, theirs: ObjectID, base: ObjectID?) throws -> Resolution {
        let ancestor = try conflict.ancestor.map(repository.blob)
        let oursData = try conflict.ours.map(repository.blob)
        let theirsData = try conflict.theirs.map(repository.blob)
        switch (oursData, theirsData) {
        case let (ours?, theirs?):
            // Both sides have the file and no driver could merge it: git's markers, so the
            // learner sees both versions and `rote check` points at the lines.
            let text = try Repository.mergeText(
                ancestor: ancestor, ours: ours, theirs: theirs, path: conflict.path, oursLabel: "ours (this device)",
                theirsLabel: "theirs (\(remoteName))")
            return Resolution(contents: text.contents, hasMarkers: !text.isClean)
        case let (kept?, nil), let (nil, kept?):
            // Deleted on one side, changed on the other. A learner's progress stays deleted
            // only when the deletion was an erasure (`rote forget`); otherwise the change wins.
            let deletingSide = oursData == nil ? ours : theirs
            if MergeKind.forPath(conflict.path) != nil, let user = LibraryPaths.learner(ofPath: conflict.path),
                try ErasureRule.erased(conflict.path, of: user, on: deletingSide, since: base, in: repository)
            {
                return Resolution(contents: nil, hasMarkers: false)
            }
            return Resolution(contents: kept, hasMarkers: false)
        case (nil, nil):
            return Resolution(contents: nil, hasMarkers: false)
        }
    }

    /// Rote's drivers for this library's merges, with its decks' and learners' settings read
    /// afresh (a sync may follow edits to them).
    package func installMergeDrivers() throws {
        try MergeDrivers.register(for: repository, settings: MergeDrivers.settingsResolver(root: git.root))
    }

    /// The `conflicts:` records of the entry and deck files among `paths` in `tree`.
    func editConflicts(in tree: Tree, paths: [String]) throws -> [EntryConflict] {
        var found: [EntryConflict] = []
        for path in paths where MergeKind.forPath(path) == .entry && path.hasSuffix(".yaml") {
            guard let id = tree.entryID(atPath: path) else { continue }
            found += EntryMerge.conflicts(in: try repository.blob(id), path: path).map {
                EntryConflict(path: path, conflict: $0)
            }
        }
        return found
    }

    /// The files HEAD changed since the remote branch that hold git's conflict markers: a
    /// merge this sync (or an earlier one) could not settle. They are not pushed: another
    /// device would fast-forward to a file it cannot read. None on a first push, which only
    /// carries what this clone committed itself.
    func filesWithConflictMarkers(toPush branch: String) throws -> [String] {
        guard let remoteHead = try repository.reference(named: "refs/remotes/\(remoteName)/\(branch)"),
            let head = try repository.headCommit()
        else { return [] }
        let tree = try head.tree()
        return try repository.changedPaths(from: try repository.commit(remoteHead).tree(), to: tree).filter { path in
            guard let id = tree.entryID(atPath: path) else { return false }
            return YAMLSource.hasConflictMarkers(try repository.blob(id))
        }
    }

    /// Counts what the merge brought in beyond this side: session files added, review ids
    /// added to progress files, and files changed.
    func summary(ours: Tree, merged: Tree, changed: [String]) throws -> MergeSummary {
        var sessions = 0
        var reviews = 0
        for path in changed {
            guard let kind = MergeKind.forPath(path) else { continue }
            if kind == .immutable, LibraryPaths.isSession(path), ours.entryID(atPath: path) == nil { sessions += 1 }
            if kind == .progress, let newID = merged.entryID(atPath: path) {
                let after = Set(ProgressFile.decode(try repository.blob(newID), path: path).0?.reviews.map(\.id) ?? [])
                let before =
                    try ours.entryID(atPath: path).map {
                        Set(ProgressFile.decode(try repository.blob($0), path: path).0?.reviews.map(\.id) ?? [])
                    } ?? []
                reviews += after.subtracting(before).count
            }
        }
        return MergeSummary(sessions: sessions, reviews: reviews, files: changed.count)
    }
}

/// `rote forget` marks its commit with `Rote-Erasure: <user>`; a merge keeps such a deletion.
package enum ErasureRule {
    /// True when an erasure commit of `user` reachable from `tip` but not from `base` is the
    /// one that deleted `path` — another deletion of the same learner's file does not count.
    static func erased(
        _ path: String, of user: String, on tip: ObjectID, since base: ObjectID?, in repository: Repository
    ) throws -> Bool {
        for commit in try repository.log(from: tip, limit: 10_000) {
            if let base {
                if commit.id == base { continue }
                if try repository.isDescendant(base, of: commit.id) { continue }
            }
            guard SessionCommitMessage.trailer(SessionCommitMessage.erasureTrailer, in: commit.message) == user else {
                continue
            }
            let deletedHere =
                try commit.tree().entryID(atPath: path) == nil
                && (try commit.parents().contains { try $0.tree().entryID(atPath: path) != nil })
            if deletedHere { return true }
        }
        return false
    }
}
