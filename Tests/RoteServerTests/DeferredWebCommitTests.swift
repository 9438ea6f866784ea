import Foundation
import Git
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RoteLibrary
import RoteModel
import RoteServer
import RoteStore
import Study
import TestSupport
import Testing
import WebPages

/// Writes answer once their files and pending commit are durable; the commits land behind
/// them, in order, and stopping the server makes them all.
@Suite struct DeferredWebCommitTests {
    typealias Served = WebAPITests.Served

    static func head(_ root: URL) async -> String { await Shell.run("git", ["rev-parse", "HEAD"], in: root).stdout }

    @Test func anIgnoreAnswersBeforeItsCommitWhichLandsWithTheSameMessage() async throws {
        let served = await Served()
        let before = await Self.head(served.root)
        served.app.gitPool.suspendCommits()
        try await served.test { client in
            let ignore = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["entry": "english-a1/run", "status": "ignored"]))
            #expect(ignore.status == .ok)
            #expect(await Self.head(served.root) == before, "answered before the commit")
            #expect(PendingCommit.journals(in: served.root).count == 1)
            // A read after the answer sees the write.
            let reading = try #require(
                try WebAPITests.json(
                    try await client.execute(
                        uri: "/api/reader", method: .post, headers: WebAPITests.headers(),
                        body: WebAPITests.body(["text": "ran"]))) as? [[String: Any]])
            #expect(reading.first?["status"] as? String == "ignored")
            // A second write while the first commit waits: answered, and queued after it.
            let activate = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["entry": "english-a1/run", "status": "active"]))
            #expect(activate.status == .ok, "\(String(buffer: activate.body))")
        }
        served.app.gitPool.resumeCommits()
        await served.app.gitPool.commitsMade()
        let log = await Shell.run("git", ["log", "-3", "--format=%s%n%b--"], in: served.root).stdout
        let device = try LibraryGit(root: served.root, user: "demo").device
        #expect(
            log
                == "Activate: english-a1/run\nRote-Device: \(device)\nRote-User: demo\n--\nIgnore: english-a1/run\nRote-Device: \(device)\nRote-User: demo\n--\nstarter\n--\n",
            "\(log)")
        #expect(await served.uncommitted().isEmpty)
        #expect(PendingCommit.journals(in: served.root).isEmpty)
    }

    /// Ctrl-C: `stopSession` (what `WebServer.run` calls when the service stops) returns only
    /// once the queued commits are made.
    @Test func stoppingTheServerMakesEveryQueuedCommit() async throws {
        let served = await Served()
        let before = await Self.head(served.root)
        served.app.gitPool.suspendCommits()
        try await served.test { client in
            for (entry, status) in [("english-a1/run", "ignored"), ("english-a1/go", "suspended")] {
                let response = try await client.execute(
                    uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                    body: WebAPITests.body(["entry": entry, "status": status]))
                #expect(response.status == .ok)
            }
        }
        #expect(await Self.head(served.root) == before)
        #expect(served.app.gitPool.pendingCommits == 2)
        // The committer is let go a moment after the stop begins, which must wait for it.
        let release = Thread { [pool = served.app.gitPool] in
            Thread.sleep(forTimeInterval: 0.05)
            pool.resumeCommits()
        }
        release.start()
        served.app.stopSession()
        #expect(served.app.gitPool.pendingCommits == 0)
        #expect(
            await Shell.run("git", ["log", "-2", "--format=%s"], in: served.root).stdout
                == "Suspend: english-a1/go\nIgnore: english-a1/run\n")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: served.root).stdout == "")
    }

    /// A server that crashed with a commit pending: the next server commits it before its
    /// first request, as the commit the first would have made.
    @Test func theNextServerCommitsWhatACrashedOneLeftPending() async throws {
        let served = await Served()
        served.app.gitPool.suspendCommits()
        try await served.test { client in
            let response = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["entry": "english-a1/run", "status": "ignored"]))
            #expect(response.status == .ok)
        }
        let crashed = TemporaryDirectory()
        await Shell.run("cp", ["-a", served.root.path + "/.", crashed.url.path])
        served.app.gitPool.resumeCommits()
        served.app.gitPool.waitForCommits()
        let next = WebApp(
            root: crashed.url, user: "demo",
            policy: AccessPolicy(token: WebAPITests.token, hosts: AccessPolicy.hosts(listeningOn: "127.0.0.1")))
        next.commitLeftovers()
        #expect(await Self.head(crashed.url) == Self.head(served.root), "the same commit")
        #expect(PendingCommit.journals(in: crashed.url).isEmpty)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: crashed.url).stdout == "")
    }
}
