import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

/// Issue #15's data-loss defects, each through the `rote` binary as a user or a script meets it.
@Suite struct DataSafetyCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    let directory = TemporaryDirectory()
    var lib: URL { directory.url }
    let runPath = "profiles/ana/progress/words/run.yaml"

    init() async {
        await FixtureLibrary.write(into: directory)
    }

    @discardableResult
    func rote(_ arguments: [String], user: String = "ana", input: String? = nil) async -> Shell.Output {
        await Shell.run(
            Self.binary, ["-C", lib.path, "--user", user] + arguments, input: input, environment: ["NO_COLOR": "1"])
    }

    func git(_ arguments: [String]) async -> Shell.Output {
        await Shell.run("git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid"] + arguments, in: lib)
    }

    func reviewCount() throws -> Int {
        let text = try #require(directory.read(runPath))
        return text.split(separator: "\n").filter { $0.contains("grade:") }.count
    }

    /// Starts `program` in the background in the library; the caller stops it.
    func background(_ program: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = lib
        try process.run()
        return process
    }

    func waitFor(_ path: String) {
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: lib.appending(path: path).path) {
            usleep(20_000)
        }
    }

    @Test func aProgressFileThatDoesNotReadIsNeverWrittenOver() async throws {
        for _ in 0..<3 { #expect(await rote(["review", "words/run", "good"]).status == 0) }
        let reviews = try reviewCount()
        let broken = try #require(directory.read(runPath)).replacingOccurrences(
            of: "status: active", with: "status active")
        directory.write(runPath, broken)
        #expect(await git(["commit", "-qam", "break a progress file"]).status == 0)

        for command in [["review", "words/run", "easy"], ["suspend", "words/run"], ["reset", "words/run"]] {
            let output = await rote(command)
            #expect(output.status == 1, "\(command)")
            #expect(output.stderr.contains("\(runPath):"), "\(command): \(output.stderr)")
            #expect(output.stderr.contains("rote check --repair"))
            #expect(directory.read(runPath) == broken, "\(command) changed the file")
        }
        // A study session leaves the entry out, says why, and writes nothing over it.
        let study = await rote(["study", "words", "--new", "0"], input: "")
        #expect(directory.read(runPath) == broken, "\(study.stdout)")

        let repair = await rote(["check", "--repair"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout.contains("kept \(reviews) reviews"))
        #expect(repair.stdout.contains("status active"))
        #expect(try reviewCount() == reviews)
        #expect(await git(["status", "--porcelain"]).stdout.isEmpty)
        #expect(await rote(["review", "words/run", "easy"]).status == 0)
        #expect(try reviewCount() == reviews + 1)
    }

    @Test func repairKeepsTheReviewsOfBothSidesOfAConflict() async throws {
        let path = runPath
        directory.write(
            path,
            """
            entry: words/run
            status: active
            reviews:
            <<<<<<< ours
              - {id: a1, at: 2026-01-01T10:00:00Z, grade: good}
            =======
              - {id: b1, at: 2026-01-02T10:00:00Z, grade: again}
              - {id: b2, at: 2026-01-03T10:00:00Z, grade: sublime}
            >>>>>>> theirs

            """)
        let output = await rote(["check", "--repair"])
        #expect(output.status == 0, "\(output.stderr)")
        let text = try #require(directory.read(path))
        let file = try #require(ProgressFile.decode(text, path: path).0)
        #expect(file.reviews.map(\.id) == ["a1", "b1"])
        #expect(output.stdout.contains("sublime"), "the dropped line is shown: \(output.stdout)")
        // The old text was never committed, so a copy of it is kept.
        let kept = try FileManager.default.subpathsOfDirectory(atPath: lib.appending(path: ".git/rote/repaired").path)
        #expect(kept.contains { $0.hasPrefix("profiles/ana/progress/words/run.yaml.") })
    }

    @Test func aReviewThatCannotCommitLeavesNothingAndARetryWithItsIDRecordsOnce() async throws {
        #expect(await rote(["review", "words/go", "good"]).status == 0)
        let goPath = "profiles/ana/progress/words/go.yaml"
        let before = directory.read(goPath)
        // A live process holds git's index lock.
        let holder = try background("/bin/bash", ["-c", "exec 3>.git/index.lock; exec sleep 30"])
        defer { holder.terminate() }
        waitFor(".git/index.lock")
        let failed = await rote(["review", "words/go", "easy", "--id", "app-42"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("index.lock"), "\(failed.stderr)")
        #expect(directory.read(goPath) == before, "a failed review left its line in the file")
        #expect(await git(["status", "--porcelain", "profiles"]).stdout.isEmpty)
        holder.terminate()
        holder.waitUntilExit()
        try? FileManager.default.removeItem(at: lib.appending(path: ".git/index.lock"))

        #expect(await rote(["review", "words/go", "easy", "--id", "app-42"]).status == 0)
        let again = await rote(["review", "words/go", "easy", "--id", "app-42"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("Already recorded"))
        let text = try #require(directory.read(goPath))
        #expect(text.components(separatedBy: "app-42").count == 2, "the review with id app-42 is in the file once")
        #expect(await rote(["review", "words/go", "easy", "--id", "bad id!"]).status != 0)
    }

    @Test func aStaleGitLockIsRemovedAndTheLearnerIsToldOnStderr() async throws {
        // Left by a git that was killed: no process holds it. The library code only sends a
        // notice (`LibraryNotices`); the CLI is what prints it.
        directory.write(".git/index.lock", "")
        let reviewed = await rote(["review", "words/go", "good"])
        #expect(reviewed.status == 0, "\(reviewed.stderr)")
        #expect(reviewed.stderr.contains("removed \(lib.path)/.git/index.lock"), "\(reviewed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lib.appending(path: ".git/index.lock").path))
    }

    @Test func gitsLockIsLeftAloneWhileAGitWorksInTheLibrary() async throws {
        // A git waiting for its editor has closed index.lock but still owns it: a process
        // named git with its working folder in the library and no file open.
        let scratch = TemporaryDirectory()
        let fakeGit = scratch.url.appending(path: "git")
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: fakeGit.path)
        directory.write(".git/index.lock", "")
        let git = try background(fakeGit.path, ["30"])
        defer { git.terminate() }
        // Until the copy of sleep has started under its name, rote cannot see a git.
        let name = "/proc/\(git.processIdentifier)/comm"
        for _ in 0..<500 where (try? String(contentsOfFile: name, encoding: .utf8)) != "git\n" { usleep(10_000) }
        let output = await rote(["review", "words/go", "good"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("(git)"), "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: lib.appending(path: ".git/index.lock").path))
        git.terminate()
        git.waitUntilExit()
        // With no git left, the lock is stale and taken away, and the review goes through.
        let after = await rote(["review", "words/go", "good"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lib.appending(path: ".git/index.lock").path))
    }

    @Test func aLetterAttemptDatedFarAheadIsRefused() async throws {
        let attempt = """
            {"letter": "l", "mode": "memory", "score": 90, "start": 90, "stroke_order": 90, "direction": 90, "shape": 90, "started_at": "9998-12-31T23:59:59Z", "completed_at": "9999-01-01T00:00:00Z", "duration_ms": 1000}
            """
        let output = await rote(["letters", "record", "-"], input: attempt)
        #expect(output.status == 1)
        #expect(output.stderr.contains("more than a day ahead"), "\(output.stderr)")
        #expect(await git(["status", "--porcelain"]).stdout.isEmpty)
    }

    @Test func aLearnerNameIsCheckedBeforeItReachesAPath() async throws {
        let outside = TemporaryDirectory()
        let hostile = "../../../../../../../../\(outside.url.path.dropFirst())/data"
        for command in [["study", "--plan"], ["lookup", "run"], ["show", "words/run"], ["stats"]] {
            let output = await rote(command, user: hostile)
            #expect(output.status == 1, "\(command)")
            #expect(output.stderr.contains("not a valid learner name"), "\(command): \(output.stderr)")
        }
        let viaEnvironment = await Shell.run(
            Self.binary, ["-C", lib.path, "study", "--plan"], environment: ["ROTE_USER": "a/b"])
        #expect(viaEnvironment.status == 1)
        #expect(viaEnvironment.stderr.contains("ROTE_USER"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
        let launchFiles =
            (try? FileManager.default.contentsOfDirectory(atPath: lib.appending(path: ".git/rote").path)) ?? []
        #expect(!launchFiles.contains { $0.contains("..") })
    }

    @Test func aBrokenEntryOrProfileIsNamedWithItsError() async throws {
        directory.write("corpus/words/go.yaml", "word: go\nrank: [oops\n")
        let show = await rote(["show", "words/go"])
        #expect(show.status == 1)
        #expect(show.stderr.contains("corpus/words/go.yaml:"), "\(show.stderr)")
        #expect(!show.stderr.contains("no entry"))
        directory.write("profiles/ana/profile.yaml", "user: ana\nsettings: [\n")
        let review = await rote(["review", "words/run", "good"])
        #expect(review.status == 1)
        #expect(review.stderr.contains("profiles/ana/profile.yaml:"), "\(review.stderr)")
        #expect(!review.stderr.contains("no learner"))
    }

    @Test func temporaryFilesOfKilledWritesAreReportedAndRemovedOnRequest() async throws {
        let leftover = "corpus/words/.walk.yaml.999999.1.tmp"
        directory.write(leftover, "word: walk\n")
        // A pending-commit journal's temporary file, left by a killed `rote serve` write, and
        // one of a writer still alive (this test's process) (issue #31, item 12).
        let journal = ".git/rote/pending-commits/.000000000001-x.commit.999999.1.tmp"
        let live = ".git/rote/pending-commits/.000000000002-y.commit.\(getpid()).1.tmp"
        directory.write(journal, "rote pending commit 1\n")
        directory.write(live, "rote pending commit 1\n")
        let check = await rote(["check"])
        #expect(check.stdout.contains("\(leftover):1: warning: temporary file"), "\(check.stdout)")
        let repair = await rote(["check", "--repair"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lib.appending(path: leftover).path))
        #expect(!FileManager.default.fileExists(atPath: lib.appending(path: journal).path))
        #expect(FileManager.default.fileExists(atPath: lib.appending(path: live).path))
    }

    @Test func aCommittedSymbolicLinkNeverRedirectsAWrite() async throws {
        let outside = TemporaryDirectory()
        // A remote commits profiles/ana/progress as a link to a folder outside the library.
        try FileManager.default.removeItem(at: lib.appending(path: "profiles/ana/progress"))
        try FileManager.default.createSymbolicLink(
            atPath: lib.appending(path: "profiles/ana/progress").path, withDestinationPath: outside.url.path)
        #expect(await git(["add", "-A"]).status == 0)
        #expect(await git(["commit", "-qm", "link"]).status == 0)
        for command in [["review", "words/go", "good"], ["suspend", "words/go"], ["study", "words", "--new", "1"]] {
            let output = await rote(command, input: "1\n1\n1\n1\n")
            #expect(output.status != 0 || !output.stdout.contains("Recorded"), "\(command)")
            #expect(
                try FileManager.default.subpathsOfDirectory(atPath: outside.url.path).isEmpty,
                "\(command) wrote outside the library")
        }
        let review = await rote(["review", "words/go", "good"])
        #expect(review.stderr.contains("symbolic link"), "\(review.stderr)")
    }

    @Test func aReviewDatedFarAheadThatArrivedByMergeNeverMakesRoteWriteWhatItRejects() async throws {
        directory.write(
            runPath,
            """
            entry: words/run
            status: active
            reviews:
              - {id: far, at: 9999-06-01T00:00:00Z, grade: easy}

            """)
        #expect(await git(["commit", "-qam", "a review from a clock set wrong"]).status == 0)
        let review = await rote(["review", "words/run", "good"])
        #expect(review.status == 0, "\(review.stderr)")
        let text = try #require(directory.read(runPath))
        let (file, problems) = ProgressFile.decode(text, path: runPath)
        #expect(file?.reviews.count == 2)
        #expect(problems.isEmpty, "\(problems)")
        let check = await rote(["check"])
        #expect(check.status == 0)
        let line =
            try #require(
                text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("id: far") }) + 1
        #expect(check.stdout.contains("\(runPath):\(line): warning: review far is dated 9999-06-01"), "\(check.stdout)")
    }
}
