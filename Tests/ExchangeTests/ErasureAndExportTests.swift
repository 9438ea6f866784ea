import Foundation
import Git
import RoteModel
import TestSupport
import Testing

@testable import Exchange
@testable import RoteStore

@Suite(.serialized) struct ErasureTests {
    static func library() async -> TemporaryDirectory {
        let directory = TemporaryDirectory("rote-forget")
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "profiles/bo/profile.yaml": "user: bo\n",
                "profiles/ana/sessions/2026/11/s1.yaml": "id: s1\nuser: ana\nstarted_at: 2026-11-02T09:00:00Z\n",
            ])
        return directory
    }

    func git(_ args: String..., in directory: TemporaryDirectory) async -> String {
        await Shell.run("git", Array(args), in: directory.url).stdout
    }

    @Test func forgetDeletesEveryFileInOneErasureCommit() async throws {
        let directory = await Self.library()
        directory.write("profiles/ana/saved/note.yaml", "text: not committed yet\n")
        let git = try LibraryTransaction(root: directory.url, user: "ana", purpose: "test")
        let result = try Erasure.forget("ana", git: git)
        #expect(
            result.files == [
                "profiles/ana/profile.yaml", "profiles/ana/progress/words/run.yaml", "profiles/ana/saved/note.yaml",
                "profiles/ana/sessions/2026/11/s1.yaml",
            ])
        #expect(result.clearedDefaultUser)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appending(path: "profiles/ana").path))
        #expect(
            await self.git("ls-tree", "-r", "--name-only", "HEAD", "profiles", in: directory)
                == "profiles/bo/profile.yaml\n")
        let message = await self.git("log", "-1", "--format=%B", in: directory)
        #expect(SessionCommitMessage.trailer(SessionCommitMessage.erasureTrailer, in: message) == "ana")
        #expect(await !self.git("show", "HEAD:rote.yaml", in: directory).contains("default_user"))
        #expect(await self.git("status", "--porcelain", in: directory).isEmpty)
        #expect(throws: LibraryError.self) { try Erasure.forget("ana", git: git) }
        #expect(throws: LibraryError.self) { try Erasure.forget("../x", git: git) }
    }

    @Test func aForgetKilledHalfWayIsUndoneByTheNextWriterNotCommittedWithoutItsTrailer() async throws {
        let directory = await Self.library()
        let headBefore = await git("rev-parse", "HEAD", in: directory)
        do {
            let git = try LibraryTransaction(root: directory.url, user: "ana", purpose: "test")
            var deleted = 0
            git.git.interruption = { step in
                // Killed after the second file is gone and before the commit.
                if step == "file written" {
                    deleted += 1
                    if deleted == 3 { throw SimulatedKill() }
                }
            }
            #expect(throws: SimulatedKill.self) { try Erasure.forget("ana", git: git) }
        }
        #expect(await !self.git("status", "--porcelain", in: directory).isEmpty)

        // The next writer finds the erasure's journal and puts every file back.
        _ = try LibraryTransaction(root: directory.url, user: "bo", purpose: "test")
        #expect(await self.git("rev-parse", "HEAD", in: directory) == headBefore)
        #expect(await self.git("status", "--porcelain", in: directory).isEmpty)
        #expect(FileManager.default.fileExists(atPath: directory.url.appending(path: "profiles/ana/profile.yaml").path))
    }

    @Test func purgeRewritesHistorySoNoCommitHoldsTheLearner() async throws {
        let directory = await Self.library()
        // A second commit that changes ana's progress and bo's profile.
        directory.write("profiles/ana/progress/words/go.yaml", "entry: words/go\n")
        directory.write("profiles/bo/profile.yaml", "user: bo\nname: Bo\n")
        await Shell.run("git", ["add", "-A"], in: directory.url)
        await Shell.run(
            "git", ["-c", "user.name=Test", "-c", "user.email=t@example.invalid", "commit", "-qm", "more"],
            in: directory.url)
        let before = await git("log", "--format=%an %ae %at %s", in: directory)
        let git = try LibraryTransaction(root: directory.url, user: "ana", purpose: "test")
        _ = try Erasure.forget("ana", git: git)
        let report = try await Erasure.purgeHistory("ana", git: git)
        #expect(report.rewritten == 3)
        #expect(report.references == ["refs/heads/main"])
        #expect(
            await self.git("log", "--all", "--format=%H", "--", "profiles/ana", in: directory).isEmpty,
            "no commit touches profiles/ana")
        #expect(await self.git("rev-list", "--all", "--objects", in: directory).contains("profiles/ana") == false)
        let after = await self.git("log", "--format=%an %ae %at %s", in: directory)
        #expect(after.hasSuffix(before), "authors, dates and messages kept")
        #expect(await self.git("show", "HEAD~1:profiles/bo/profile.yaml", in: directory) == "user: bo\nname: Bo\n")
        #expect(await self.git("status", "--porcelain", in: directory).isEmpty)
        #expect(await Shell.run("git", ["fsck", "--strict", "--no-dangling"], in: directory.url).status == 0)
        #expect(report.pruned)
        let loose = await Shell.run("git", ["count-objects", "-v"], in: directory.url).stdout
        #expect(loose.contains("count: 0"), "old objects pruned: \(loose)")
        #expect(Erasure.purgeExplanation(user: "ana", git: git).contains("no remote"))
    }
}

