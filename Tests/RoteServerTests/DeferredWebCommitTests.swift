import Foundation
import Git
import HTTPTypes
import Hummingbird
import RoteLibrary
import RoteModel
import RoteServer
import Study
import TestSupport
import Testing
import WebPages

@testable import RoteStore

/// Writes answer once their files and pending commit are durable; the commits land behind
/// them, in order, and stopping the server makes them all.
@Suite struct DeferredWebCommitTests {
    typealias Served = WebAPITests.Served

    static func head(_ root: URL) async -> String { await Shell.run("git", ["rev-parse", "HEAD"], in: root).stdout }

    @Test func anIgnoreAnswersBeforeItsCommitWhichLandsWithTheSameMessage() async throws {
        let served = await Served()
        let before = await Self.head(served.root)
        served.app.commits.suspendCommits()
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
        served.app.commits.resumeCommits()
        await served.app.commits.commitsMade()
        let log = await Shell.run("git", ["log", "-3", "--format=%s%n%b--"], in: served.root).stdout
        let device = try LibraryGit(root: served.root, user: "demo").device
        #expect(
            log
                == "Activate: english-a1/run\nRote-Device: \(device)\nRote-User: demo\n--\nIgnore: english-a1/run\nRote-Device: \(device)\nRote-User: demo\n--\nstarter\n--\n",
            "\(log)")
        #expect(await served.uncommitted().isEmpty)
        #expect(PendingCommit.journals(in: served.root).isEmpty)
    }

    /// A write while the server's own study session holds the library: the answer says what
    /// is busy — this server's session — never "another rote process" with the server's own
    /// pid (issue #31, item 10).
    @Test func aBusyAnswerNamesTheServersOwnSessionNotAnotherProcess() async throws {
        let served = await Served()
        try await served.test { client in
            let started = try await client.execute(
                uri: "/api/session", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["decks": ["english-a1"], "new": 5, "reviews": 5]))
            #expect(started.status == .ok, "\(String(buffer: started.body))")
            let ignore = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["entry": "english-a1/run", "status": "ignored"]))
            #expect(ignore.status == .conflict)
            let error = try #require(
                (try WebAPITests.json(ignore) as? [String: Any])?["error"] as? [String: Any])
            #expect(error["code"] as? String == "session_open", "\(error)")
            let message = try #require(error["message"] as? String)
            #expect(!message.contains("another rote process"), "\(message)")
            #expect(!message.contains("pid \(getpid())"), "\(message)")
            #expect(message.contains("study session is open"), "\(message)")
        }
        served.app.stopSession()
    }

    /// The page words a busy answer in its own language from the strings table.
    @Test func everyBusyCodeTheServerAnswersIsInTheStringsTable() throws {
        let text = try #require(WebFiles.files["strings.json"])
        let table = try JSONDecoder().decode([String: [String: String]].self, from: Data(text.utf8))
        for language in ["en", "ar"] {
            for code in ["busy", "saving", "session_open"] {
                #expect(table[language]?["error.\(code)"] != nil, "\(language) error.\(code)")
            }
            #expect(table[language]?["error.busy"]?.contains("{detail}") == true)
        }
    }

    /// Ctrl-C: `stopSession` (what `WebServer.run` calls when the service stops) returns only
    /// once the queued commits are made.
    @Test func stoppingTheServerMakesEveryQueuedCommit() async throws {
        let served = await Served()
        let before = await Self.head(served.root)
        served.app.commits.suspendCommits()
        try await served.test { client in
            for (entry, status) in [("english-a1/run", "ignored"), ("english-a1/go", "suspended")] {
                let response = try await client.execute(
                    uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                    body: WebAPITests.body(["entry": entry, "status": status]))
                #expect(response.status == .ok)
            }
        }
        #expect(await Self.head(served.root) == before)
        #expect(served.app.commits.pendingCommits == 2)
        // The committer is let go a moment after the stop begins, which must wait for it.
        let release = Thread { [pool = served.app.commits] in
            Thread.sleep(forTimeInterval: 0.05)
            pool.resumeCommits()
        }
        release.start()
        served.app.stopSession()
        #expect(served.app.commits.pendingCommits == 0)
        #expect(
            await Shell.run("git", ["log", "-2", "--format=%s"], in: served.root).stdout
                == "Suspend: english-a1/go\nIgnore: english-a1/run\n")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: served.root).stdout == "")
    }

    /// A server that crashed with a commit pending: the next server commits it before its
    /// first request, as the commit the first would have made.
    @Test func theNextServerCommitsWhatACrashedOneLeftPending() async throws {
        let served = await Served()
        served.app.commits.suspendCommits()
        try await served.test { client in
            let response = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["entry": "english-a1/run", "status": "ignored"]))
            #expect(response.status == .ok)
        }
        let crashed = TemporaryDirectory()
        await Shell.run("cp", ["-a", served.root.path + "/.", crashed.url.path])
        served.app.commits.resumeCommits()
        served.app.commits.waitForCommits()
        let next = WebApp(
            root: crashed.url, user: "demo",
            policy: AccessPolicy(token: WebAPITests.token, hosts: AccessPolicy.hosts(listeningOn: "127.0.0.1")))
        next.commitLeftovers()
        #expect(await Self.head(crashed.url) == Self.head(served.root), "the same commit")
        #expect(PendingCommit.journals(in: crashed.url).isEmpty)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: crashed.url).stdout == "")
    }
}
