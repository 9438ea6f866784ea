import Foundation
import HTTPTypes
import Hummingbird
import RoteModel
import RoteServer
import TestSupport
import Testing

/// A reply sent twice answers one question only, and every mistake of a client — a number
/// out of range, a write the library's files refuse, a request the parser cannot read — is a
/// 4xx with the API's JSON error, never a 500 or an empty body.
@Suite struct WebClientMistakeTests {
    typealias Served = WebAPITests.Served

    /// A double click, or a page that sends again: identical replies to one screen at once.
    /// Checked apart from the answering, a duplicate could pass the version check, arrive
    /// after the session had moved to the next screen, and answer a card the learner never saw.
    @Test func identicalRepliesAtOnceAnswerTheQuestionOnce() async throws {
        let served = await Served()
        let copies = 6
        let questions = try await served.test { client in
            let started = try await client.execute(
                uri: "/api/session", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["decks": ["english-a1"], "new": 0, "reviews": 8]))
            var screen = try #require(try WebAPITests.json(started) as? [String: Any])
            var questions = 0
            while screen["kind"] as? String != "summary", questions < 200 {
                questions += 1
                let version = try #require(screen["version"] as? Int)
                let payload = WebAPITests.body(["action": WebAPITests.action(for: screen), "version": version])
                let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String, ByteBuffer).self) {
                    group in
                    for _ in 0..<copies {
                        group.addTask {
                            let response = try await client.execute(
                                uri: "/api/session/reply", method: .post, headers: WebAPITests.headers(),
                                body: payload)
                            return (response.status, WebAPITests.errorCode(response) ?? "", response.body)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let accepted = answers.filter { $0.0 == .ok }
                #expect(accepted.count == 1, "question \(questions), version \(version): \(answers.map(\.0))")
                #expect(
                    answers.filter { $0.0 != .ok }.allSatisfy { $0.0 == .conflict && $0.1 == "stale" },
                    "every other copy is 409 stale: \(answers.map { "\($0.0.code) \($0.1)" })")
                let next = try #require(accepted.first)
                screen = try #require(
                    try JSONSerialization.jsonObject(with: Data(next.2.readableBytesView)) as? [String: Any])
            }
            #expect(screen["kind"] as? String == "summary")
            return questions
        }
        #expect(questions > 8, "every card asked at least one question")
        // Each card studied once: as many progress files in the session's commit as cards, and
        // no card answered by a copy meant for the one before.
        #expect(await served.commitCount() == 2, "the session's one commit after the starter")
        let files = await Shell.run("git", ["show", "--name-only", "--format=", "HEAD"], in: served.root).stdout
            .split(separator: "\n").filter { $0.hasPrefix("profiles/demo/progress/english-a1/") }
        #expect(files.count == 8, "\(files)")
    }

    @Test func aDrawingPointFarOutOfTheBoxIsRefusedAsTheClientsMistake() async throws {
        let served = await Served()
        try await served.test { client in
            let now = Timestamp.format(Date())
            for point in [[1e308, 20, 0], [20, -1e308, 0], [20, 20, 1e308]] as [[Double]] {
                let response = try await client.execute(
                    uri: "/api/letters/attempts", method: .post, headers: WebAPITests.headers(),
                    body: WebAPITests.body([
                        "letter": "a", "mode": "trace", "drawing": [[[10, 10, 0], point]], "started_at": now,
                        "completed_at": now,
                    ]))
                #expect(response.status == .badRequest, "\(point): \(String(buffer: response.body))")
                #expect(WebAPITests.errorCode(response) == "bad_attempt")
                #expect(String(buffer: response.body).contains("drawing[0][1]"), "the message names the point")
            }
        }
        #expect(await served.commitCount() == 1, "nothing recorded")
    }

    /// A progress folder that is a symbolic link (a pulled commit can hold one) is never
    /// written through; the learner mends the library, so the answer says so as a 4xx.
    @Test func aWriteRefusedByALinkedProgressFolderIsA4xxThatSaysWhy() async throws {
        let served = await Served()
        let elsewhere = TemporaryDirectory("rote-elsewhere")
        let progress = served.root.appending(path: "profiles/demo/progress/english-a1")
        try FileManager.default.copyItem(at: progress, to: elsewhere.url.appending(path: "english-a1"))
        try FileManager.default.removeItem(at: progress)
        try FileManager.default.createSymbolicLink(
            atPath: progress.path, withDestinationPath: elsewhere.url.appending(path: "english-a1").path)
        let before = try FileManager.default.contentsOfDirectory(
            atPath: elsewhere.url.appending(path: "english-a1").path)
        try await served.test { client in
            let response = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["entry": "english-a1/run", "status": "ignored"]))
            #expect((400..<500).contains(response.status.code), "\(response.status): \(String(buffer: response.body))")
            #expect(WebAPITests.errorCode(response) != "internal")
            #expect(String(buffer: response.body).contains("symbolic link"), "\(String(buffer: response.body))")
        }
        let after = try FileManager.default.contentsOfDirectory(
            atPath: elsewhere.url.appending(path: "english-a1").path)
        #expect(before.sorted() == after.sorted(), "nothing written outside the library")
    }

    /// An address over the parser's 80 KiB never reaches the router: the answer comes from the
    /// connection's handler, as JSON all the same.
    @Test func anOverlongAddressGetsAJSONError() async throws {
        let served = await Served()
        try await served.test { client in
            let long = "/api/entries?q=" + String(repeating: "a", count: 100_000)
            let response = try await client.execute(uri: long, method: .get, headers: WebAPITests.headers())
            #expect(response.status == .requestHeaderFieldsTooLarge)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(WebAPITests.errorCode(response) == "too_large", "\(String(buffer: response.body))")
        }
        // The same server answers an ordinary request as before.
        try await served.test { client in
            let response = try await client.execute(uri: "/api/decks", method: .get, headers: WebAPITests.headers())
            #expect(response.status == .ok)
        }
    }
}
