import Foundation
import RoteModel
import TestSupport
import Testing

/// Issue #32: `rote sync` beside a `rote study` still running in another terminal. The study
/// holds the library; sync once committed its half-done answers as an "interrupted" session
/// and removed its snapshot, so the session ended in two commits, the first of them partial.
@Suite struct SyncBesideStudyCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    let directory = TemporaryDirectory()
    var lib: URL { directory.url }
    /// The remote and the study's output, outside the library.
    let outside = TemporaryDirectory()
    var hub: URL { outside.url.appending(path: "hub.git") }
    let snapshotPath = ".git/rote/session.yaml"

    init() async {
        await FixtureLibrary.write(into: directory)
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", hub.path])
        await Shell.run("git", ["remote", "add", "origin", hub.path], in: lib)
    }

    func rote(_ arguments: [String]) async -> Shell.Output {
        await Shell.run(
            Self.binary, ["-C", lib.path, "--user", "ana"] + arguments, environment: ["NO_COLOR": "1"])
    }

    func git(_ arguments: [String]) async -> String {
        await Shell.run("git", arguments, in: lib).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The answers the live session's snapshot holds so far (0 while there is none).
    func snapshotAttempts() -> Int {
        guard let text = try? String(contentsOf: lib.appending(path: snapshotPath), encoding: .utf8) else { return 0 }
        return SessionFile.decode(text, path: snapshotPath).0?.attempts.count ?? 0
    }

    @Test func syncRefusesWhileAStudyIsLiveAndTheStudyEndsInOneCommit() async throws {
        let fixture = await git(["rev-parse", "HEAD"])
        let study = Process()
        study.executableURL = URL(fileURLWithPath: Self.binary)
        study.arguments = ["-C", lib.path, "--user", "ana", "study"]
        study.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let input = Pipe()
        study.standardInput = input
        // A file rather than a pipe: nobody reads the output until the study has ended.
        let outputPath = outside.url.appending(path: "study.out")
        _ = FileManager.default.createFile(atPath: outputPath.path, contents: nil)
        study.standardOutput = try FileHandle(forWritingTo: outputPath)
        study.standardError = study.standardOutput
        try study.run()
        defer { if study.isRunning { study.terminate() } }

        // Two cards: words/run (its sentence, then the reverse translation) and words/go (its
        // translation, then its sentence). The study then waits at the passage consent question.
        input.fileHandleForWriting.write(Data("ran\nrun\nيذهب\ngo\n".utf8))
        for _ in 0..<1500 where snapshotAttempts() < 4 && study.isRunning { usleep(20_000) }
        try #require(snapshotAttempts() == 4, "the study answered two cards")
        #expect(directory.read("profiles/ana/progress/words/go.yaml") != nil)

        let sync = await rote(["sync"])
        #expect(sync.status != 0, "sync went ahead beside a live study: \(sync.stdout)")
        #expect(sync.stderr.contains("rote study"), "the error names what holds the library: \(sync.stderr)")
        #expect(await git(["rev-parse", "HEAD"]) == fixture, "sync committed the live session's answers")
        #expect(snapshotAttempts() == 4, "the live session's snapshot is intact")

        input.fileHandleForWriting.write(Data("quit\n".utf8))
        try input.fileHandleForWriting.close()
        study.waitUntilExit()
        let output = outside.read("study.out") ?? ""
        #expect(study.terminationStatus == 0, "\(output)")
        #expect(output.contains("Session saved: 2 reviews"), "\(output)")

        // One commit on top of the fixture, holding both answers and the session.
        let commits = await git(["rev-list", "\(fixture)..HEAD"]).split(separator: "\n")
        let subjects = await git(["log", "--format=%s"])
        #expect(commits.count == 1, "\(subjects)")
        #expect(await git(["log", "-1", "--format=%s"]).hasPrefix("Study: 2 reviews"))
        let changed = await git(["diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"]).split(separator: "\n")
        #expect(changed.contains("profiles/ana/progress/words/run.yaml"), "\(changed)")
        #expect(changed.contains("profiles/ana/progress/words/go.yaml"), "\(changed)")
        #expect(changed.contains { $0.hasPrefix("profiles/ana/sessions/") }, "\(changed)")
        #expect(!FileManager.default.fileExists(atPath: lib.appending(path: snapshotPath).path))
        #expect(await git(["status", "--porcelain"]).isEmpty)

        let after = await rote(["sync"])
        #expect(after.status == 0, "\(after.stderr)")
        let pushed = await Shell.run("git", ["rev-parse", "main"], in: hub).stdout
        #expect(pushed.trimmingCharacters(in: .whitespacesAndNewlines) == (await git(["rev-parse", "HEAD"])))
    }
}
