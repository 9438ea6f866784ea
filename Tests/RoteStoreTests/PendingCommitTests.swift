import Foundation
import TestSupport
import Testing

@testable import RoteStore

/// The journal of a commit made behind its write: whole or unreadable, never half.
@Suite struct PendingCommitTests {
    @Test func aJournalReadsBackAsWrittenAndATornOneDoesNot() {
        var changes: [String: Data?] = [
            "profiles/demo/progress/a b.yaml": Data("status: ignored\n\nend\nfile 3 x\n".utf8), "empty": Data(),
        ]
        changes["gone.yaml"] = .some(nil)
        let commit = PendingCommit(
            changes: changes,
            message: "Ignore: a\n\nRote-Device: d\nRote-User: demo\n", user: "demo",
            date: Date(timeIntervalSince1970: 1_800_000_000.5))
        let data = commit.encoded()
        #expect(PendingCommit.decode(data) == commit)
        for cut in [1, 7, data.count / 2, data.count - 1] {
            #expect(PendingCommit.decode(data.prefix(data.count - cut)) == nil, "cut \(cut)")
        }
        #expect(PendingCommit.decode(data + Data("x".utf8)) == nil)
    }

    static func journal(date: String = "1800000000.0", userLength: String = "4") -> Data {
        Data(
            "rote pending commit 1\nuser \(userLength)\nanna\ndate \(date)\nmessage 9\nAdd walk\n\nfile 11 corpus/words/walk.yaml\nword: walk\n\nend\n"
                .utf8)
    }

    /// A journal whose date no commit can carry, or whose length field is near Int.max, is
    /// refused as a torn one is, never a trap (issue #31, item 2).
    @Test func aJournalWithABadNumberIsRefusedAsATornOneIs() {
        #expect(PendingCommit.decode(Self.journal()) != nil, "the well-formed journal reads")
        for date in ["nan", "-nan", "inf", "-inf", "1e300", "-1e300", "9.3e18"] {
            #expect(PendingCommit.decode(Self.journal(date: date)) == nil, "date \(date)")
        }
        #expect(PendingCommit.decode(Self.journal(userLength: "9223372036854775807")) == nil)
    }

    /// The next writer meets such a journal with the same clear refusal as a torn one, naming
    /// it and what to do — not "Double value cannot be converted to Int64".
    @Test func theNextWriterRefusesAJournalWithABadDateClearly() async throws {
        for date in ["nan", "1e300"] {
            let directory = TemporaryDirectory()
            await FixtureLibrary.write(into: directory)
            let name = "\(PendingCommit.folder)/000000000001-bad.commit"
            directory.write(name, Self.journal(date: date))
            do {
                try LibraryTransaction.run(root: directory.url, user: "ana", purpose: "review") { _ in }
                Issue.record("a journal dated \(date) must be refused")
            } catch let error as LibraryError {
                #expect(error.message.contains("\(name) is not a pending commit this Rote can read"), "\(error)")
                #expect(error.message.contains("move it out of .git/rote/pending-commits"), "\(error)")
            }
        }
    }

    // MARK: Recovery decides from HEAD (issue #31, item 7)

