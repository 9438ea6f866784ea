import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RoteStore

@Suite struct LibraryLockTests {
    @Test func oneHolderAtATimeAndReleasedOnRelease() throws {
        let directory = TemporaryDirectory()
        // Held for the block, released when it ends; taking it must not throw.
        try withExtendedLifetime(LibraryLock(root: directory.url, purpose: "study")) {
            do {
                _ = try LibraryLock(root: directory.url, purpose: "sync")
                Issue.record("a second lock must be refused")
            } catch let busy as LibraryLock.Busy {
                #expect(busy.holder.contains("rote study"))
                // Held by this very process: it has no other process to name (issue #31, item 10).
                #expect(busy.heldByThisProcess)
                #expect(busy.purpose == "study")
                #expect(!busy.description.contains("another rote process"), "\(busy)")
                #expect(
                    busy.description.contains("this same rote process is already using this library (rote study)"),
                    "\(busy)")
            }
        }
        #expect(throws: Never.self) { _ = try LibraryLock(root: directory.url, purpose: "sync") }
    }

    /// Another process's lock is named by its pid and command, from the note it left.
    @Test func anotherProcessHoldingTheLockIsNamed() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appending(path: ".git/rote"), withIntermediateDirectories: true)
        let holder = try Shell.holdLock(directory.url.appending(path: ".git/rote/lock"), note: "pid 4242: rote sync\n")
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        do {
            _ = try LibraryLock(root: directory.url, purpose: "study")
            Issue.record("a lock another process holds must be refused")
        } catch let busy as LibraryLock.Busy {
            #expect(!busy.heldByThisProcess)
            #expect(busy.pid == 4242)
            #expect(busy.purpose == "sync")
            #expect(
                busy.description
                    == "another rote process is using this library (pid 4242: rote sync); wait for it to finish, or stop it"
            )
        }
    }

    @Test func aKilledHolderLeavesNoStaleLock() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appending(path: ".git/rote"), withIntermediateDirectories: true)
        // Another process takes the lock, says so, and is then killed.
        let holder = try Shell.holdLock(directory.url.appending(path: ".git/rote/lock"))
        #expect(throws: LibraryLock.Busy.self) { _ = try LibraryLock(root: directory.url, purpose: "study") }
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        var acquired = false
        for _ in 0..<100 where !acquired {
            acquired = (try? LibraryLock(root: directory.url, purpose: "study")) != nil
            if !acquired { usleep(50_000) }
        }
        #expect(acquired, "the kernel releases a dead holder's lock")
    }
    /// A refused lock closes its own descriptor once and touches nothing after. Its deinit
    /// (which runs when an initializer throws after setting every property) used to truncate
    /// and close the same number again, by then another thread's file: CI saw libgit2 fail
    /// "Bad file descriptor" while a parallel test was refused a lock.
    @Test func aRefusedLockNeverTouchesAnotherThreadsFile() throws {
        let directory = TemporaryDirectory()
        let held = try LibraryLock(root: directory.url, purpose: "study")
        let stop = Atomic<Bool>(false)
        let damaged = Atomic<Int>(0)
        let rounds = Atomic<Int>(0)
        let victim = directory.url.appending(path: "victim").path
        // The file is written once; the thread then opens and checks it as fast as it can,
        // so some open lands between the refused lock's close and its deinit.
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: victim))
        let writer = Thread {
            while !stop.load(ordering: .relaxed) {
                let descriptor = open(victim, O_RDWR | O_CLOEXEC)
                guard descriptor >= 0 else { continue }
                var info = stat()
                let measured = fstat(descriptor, &info) == 0 ? Int(info.st_size) : -1
                let closed = close(descriptor) == 0
                if measured != 4096 || !closed { damaged.add(1, ordering: .relaxed) }
                rounds.add(1, ordering: .relaxed)
            }
        }
        writer.start()
        for _ in 0..<5_000 where damaged.load(ordering: .relaxed) == 0 {
            #expect(throws: LibraryLock.Busy.self) { _ = try LibraryLock(root: directory.url, purpose: "sync") }
        }
        stop.store(true, ordering: .relaxed)
        while !writer.isFinished { usleep(1_000) }
        withExtendedLifetime(held) {}
        #expect(rounds.load(ordering: .relaxed) > 0)
        #expect(damaged.load(ordering: .relaxed) == 0, "another thread's file was truncated or closed under it")
    }
}
