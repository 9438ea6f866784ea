import Foundation
import RoteLibrary
import RoteModel
import TestSupport
import Testing

@testable import RoteStore

/// Writes whose commit is made behind them (`LibraryGitPool(defersCommits:)`, `rote serve`):
/// the files and a pending commit are durable when the write returns, the commits land in
/// order with the messages an immediate commit has, and a crash before they land loses nothing.
@Suite struct DeferredCommitTests {
    static func log(_ root: URL, _ count: Int) async -> String {
        await Shell.run("git", ["log", "-\(count)", "--format=%H%n%an <%ae> %ad%n%B--"], in: root).stdout
    }

    static func library(_ root: URL, pool: LibraryCommits?) throws -> Library {
        let library = try Library(root: root, user: "demo")
        library.commits = pool
        return library
    }

    /// The write returns with its file written and its commit pending; the commit lands once
    /// the queue drains, with the message `rote ignore` commits with.
    @Test func theWriteReturnsBeforeItsCommitWhichLandsWithTheSameMessage() async throws {
        let deferred = await StarterLibrary.copy()
        let immediate = await StarterLibrary.copy()
        let pool = LibraryCommits(deferred: true)
        pool.suspendCommits()
        let library = try Self.library(deferred.url, pool: pool)
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: deferred.url).stdout
        _ = try library.change(
            .status(.ignored), of: [library.entry(named: "english-a1/run")], verb: "ignore",
            now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD"], in: deferred.url).stdout == head, "nothing is committed yet")
        #expect(
            deferred.read("profiles/demo/progress/english-a1/run.yaml")?.contains("status: ignored") == true,
            "the file is written")
        #expect(PendingCommit.journals(in: deferred.url).count == 1)
        #expect(pool.pendingCommits == 1)
        // What the next read sees: the library as written.
        #expect(
            try Self.library(deferred.url, pool: pool).status(of: library.entry(named: "english-a1/run")) == .ignored)
        pool.resumeCommits()
        pool.waitForCommits()
        #expect(PendingCommit.journals(in: deferred.url).isEmpty)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: deferred.url).stdout == "")
        // The same write committed at once, as `rote ignore` does, on a copy of the library.
        let direct = try Self.library(immediate.url, pool: nil)
        _ = try direct.change(
            .status(.ignored), of: [direct.entry(named: "english-a1/run")], verb: "ignore",
            now: Date(timeIntervalSince1970: 1_800_000_000))
        // Each copy is a device of its own: the rest of the message and the author are the same.
        let message = { (root: URL) in
            await Shell.run("git", ["log", "-1", "--format=%an <%ae>%n%B"], in: root).stdout.split(separator: "\n")
                .filter {
                    !$0.hasPrefix("Rote-Device: ")
                }.joined(separator: "\n")
        }
        let deferredMessage = await message(deferred.url)
        #expect(await deferredMessage == message(immediate.url))
        #expect(deferredMessage.contains("\nIgnore: english-a1/run\n"), "\(deferredMessage)")
        #expect(
            await Shell.run("git", ["show", "--name-only", "--format=", "HEAD"], in: deferred.url).stdout
                == "profiles/demo/progress/english-a1/run.yaml\n")
    }

    /// Two quick writes to the same file: two commits in order, each with its own bytes — the
    /// later write, already on disk, does not slip into the first commit.
    @Test func twoQuickWritesCommitInOrderEachWithItsOwnBytes() async throws {
        let directory = await StarterLibrary.copy()
        let pool = LibraryCommits(deferred: true)
        pool.suspendCommits()
        let library = try Self.library(directory.url, pool: pool)
        let run = try library.entry(named: "english-a1/run")
        _ = try library.change(.status(.ignored), of: [run], verb: "ignore")
        _ = try library.change(.status(.active), of: [run], verb: "activate")
        #expect(PendingCommit.journals(in: directory.url).count == 2)
        pool.resumeCommits()
        pool.waitForCommits()
        let subjects = await Shell.run("git", ["log", "-3", "--format=%s"], in: directory.url).stdout
        #expect(subjects == "Activate: english-a1/run\nIgnore: english-a1/run\nstarter\n", "\(subjects)")
        let path = "profiles/demo/progress/english-a1/run.yaml"
        #expect(
            await Shell.run("git", ["show", "HEAD~1:\(path)"], in: directory.url).stdout.contains("status: ignored"))
        #expect(await Shell.run("git", ["show", "HEAD:\(path)"], in: directory.url).stdout.contains("status: active"))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout == "")
    }

    /// A crash between the answer and the commit: the library as the crash left it (files
    /// written, the pending commit on disk, nothing committed) is committed by the next
    /// command that writes, before its own write, into exactly the commit the server would
    /// have made — the same id.
    @Test func aPendingCommitLeftByACrashIsCommittedFirstByTheNextWriter() async throws {
        let served = await StarterLibrary.copy()
        let crashed = TemporaryDirectory()
        let pool = LibraryCommits(deferred: true)
        pool.suspendCommits()
        let library = try Self.library(served.url, pool: pool)
        _ = try library.change(.status(.suspended), of: [library.entry(named: "english-a1/run")], verb: "suspend")
        // The crash: the library as it is on disk now, before the commit.
        await Shell.run("cp", ["-a", served.url.path + "/.", crashed.url.path])
        pool.resumeCommits()
        pool.waitForCommits()
        let next = try Self.library(crashed.url, pool: nil)
        _ = try next.change(.status(.ignored), of: [next.entry(named: "english-a1/go")], verb: "ignore")
        let subjects = await Shell.run("git", ["log", "-3", "--format=%s"], in: crashed.url).stdout
        #expect(subjects == "Ignore: english-a1/go\nSuspend: english-a1/run\nstarter\n", "\(subjects)")
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD~1"], in: crashed.url).stdout
                == Shell.run("git", ["rev-parse", "HEAD"], in: served.url).stdout,
            "the recovered commit is the one the server made")
        #expect(PendingCommit.journals(in: crashed.url).isEmpty)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: crashed.url).stdout == "")
    }

    /// A crash while the write's files were being written (its pending commit not yet on disk)
    /// is undone, as an interrupted `apply` is: the files are put back and nothing is committed.
    @Test func aWriteKilledBeforeItsPendingCommitIsUndone() async throws {
        let directory = await StarterLibrary.copy()
        let path = "profiles/demo/progress/english-a1/run.yaml"
        let before = directory.read(path)
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: directory.url).stdout
        // What `apply` leaves when killed after writing the file: its journal naming a pending
        // commit that was never written.
        let blob = await Shell.run("git", ["hash-object", "-w", path], in: directory.url).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        directory.write(
            ".git/rote/apply-journal", "pending 000000000001-gone.commit\nSuspend: english-a1/run\n\(blob)\t\(path)\n")
        directory.write(path, (before ?? "") + "status: suspended\n")
        let pool = LibraryCommits(deferred: true)
        let library = try Self.library(directory.url, pool: pool)
        _ = try library.change(.status(.ignored), of: [library.entry(named: "english-a1/go")], verb: "ignore")
        pool.waitForCommits()
        #expect(directory.read(path) == before)
        #expect(await Shell.run("git", ["rev-parse", "HEAD~1"], in: directory.url).stdout == head)
    }
}
