import Foundation
import Git
import TestSupport
import Testing

@testable import RoteStore
@testable import RoteSync

/// A commit writes git's index before it moves the branch, so a process killed between the
/// two never leaves an index that stages the reverse of the commit (issue #15, item 4).
@Suite struct CommitOrderTests {
    struct Killed: Error {}

    @Test func aKillBetweenTheIndexAndTheBranchLosesNothingToAPlainGitCommit() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let git = try LibraryGit(root: directory.url, user: "ana")
        let session = "profiles/ana/sessions/2026/11/s1.yaml"
        let review = Data(
            "entry: words/go\nstatus: active\nreviews:\n  - {id: r1, at: 2026-11-20T10:00:00Z, grade: good}\n".utf8)
        directory.write("profiles/ana/progress/words/go.yaml", review)
        directory.write(session, "id: s1\n")
        git.interruption = { _ in throw Killed() }
        #expect(throws: Killed.self) {
            try git.commit(
                changes: ["profiles/ana/progress/words/go.yaml": review, session: Data("id: s1\n".utf8)],
                message: "Study")
        }
        // Someone then runs plain git: what it commits is the new files, never their removal.
        let commit = await Shell.run(
            "git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm", "by hand"],
            in: directory.url)
        #expect(commit.status == 0, "\(commit.stderr)")
        let tree = await Shell.run("git", ["ls-tree", "-r", "--name-only", "HEAD"], in: directory.url).stdout
        #expect(tree.contains("profiles/ana/progress/words/go.yaml"))
        #expect(tree.contains(session))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty)
    }

    @Test func temporaryFilesAreNeverPendingWork() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        directory.write("corpus/words/.walk.yaml.4242.7.tmp", "word: wal")
        directory.write("corpus/words/walk.yaml", "word: walk\n")
        let git = try LibraryGit(root: directory.url, user: "ana")
        #expect(try git.pendingPaths() == ["corpus/words/walk.yaml"])
        try git.commitPending()
        let tree = await Shell.run("git", ["ls-tree", "-r", "--name-only", "HEAD"], in: directory.url).stdout
        #expect(!tree.contains(".tmp"))
    }

    @Test func anApplyKilledHalfWayIsUndoneBeforeAnythingIsCommitted() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: directory.url).stdout
        let edited = "corpus/words/go.yaml"
        let original = try #require(directory.read(edited))
        var changes: [String: Data?] = [edited: Data("word: go\nrank: 2\n".utf8)]
        for index in 0..<6 { changes["corpus/big/w\(index).yaml"] = Data("word: w\(index)\n".utf8) }
        let git = try LibraryGit(root: directory.url, user: "ana")
        var written = 0
        git.interruption = { step in
            if step == "file written" {
                written += 1
                if written == 4 { throw SimulatedKill() }
            }
        }
        #expect(throws: SimulatedKill.self) { try git.apply(changes: changes, message: "Import big") }
        let halfWay = try FileManager.default.contentsOfDirectory(
            atPath: directory.url.appending(path: "corpus/big").path)
        #expect(!halfWay.isEmpty, "the kill left part of the import on disk")
        directory.write("corpus/big/.w5.yaml.999999.1.tmp", "word: w")

        // The next command that commits pending work (rote sync) first undoes the half change.
        try LibraryGit(root: directory.url, user: "ana").commitPending()
        #expect(await Shell.run("git", ["rev-parse", "HEAD"], in: directory.url).stdout == head)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appending(path: "corpus/big").path))
        #expect(directory.read(edited) == original)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appending(path: ".git/rote/apply-journal").path))
    }

    @Test func anApplyKilledAfterItsCommitKeepsTheCommit() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let git = try LibraryGit(root: directory.url, user: "ana")
        git.interruption = { step in if step == "index written" { throw SimulatedKill() } }
        // Killed before the branch moved: the change is undone, as it never landed.
        #expect(throws: SimulatedKill.self) {
            try git.apply(changes: ["corpus/words/walk.yaml": Data("word: walk\n".utf8)], message: "Add walk")
        }
        try LibraryGit(root: directory.url, user: "ana").commitPending()
        #expect(!FileManager.default.fileExists(atPath: directory.url.appending(path: "corpus/words/walk.yaml").path))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty)
        // Landed: nothing to undo.
        git.interruption = nil
        try git.apply(changes: ["corpus/words/walk.yaml": Data("word: walk\n".utf8)], message: "Add walk")
        try LibraryGit(root: directory.url, user: "ana").commitPending()
        #expect(directory.read("corpus/words/walk.yaml") == "word: walk\n")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty)
    }
}
