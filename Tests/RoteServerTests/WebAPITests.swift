import Foundation
import Git
import HTTPTypes
import Hummingbird
import RoteLibrary
import RoteModel
import RoteServer
import RoteStore
import Study
import TestSupport
import Testing
import WebPages

/// The JSON API of `rote serve` through its own server on 127.0.0.1, on a copy of the starter
/// library: the security rules, then each page's calls, checking the files and commits they
/// leave as `rote study` and `rote letters record` would leave them.
@Suite struct WebAPITests {
    static let token = "test-token-0123456789"

    /// A server on a fresh copy of the starter library, and what it needs.
    struct Served {
        let directory: TemporaryDirectory
        let app: WebApp
        var root: URL { directory.url }

        init() async {
            directory = await StarterLibrary.copy()
            app = WebApp(
                root: directory.url, user: "demo",
                policy: AccessPolicy(token: WebAPITests.token, hosts: AccessPolicy.hosts(listeningOn: "127.0.0.1")))
        }

        func test<Value: Sendable>(_ body: @Sendable (LoopbackClient) async throws -> Value) async throws -> Value {
            try await withLoopbackServer(app, body)
        }

        /// The library's log once every write's commit, made behind its answer, is in.
        func commitCount() async -> Int {
            app.commits.waitForCommits()
            return Int(
                await Shell.run("git", ["rev-list", "--count", "HEAD"], in: root).stdout.trimmingCharacters(
                    in: .whitespacesAndNewlines)) ?? 0
        }
        func lastCommitSubject() async -> String {
            app.commits.waitForCommits()
            return await Shell.run("git", ["log", "-1", "--format=%s"], in: root).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        func uncommitted() async -> String {
            app.commits.waitForCommits()
            return await Shell.run("git", ["status", "--porcelain"], in: root).stdout
        }
    }

    /// Headers a page of the server sends: its host, and the token in the header.
    static func headers(host: String = "127.0.0.1:8080", token: String? = WebAPITests.token, extra: HTTPFields = [:])
        -> HTTPFields
    {
        var fields: HTTPFields = [AccessPolicy.hostField: host]
        if let token { fields[AccessPolicy.headerName] = token }
        fields.append(contentsOf: extra)
        return fields
    }

    static func json(_ response: TestResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
    }

    static func body(_ object: Any) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
    }

