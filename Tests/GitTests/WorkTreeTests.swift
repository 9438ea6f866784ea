import Foundation
import TestSupport
import Testing

@testable import Git

/// Status, checkout, references, history and lock files on real repositories.
@Suite struct WorkTreeTests {
    static func repository(_ directory: TemporaryDirectory) throws -> Repository {
        let repository = try Repository.create(at: directory.url)
        try GitTest.commit(
            [
                "a.txt": "a\n", "b.txt": "b\n", "profiles/ana/profile.yaml": "user: ana\n",
                "corpus/w/run.yaml": "word: run\n",
            ],
            message: "Base", in: repository)
        return repository
    }

    /// After a copy of the library every file's times and inode differ from git's index;
    /// a refreshing scan writes the new stat data back, as `git status` does, so the next scan
    /// need not hash every file again. A plain scan leaves the index alone.
    @Test func aRefreshingStatusWritesNewStatDataBack() async throws {
        let directory = TemporaryDirectory()
        let repository = try Self.repository(directory)
        func indexedTimes() async -> String {
            await GitTest.git(["ls-files", "--debug", "a.txt"], in: directory.url).split(separator: "\n").filter {
                $0.contains("mtime:")
            }.joined()
        }
        // Past the file system's clock tick (file times are kept to the nanosecond, but the
        // kernel advances them a tick at a time), so the new times differ from the indexed ones.
        try await Task.sleep(for: .milliseconds(50))
        directory.write("a.txt", "a\n")  // same bytes, new times and (written anew) maybe a new inode
        let before = await indexedTimes()
        #expect(try repository.statusPaths().isEmpty)
        #expect(await indexedTimes() == before, "a plain scan writes nothing")
        #expect(try repository.statusPaths(refreshingIndex: true).isEmpty)
        #expect(await indexedTimes() != before, "the refreshed stat data is in the index")
        #expect(await GitTest.git(["status", "--porcelain"], in: directory.url).isEmpty)
    }

    @Test func statusListsModifiedAddedAndDeletedPaths() async throws {
        let directory = TemporaryDirectory()
        let repository = try Self.repository(directory)
        #expect(try repository.statusPaths().isEmpty)

        directory.write("a.txt", "a changed\n")  // modified, unstaged
        directory.remove("b.txt")  // deleted, unstaged
        directory.write("profiles/ana/progress/w/run.yaml", "reviews: []\n")  // untracked, in a new folder
        directory.write("staged.txt", "s\n")  // added to the index
        let index = try repository.index()
        try index.add(path: "staged.txt")
        try index.write()
        #expect(try repository.statusPaths() == ["a.txt", "b.txt", "profiles/ana/progress/w/run.yaml", "staged.txt"])
        #expect(try repository.statusPaths(pathspecs: ["profiles"]) == ["profiles/ana/progress/w/run.yaml"])
        #expect(try repository.statusPaths(pathspecs: ["*.txt"]) == ["a.txt", "b.txt", "staged.txt"])
        #expect(try repository.statusPaths(pathspecs: ["corpus"]).isEmpty)

        // Ignored files are not changes.
        directory.write(".gitignore", "*.tmp\n")
        directory.write("scratch.tmp", "t\n")
        #expect(try repository.statusPaths(pathspecs: ["scratch.tmp"]).isEmpty)

        // The system git agrees.
        let porcelain = await GitTest.git(["status", "--porcelain", "-uall"], in: directory.url)
        let gitPaths = porcelain.split(separator: "\n").map { String($0.dropFirst(3)) }.filter { $0 != ".gitignore" }
            .sorted()
        #expect(gitPaths == (try repository.statusPaths()).filter { $0 != ".gitignore" })
    }

    @Test func checkoutIsSafeUnlessForced() async throws {
        let directory = TemporaryDirectory()
        let repository = try Self.repository(directory)
        let head = try #require(try repository.headCommit())
        let next = try repository.buildTree(
            from: try head.tree(), changes: ["a.txt": Data("a from elsewhere\n".utf8), "new.txt": Data("n\n".utf8)])

        // An uncommitted edit to a.txt blocks a safe checkout that would overwrite it.
        directory.write("a.txt", "my unsaved edit\n")
        let error = try #require(throws: GitError.self) { try repository.checkoutTree(next) }
        #expect(error.isCheckoutConflict, "\(error)")
        #expect(directory.read("a.txt") == "my unsaved edit\n")

        // Limited to other paths, the safe checkout goes ahead.
        try repository.checkoutTree(next, paths: ["new.txt"])
        #expect(directory.read("new.txt") == "n\n")
        #expect(directory.read("a.txt") == "my unsaved edit\n")

        // Forced, HEAD's content comes back.
        try repository.checkoutHead(force: true, paths: ["a.txt"])
        #expect(directory.read("a.txt") == "a\n")
        #expect(try repository.statusPaths() == ["new.txt"])

        // The staging index can be reset to a tree without touching files.
        let index = try repository.index()
        try index.read(try head.tree())
        try index.write()
        #expect(await Shell.run("git", ["diff", "--cached", "--quiet"], in: directory.url).status == 0)
    }

