import Foundation
import Git
import RoteModel
import RoteSync
import TestSupport
import Testing

@testable import Exchange
@testable import RoteStore

/// `rote forget` against a real remote and a second clone that kept studying.
@Suite(.serialized) struct ErasureSyncTests {
    struct Network {
        let directory = TemporaryDirectory("rote-erasure-sync")
        var remote: URL { directory.url.appending(path: "remote.git") }
        var first: URL { directory.url.appending(path: "first") }
        var second: URL { directory.url.appending(path: "second") }

        init() async {
            let seed = TemporaryDirectory("rote-erasure-seed")
            await FixtureLibrary.write(into: seed)
            await Shell.run("git", ["clone", "-q", "--bare", seed.url.path, remote.path])
            await Shell.run("git", ["clone", "-q", remote.path, first.path])
            await Shell.run("git", ["clone", "-q", remote.path, second.path])
            for clone in [first, second] {
                await Shell.run("git", ["config", "user.name", "Test"], in: clone)
                await Shell.run("git", ["config", "user.email", "test@example.invalid"], in: clone)
            }
        }

        func sync(_ root: URL) throws -> SyncReport {
            try LibrarySync.sync(root: root, user: "ana")
        }
    }

    /// Adds a review to ana's progress for words/run and commits it, as a study session would.
    func study(_ root: URL) throws {
        let path = "profiles/ana/progress/words/run.yaml"
        let url = root.appending(path: path)
        let text =
            try String(contentsOf: url, encoding: .utf8)
            + "  - {id: b1, at: 2026-11-03T09:00:00Z, grade: hard, ms: 4000, device: second}\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        try LibraryGit(root: root, user: "ana").commit(changes: [path: Data(text.utf8)], message: "Study: 1 review\n")
    }

