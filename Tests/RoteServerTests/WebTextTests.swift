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
        let text = try #require(WebPages.files["strings.json"])
        let table = try JSONDecoder().decode([String: [String: String]].self, from: Data(text.utf8))
        let english = try #require(table["en"])
        for (language, strings) in table {
            #expect(
                Set(strings.keys) == Set(english.keys),
                "\(language) misses \(Set(english.keys).subtracting(strings.keys).sorted())")
        }
    }
}

@Suite struct RecallMarkingTests {
    @Test func typedRecallIsMarkedWordByWordWithoutShowingThePassage() async throws {
        let served = await WebAPITests.Served()
        // The passage the session will show first, as the same planner picks it, stands at the
        // recite rung.
        let preview = try Library(root: served.root, user: "demo").startStudy(
            decks: ["kjv"], limits: StudyLimits(newPerDay: 0, reviewsPerDay: 1), planOnly: true)
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
            let prompt = try #require(screen["prompt"] as? [String: Any])
            #expect(prompt["kind"] as? String == "text")
            #expect(screen["recall"] as? Bool == true, "\(screen)")
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
