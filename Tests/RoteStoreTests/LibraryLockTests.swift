import Foundation
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
}