    /// A write of `rote serve` killed after its pending commit was written: the committer
    /// commits it and removes the journal before the write could remove its apply journal.
    /// The next writer finds the change in HEAD and keeps it — it does not "undo" a change that
    /// landed, and leaves nothing for the next sync to commit as a deletion.
    @Test func aDeferredWriteKilledAfterItsCommitLandedIsKept() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let path = "corpus/words/walk.yaml"
        let pool = LibraryCommits(deferred: true)
        try LibraryTransaction.run(root: directory.url, user: "ana", purpose: "add", commits: pool) { git in
            git.git.interruption = { if $0 == "committed" { throw SimulatedKill() } }
            defer { git.git.interruption = nil }
            #expect(throws: SimulatedKill.self) {
                try git.apply(changes: [path: Data("word: walk\n".utf8)], message: "Add walk\n")
            }
        }
        // The window: the commit is in and its journal gone, the apply journal still there.
        pool.waitForCommits()
        #expect(PendingCommit.journals(in: directory.url).isEmpty)
        #expect(FileManager.default.fileExists(atPath: directory.url.appending(path: ".git/rote/apply-journal").path))
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: directory.url).stdout
        #expect(await Shell.run("git", ["log", "-1", "--format=%s"], in: directory.url).stdout == "Add walk\n")

        // The next writer, in another process (no pool): nothing to undo.
        try LibraryTransaction.run(root: directory.url, user: "ana", purpose: "review") { _ in }
        #expect(directory.read(path) == "word: walk\n", "the landed file stays")
        #expect(await Shell.run("git", ["rev-parse", "HEAD"], in: directory.url).stdout == head)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout == "")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appending(path: ".git/rote/apply-journal").path))
    }

    /// The other side of the window: a deferred write killed before its pending commit was
    /// written, behind an earlier write whose commit is still queued. Every promised commit is
    /// made first, and HEAD then lacks the killed write's bytes: it is undone, and the earlier
    /// write — which set the same file to the bytes the killed one had overwritten — stays.
    @Test func aDeferredWriteKilledBeforeItsJournalIsUndoneAfterTheCommitsBeforeIt() async throws {
        let served = TemporaryDirectory()
        await FixtureLibrary.write(into: served)
        let crashed = TemporaryDirectory()
        let path = "corpus/words/go.yaml"
        let original = try #require(served.read(path))
        let pool = LibraryCommits(deferred: true)
        pool.suspendCommits()
        try LibraryTransaction.run(root: served.url, user: "ana", purpose: "edit", commits: pool) { git in
            try git.apply(changes: [path: Data("word: go\nrank: 7\n".utf8)], message: "Rank go 7\n")
        }
        try LibraryTransaction.run(root: served.url, user: "ana", purpose: "edit", commits: pool) { git in
            git.git.interruption = { if $0 == "file written" { throw SimulatedKill() } }
            defer { git.git.interruption = nil }
            #expect(throws: SimulatedKill.self) {
                try git.apply(changes: [path: Data(original.utf8)], message: "Rank go back\n")
            }
        }
        // The crash: the library as it is now, the first commit still queued.
        await Shell.run("cp", ["-a", served.url.path + "/.", crashed.url.path])
        pool.resumeCommits()
        pool.waitForCommits()
        try LibraryTransaction.run(root: crashed.url, user: "ana", purpose: "review") { _ in }
        #expect(await Shell.run("git", ["log", "-1", "--format=%s"], in: crashed.url).stdout == "Rank go 7\n")
        #expect(crashed.read(path) == "word: go\nrank: 7\n")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: crashed.url).stdout == "")
    }

    // MARK: Temporary journal files (issue #31, item 12)

    /// A journal's temporary file left by a killed writer goes at the next writer's start (and
    /// so at `rote check --repair`); one whose writer is alive stays.
    @Test func temporaryJournalFilesOfDeadWritersAreRemovedByTheNextWriter() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let dead = "\(PendingCommit.folder)/.000000000001-x.commit.999999.7.tmp"
        let live = "\(PendingCommit.folder)/.000000000002-y.commit.\(getpid()).7.tmp"
        directory.write(dead, "rote pending commit 1\nuser 3\nan")
        directory.write(live, "rote pending commit 1\n")
        try LibraryTransaction.run(root: directory.url, user: "ana", purpose: "review") { _ in }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appending(path: dead).path))
        #expect(FileManager.default.fileExists(atPath: directory.url.appending(path: live).path))

        directory.write(dead, "rote pending")
        let removed = try LibraryGit(root: directory.url, user: "ana").removeAbandonedTemporaryFiles()
        #expect(removed == [dead])
        #expect(FileManager.default.fileExists(atPath: directory.url.appending(path: live).path))
    }
}