@Suite struct LearnerExportTests {
    static func library() async throws -> (TemporaryDirectory, LoadedLibrary) {
        let directory = TemporaryDirectory("rote-export")
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "profiles/ana/sessions/2026/11/s1.yaml": """
                id: s1
                user: ana
                device: laptop
                started_at: 2026-11-02T09:00:00Z
                ended_at: 2026-11-02T09:05:00Z
                decks: [words]
                counts: {again: 0, hard: 0, good: 1, easy: 0, new: 0}
                attempts:
                  - {entry: words/run, question: translation, answer: "يجري, fast", correct: true, at: 2026-11-02T09:00:10Z, ms: 2000}

                """,
                "profiles/ana/saved/story.yaml": "title: A story\n",
            ], git: false)
        return (directory, try LibraryLoader(users: .only("ana"), includeSessions: true).load(directory.url))
    }

    @Test func jsonHoldsProfileProgressReviewsSessionsAndSaved() async throws {
        let (directory, library) = try await Self.library()
        let out = directory.url.appending(path: "out")
        let files = try LearnerExport.write(
            user: "ana", library: library, format: .json, to: out, now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(files.map(\.lastPathComponent) == ["ana.json"])
        guard case let .success(.object(document)) = JSONValue.parse(try Data(contentsOf: files[0])) else {
            Issue.record("not JSON")
            return
        }
        #expect(document["format"] == .string("rote-learner-export"))
        #expect(document["user"] == .string("ana"))
        guard case let .array(progress)? = document["progress"], case let .object(run)? = progress.first,
            case let .array(reviews)? = run["reviews"], case let .object(first)? = reviews.first
        else {
            Issue.record("no progress")
            return
        }
        #expect(run["entry"] == .string("words/run"))
        #expect(reviews.count == 2)
        #expect(
            first["grade"] == .string("good") && first["ms"] == .number(2000)
                && first["at"] == .string("2026-11-01T09:00:00Z"))
        guard case let .array(sessions)? = document["sessions"], case let .object(session)? = sessions.first,
            case let .array(attempts)? = session["attempts"]
        else {
            Issue.record("no sessions")
            return
        }
        #expect(attempts.count == 1)
        if case let .object(attempt)? = attempts.first { #expect(attempt["correct"] == .bool(true)) }
        guard case let .array(saved)? = document["saved"], case let .object(story)? = saved.first else {
            Issue.record("no saved")
            return
        }
        #expect(story["path"] == .string("profiles/ana/saved/story.yaml"))
        guard case let .object(profile)? = document["profile"] else {
            Issue.record("no profile")
            return
        }
        #expect(profile["user"] == .string("ana"))
    }

    @Test func csvIsOneTablePerKindOfRecord() async throws {
        let (directory, library) = try await Self.library()
        let out = directory.url.appending(path: "csv")
        let files = try LearnerExport.write(user: "ana", library: library, format: .csv, to: out)
        #expect(
            files.map(\.lastPathComponent) == [
                "profile.csv", "progress.csv", "reviews.csv", "sessions.csv", "attempts.csv", "saved.csv",
                "letter_attempts.csv",
            ])
        func rows(_ name: String) throws -> [[String]] {
            let table = try DelimitedText.parse(try Data(contentsOf: out.appending(path: name)), defaultSeparator: ",")
            return table.rows.map(\.fields)
        }
        #expect(
            try rows("reviews.csv") == [
                ["words/run", "a1", "2026-11-01T09:00:00Z", "good", "2000", "laptop"],
                ["words/run", "a2", "2026-11-02T09:00:00Z", "good", "1500", "laptop"],
            ])
        #expect(
            try rows("attempts.csv") == [
                ["s1", "words/run", "translation", "يجري, fast", "true", "2026-11-02T09:00:10Z", "2000"]
            ])
        #expect(try rows("progress.csv").first?.prefix(4) == ["words/run", "active", "", "review"])
        #expect(try rows("profile.csv").contains(["user", "ana"]))
        #expect(try rows("sessions.csv").first?.first == "s1")
        #expect(throws: LibraryError.self) {
            try LearnerExport.write(user: "nobody", library: library, format: .csv, to: out)
        }
    }
}

