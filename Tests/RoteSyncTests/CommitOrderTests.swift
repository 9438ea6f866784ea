import Foundation
import LibGit
import Testing
import TestSupport
@testable import RoteStore
@testable import RoteSync

/// A commit writes git's index before it moves the branch, so a process killed between the
/// two never leaves an index that stages the reverse of the commit (issue #15, item 4).
@Suite struct CommitOrderTests {
    struct Killed: Error {}

    @Test func aKillBetweenTheIndexAndTheBranchLosesNothingToAPlainGitCommit() throws {
        let directory = TemporaryDirectory()
        FixtureLibrary.write(into: directory)
        let git = try LibraryGit(root: directory.url, user: "ana")
        let session = "profiles/ana/sessions/2026/11/s1.yaml"
        let review = Data("entry: words/go\nstatus: active\nreviews:\n  - {id: r1, at: 2026-11-20T10:00:00Z, grade: good}\n".utf8)
        directory.write("profiles/ana/progress/words/go.yaml", review)
        directory.write(session, "id: s1\n")
        git.interruption = { _ in throw Killed() }
        #expect(throws: Killed.self) {
            try git.commit(changes: ["profiles/ana/progress/words/go.yaml": review, session: Data("id: s1\n".utf8)], message: "Study")
        }
        // Someone then runs plain git: what it commits is the new files, never their removal.
        let commit = Shell.run("git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm", "by hand"], in: directory.url)
        #expect(commit.status == 0, "\(commit.stderr)")
        let tree = Shell.run("git", ["ls-tree", "-r", "--name-only", "HEAD"], in: directory.url).stdout
        #expect(tree.contains("profiles/ana/progress/words/go.yaml"))
        #expect(tree.contains(session))
        #expect(Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty)
    }

    @Test func temporaryFilesAreNeverPendingWork() throws {
        let directory = TemporaryDirectory()
        FixtureLibrary.write(into: directory)
        directory.write("corpus/words/.walk.yaml.4242.7.tmp", "word: wal")
        directory.write("corpus/words/walk.yaml", "word: walk\n")
        let git = try LibraryGit(root: directory.url, user: "ana")
        #expect(try git.pendingPaths() == ["corpus/words/walk.yaml"])
        try git.commitPending()
        let tree = Shell.run("git", ["ls-tree", "-r", "--name-only", "HEAD"], in: directory.url).stdout
        #expect(!tree.contains(".tmp"))
    }
}