    @Test func referencesHistoryAndTrailers() async throws {
        let directory = TemporaryDirectory()
        let repository = try Repository.create(at: directory.url)
        #expect(repository.headBranchName == "main")
        #expect(try repository.reference(named: "HEAD") == nil)
        let start = Date(timeIntervalSince1970: 1_795_255_200)
        var ids: [ObjectID] = []
        for number in 0..<4 {
            ids.append(
                try GitTest.commit(
                    ["n.txt": "\(number)\n"],
                    message: "Session \(number)\n\nRote-Session: s\(number)\nRote-Device: laptop\n",
                    in: repository, at: start.addingTimeInterval(Double(number) * 60)))
        }
        #expect(try repository.reference(named: "HEAD") == ids[3])
        #expect(try repository.reference(named: "refs/heads/main") == ids[3])
        #expect(try repository.reference(named: "refs/heads/none") == nil)

        let log = try repository.log(from: ids[3])
        #expect(log.map(\.id) == ids.reversed())
        #expect(try repository.log(from: ids[3], limit: 2).map(\.id) == [ids[3], ids[2]])
        #expect(log[0].committerTime == start.addingTimeInterval(180))
        #expect(log[0].authorTime == start.addingTimeInterval(180))
        #expect(
            try log[0].trailers() == [
                Trailer(key: "Rote-Session", value: "s3"), Trailer(key: "Rote-Device", value: "laptop"),
            ])

        // Moving a branch, with and without the expected current value.
        try repository.setReference(named: "refs/heads/backup", to: ids[1], message: "backup")
        #expect(try repository.reference(named: "refs/heads/backup") == ids[1])
        #expect(throws: GitError.self) {
            try repository.setReference(named: "refs/heads/backup", to: ids[2], message: "stale", expected: ids[0])
        }
        try repository.setReference(named: "refs/heads/backup", to: ids[2], message: "ok", expected: ids[1])
        #expect(try repository.reference(named: "refs/heads/backup") == ids[2])
        // "HEAD" moves the branch it points to, not HEAD itself.
        try repository.setReference(named: "HEAD", to: ids[0], message: "rewind")
        #expect(repository.headBranchName == "main")
        #expect(await GitTest.git(["rev-parse", "main"], in: directory.url) == ids[0].hex + "\n")
        #expect(await GitTest.git(["reflog", "-1", "--format=%gs", "main"], in: directory.url) == "rewind\n")

        #expect(try repository.mergeBase(ids[3], ids[1]) == ids[1])
        #expect(try repository.isDescendant(ids[3], of: ids[0]))
        #expect(try !repository.isDescendant(ids[0], of: ids[3]))
        #expect(try !repository.isDescendant(ids[0], of: ids[0]))
        let orphan = try GitTest.looseCommit(
            try repository.buildTree(from: nil, changes: ["o": Data()]), parents: [], message: "o", in: repository)
        #expect(try repository.mergeBase(orphan, ids[3]) == nil)
        await GitTest.expectSound(directory.url)
    }

    @Test func staleLockFilesAreListedAndBlockCommits() async throws {
        let directory = TemporaryDirectory()
        let repository = try Self.repository(directory)
        #expect(repository.staleLockFiles().isEmpty)
        let git = directory.url.appending(path: ".git")
        // A crashed git left the branch locked: the commit object is written, moving HEAD's branch fails.
        directory.write(".git/refs/heads/main.lock", "")
        let before = try repository.headCommit()?.id
        let error = try #require(throws: GitError.self) {
            try GitTest.commit(["a.txt": "again\n"], message: "Blocked", in: repository)
        }
        #expect(error.isLocked, "\(error)")
        #expect(try repository.headCommit()?.id == before)

        directory.write(".git/index.lock", "")
        directory.write(".git/rote/session.lock", "")  // Rote's own, not git's
        #expect(
            repository.staleLockFiles().map(\.path) == [
                git.appending(path: "index.lock").path, git.appending(path: "refs/heads/main.lock").path,
            ])
        #expect(throws: GitError.self) { try repository.index().write() }

        for lock in repository.staleLockFiles() { try FileManager.default.removeItem(at: lock) }
        try GitTest.commit(["a.txt": "again\n"], message: "Unblocked", in: repository)
        await GitTest.expectSound(directory.url)
    }
}