    static func errorCode(_ response: TestResponse) -> String? {
        ((try? json(response)) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["code"] as? String
    }

    // MARK: Security

    @Test func withoutTheTokenNothingOfTheLibraryIsAnswered() async throws {
        let served = await Served()
        served.directory.write("corpus/kjv/media/lamp.png", Data([0x89, 0x50, 0x4e, 0x47]))
        try await served.test { client in
            for uri in ["/api/today", "/api/entries?q=run", "/api/strings", "/media/kjv/lamp.png", "/assets/..%2fapi"] {
                let response = try await client.execute(uri: uri, method: .get, headers: Self.headers(token: nil))
                #expect(response.status == .unauthorized, "\(uri)")
                #expect(Self.errorCode(response) == "no_token")
                #expect(!String(buffer: response.body).contains("run"), "no data in the refusal")
            }
            // The shell — the same embedded page, script, style and strings for every library —
            // is all a browser gets without the token: a navigation cannot carry a header.
            for uri in ["/", "/assets/app.js", "/assets/strings.json", "/favicon.ico"] {
                let response = try await client.execute(uri: uri, method: .get, headers: Self.headers(token: nil))
                #expect(response.status == .ok, "\(uri)")
            }
            let wrong = try await client.execute(uri: "/api/today", method: .get, headers: Self.headers(token: "guess"))
            #expect(wrong.status == .forbidden)
            #expect(Self.errorCode(wrong) == "wrong_token")
            let header = try await client.execute(uri: "/api/today", method: .get, headers: Self.headers())
            #expect(header.status == .ok)
        }
    }

    /// Cookies are not scoped by port: a cookie set by `rote serve` on 127.0.0.1 goes to every
    /// other web server on 127.0.0.1, and a second `rote serve` would replace it. A query
    /// string reaches logs and history. So the token is taken from the header only, and no
    /// answer sets a cookie.
    @Test func noCredentialTravelsInACookieOrAQuery() async throws {
        let served = await Served()
        try await served.test { client in
            let first = try await client.execute(
                uri: "/?token=\(Self.token)", method: .get, headers: Self.headers(token: nil))
            #expect(first.status == .ok, "the shell, not a redirect")
            #expect(first.headers[.setCookie] == nil)
            let cookie = try await client.execute(
                uri: "/api/today", method: .get,
                headers: Self.headers(token: nil, extra: [.cookie: "rote_token=\(Self.token)"]))
            #expect(cookie.status == .unauthorized, "a cookie is not a credential")
            let query = try await client.execute(
                uri: "/api/today?token=\(Self.token)", method: .get, headers: Self.headers(token: nil))
            #expect(query.status == .unauthorized, "nor is a query string")
            for uri in ["/", "/assets/app.js", "/api/today", "/api/session"] {
                let response = try await client.execute(uri: uri, method: .get, headers: Self.headers())
                #expect(response.headers[.setCookie] == nil, "\(uri)")
            }
        }
    }

    @Test func aForeignHostOrOriginIsRefused() async throws {
        let served = await Served()
        try await served.test { client in
            // DNS rebinding: a name that resolves to 127.0.0.1 still says its own name.
            let rebound = try await client.execute(
                uri: "/api/today", method: .get, headers: Self.headers(host: "attacker.example:8080"))
            #expect(rebound.status == .forbidden)
            #expect(Self.errorCode(rebound) == "foreign_host")
            let csrf = try await client.execute(
                uri: "/api/entries/status", method: .post,
                headers: Self.headers(extra: [.origin: "http://attacker.example"]),
                body: Self.body(["entry": "english-a1/run", "status": "ignored"]))
            #expect(csrf.status == .forbidden)
            #expect(Self.errorCode(csrf) == "foreign_origin")
            let crossSite = try await client.execute(
                uri: "/api/today", method: .get,
                headers: Self.headers(extra: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]))
            #expect(crossSite.status == .forbidden)
            let own = try await client.execute(
                uri: "/api/today", method: .get,
                headers: Self.headers(host: "localhost:8080", extra: [.origin: "http://localhost:8080"]))
            #expect(own.status == .ok)
        }
        #expect(await served.commitCount() == 1, "nothing was written")
    }

