import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

/// `rote undo` (issue #37 item 5): one new commit takes back the last session or single
/// write, the reviews stay in their files marked `undone`, the entries schedule as before,
/// and the undo syncs to every clone.
@Suite struct UndoCLITests {
    static let environment = ["ROTE_USER": "tester"]

    @discardableResult
    static func rote(_ arguments: [String], in directory: URL? = nil, input: String? = nil) async -> Shell.Output {
        await Shell.run(RoteCLITests.binary, arguments, in: directory, input: input, environment: environment)
    }

    @discardableResult
    static func expectSuccess(_ arguments: [String], in directory: URL? = nil, input: String? = nil) async
        -> Shell.Output
    {
        let output = await rote(arguments, in: directory, input: input)
        #expect(output.status == 0, "rote \(arguments.joined(separator: " ")): \(output.stderr)")
        return output
    }

    static func commits(_ lib: URL) async -> Int {
        Int(
            await Shell.run("git", ["rev-list", "--count", "HEAD"], in: lib).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)) ?? -1
    }

    static func progress(_ lib: URL, _ entry: String) throws -> ProgressFile {
        let path = "profiles/tester/progress/\(entry).yaml"
        let data = try #require(FileManager.default.contents(atPath: lib.appending(path: path).path), "\(path)")
        return try #require(ProgressFile.decode(data, path: path).0)
    }

    /// Every progress file of the learner's, by entry id.
    static func allProgress(_ lib: URL) throws -> [String: ProgressFile] {
        let library = try LibraryLoader().load(lib)
        #expect(library.errors.isEmpty, "\(library.errors)")
        return library.progress["tester"] ?? [:]
    }

    static func newLibrary(_ directory: TemporaryDirectory) async -> URL {
        await expectSuccess(["init", "lib"], in: directory.url)
        return directory.url.appending(path: "lib")
    }

    @Test func undoingASessionMakesOneCommitAndPutsTheEntriesBack() async throws {
        let directory = TemporaryDirectory()
        let lib = await Self.newLibrary(directory)
        // One entry with a history of its own, reviewed before the session and again in it.
        await Self.expectSuccess(["-C", lib.path, "review", "english-a1/run", "good"])
        let before = try Self.progress(lib, "english-a1/run")
        let planBefore = await Self.expectSuccess(["-C", lib.path, "study", "--plan"]).stdout
        let todayBefore = await Self.expectSuccess(["-C", lib.path, "today"]).stdout
        let sessionsBefore = try FileManager.default.subpathsOfDirectory(
            atPath: lib.appending(path: "profiles/tester/sessions").path
        ).filter { $0.hasSuffix(".yaml") }
        let commitsBefore = await Self.commits(lib)
        // Two new words: each shows its card, then two questions.
        let session = await Self.expectSuccess(
            ["-C", lib.path, "study", "english-a1", "--new", "2"], input: "1\n2\nzzz\n1\n")
        #expect(session.stdout.contains("Session saved:"), "\(session.stdout)")
        let studied = try Self.allProgress(lib).filter { $0.key != "english-a1/run" }
        #expect(studied.count == 2)
        #expect(studied.values.allSatisfy { $0.state != nil && !$0.reviews.isEmpty })

        let dry = await Self.expectSuccess(["-C", lib.path, "undo", "--dry-run"])
        #expect(dry.stdout.hasPrefix("Would undo the session of "), "\(dry.stdout)")
        #expect(dry.stdout.contains("Nothing changed"))
        #expect(await Self.commits(lib) == commitsBefore + 1, "a dry run commits nothing")

        let undo = await Self.expectSuccess(["-C", lib.path, "undo"])
        #expect(undo.stdout.hasPrefix("Undid the session of "), "\(undo.stdout)")
        #expect(await Self.commits(lib) == commitsBefore + 2, "exactly one commit for the undo")
        let message = await Shell.run("git", ["log", "-1", "--format=%B"], in: lib).stdout
        #expect(message.hasPrefix("Undo: Study: "), "\(message)")
        #expect(message.contains("marked undone"), "\(message)")
        #expect(message.contains("Rote-Undo: "), "\(message)")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)

        // The studied words are new again, their reviews still in the files, marked undone.
        let after = try Self.allProgress(lib)
        for (id, file) in studied {
            let undone = try #require(after[id])
            #expect(undone.reviews.map(\.id) == file.reviews.map(\.id), "\(id): every review kept")
            #expect(undone.reviews.allSatisfy { $0.undone != nil }, "\(id)")
            #expect(undone.state == nil, "\(id): new again")
            #expect(undone.scheduledReviews.isEmpty)
        }
        #expect(after["english-a1/run"] == before, "an entry the session did not touch is as it was")
        // The session file is gone from the work tree (git history keeps it).
        let sessionsAfter = try FileManager.default.subpathsOfDirectory(
            atPath: lib.appending(path: "profiles/tester/sessions").path
        ).filter { $0.hasSuffix(".yaml") }
        #expect(sessionsAfter == sessionsBefore)
        // The next plan and today, from the launch index's delta, are as before the session.
        #expect(await Self.expectSuccess(["-C", lib.path, "study", "--plan"]).stdout == planBefore)
        #expect(await Self.expectSuccess(["-C", lib.path, "today"]).stdout == todayBefore)
        // A full check agrees with the files as written.
        await Self.expectSuccess(["-C", lib.path, "check", "--all"])
        let log = await Self.expectSuccess(["-C", lib.path, "log"]).stdout
        #expect(log.contains("(undone)"), "\(log)")
        let shown = await Self.expectSuccess(["-C", lib.path, "show", try #require(studied.keys.first)]).stdout
        #expect(shown.contains("undone"), "\(shown)")
    }

    @Test func undoingASingleWriteRestoresIt() async throws {
        let directory = TemporaryDirectory()
        let lib = await Self.newLibrary(directory)
        await Self.expectSuccess(["-C", lib.path, "review", "english-a1/run", "good"])
        let reviewed = try Self.progress(lib, "english-a1/run")
        await Self.expectSuccess(["-C", lib.path, "suspend", "english-a1/run"])
        #expect(try Self.progress(lib, "english-a1/run").status == .suspended)
        let undo = await Self.expectSuccess(["-C", lib.path, "undo"])
        #expect(undo.stdout.contains("Undid the write of"), "\(undo.stdout)")
        #expect(undo.stdout.contains("Suspend: english-a1/run"), "\(undo.stdout)")
        let restored = try Self.progress(lib, "english-a1/run")
        #expect(restored.status == .active)
        #expect(restored.reviews == reviewed.reviews)
        #expect(restored.state == reviewed.state)
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: lib).stdout == "Undo: Suspend: english-a1/run\n")

        // Undo again: the review before it, a one-review session, is taken back too.
        await Self.expectSuccess(["-C", lib.path, "review", "english-a1/run", "again"])
        await Self.expectSuccess(["-C", lib.path, "undo"])
        let back = try Self.progress(lib, "english-a1/run")
        #expect(back.reviews.count == 2)
        #expect(back.reviews.filter { $0.undone != nil }.map(\.grade) == [.again])
        #expect(back.state == reviewed.state, "due date and memory state as after the first review")
        let status = await Self.expectSuccess(["-C", lib.path, "show", "english-a1/run"]).stdout
        #expect(status.contains("(1 undone)"), "\(status)")
    }

    @Test func undoRefusesWhenALaterChangeDependsOnIt() async throws {
        let directory = TemporaryDirectory()
        let lib = await Self.newLibrary(directory)
        await Self.expectSuccess(["-C", lib.path, "review", "english-a1/run", "good"])
        // Someone else (a hand edit, committed by plain git) changes the same entry after it.
        let path = "profiles/tester/progress/english-a1/run.yaml"
        let text = try String(contentsOf: lib.appending(path: path), encoding: .utf8)
        try text.replacingOccurrences(of: "status: active", with: "status: suspended\nstatus_at: 2026-01-01T00:00:00Z")
            .write(to: lib.appending(path: path), atomically: true, encoding: .utf8)
        await Shell.run("git", ["add", "-A"], in: lib)
        await Shell.run(
            "git",
            ["-c", "user.name=Hand", "-c", "user.email=hand@example.invalid", "commit", "-qm", "Suspend run by hand"],
            in: lib)
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: lib).stdout
        let refused = await Self.rote(["-C", lib.path, "undo"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("a later change depends on it"), "\(refused.stderr)")
        #expect(refused.stderr.contains("\"Suspend run by hand\""), "names the later change: \(refused.stderr)")
        #expect(refused.stderr.contains("english-a1/run"), "\(refused.stderr)")
        #expect(await Shell.run("git", ["rev-parse", "HEAD"], in: lib).stdout == head, "nothing committed")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
    }

    /// Two clones through a folder remote: the second pulled the session before the undo;
    /// after it syncs, its entries are back too. And a merge where one side has the undo and
    /// the other added an unrelated review of the same entry keeps both.
    @Test func theUndoSyncsToASecondCloneAndMergesWithAnUnrelatedReview() async throws {
        let directory = TemporaryDirectory()
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", "hub.git"], in: directory.url)
        let hub = directory.url.appending(path: "hub.git").path
        let desk = directory.url.appending(path: "desk")
        let laptop = directory.url.appending(path: "laptop")
        await Self.expectSuccess(["init", "desk"], in: directory.url)
        await Shell.run("git", ["-C", "desk", "remote", "add", "origin", hub], in: directory.url)
        await Self.expectSuccess(["-C", desk.path, "sync"])
        await Self.expectSuccess(["clone", hub, "laptop"], in: directory.url)

        // A session on the desk, pushed, and pulled by the laptop.
        await Self.expectSuccess(["-C", desk.path, "study", "english-a1", "--new", "2"], input: "1\n2\nzzz\n1\n")
        await Self.expectSuccess(["-C", desk.path, "review", "english-a1/run", "good"])
        await Self.expectSuccess(["-C", desk.path, "sync"])
        await Self.expectSuccess(["-C", laptop.path, "sync"])
        let pulled = try Self.allProgress(laptop)
        #expect(pulled.count == 3)

        // The desk undoes its review of run, then the session before it, and pushes; the
        // laptop, not yet knowing, reviews run again, then syncs: run's file is merged.
        await Self.expectSuccess(["-C", desk.path, "undo"])
        await Self.expectSuccess(["-C", desk.path, "undo"])
        #expect(await Self.expectSuccess(["-C", desk.path, "log"]).stdout.contains("(undone)"))
        await Self.expectSuccess(["-C", desk.path, "sync"])
        await Self.expectSuccess(["-C", laptop.path, "review", "english-a1/run", "hard"])
        await Self.expectSuccess(["-C", laptop.path, "sync"])
        await Self.expectSuccess(["-C", desk.path, "sync"])
        for clone in [desk, laptop] {
            let run = try Self.progress(clone, "english-a1/run")
            #expect(run.reviews.map(\.grade) == [.good, .hard], "\(clone.lastPathComponent): no review dropped")
            #expect(run.reviews.map { $0.undone != nil } == [true, false], "\(clone.lastPathComponent)")
            #expect(run.state?.reps == 1, "\(clone.lastPathComponent): only the laptop's review schedules it")
        }
        // The session's words are new again on the laptop, which had pulled the session.
        let after = try Self.allProgress(laptop)
        for (id, file) in pulled where id != "english-a1/run" {
            let undone = try #require(after[id])
            #expect(undone.reviews.map(\.id) == file.reviews.map(\.id), "\(id)")
            #expect(undone.reviews.allSatisfy { $0.undone != nil }, "\(id)")
            #expect(undone.state == nil, "\(id): new again on the laptop")
        }
        #expect(after == (try Self.allProgress(desk)), "both clones hold the same progress")
        #expect(await Shell.run("git", ["-C", "laptop", "status", "--porcelain"], in: directory.url).stdout.isEmpty)
    }

    @Test func nothingToUndoSaysSo() async throws {
        let directory = TemporaryDirectory()
        let lib = await Self.newLibrary(directory)
        let output = await Self.rote(["-C", lib.path, "undo"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("Cannot undo") || output.stderr.contains("Nothing"), "\(output.stderr)")
        let help = await Self.expectSuccess(["undo", "--help"])
        #expect(help.stdout.contains("--dry-run"))
        #expect(help.stdout.contains("never"), "\(help.stdout)")
    }
}
