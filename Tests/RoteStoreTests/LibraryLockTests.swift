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
                #expect(busy.description.contains("another rote process"))
            }
        }
        #expect(throws: Never.self) { _ = try LibraryLock(root: directory.url, purpose: "sync") }
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
