import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

/// Runs the real `rote` binary, as a user would, and checks what it prints.
@Suite struct RoteCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    func rote(
        _ arguments: [String], in directory: URL? = nil, input: String? = nil, environment: [String: String] = [:]
    ) async -> Shell.Output {
        await Shell.run(Self.binary, arguments, in: directory, input: input, environment: environment)
    }

    @Test func initCreatesACleanLibraryAndCheckNamesABrokenFile() async throws {
        let directory = TemporaryDirectory()
        let created = await rote(["init", "lib"], in: directory.url, environment: ["ROTE_USER": "tester"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("Created a Rote library"))
        #expect(created.stdout.contains("Next: rote -C lib check, then rote -C lib list"))
        // The hint names the folder from where the user is, whether they gave -C or a path.
        for (arguments, named) in [(["-C", "other", "init"], "other"), (["-C", "other", "init", "sub"], "other/sub")] {
            let made = await rote(arguments, in: directory.url, environment: ["ROTE_USER": "tester"])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(made.stdout.contains("Next: rote -C \(named) check, then rote -C \(named) list"), "\(made.stdout)")
        }
        let clean = await rote(["-C", "lib", "check"], in: directory.url)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(!clean.stdout.contains("error:"))
        #expect(clean.stdout.contains("0 errors"), "the summary is the answer, on stdout: \(clean.stdout)")
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
        let log = await Shell.run("git", ["log", "--format=%s"], in: directory.url.appending(path: "lib"))
        #expect(log.stdout.hasPrefix("Create Rote library"))
        #expect(
            await Shell.run("git", ["status", "--porcelain"], in: directory.url.appending(path: "lib")).stdout.isEmpty)

        let all = await rote(["-C", "lib", "list"], in: directory.url).stdout.split(separator: "\n")
        directory.write("lib/corpus/english-a1/run.yaml", "word: run\npos: verb\ntranslation: [broken\n")
        let broken = await rote(["-C", "lib", "check"], in: directory.url)
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("corpus/english-a1/run.yaml:4: error: YAML syntax error"), "\(broken.stdout)")
        let listed = await rote(["-C", "lib", "list"], in: directory.url)
        #expect(listed.status == 0)
        let remaining = listed.stdout.split(separator: "\n")
        #expect(remaining.count == all.count - 1)
        #expect(!remaining.contains { $0.hasPrefix("english-a1/run ") })
        #expect(listed.stderr.contains("run.yaml"), "load problems are mentioned on stderr")
    }

    /// Issue #31, item 11: conflict markers in rote.yaml made every command act for the login
    /// name ("no learner 'root'") without saying why.
    @Test func aRoteYAMLThatDoesNotReadIsAnErrorWithItsLineNotAFallbackToTheLogin() async throws {
        let directory = TemporaryDirectory()
        #expect(await rote(["init", "lib"], in: directory.url, environment: ["ROTE_USER": "ana"]).status == 0)
        let manifest = directory.url.appending(path: "lib/rote.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").firstIndex { $0.hasPrefix("default_user: ana") }) + 1
        try text.replacingOccurrences(
            of: "default_user: ana\n",
            with: "<<<<<<< ours (this device)\ndefault_user: ana\n=======\ndefault_user: ben\n>>>>>>> theirs (origin)\n"
        ).write(to: manifest, atomically: true, encoding: .utf8)
        let login = ["ROTE_USER": "", "USER": "root", "LOGNAME": "root"]
        for command in [["list"], ["review", "english-a1/run", "good"], ["sync"]] {
            let refused = await rote(["-C", "lib"] + command, in: directory.url, environment: login)
            #expect(refused.status == 1, "\(command): \(refused.stdout)")
            #expect(
                refused.stderr.contains("rote.yaml:\(line): error:")
                    && refused.stderr.contains("resolve the conflict markers")
                    && !refused.stderr.contains("no learner"), "\(command): \(refused.stderr)")
        }
        let check = await rote(["-C", "lib", "check"], in: directory.url, environment: login)
        #expect(
            check.status == 1 && check.stdout.contains("rote.yaml:\(line): error:"), "\(check.stdout)\(check.stderr)")
    }

    @Test func lookupFindsLemmasOfInflectedForms() async throws {
        let directory = TemporaryDirectory()
        _ = await rote(["init", "lib"], in: directory.url, environment: ["ROTE_USER": "tester"])
        let output = await rote(["-C", "lib", "lookup", "ran", "went", "running"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ran → run · rank 309"))
        #expect(lines[1].hasPrefix("went → go · rank 98"))
        #expect(lines[2].hasPrefix("running → run · rank 309"))
        #expect(lines.allSatisfy { $0.contains(" · new · english-a1/") })
        let unknown = await rote(["-C", "lib", "lookup", "xylophone"], in: directory.url)
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains("xylophone: not in any deck"))
    }

    @Test func showDescribesEntryAndProgress() async {
        let output = await rote(["-C", Checkout.root.path, "show", "english-a1/run"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("run  /rʌn/  verb · rank 309 · A1"))
        #expect(output.stdout.contains("progress (demo):"))
        let word = await rote(["-C", Checkout.root.path, "show", "went"])
        #expect(word.stdout.hasPrefix("english-a1/go"))
        let missing = await rote(["-C", Checkout.root.path, "show", "english-a1/nothingness"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no entry 'english-a1/nothingness'"))
    }

    /// Every error is printed the one way argument-parser prints it, `Error: <message>`, on
    /// stderr, exit status 1 — a library's error as much as a bad flag.
    @Test func errorsPrintAsErrorColonMessageOnStderr() async {
        // A library of its own, its launch index made first: a first launch that takes over a
        // second (a checkout in a git worktree has no index; a loaded machine) says so on stderr.
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        #expect(await rote(["-C", directory.url.path, "list"]).status == 0)
        let missing = await rote(["-C", directory.url.path, "show", "words/nothingness"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("Error: no entry 'words/nothingness'; "), "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        let badFlag = await rote(["-C", directory.url.path, "list", "--no-such-flag"])
        #expect(badFlag.status != 0)
        #expect(badFlag.stderr.hasPrefix("Error: Unknown option '--no-such-flag'"), "\(badFlag.stderr)")
    }

    /// -C and --user work before the command, as with git, and after it, in every spelling.
    @Test func globalOptionsWorkBeforeAndAfterTheCommand() async {
        let directory = TemporaryDirectory()
        _ = await rote(["init", "lib", "--user", "tester"], in: directory.url)
        let lib = directory.url.appending(path: "lib").path
        let before = await rote(["-C", lib, "--user", "tester", "study", "--plan"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.hasPrefix("Study plan for tester:"), "\(before.stdout)")
        for arguments in [
            ["study", "-C", lib, "--user", "tester", "--plan"], ["-C\(lib)", "study", "--user=tester", "--plan"],
            ["--user=tester", "study", "--plan", "-C", lib],
        ] {
            let output = await rote(arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(output.stdout == before.stdout, "\(arguments)")
        }
        let other = await rote(["study", "--plan", "-C", lib, "--user", "someone-else"])
        #expect(!other.stdout.hasPrefix("Study plan for tester:"), "--user after the command is not ignored")
    }

    @Test func theCheckoutIsAValidLibrary() async {
        let output = await rote(["-C", Checkout.root.path, "check"])
        #expect(output.status == 0, "\(output.stdout)")
        // One line, the summary: no problem, no warning either.
        #expect(output.stdout.split(separator: "\n").count == 1, "no warnings either:\n\(output.stdout)")
        #expect(output.stdout.hasSuffix(": 0 errors, 0 warnings\n"), "\(output.stdout)")
    }

    @Test func aFolderThatIsNotALibraryGetsOneClearLine() async {
        let directory = TemporaryDirectory()
        let output = await rote(["-C", directory.url.path, "list"])
        #expect(output.status == 1)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(output.stderr.contains("rote.yaml: missing, so this is not a Rote library"))
        #expect(output.stderr.contains("rote init"))
        let nowhere = await rote(["-C", "/nonexistent/rote", "list"])
        #expect(nowhere.stderr.contains("no such folder"))
    }

    @Test func libraryComesFromEnvironmentOrTheDefaultLocation() async {
        let directory = TemporaryDirectory()
        _ = await rote(["init", "lib"], in: directory.url, environment: ["ROTE_USER": "tester"])
        let viaEnvironment = await rote(
            ["list", "kjv"], in: directory.url, environment: ["ROTE_LIBRARY": directory.url.appending(path: "lib").path]
        )
        #expect(viaEnvironment.status == 0)
        #expect(viaEnvironment.stdout.contains("kjv/joh-3-16"))
        let nested = await rote(["list", "alphabet"], in: directory.url.appending(path: "lib/corpus/alphabet"))
        #expect(nested.stdout.contains("alphabet/a "), "found from a sub-folder, like git")

        let home = TemporaryDirectory()
        let first = await rote(
            ["list", "math"], in: home.url,
            environment: ["XDG_DATA_HOME": home.url.path, "ROTE_LIBRARY": "", "ROTE_USER": "newcomer"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Created your library at \(home.url.path)/rote"))
        #expect(first.stdout.contains("math/arithmetic/addition/carry_tens"))
        let second = await rote(
            ["list", "math"], in: home.url, environment: ["XDG_DATA_HOME": home.url.path, "ROTE_LIBRARY": ""])
        #expect(!second.stderr.contains("Created"))
    }

    @Test func anInstalledBinaryCarriesTheStarterDecks() async throws {
        let install = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.binary, toPath: install.url.appending(path: "rote").path)
        let work = TemporaryDirectory()
        let output = await Shell.run(
            install.url.appending(path: "rote").path, ["init", "mine"], in: work.url,
            environment: ["ROTE_USER": "tester"])
        #expect(output.status == 0, "\(output.stderr)")
        for deck in ["english-a1", "kjv", "red-letter", "alphabet", "math"] {
            let original = try FileManager.default.contentsOfDirectory(
                atPath: Checkout.root.appending(path: "corpus/\(deck)").path
            ).sorted()
            let copied = try FileManager.default.contentsOfDirectory(
                atPath: work.url.appending(path: "mine/corpus/\(deck)").path
            ).sorted()
            #expect(original == copied)
        }
        let run = try String(contentsOf: work.url.appending(path: "mine/corpus/english-a1/run.yaml"), encoding: .utf8)
        #expect(
            run
                == (try String(contentsOf: Checkout.root.appending(path: "corpus/english-a1/run.yaml"), encoding: .utf8))
        )
    }

    @Test func initRefusesAnExistingLibraryOrABadName() async {
        let directory = TemporaryDirectory()
        _ = await rote(["init", "lib"], in: directory.url, environment: ["ROTE_USER": "tester"])
        let again = await rote(["init", "lib"], in: directory.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already a Rote library"))
        let badUser = await rote(["--user", "Bad Name", "init", "other"], in: directory.url)
        #expect(badUser.status == 1)
        #expect(badUser.stderr.contains("not a valid learner name"))
    }

    @Test func replayReproducesTheReferenceVectors() async throws {
        let vectors = Checkout.root.appending(path: "Tests/SchedulingTests/Fixtures/fsrs/fsrs6-vectors.jsonl")
        let input = try String(contentsOf: vectors, encoding: .utf8)
        let output = await rote(["replay"], input: input)
        #expect(output.status == 0, "\(output.stderr)")
        let expected = input.split(separator: "\n")
        let produced = output.stdout.split(separator: "\n")
        #expect(produced.count == expected.count)
        var compared = 0
        for (line, result) in zip(expected, produced) {
            let want = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let got = try #require(try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any])
            #expect(got["id"] as? String == want["id"] as? String)
            let wantReviews = try #require(want["reviews"] as? [[String: Any]])
            let gotReviews = try #require(got["reviews"] as? [[String: Any]])
            #expect(wantReviews.count == gotReviews.count)
            for (review, state) in zip(wantReviews, gotReviews) {
                let expect = try #require(review["expect"] as? [String: Any])
                #expect(state["state"] as? String == expect["state"] as? String)
                #expect(state["due"] as? String == expect["due"] as? String)
                #expect((state["step"] as? Int) == (expect["step"] as? Int))
                for key in ["stability", "difficulty"] {
                    let a = try #require(state[key] as? Double)
                    let b = try #require(expect[key] as? Double)
                    #expect(abs(a - b) <= 1e-9 * abs(b), "\(want["id"] ?? "") \(key)")
                }
                compared += 1
            }
        }
        #expect(compared > 4000)
    }

    @Test func replayReportsBadLinesAndGoesOn() async {
        let input = """
            {"id": "a", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 3}]}
            {"id": "b", "reviews": [{"at": "2026-01-01T00:00:00", "rating": 3}]}
            not json
            {"id": "c", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 7}]}
            {"id": "d", "reviews": [{"at": "2026-01-02T00:00:00Z", "rating": 3}, {"at": "2026-01-01T00:00:00Z", "rating": 3}]}
            {"id": "e", "parameters": [1, 2, 3], "reviews": []}
            {"id": "f", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 1}]}
            """
        let output = await rote(["replay"], input: input)
        #expect(output.status == 1)
        let ids = output.stdout.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == ["a", "f"])
        for line in 2...6 {
            #expect(output.stderr.contains("<stdin>:\(line): error:"), "line \(line): \(output.stderr)")
        }
        let sm2 = await rote(
            ["replay", "--scheduler", "sm2"],
            input: #"{"id": "s", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": 3}]}"#)
        #expect(sm2.stdout.contains("\"ease\""))
    }

    /// Lines are replayed in batches on every core: output stays in input order and errors
    /// keep their line numbers across batch boundaries.
    @Test func replayKeepsInputOrderAndLineNumbersAcrossBatches() async {
        let bad = [1, 2_048, 2_049, 3_333, 5_000]
        let lines = (1...5_000).map { number in
            bad.contains(number)
                ? "not json"
                : #"{"id": "h\#(number)", "reviews": [{"at": "2026-01-01T00:00:00Z", "rating": \#(number % 4 + 1)}]}"#
        }
        let output = await rote(["replay"], input: lines.joined(separator: "\n"))
        #expect(output.status == 1)
        let ids = output.stdout.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == (1...5_000).filter { !bad.contains($0) }.map { "h\($0)" })
        let errors = output.stderr.split(separator: "\n").filter { $0.contains(": error:") }.map {
            String($0.prefix { $0 != " " })
        }
        #expect(errors == bad.map { "<stdin>:\($0):" })
    }

    /// The README's two-machine walkthrough, command for command.
    @Test func theTwoMachineWalkthroughWorksAsWritten() async throws {
        let directory = TemporaryDirectory()
        let environment = ["ROTE_USER": "", "USER": "walker"]
        @discardableResult
        func run(_ arguments: [String]) async -> Shell.Output {
            let output = await rote(arguments, in: directory.url, environment: environment)
            #expect(output.status == 0, "rote \(arguments.joined(separator: " ")): \(output.stderr)")
            return output
        }
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", "hub.git"], in: directory.url)
        let hub = directory.url.appending(path: "hub.git").path
        await run(["init", "desk"])
        await Shell.run("git", ["-C", "desk", "remote", "add", "origin", hub], in: directory.url)
        await run(["-C", "desk", "sync"])
        await run(["clone", hub, "laptop"])
        #expect(
            await run(["-C", "desk", "review", "english-a1/run", "good"]).stdout.hasPrefix(
                "Recorded good for english-a1/run")
        )
        await run(["-C", "laptop", "review", "english-a1/run", "hard"])
        await run(["-C", "desk", "sync"])
        #expect(await run(["-C", "laptop", "sync"]).stdout.contains("merged 1 session, 1 review"))
        await run(["-C", "desk", "sync"])
        let shown = await run(["-C", "desk", "show", "english-a1/run"]).stdout
        #expect(shown.contains("progress (walker): learning, 2 reviews"), "\(shown)")
        let log = await run(["-C", "desk", "log"]).stdout.split(separator: "\n")
        #expect(log.count == 2 && log.allSatisfy { $0.contains("1 review (") })
        let history = await run(["-C", "desk", "history", "run"]).stdout
        #expect(history.contains("2 reviews by walker"), "\(history)")
        #expect(history.contains("[content]") && history.contains("[progress]"), "\(history)")
        let graph = await Shell.run("git", ["-C", "desk", "log", "--oneline"], in: directory.url).stdout
        #expect(graph.contains("Sync: merge 1 session, 1 review"))
        #expect(await Shell.run("git", ["-C", "desk", "status", "--porcelain"], in: directory.url).stdout.isEmpty)
        #expect(await Shell.run("git", ["-C", "laptop", "fsck", "--strict"], in: directory.url).status == 0)
    }

    @Test func aScriptedSessionWritesProgressASessionFileAndOneCommit() async throws {
        let directory = TemporaryDirectory()
        _ = await rote(["init", "lib"], in: directory.url, environment: ["ROTE_USER": "tester"])
        let lib = directory.url.appending(path: "lib")
        // Two new words: each shows its card, then two questions; "1"s and a typed answer.
        let output = await rote(
            ["-C", lib.path, "study", "english-a1", "--new", "2"], input: "1\n2\nzzz\n1\n",
            environment: ["ROTE_USER": "tester"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Session saved:"), "\(output.stdout)")
        let progress = try FileManager.default.contentsOfDirectory(
            atPath: lib.appending(path: "profiles/tester/progress/english-a1").path)
        #expect(progress.count == 2)
        let library = try LibraryLoader().load(lib)
        #expect(library.sessions["tester"]?.count == 1)
        #expect(library.sessions["tester"]?.first?.attempts.count == 4)
        #expect(library.errors.isEmpty, "\(library.errors)")
        let subject = await Shell.run("git", ["log", "-1", "--format=%s%n%b"], in: lib).stdout
        #expect(subject.hasPrefix("Study: "), "\(subject)")
        #expect(subject.contains("Rote-Session: "))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
        #expect(
            await rote(["-C", lib.path, "log"], environment: ["ROTE_USER": "tester"]).stdout.contains("english-a1"))
    }

    @Test func aSessionKilledMidwayLosesNoAnsweredReview() async throws {
        let directory = TemporaryDirectory()
        _ = await rote(["init", "lib"], in: directory.url, environment: ["ROTE_USER": "tester"])
        let lib = directory.url.appending(path: "lib")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-C", lib.path, "--user", "tester", "study", "english-a1", "--new", "5"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Answer two words (two questions each), then wait until both reviews are on disk.
        try input.fileHandleForWriting.write(contentsOf: Data("1\n1\n1\n1\n".utf8))
        let folder = lib.appending(path: "profiles/tester/progress/english-a1").path
        var written = 0
        for _ in 0..<200 where written < 2 {
            written = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).count
            usleep(25_000)
        }
        #expect(written == 2)
        // And until the session's saved state holds both: the session waits for the next answer.
        let state = lib.appending(path: ".git/rote/session-state.json").path
        var saved = 0
        for _ in 0..<200 where saved < 2 {
            let object = FileManager.default.contents(atPath: state).flatMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            }
            saved = ((object?["written"] as? [String: Any]) ?? [:]).keys.filter { $0.contains("/progress/") }.count
            usleep(25_000)
        }
        #expect(saved == 2)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // A plan only reads: the interrupted session stays for the next writer.
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: lib).stdout
        let plan = await rote(["-C", lib.path, "--user", "tester", "study", "--plan"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(!plan.stderr.contains("interrupted session"), "\(plan.stderr)")
        #expect(await Shell.run("git", ["rev-parse", "HEAD"], in: lib).stdout == head)
        #expect(FileManager.default.fileExists(atPath: lib.appending(path: ".git/rote/session.yaml").path))
        // The next study goes on where the session stopped, its two answers kept, and ends in
        // the session's one commit.
        let next = await rote(["-C", lib.path, "--user", "tester", "study"], input: "quit\n")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("Going on where your last session stopped"), "\(next.stderr)")
        #expect(!next.stdout.contains("Study plan"), "\(next.stdout)")
        let library = try LibraryLoader().load(lib)
        let reviews = library.progress["tester"]?.values.map(\.reviews.count).reduce(0, +)
        #expect(reviews == 2)
        let message = await Shell.run("git", ["log", "-1", "--format=%B"], in: lib).stdout
        #expect(message.hasPrefix("Study: 2 reviews"), "\(message)")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
        for file in [".git/rote/session.yaml", ".git/rote/session-state.json"] {
            #expect(!FileManager.default.fileExists(atPath: lib.appending(path: file).path), "\(file)")
        }
    }

    @Test func statsOnTheDemoLearner() async {
        let output = await rote(["-C", Checkout.root.path, "stats"], environment: ["NO_COLOR": "1"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("demo: "))
        for part in [
            "streak: ", "longest: ", "retention (last 30 days): ", "reviews per day, last 90 days:",
            "  english-a1: starting ",
        ] {
            #expect(output.stdout.contains(part), "\(part)\n\(output.stdout)")
        }
        #expect(!output.stdout.contains("\u{1B}["), "no colour when not a terminal")
    }

    @Test func helpNamesEveryCommand() async {
        let help = await rote(["--help"])
        for command in [
            "init", "check", "list", "show", "lookup", "study", "review", "stats", "sync", "clone", "log", "history",
            "replay", "setup-git", "merge-driver",
            "letters", "suspend", "ignore", "activate", "reset", "import", "export", "forget", "deck",
        ] {
            #expect(help.stdout.contains("  \(command) "), "\(command) is missing from rote --help")
        }
    }
}