    @Test func anErasureStaysDeletedWhenAnotherCloneChangedTheLearnersProgress() async throws {
        let network = await Network()
        try study(network.second)
        _ = try Erasure.forget("ana", git: LibraryTransaction(root: network.first, user: "ana", purpose: "test"))
        _ = try network.sync(network.first)
        _ = try network.sync(network.second)
        _ = try network.sync(network.first)
        for clone in [network.first, network.second] {
            #expect(
                !FileManager.default.fileExists(
                    atPath: clone.appending(path: "profiles/ana/progress/words/run.yaml").path))
            #expect(
                await Shell.run("git", ["ls-tree", "-r", "--name-only", "HEAD", "profiles/ana"], in: clone).stdout
                    .isEmpty)
        }
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: network.first).stdout
                == Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: network.second).stdout)
    }

    /// Issue #31, item 3: after `rote consent withdraw` on the first clone, the second one's
    /// passage practice from before it synced — a new passage progress file and a session that
    /// studied a passage and a word — must not come back, in either order of syncing.
    @Test(arguments: [true, false])
    func passagePracticeAnotherCloneMadeBeforeItSyncedAWithdrawalIsDropped(withdrawalSyncedFirst: Bool) async throws {
        let network = await Network()
        let at = Date(timeIntervalSince1970: 1_793_000_000)
        let passage = "profiles/ana/progress/verses/joh-11-35.yaml"
        let progress =
            "entry: verses/joh-11-35\nstatus: active\nreviews:\n"
            + "  - {id: p1, at: \(Timestamp.format(at.addingTimeInterval(10))), grade: good, ms: 3000, device: second}\n"
        let session = SessionFile(
            id: "s-mixed", user: "ana", device: "second", startedAt: at, endedAt: at.addingTimeInterval(60),
            decks: ["verses", "words"], good: 2, new: 1,
            attempts: [
                .init(
                    entry: "verses/joh-11-35", question: "recall", answer: "Jesus wept.", correct: true,
                    at: at.addingTimeInterval(10), ms: 3000),
                .init(
                    entry: "words/run", question: "translation", answer: "يجري", correct: true,
                    at: at.addingTimeInterval(20), ms: 2000),
            ])
        let sessionPath = LibraryPaths.session(session)
        _ = try LibraryGit(root: network.second, user: "ana").apply(
            changes: [passage: Data(progress.utf8), sessionPath: Data(session.render().utf8)],
            message: "Study: 2 reviews\n")
        _ = try PassageConsent.withdraw(
            user: "ana", git: LibraryTransaction(root: network.first, user: "ana", purpose: "test"))
        let merging: SyncReport
        if withdrawalSyncedFirst {
            _ = try network.sync(network.first)
            merging = try network.sync(network.second)
            _ = try network.sync(network.first)
        } else {
            _ = try network.sync(network.second)
            merging = try network.sync(network.first)
            _ = try network.sync(network.second)
        }
        #expect(merging.erasureDrops.map { "\($0.user) \($0.passagesOnly) \($0.files)" } == ["ana true 2"])
        for clone in [network.first, network.second] {
            #expect(!FileManager.default.fileExists(atPath: clone.appending(path: passage).path))
            let kept = try #require(
                SessionFile.decode(try Data(contentsOf: clone.appending(path: sessionPath)), path: sessionPath).0)
            #expect(kept.decks == ["words"] && kept.attempts.map(\.entry) == ["words/run"])
            #expect(kept.good == 1 && kept.new == 0, "the passage's review leaves the counts")
            #expect(
                FileManager.default.fileExists(
                    atPath: clone.appending(path: "profiles/ana/progress/words/run.yaml").path))
        }
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: network.first).stdout
                == Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: network.second).stdout)
    }

    @Test func syncRefusesToMergeAHistoryThatWasRewritten() async throws {
        let network = await Network()
        do {
            let git = try LibraryTransaction(root: network.first, user: "ana", purpose: "test")
            _ = try Erasure.forget("ana", git: git)
            _ = try await Erasure.purgeHistory("ana", git: git)
        }
        // This clone rewrote its history but has not force-pushed: a sync would merge the old
        // history (with ana's files) back, so it refuses — every time, not just once.
        for _ in 0..<2 {
            #expect { try network.sync(network.first) } throws: { error in
                (error as? SyncError)?.code == .mergeFailed && "\(error)".contains("push --force origin main")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: network.first.appending(path: "profiles/ana").path))
        let push = await Shell.run("git", ["push", "-q", "--force", "origin", "main"], in: network.first)
        #expect(push.status == 0, "\(push.stderr)")
        #expect(try network.sync(network.first).upToDate)
        // The other clone still holds the old history: it must not merge it into the new one.
        #expect { try network.sync(network.second) } throws: { error in
            (error as? SyncError)?.code == .mergeFailed && "\(error)".contains("clone the library again")
        }
        #expect(
            await Shell.run("git", ["log", "--all", "--format=%H", "--", "profiles/ana"], in: network.remote).stdout
                .isEmpty)
    }

    /// A plain folder as the remote has no compare-and-swap: a push can "succeed" and then be
    /// overwritten by another device's push. The commits lost from the remote are not
    /// rewritten copies, so sync must merge them back, not refuse as if history was rewritten.
    @Test func aPushOverwrittenByAnotherDeviceIsMergedBackNotRefused() async throws {
        let network = await Network()
        try study(network.first)
        _ = try network.sync(network.first)  // pushed; origin/main is now first's commit
        let pushed = await Shell.run("git", ["rev-parse", "HEAD"], in: network.first).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        // The second device studied too and its push overwrote the first's (as a racing,
        // non-atomic update of a folder remote would).
        let path = "profiles/ana/progress/words/run.yaml"
        let url = network.second.appending(path: path)
        let text =
            try String(contentsOf: url, encoding: .utf8)
            + "  - {id: c1, at: 2026-11-04T09:00:00Z, grade: good, ms: 3000, device: laptop}\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        try LibraryGit(root: network.second, user: "ana").commit(
            changes: [path: Data(text.utf8)], message: "Study: 1 review\n")
        #expect(await Shell.run("git", ["push", "-q", "--force", "origin", "main"], in: network.second).status == 0)

        let report = try network.sync(network.first)
        #expect(report.pushed)
        let merged = await Shell.run("git", ["show", "origin/main:\(path)"], in: network.first).stdout
        #expect(
            merged.contains("id: b1") && merged.contains("id: c1"),
            "both devices' reviews are on the remote:\n\(merged)")
        #expect(
            await Shell.run("git", ["merge-base", "--is-ancestor", pushed, "origin/main"], in: network.first).status
                == 0)
    }
}
