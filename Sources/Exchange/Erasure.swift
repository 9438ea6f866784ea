import Foundation
public import Git
import RoteModel
public import RoteStore
import Subprocess

/// `rote forget USER`: the right to erasure (seed 004). Deletes every file of the learner in
/// one commit marked `Rote-Erasure: USER`, which sync honours — a clone that changed those
/// files meanwhile does not bring them back. `purgeHistory` also rewrites the history so no
/// commit holds them.
public enum Erasure {
    public struct Result: Sendable {
        public var files: [String]
        public var commit: ObjectID?
        /// True when rote.yaml named the learner as `default_user` and no longer does.
        public var clearedDefaultUser: Bool
    }

    /// The learner's files: in the last commit and in the work tree (uncommitted ones too).
    package static func files(of user: String, git: LibraryTransaction) throws -> [String] {
        let prefix = LibraryPaths(user: user).folder + "/"
        var paths = Set<String>()
        if let tree = try git.repository.headCommit()?.tree() {
            for file in try tree.files() where file.path.hasPrefix(prefix) { paths.insert(file.path) }
        }
        let folder = git.root.appending(path: prefix)
        if let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) {
            let rootPath = git.root.standardizedFileURL.path + "/"
            for case let url as URL in walker
            where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                paths.insert(String(url.standardizedFileURL.path.dropFirst(rootPath.count)))
            }
        }
        return paths.sorted()
    }

    /// The commit message of an erasure; its trailer is what sync looks for.
    public static func message(user: String, files: Int) -> CommitMessage {
        CommitMessage(
            subject:
                "Forget \(user): erase their profile, progress and sessions (\(files) file\(files == 1 ? "" : "s"))",
            body: """
                The learner asked for their data to be erased. Syncing keeps these files deleted even
                where another clone changed them meanwhile.
                """,
            trailers: [.init(SessionCommitMessage.erasureTrailer, user)])
    }

    /// Deletes the learner's files from the work tree and commits the deletion. The caller holds
    /// the library lock.
    package static func forget(_ user: String, git: LibraryTransaction) throws -> Result {
        guard Slug.isValidUser(user) else {
            throw LibraryError(.invalidUser, "'\(user)' is not a learner name (lowercase letters, digits, _ . -)")
        }
        let files = try files(of: user, git: git)
        guard !files.isEmpty else {
            throw LibraryError(
                .notFound,
                "no learner '\(user)' in this library (nothing under \(LibraryPaths(user: user).folder)/, now or in the last commit)"
            )
        }
        var changes: [String: Data?] = [:]
        var clearedDefault = false
        let manifestURL = git.root.appending(path: LibraryLocation.manifestName)
        if let data = FileManager.default.contents(atPath: manifestURL.path),
            LibraryManifest.decode(data, path: LibraryLocation.manifestName).0?.defaultUser == user
        {
            // rote.yaml is written by people: only the one line goes, comments and layout stay.
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let kept = lines.filter { line in
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("default_user:") else { return true }
                let value =
                    text.dropFirst("default_user:".count).split(separator: "#").first?.trimmingCharacters(
                        in: .whitespaces) ?? ""
                return value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) != user
            }
            changes[LibraryLocation.manifestName] = Data(kept.joined(separator: "\n").utf8)
            clearedDefault = true
        }
        // Every file by name, so the one all-or-nothing write (`LibraryGit.apply`) journals each:
        // a kill half-way puts them all back rather than leaving a deletion that a later
        // commit would take without its erasure trailer.
        for file in files { changes[file] = .some(nil) }
        let commit = try git.apply(changes: changes, message: message(user: user, files: files.count))
        return Result(files: files, commit: commit, clearedDefaultUser: clearedDefault)
    }

    /// What a history purge will do and what the person must do on the remote and other
    /// clones; printed before asking for confirmation.
    /// With `scope`, the history rewrite takes only that part of the learner's files (the
    /// passage practice a withdrawal of consent erased).
    package static func purgeExplanation(user: String, git: LibraryTransaction, scope: String? = nil) -> String {
        let remotes = (try? git.repository.remoteNames()) ?? []
        let branch = git.branch
        let what = scope ?? LibraryPaths(user: user).folder + "/"
        var text = """
            This rewrites every commit of this library so that none holds \(what).
            Commit ids change from the first commit that touched those files.

            Before you go on, know what this clone cannot do for you:
            """
        if remotes.isEmpty {
            text +=
                "\n  - This library has no remote. Copies made with git clone or rote clone still hold the old history: delete them, or run this command there too."
        } else {
            text += """

                  - The remote\(remotes.count == 1 ? "" : "s") (\(remotes.joined(separator: ", "))) still hold\(remotes.count == 1 ? "s" : "") the old history. Afterwards push the rewritten
                    history with: git -C \(git.root.path) push --force \(remotes.contains("origin") ? "origin" : remotes[0]) \(branch)
                    Until then `rote sync` refuses to run, since merging the old history would bring the files back.
                  - Every other clone (other machines, other people) must not sync its old history back:
                    delete it and clone again (`rote clone URL`), or there run
                    git fetch origin && git reset --hard origin/\(branch)
                    after the force push. `rote sync` in such a clone refuses, and says so.
                  - A hosting service may keep the old commits (pull requests, forks, caches, backups);
                    ask it to purge them.
                """
        }
        text +=
            scope != nil
            ? """

              - Commit messages keep their summaries (a study commit names the decks it studied).
            """
            : """

              - Commit messages keep the learner's name in their trailers (Rote-User, Rote-Erasure) and
                the session summaries; the files themselves, profile, progress, sessions, are gone.
            """
        return text
    }

    public struct PurgeReport: Sendable {
        /// Commits re-created without the learner's files.
        public var rewritten: Int
        /// References moved to the rewritten history.
        public var references: [String]
        /// True when unreachable objects were pruned (by `git gc`).
        public var pruned: Bool
        public var pruneNote: String?
    }

    /// Rewrites every local branch, remote-tracking branch and tag so that no commit holds
    /// `profiles/<user>/`; commits that never held them keep their ids. Authors, committers,
    /// dates and messages are kept. Reflogs are deleted; unreachable objects are pruned with
    /// the system `git gc` when git is installed (libgit2 cannot prune). The caller holds the
    /// library lock and has committed the erasure (the work tree must not hold the files).
    package static func purgeHistory(_ user: String, git: LibraryTransaction) async throws -> PurgeReport {
        let prefix = LibraryPaths(user: user).folder
        if FileManager.default.fileExists(atPath: git.root.appending(path: prefix).path) {
            throw LibraryError(.outOfOrder, "\(prefix)/ is still in the work tree; run `rote forget \(user)` first")
        }
        return try await purgeHistory(paths: [prefix], reason: "rote forget \(user) --purge-history", git: git)
    }

    /// Rewrites every local branch, remote-tracking branch and tag so that each of `paths`
    /// (files or folders) is, in every commit, what it is in the last commit: gone where it
    /// is gone now, and the current version where it was rewritten (a session file that lost
    /// its passage attempts). Commits that need no change keep their ids. The caller holds
    /// the library lock and has committed the erasure.
    package static func purgeHistory(paths: [String], reason: String, git: LibraryTransaction) async throws
        -> PurgeReport
    {
        let repository = git.repository
        let headTree = try repository.headCommit()?.tree()
        var current: [String: Data] = [:]
        for path in paths {
            if let id = headTree?.entryID(atPath: path), let data = try? repository.blob(id) { current[path] = data }
        }
        let references =
            try repository.references(withPrefix: "refs/heads/") + repository.references(withPrefix: "refs/remotes/")
            + repository.references(withPrefix: "refs/tags/")
        var mapping: [ObjectID: ObjectID] = [:]
        var rewritten = 0
        for commit in try repository.commitsParentsFirst(from: references.map(\.target)) {
            let tree = try commit.tree()
            let parents = try commit.parents()
            let newParents = parents.map { mapping[$0.id] ?? $0.id }
            var changes: [String: Data?] = [:]
            for path in paths {
                guard let id = tree.entryID(atPath: path), id != headTree?.entryID(atPath: path) else { continue }
                changes[path] = .some(current[path])
            }
            if changes.isEmpty, newParents == parents.map(\.id) {
                mapping[commit.id] = commit.id
                continue
            }
            let newTree = changes.isEmpty ? tree : try repository.buildTree(from: tree, changes: changes)
            let id = try repository.createCommit(
                tree: newTree, parents: try newParents.map(repository.commit), message: commit.rawMessage,
                author: try commit.authorSignature(), committer: try commit.committerSignature(), updateReference: nil)
            mapping[commit.id] = id
            rewritten += 1
        }
        var moved: [String] = []
        for reference in references {
            guard let target = mapping[reference.target], target != reference.target else { continue }
            try repository.setReference(named: reference.name, to: target, message: reason, expected: reference.target)
            moved.append(reference.name)
        }
        for name in try repository.references(withPrefix: "refs/").map(\.name) + ["HEAD"] {
            try repository.deleteReflog(of: name)
        }
        for name in ["refs/stash", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD"] {
            try repository.deleteReference(named: name)
        }
        for name in ["ORIG_HEAD", "FETCH_HEAD"] {
            try? FileManager.default.removeItem(at: repository.gitDirectory.appending(path: name))
        }
        if let head = try repository.headCommit() {
            let index = try repository.index()
            try index.read(try head.tree())
            try index.write()
        }
        var report = PurgeReport(rewritten: rewritten, references: moved, pruned: false)
        // No git on the PATH throws: then nothing was pruned, and the note below says so.
        if let gc = try? await run(
            .name("git"), arguments: ["-C", git.root.path, "gc", "--quiet", "--prune=now"], output: .discarded,
            error: .discarded)
        {
            report.pruned = gc.terminationStatus.isSuccess
        }
        if !report.pruned {
            report.pruneNote =
                "the old objects are unreachable but still in .git/objects until pruned; install git and run `git -C \(git.root.path) gc --prune=now` (libgit2 cannot prune)"
        }
        return report
    }
}
