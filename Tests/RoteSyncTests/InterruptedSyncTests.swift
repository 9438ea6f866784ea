import Foundation
import Git
import TestSupport
import Testing

@testable import RoteStore
@testable import RoteSync

/// A sync killed while it writes the merged files (found by the fault-injection test: the
/// next command committed the half-done checkout as the learner's own change, a half-written
/// progress file with it, and the merge after that left conflict markers in it). The next
/// writer finishes the move from its journal instead.
@Suite(.serialized) struct InterruptedSyncTests {
    let hub = TemporaryDirectory("rote-interrupted-sync")
    var remote: URL { hub.url.appending(path: "remote.git") }
    var desk: URL { hub.url.appending(path: "desk") }
    var laptop: URL { hub.url.appending(path: "laptop") }
    static let path = "profiles/ana/progress/words/run.yaml"

    init() async {
        let seed = TemporaryDirectory("rote-interrupted-seed")
        await FixtureLibrary.write(into: seed)
        await Shell.run("git", ["clone", "-q", "--bare", seed.url.path, remote.path])
        for clone in [desk, laptop] { await Shell.run("git", ["clone", "-q", remote.path, clone.path]) }
    }

    /// Adds a review to words/run in `root` and commits it.
    func review(_ root: URL, id: String, at: String) throws {
        let url = root.appending(path: Self.path)
        let text = try String(contentsOf: url, encoding: .utf8) + "  - {id: \(id), at: \(at), grade: good}\n"
        try LibraryGit(root: root, user: "ana").commit(
            changes: [Self.path: Data(text.utf8)], message: "Study: 1 review\n")
        try Data(text.utf8).write(to: url)
    }

    @Test(arguments: ["checkout journal written", "work tree checked out"])
    func aSyncKilledWhileWritingTheMergeIsFinishedByTheNextCommand(step: String) async throws {
        try review(laptop, id: "laptop-1", at: "2026-11-03T09:00:00Z")
        _ = try LibrarySync.sync(root: laptop, user: "ana")
        try review(desk, id: "desk-1", at: "2026-11-04T09:00:00Z")
        #expect(throws: SimulatedKill.self) {
            let transaction = try LibraryTransaction(root: desk, user: "ana", purpose: "sync", mode: .sync)
            transaction.git.interruption = { if $0 == step { throw SimulatedKill() } }
            _ = try LibrarySync(transaction: transaction).sync()
        }
        // Half a file, as a kill in the middle of writing it would leave.
        if step == "work tree checked out" {
            let url = desk.appending(path: Self.path)
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(text.prefix(text.count / 2).utf8).write(to: url)
        }
        // The next command: a sync, which first commits whatever is pending.
        let report = try LibrarySync.sync(root: desk, user: "ana")
        #expect(report.conflicts.isEmpty)
        let committed = await Shell.run("git", ["show", "HEAD:\(Self.path)"], in: desk).stdout
        #expect(
            committed.contains("laptop-1") && committed.contains("desk-1") && !committed.contains("<<<<<<<"),
            "\(committed)")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: desk).stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: desk.appending(path: ".git/rote/checkout-journal").path))
        #expect(
            await Shell.run("git", ["log", "--format=%s", "-5"], in: desk).stdout.contains("Sync: merge"),
            "the merge commit itself is what the branch points to")
    }

    /// A push into a folder killed half-way leaves the folder's branch locked; every later
    /// push was refused as if the remote kept changing (found by the fault-injection test).
    @Test func aBranchLockLeftInAFolderRemoteByAKilledPushIsTakenOver() async throws {
        try review(desk, id: "desk-2", at: "2026-11-05T09:00:00Z")
        let lock = remote.appending(path: "refs/heads/main.lock")
        try Data().write(to: lock)
        let report = try LibrarySync.sync(root: desk, user: "ana")
        #expect(report.pushed)
        #expect(!FileManager.default.fileExists(atPath: lock.path))
        #expect(await Shell.run("git", ["show", "main:\(Self.path)"], in: remote).stdout.contains("desk-2"))
    }

    /// A sync killed mid-fetch leaves its own tracking ref locked; every later fetch was
    /// refused (found by the fault-injection test).
    @Test func aTrackingRefLockLeftByAKilledFetchIsTakenOver() throws {
        try review(desk, id: "desk-3", at: "2026-11-06T09:00:00Z")
        let lock = desk.appending(path: ".git/refs/remotes/origin/main.lock")
        try FileManager.default.createDirectory(at: lock.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: lock)
        let report = try LibrarySync.sync(root: desk, user: "ana")
        #expect(report.pushed)
        #expect(!FileManager.default.fileExists(atPath: lock.path))
    }
}
