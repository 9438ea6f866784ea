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

@Suite struct UIStringsTests {
    @Test func theLanguageFollowsAcceptLanguageUnlessChosen() async throws {
        let served = await WebAPITests.Served()
        try await served.test { client in
            func strings(_ uri: String, _ accept: String?) async throws -> [String: Any] {
                var headers = WebAPITests.headers()
                if let accept { headers[.acceptLanguage] = accept }
                return try #require(
                    try WebAPITests.json(try await client.execute(uri: uri, method: .get, headers: headers))
                        as? [String: Any])
            }
            let arabic = try await strings("/api/strings", "ar-EG,ar;q=0.9,en;q=0.8")
            #expect(arabic["lang"] as? String == "ar")
            #expect(arabic["dir"] as? String == "rtl")
            #expect((arabic["strings"] as? [String: String])?["nav.today"] == "اليوم")
            let english = try await strings("/api/strings", "fr-FR,fr;q=0.9,en;q=0.5,ar;q=0.1")
            #expect(english["lang"] as? String == "en")
            #expect(english["dir"] as? String == "ltr")
            let chosen = try await strings("/api/strings?lang=ar", "en-GB")
            #expect(chosen["lang"] as? String == "ar")
            let nothing = try await strings("/api/strings", nil)
            #expect(nothing["lang"] as? String == "en")
        }
    }

    @Test func everyLanguageTranslatesEveryKey() throws {
        let text = try #require(WebFiles.files["strings.json"])
        let table = try JSONDecoder().decode([String: [String: String]].self, from: Data(text.utf8))
        let english = try #require(table["en"])
        for (language, strings) in table {
            #expect(
                Set(strings.keys) == Set(english.keys),
                "\(language) misses \(Set(english.keys).subtracting(strings.keys).sorted())")
        }
    }
}

@Suite struct PageWordsTests {
    static let table: [String: [String: String]] = {
        let text = WebFiles.files["strings.json"] ?? "{}"
        return (try? JSONDecoder().decode([String: [String: String]].self, from: Data(text.utf8))) ?? [:]
    }()

    /// Fails naming each key one language lacks.
    static func expectInEveryLanguage(_ keys: some Sequence<String>, _ source: String) {
        #expect(table.count >= 2, "the strings table has English and Arabic")
        for (language, strings) in table {
            let missing = Set(keys).filter { strings[$0] == nil }.sorted()
            #expect(missing.isEmpty, "\(language) lacks \(missing), which \(source) uses")
        }
    }