    @Test func onlyTheLibrarysOwnMediaIsServed() async throws {
        let served = await Served()
        // Beside the entries, as `image: lamp.png` names it, and in a folder of the deck.
        served.directory.write("corpus/kjv/lamp.png", Data([0x89, 0x50, 0x4e, 0x47]))
        served.directory.write("corpus/kjv/media/lamp.png", Data([0x89, 0x50, 0x4e, 0x47]))
        served.directory.write("corpus/kjv/.hidden.png", Data([1]))
        try await served.test { client in
            for uri in ["/media/kjv/lamp.png", "/media/kjv/media/lamp.png"] {
                let ok = try await client.execute(uri: uri, method: .get, headers: Self.headers())
                #expect(ok.status == .ok, "\(uri)")
                #expect(ok.headers[.contentType] == "image/png")
            }
            for uri in [
                "/media/kjv/../../rote.yaml", "/media/kjv/%2e%2e/%2e%2e/rote.yaml", "/media/kjv/..%2f..%2frote.yaml",
                "/media/../../../etc/passwd",
                "/media/kjv/.hidden.png", "/media/kjv/lamp.yaml", "/media/nodeck/lamp.png",
                "/media/english-a1/run.yaml", "/media/english-a1/deck.yaml",
                "/assets/..%2f..%2fPackage.swift", "/assets/%2e%2e",
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: Self.headers())
                #expect(response.status == .notFound, "\(uri)")
                #expect(!String(buffer: response.body).contains("format:"), "\(uri) leaks rote.yaml")
            }
        }
    }

    /// Issue #33 item 4: an entry names its sound beside it (`audio: run.mp3`), the entry's
    /// page gives its address, and `/media/` serves it from there, where the Anki importer
    /// puts a package's media too.
    @Test func anEntrysSoundIsServedFromBesideIt() async throws {
        let served = await Served()
        let run = try #require(served.directory.read("corpus/english-a1/run.yaml"))
        served.directory.write("corpus/english-a1/run.yaml", run + "audio: run.mp3\n")
        served.directory.write("corpus/english-a1/run.mp3", Data([0x49, 0x44, 0x33]))
        try await served.test { client in
            let entry = try await client.execute(
                uri: "/api/entry?id=english-a1/run", method: .get, headers: Self.headers())
            let answer = try #require(try Self.json(entry) as? [String: Any])
            let audio = try #require(answer["audio"] as? String, "\(answer)")
            #expect(audio == "english-a1/run.mp3")
            let sound = try await client.execute(uri: "/media/\(audio)", method: .get, headers: Self.headers())
            #expect(sound.status == .ok && sound.headers[.contentType] == "audio/mpeg")
        }
    }

    /// A committed link is the library's content, not the learner's doing: `corpus/<deck>/media
    /// -> /elsewhere` must not serve /elsewhere, and a link inside `media/` serves nothing either.
    @Test func noMediaIsServedThroughASymbolicLink() async throws {
        let served = await Served()
        let elsewhere = TemporaryDirectory("rote-elsewhere")
        elsewhere.write("secret.png", Data([0x89, 0x50, 0x4e, 0x47, 0x42]))
        elsewhere.write("photos/holiday.png", Data([0x89, 0x50, 0x4e, 0x47, 0x43]))
        served.directory.write("corpus/english-a1/media/run.png", Data([0x89, 0x50, 0x4e, 0x47]))
        let links = [
            ("corpus/kjv/media", elsewhere.url.path),
            ("corpus/english-a1/media/alias.png", "run.png"),
            ("corpus/english-a1/media/photos", elsewhere.url.appending(path: "photos").path),
        ]
        for (link, target) in links {
            try FileManager.default.createDirectory(
                at: served.root.appending(path: link).deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: served.root.appending(path: link).path, withDestinationPath: target)
        }
        try await served.test { client in
            let real = try await client.execute(
                uri: "/media/english-a1/media/run.png", method: .get, headers: Self.headers())
            #expect(real.status == .ok, "a real file of a real media folder is served")
            for uri in [
                "/media/kjv/media/secret.png", "/media/english-a1/media/alias.png",
                "/media/english-a1/media/photos/holiday.png",
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: Self.headers())
                #expect(response.status == .notFound, "\(uri)")
                #expect(Self.errorCode(response) == "not_found", "\(uri)")
                #expect(
                    response.body.readableBytes < 4
                        || Array(response.body.readableBytesView.prefix(4)) != [0x89, 0x50, 0x4e, 0x47], "\(uri)")
            }
        }
    }

    @Test func oversizedAndMalformedBodiesGetJSONErrors() async throws {
        let served = await Served()
        try await served.test { client in
            let huge = ByteBuffer(
                string: "{\"entry\": \"" + String(repeating: "a", count: WebApp.BodyLimit.json + 10)
                    + "\", \"status\": \"ignored\"}")
            let tooLarge = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: Self.headers(), body: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(Self.errorCode(tooLarge) == "too_large")
            let broken = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: Self.headers(),
                body: ByteBuffer(string: "{not json"))
            #expect(broken.status == .badRequest)
            #expect(Self.errorCode(broken) == "bad_json")
            let missing = try await client.execute(
                uri: "/api/entry?id=english-a1/no-such-word", method: .get, headers: Self.headers())
            #expect(missing.status == .notFound)
            #expect(Self.errorCode(missing) == "not_found")
            let unknown = try await client.execute(uri: "/api/nothing-here", method: .get, headers: Self.headers())
            #expect(unknown.status == .notFound)
            #expect(unknown.headers[.contentType]?.hasPrefix("application/json") == true)
        }
        #expect(await served.commitCount() == 1)
    }

    /// The reader's triage: add and known through `Library.add`/`markKnown`, a word in no deck
    /// into the profile; anything else a JSON error with nothing written.
    @Test func triageAddsMarksKnownAndIgnoresAWordInNoDeck() async throws {
        let served = await Served()
        try await served.test { client in
            let bad = try await client.execute(
                uri: "/api/entries/triage", method: .post, headers: Self.headers(),
                body: Self.body(["entry": "english-a1/run", "action": "love"]))
            #expect(bad.status == .badRequest)
            #expect(Self.errorCode(bad) == "bad_action")
            let empty = try await client.execute(
                uri: "/api/words/ignore", method: .post, headers: Self.headers(), body: Self.body(["word": " "]))
            #expect(empty.status == .badRequest)
            for (entry, action) in [("english-a1/monkey", "add"), ("english-a1/sunny", "known")] {
                let done = try await client.execute(
                    uri: "/api/entries/triage", method: .post, headers: Self.headers(),
                    body: Self.body(["entry": entry, "action": action]))
                #expect(done.status == .ok, "\(String(buffer: done.body))")
            }
            let ignored = try await client.execute(
                uri: "/api/words/ignore", method: .post, headers: Self.headers(), body: Self.body(["word": "quokka"]))
            #expect(String(buffer: ignored.body).contains("quokka"))
        }
        #expect(await served.commitCount() == 4, "three triage commits after the first")
        #expect(
            served.directory.read("profiles/demo/progress/english-a1/monkey.yaml")?.contains("grade: again") == true)
        #expect(
            served.directory.read("profiles/demo/progress/english-a1/sunny.yaml")?.contains("synthetic: known") == true)
        #expect(served.directory.read("profiles/demo/profile.yaml")?.contains("quokka") == true)
    }

    /// The tracing page's switches go into the profile, as `rote letters settings` puts them.
    @Test func letterSettingsAreKeptInTheProfile() async throws {
        let served = await Served()
        try await served.test { client in
            let none = try await client.execute(
                uri: "/api/letters/settings", method: .post, headers: Self.headers(), body: Self.body([String: Any]()))
            #expect(none.status == .badRequest)
            let saved = try await client.execute(
                uri: "/api/letters/settings", method: .post, headers: Self.headers(),
                body: Self.body(["left_handed": true]))
            #expect(saved.status == .ok, "\(String(buffer: saved.body))")
            let letters =
                try Self.json(try await client.execute(uri: "/api/letters", method: .get, headers: Self.headers()))
                as? [String: Any]
            #expect(letters?["left_handed"] as? Bool == true)
        }
        #expect(await served.commitCount() == 2)
        #expect(served.directory.read("profiles/demo/profile.yaml")?.contains("left_handed: true") == true)
    }

    @Test func everyAnswerCarriesAStrictContentSecurityPolicy() async throws {
        let served = await Served()
        try await served.test { client in
            for (uri, headers) in [
                ("/", Self.headers()), ("/", Self.headers(token: nil)), ("/api/today", Self.headers(token: nil)),
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(
                    policy.contains("default-src 'none'") && policy.contains("script-src 'self'")
                        && policy.contains("frame-ancestors 'none'"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            }
        }
    }

    // MARK: Pages

    @Test func todayPlansPerDeck() async throws {
        let served = await Served()
        try await served.test { client in
            let response = try await client.execute(uri: "/api/today", method: .get, headers: Self.headers())
            #expect(response.status == .ok)
            let today = try #require(try Self.json(response) as? [String: Any])
            #expect(today["user"] as? String == "demo")
            let decks = try #require(today["decks"] as? [[String: Any]])
            let names = decks.compactMap { $0["name"] as? String }
            #expect(names.contains("english-a1") && names.contains("kjv"))
            // Each deck's counts are its own session's (TodayCountsTests), so together they hold
            // at least what the session of every deck takes, within the same daily limits.
            let due = decks.compactMap { $0["due"] as? Int }.reduce(0, +)
            #expect(due >= today["due"] as? Int ?? .max)
        }
    }

    /// An action that answers `screen` (`docs/web.md`, "A study session"): the first choice,
    /// the steps as shown, a passage's opening words, no to a consent question, going on.
    static func action(for screen: [String: Any]) -> [String: Any] {
        switch screen["kind"] as? String {
        case "question":
            let question = screen["question"] as? [String: Any] ?? [:]
            if question["typed"] as? Bool == true { return ["type": "run"] }
            if question["kind"] as? String == "order" {
                return ["order": Array(0..<((question["choices"] as? [Any])?.count ?? 0))]
            }
            return ["choose": 0]
        case "passage":
            let step = (screen["passage"] as? [String: Any])?["step"] as? String
            return step == "read" || step == "read_again" ? ["proceed": true] : ["type": "in the beginning"]
        case "reflection": return ["type": ""]
        case "consent": return ["consent": false]
        case "grade_choice": return ["grade": "good"]
        default: return ["proceed": true]
        }
    }

    /// Sends one action for `screen`; the next screen.
    static func act(_ client: LoopbackClient, _ action: [String: Any], on screen: [String: Any]) async throws
        -> [String: Any]
    {
        let response = try await client.execute(
            uri: "/api/session/reply", method: .post, headers: headers(),
            body: body(["action": action, "version": screen["version"] as? Int ?? 0]))
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try #require(try json(response) as? [String: Any])
    }

    /// Answers whatever the session asks until it ends.
    static func studyToTheEnd(_ client: LoopbackClient, first: [String: Any], limit: Int = 200) async throws
        -> [String: Any]
    {
        var screen = first
        var steps = 0
        while screen["kind"] as? String != "summary", steps < limit {
            screen = try await act(client, action(for: screen), on: screen)
            steps += 1
        }
        return screen
    }

    @Test func aBrowserSessionEndsInOneCommitLikeRoteStudy() async throws {
        let served = await Served()
        let before = await served.commitCount()
        try await served.test { client in
            let started = try await client.execute(
                uri: "/api/session", method: .post, headers: Self.headers(),
                body: Self.body(["decks": ["english-a1"], "new": 0, "reviews": 3]))
            #expect(started.status == .ok)
            let first = try #require(try Self.json(started) as? [String: Any])
            #expect(first["planned"] as? Int == 3 && first["answered"] as? Int == 0, "\(first)")
            let last = try await Self.studyToTheEnd(client, first: first)
            #expect(last["kind"] as? String == "summary")
            let summary = try #require(last["summary"] as? [String: Any])
            #expect(summary["saved"] as? Bool == true && summary["reviews"] as? Int ?? 0 >= 3, "\(last)")
            #expect(last["answered"] as? Int == 3 && last["planned"] as? Int == 3, "\(last)")
            // The session let the library go before it said it was over: the next write goes through.
            let next = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: Self.headers(),
                body: Self.body(["entry": "english-a1/able", "status": "suspended"]))
            #expect(next.status == .ok, "\(String(buffer: next.body))")
        }
        #expect(await served.commitCount() == before + 2)
        let subjects = await Shell.run("git", ["log", "-2", "--format=%s"], in: served.root).stdout.split(
            separator: "\n")
        #expect(subjects.first == "Suspend: english-a1/able")
        #expect(subjects.last?.hasPrefix("Study") == true, "\(subjects)")
        let uncommitted = await served.uncommitted()
        #expect(uncommitted.isEmpty, "everything is in the one commit: \(uncommitted)")
        let changed = await Shell.run("git", ["show", "--name-only", "--format=", "HEAD~1"], in: served.root).stdout
            .split(
                separator: "\n")
        #expect(changed.filter { $0.hasPrefix("profiles/demo/progress/english-a1/") }.count == 3)
        #expect(changed.contains { $0.hasPrefix("profiles/demo/sessions/") })
        #expect(!FileManager.default.fileExists(atPath: served.root.appending(path: ".git/rote/session.yaml").path))
    }

    /// Issue #33 item 2: a new word's card holds the answers to its questions, so the first
    /// question comes on a screen of its own, never below the card.
    @Test func aNewWordsQuestionNeverSharesTheScreenWithItsCard() async throws {
        let served = await Served()
        // The demo learner's working set is full: without it, a new word comes first.
        let profile = served.root.appending(path: "profiles/demo/profile.yaml")
        let text = try String(contentsOf: profile, encoding: .utf8)
        try text.replacing(try Regex(#"\n  working_set: \d+"#), with: "").write(
            to: profile, atomically: true, encoding: .utf8)
        try await served.test { client in
            let started = try await client.execute(
                uri: "/api/session", method: .post, headers: Self.headers(),
                body: Self.body(["decks": ["english-a1"], "new": 1, "reviews": 0]))
            let card = try #require(try Self.json(started) as? [String: Any])
            #expect(card["visit"] as? String == "new" && card["kind"] as? String == "card", "\(card)")
            let word = try #require(card["card"] as? [String: Any])
            let translation = try #require(word["translation"] as? String)
            let question = try await Self.act(client, ["proceed": true], on: card)
            #expect(question["kind"] as? String == "question", "\(question)")
            // The question's screen holds its choices, but nothing of the card beyond them.
            #expect(question["card"] == nil)
            var asked = try #require(question["question"] as? [String: Any])
            if asked["kind"] as? String == "translation" {
                #expect((asked["choices"] as? [String])?.contains(translation) == true, "\(asked)")
            }
            asked["choices"] = nil
            let shown = String(decoding: try JSONSerialization.data(withJSONObject: asked), as: UTF8.self)
            #expect(!shown.contains(translation), "the answer is on the question's screen: \(shown)")
        }
        served.app.stopSession()
    }

    @Test func stoppingTheServerSavesTheSessionAsQuittingDoes() async throws {
        let served = await Served()
        let before = await served.commitCount()
        try await served.test { client in
            let started = try await client.execute(
                uri: "/api/session", method: .post, headers: Self.headers(),
                body: Self.body(["decks": ["english-a1"], "new": 0, "reviews": 5]))
            var screen = try #require(try Self.json(started) as? [String: Any])
            // Through the first card only: its grade prompt accepted, then the next card shows.
            var steps = 0
            while (screen["number"] as? Int ?? 0) < 2, screen["kind"] as? String != "summary", steps < 20 {
                steps += 1
                screen = try await Self.act(client, Self.action(for: screen), on: screen)
            }
            // An action for a screen already answered is refused, not taken for the next one.
            let stale = try await client.execute(
                uri: "/api/session/reply", method: .post, headers: Self.headers(),
                body: Self.body(["action": ["choose": 0], "version": 1]))
            #expect(stale.status == .conflict)
        }
        served.app.stopSession()
        #expect(await served.commitCount() == before + 1)
        let session = await Shell.run("git", ["show", "--name-only", "--format=", "HEAD"], in: served.root).stdout
        #expect(
            session.split(separator: "\n").filter { $0.hasPrefix("profiles/demo/progress/") }.count == 1, "\(session)")
        #expect(await served.uncommitted().isEmpty)
    }

    @Test func aTracedLetterIsScoredAndRecordedAsRoteLettersRecordRecordsIt() async throws {
        let served = await Served()
        try await served.test { client in
            let letters = try #require(
                try Self.json(try await client.execute(uri: "/api/letters", method: .get, headers: Self.headers()))
                    as? [String: Any])
            // The demo profile's tracing settings (`rote letters settings`), for the page to follow.
            #expect(
                letters["left_handed"] as? Bool == false && letters["haptics"] as? Bool == true,
                "\(letters.keys.sorted())")
            let a = try #require((letters["letters"] as? [[String: Any]])?.first)
            #expect(a["id"] as? String == "alphabet/a")
            #expect(a["unlocked"] as? Bool == true)
            let strokes = try #require(a["strokes"] as? [[[Double]]])
            let drawing = strokes.map { stroke in
                stroke.enumerated().map { [$0.element[0], $0.element[1], Double($0.offset * 20)] }
            }
            let now = Timestamp.format(Date())
            let response = try await client.execute(
                uri: "/api/letters/attempts", method: .post, headers: Self.headers(),
                body: Self.body([
                    "letter": "a", "mode": "trace", "drawing": drawing, "started_at": now, "completed_at": now,
                ]))
            #expect(response.status == .ok)
            let result = try #require(try Self.json(response) as? [String: Any])
            #expect(result["score"] as? Int == 100)
            #expect(result["file"] as? String == "profiles/demo/letters/alphabet/a.yaml")
            let bad = try await client.execute(
                uri: "/api/letters/attempts", method: .post, headers: Self.headers(),
                body: Self.body([
                    "letter": "a", "mode": "sideways", "drawing": drawing, "started_at": now, "completed_at": now,
                ]))
            #expect(bad.status == .badRequest)
            #expect(Self.errorCode(bad) == "bad_attempt")
        }
        #expect(await served.lastCommitSubject() == "Letters: alphabet/a trace 100")
        let file = try #require(served.directory.read("profiles/demo/letters/alphabet/a.yaml"))
        let attempts = try #require(
            LetterAttemptsFile.decode(Data(file.utf8), path: "profiles/demo/letters/alphabet/a.yaml").0)
        #expect(attempts.attempts.count == 1)
        #expect(attempts.attempts[0].drawing.count == 2)
        #expect(await served.uncommitted().isEmpty)
    }

    @Test func theReaderMarksWordsAndIgnoresOne() async throws {
        let served = await Served()
        try await served.test { client in
            let response = try await client.execute(
                uri: "/api/reader", method: .post, headers: Self.headers(),
                body: Self.body(["text": "I ran home, zzyzx!"]))
            let tokens = try #require(try Self.json(response) as? [[String: Any]])
            #expect(
                tokens.map { $0["text"] as? String ?? "" }.joined() == "I ran home, zzyzx!", "the tokens are the text")
            let ran = try #require(tokens.first { $0["text"] as? String == "ran" })
            #expect(ran["entry"] as? String == "english-a1/run")
            #expect(tokens.first { $0["text"] as? String == "zzyzx" }?["status"] as? String == "none")
            let lookup = try #require(
                try Self.json(
                    try await client.execute(uri: "/api/lookup?word=ran", method: .get, headers: Self.headers()))
                    as? [[String: Any]])
            #expect(lookup.first?["lemma"] as? String == "run")
            let ignore = try await client.execute(
                uri: "/api/entries/status", method: .post, headers: Self.headers(),
                body: Self.body(["entry": "english-a1/run", "status": "ignored"]))
            #expect(ignore.status == .ok)
            let again = try #require(
                try Self.json(
                    try await client.execute(
                        uri: "/api/reader", method: .post, headers: Self.headers(), body: Self.body(["text": "ran"])))
                    as? [[String: Any]])
            #expect(again.first?["status"] as? String == "ignored", "the reader sees the commit")
            // The summary `rote read` prints: run is ignored now, zzyzx in no deck.
            let summary = try #require(
                try Self.json(
                    try await client.execute(
                        uri: "/api/reader/summary", method: .post, headers: Self.headers(),
                        body: Self.body(["text": "I ran home, zzyzx! Ran."]))) as? [String: Any])
            #expect(summary["running_words"] as? Int == 5)
            #expect(summary["ignored_words"] as? Int == 2)
            #expect((summary["not_in_deck"] as? [[String: Any]])?.map { $0["word"] as? String } == ["zzyzx"])
            #expect(summary["coverage"] is Double || summary["coverage"] is Int)
        }
        #expect(await served.lastCommitSubject() == "Ignore: english-a1/run")
        #expect(
            served.directory.read("profiles/demo/progress/english-a1/run.yaml")?.contains("status: ignored") == true)
    }

    @Test func theLibraryAndStatsPagesAnswer() async throws {
        let served = await Served()
        try await served.test { client in
            let decks = try #require(
                try Self.json(try await client.execute(uri: "/api/decks", method: .get, headers: Self.headers()))
                    as? [[String: Any]])
            #expect(
                decks.compactMap { $0["name"] as? String } == ["english-a1", "kjv", "red-letter", "alphabet", "math"])
            let found = try #require(
                try Self.json(
                    try await client.execute(uri: "/api/entries?q=run", method: .get, headers: Self.headers()))
                    as? [String: Any])
            #expect(
                (found["entries"] as? [[String: Any]])?.contains { $0["id"] as? String == "english-a1/run" } == true)
            let entry = try #require(
                try Self.json(
                    try await client.execute(uri: "/api/entry?id=english-a1/run", method: .get, headers: Self.headers())
                ) as? [String: Any])
            #expect(entry["kind"] as? String == "vocabulary")
            #expect((entry["file"] as? String)?.contains("word: run") == true)
            #expect((entry["commits"] as? [[String: Any]])?.first?["summary"] as? String == "starter")
            let stats = try #require(
                try Self.json(try await client.execute(uri: "/api/stats", method: .get, headers: Self.headers()))
                    as? [String: Any])
            #expect((stats["forecast"] as? [Int])?.count == 31)
            #expect((stats["reviews_per_day"] as? [Int])?.count == 90)
            #expect((stats["heat_levels"] as? [Int])?.allSatisfy { (0...4).contains($0) } == true)
            #expect(stats["skills"] as? [Any] != nil && stats["leeches"] as? [Any] != nil)
            // english-a1's learning steps are its deck's; nothing here sets a retention.
            let schedules = try #require(stats["schedules"] as? [[String: Any]])
            let english = try #require(schedules.first { $0["deck"] as? String == "english-a1" })
            #expect(english["desired_retention"] as? Double == 0.9)
            #expect(english["leech_threshold"] as? Int == 8 && english["leech_action"] as? String == "tag")
            #expect(english["parameters"] as? String == "default")
        }
    }

    /// The icon browsers ask for is the shell's: served without the token, as an image, and
    /// still only to this server's own host.
    @Test func theFaviconAnswersAsTheShellDoes() async throws {
        let served = await Served()
        try await served.test { client in
            let icon = try await client.execute(uri: "/favicon.ico", method: .get, headers: Self.headers(token: nil))
            #expect(icon.status == .ok)
            #expect(icon.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: icon.body).hasPrefix("<svg"))
            let foreign = try await client.execute(
                uri: "/favicon.ico", method: .get, headers: Self.headers(host: "evil.example:8080", token: nil))
            #expect(foreign.status == .forbidden)
            #expect(Self.errorCode(foreign) == "foreign_host")
        }
    }

    /// The entry page's progress is `rote show`'s: confidence and mastery from the reviews
    /// replayed by the deck's scheduler, beside stability and the due date.
    @Test func anEntryCarriesConfidenceAndMasteryAsRoteShowGivesThem() async throws {
        // The starter library's demo learner has reviewed `house` three times.
        let served = await Served()
        try await served.test { client in
            let entry = try #require(
                try Self.json(
                    try await client.execute(
                        uri: "/api/entry?id=english-a1/house", method: .get, headers: Self.headers())
                ) as? [String: Any])
            #expect(entry["deck_title"] as? String != nil)
            let confidence = try #require(entry["confidence"] as? Int)
            #expect((0...100).contains(confidence))
            let levels = ["starting", "learning", "getting_there", "strong", "mastered"]
            #expect(levels.contains(entry["mastery"] as? String ?? ""))
            #expect(entry["stability"] as? Double != nil)
            #expect(entry["due"] as? String != nil)
            // An entry never reviewed has no confidence to show.
            let fresh = try #require(
                try Self.json(
                    try await client.execute(
                        uri: "/api/entry?id=english-a1/able", method: .get, headers: Self.headers())
                ) as? [String: Any])
            #expect(fresh["confidence"] == nil && fresh["mastery"] == nil)
        }
    }
}