/// `rote export` reads the learner's files as it writes them; its bytes must be those of the
/// export of the whole loaded library, in both formats, including entry order that differs
/// from path order and sessions that started in the same second.
@Suite struct StreamingExportTests {
    @Test func theStreamedExportIsByteForByteTheLoadedOne() async throws {
        let directory = await StarterLibrary.copy(git: .none)
        // A twin `<id>-b`: its path `<id>-b.yaml` sorts before `<id>.yaml` ('-' < '.') while
        // the entry `<id>` sorts before `<id>-b`, so path order and entry order differ.
        let progress = "profiles/demo/progress"
        let ids = try FileManager.default.subpathsOfDirectory(atPath: directory.url.appending(path: progress).path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        let first = try #require(ids.first)
        let text = try #require(directory.read("\(progress)/\(first)"))
        let twin = String(first.dropLast(5)) + "-b"
        directory.write(
            "\(progress)/\(twin).yaml",
            text.replacingOccurrences(of: "entry: \(first.dropLast(5))", with: "entry: \(twin)"))
        let library = try LibraryLoader(users: .only("demo"), includeSessions: true).load(directory.url)
        #expect((library.sessions["demo"] ?? []).count > 1, "the demo learner has sessions to order")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for format in LearnerExport.Format.allCases {
            let loaded = directory.url.appending(path: "loaded-\(format)")
            let streamed = directory.url.appending(path: "streamed-\(format)")
            let expected = try LearnerExport.write(user: "demo", library: library, format: format, to: loaded, now: now)
            let files = LearnerExport.LearnerFiles(user: "demo", root: directory.url)
            let written = try LearnerExport.write(
                user: "demo", files: files, root: directory.url, format: format, to: streamed, now: now)
            #expect(written.map(\.lastPathComponent) == expected.map(\.lastPathComponent))
            for (mine, theirs) in zip(written, expected) {
                #expect(try Data(contentsOf: mine) == Data(contentsOf: theirs), "\(format): \(mine.lastPathComponent)")
            }
            #expect(files.problems.isEmpty)
        }
    }
}

/// An export writes each progress and session file's YAML straight to JSON text; that text
/// must be what the same value made into a `JSONValue` gives, duplicate keys and all.
@Suite struct YAMLAsJSONTests {
    @Test func writtenStraightIsTheJSONValuesText() async throws {
        let directory = await StarterLibrary.copy(git: .none)
        let library = try LibraryLoader(users: .only("demo"), includeSessions: true).load(directory.url)
        var values =
            (library.progress["demo"] ?? [:]).values.map(\.yamlValue)
            + (library.sessions["demo"] ?? []).map(\.yamlValue)
        values += library.profiles.values.map(\.yamlValue)
        values.append(
            .map(
                [
                    ("b", .raw("1")), ("a", .raw("2.50")), ("b", .string("last")),
                    ("c", .list([.raw("true"), .null, .raw("09:30")], flow: false)),
                ], flow: false))
        #expect(values.count > 10)
        for value in values {
            #expect(LearnerExport.jsonText(value, indent: 2) == LearnerExport.json(value).serialized(indent: 2))
        }
        #expect(
            LearnerExport.jsonText(values.last!, indent: 0).contains("\"b\": \"last\""),
            "the last of equal keys is kept")
    }
}