    /// Every key a page names (`t("today.heading")`) is in every language of the table.
    @Test func everyKeyAPageNamesIsInEveryLanguage() throws {
        let scripts = WebFiles.files.filter { $0.key.hasSuffix(".js") }
        #expect(scripts.count >= 8, "the pages are ES modules: \(scripts.keys.sorted())")
        var named = 0
        for (name, text) in scripts {
            let keys = text.matches(of: /\bt\("([a-z]+\.[A-Za-z.\-_]*[A-Za-z])"/).map { String($0.output.1) }
            named += keys.count
            Self.expectInEveryLanguage(keys, name)
        }
        #expect(named > 100, "the pages' keys were found: \(named)")
    }

    /// Every value the server sends that a page words through the table — deck kinds,
    /// entry kinds, mastery levels, statuses, passage steps, grades — has its key in every
    /// language, so none reaches a learner as the server's English word.
    @Test func everyWordTheServerSendsHasAKeyInEveryLanguage() async throws {
        let served = await WebAPITests.Served()
        try await served.test { client in
            func get(_ uri: String) async throws -> Any {
                try WebAPITests.json(try await client.execute(uri: uri, method: .get, headers: WebAPITests.headers()))
            }
            let today = try #require(try await get("/api/today") as? [String: Any])
            let kinds = (today["decks"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(Set(kinds) == ["vocabulary", "passages", "letters", "skills"])
            Self.expectInEveryLanguage(kinds.map { "kind.\($0)" }, "/api/today's deck kinds")
            let stats = try #require(try await get("/api/stats") as? [String: Any])
            let levels = (stats["mastery"] as? [[String: Any]] ?? []).flatMap { $0["levels"] as? [[String: Any]] ?? [] }
                .compactMap { $0["level"] as? String }
            #expect(!levels.isEmpty)
            Self.expectInEveryLanguage(levels.map { "mastery.\($0)" }, "/api/stats's mastery levels")
            for id in ["english-a1/run", "kjv/joh-1-1", "alphabet/a"] {
                let entry = try await get("/api/entry?id=\(id)") as? [String: Any]
                Self.expectInEveryLanguage(["kind.\(entry?["kind"] as? String ?? "?")"], "/api/entry's kind of \(id)")
            }
            let question = try #require(
                (try await get("/api/entries?deck=math&limit=1") as? [String: Any])?["entries"] as? [[String: Any]])
            let questionEntry =
                try await get("/api/entry?id=\(question.first?["id"] as? String ?? "")") as? [String: Any]
            Self.expectInEveryLanguage(["kind.\(questionEntry?["kind"] as? String ?? "?")"], "a question's kind")
            let letters = try #require(try await get("/api/letters") as? [String: Any])
            let tips = (letters["letters"] as? [[String: Any]] ?? []).flatMap { $0["tips"] as? [String] ?? [] }
            #expect(tips.count > 50)
            Self.expectInEveryLanguage(tips.map { "letterTip.\($0)" }, "the letters' tips")
        }
        Self.expectInEveryLanguage(
            ["new", "learning", "known", "suspended", "ignored", "none"].map { "status.\($0)" }, "the reader's statuses"
        )
        Self.expectInEveryLanguage(LadderLevel.allCases.map { "ladder.\($0.rawValue)" }, "an entry's passage step")
        Self.expectInEveryLanguage(Grade.allCases.map { "study.\($0.name)" }, "a review's grade")
    }
}

@Suite struct RecallMarkingTests {
    @Test func typedRecallIsMarkedWordByWordWithoutShowingThePassage() async throws {
        let served = await WebAPITests.Served()
        // The passage the session will show first, as the same planner picks it, stands at the
        // recite rung.
        let preview = try Library(root: served.root, user: "demo").startStudy(
            decks: ["kjv"], limits: StudyLimits(new: 0, reviewsPerDay: 1), planOnly: true)
        let id = try #require(preview.plan.due.first?.id)
        preview.close()
        let path = "profiles/demo/progress/\(id).yaml"
        let progress = try #require(served.directory.read(path))
        served.directory.write(
            path,
            progress.replacingOccurrences(
                of: "status: active\n",
                with: "status: active\nladder: {level: recite, covered: [], attempts: 0, at: 2026-01-01T00:00:00Z}\n"))
        await Shell.run("git", ["add", "-A"], in: served.root)
        await Shell.run(
            "git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "ladder"],
            in: served.root)
        guard case let .passage(passage) = try Library(root: served.root, user: "demo").entry(named: id).content else {
            Issue.record("\(id) is not a passage")
            return
        }
        let words = passage.text.split(separator: " ").map(String.init)
        try await served.test { client in
            let started = try await client.execute(
                uri: "/api/session", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["decks": ["kjv"], "new": 0, "reviews": 1]))
            let screen = try #require(try WebAPITests.json(started) as? [String: Any])
            let rung = try #require(screen["passage"] as? [String: Any], "\(screen)")
            #expect(rung["step"] as? String == "recall" || rung["step"] as? String == "recite", "\(screen)")
            let marked = try await client.execute(
                uri: "/api/session/recall", method: .post, headers: WebAPITests.headers(),
                body: WebAPITests.body(["typed": "\(words[0]) \(words[1]) zzz \(words[3].prefix(2))"]))
            #expect(marked.status == .ok)
            let answer = try #require(try WebAPITests.json(marked) as? [String: Any])
            let marks = try #require(answer["words"] as? [[String: Any]])
            #expect(
                marks.map { $0["typed"] as? String }
                    == [words[0], words[1], "zzz", String(words[3].prefix(2))].map(Optional.some), "\(answer)")
            #expect(marks.map { $0["mark"] as? String } == ["correct", "correct", "wrong", "pending"], "\(answer)")
            #expect(
                !String(decoding: try JSONSerialization.data(withJSONObject: answer), as: UTF8.self).contains(
                    words.last!), "the passage stays hidden")
        }
        served.app.stopSession()
    }
}
