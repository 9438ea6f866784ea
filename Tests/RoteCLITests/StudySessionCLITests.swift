import Foundation
import RoteModel
import RoteStore
import Scheduling
import Study
import TestSupport
import Testing

/// Whole study sessions through the `rote` binary, driven by stdin as a script would.
@Suite struct StudySessionCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    let directory = TemporaryDirectory()
    var lib: URL { directory.url }

    init() async {
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "corpus/letters/m.yaml":
                    "glyph: latin-small-m\ncharacter: m\nname: small m\norder: 2\nstrokes:\n  - [[20, 40], [20, 80]]\n"
            ])
    }

    @discardableResult
    func rote(_ arguments: [String], input: String? = nil) async -> Shell.Output {
        await Shell.run(
            Self.binary, ["-C", lib.path, "--user", "ana"] + arguments, input: input, environment: ["NO_COLOR": "1"])
    }

    func progress(_ entry: String) throws -> ProgressFile {
        let path = "profiles/ana/progress/\(entry).yaml"
        let text = try #require(directory.read(path), "\(path) missing")
        return try #require(ProgressFile.decode(text, path: path).0)
    }

    /// The blank cloze1 hides in John 11:35 on its fourth rung attempt (after read, read, reflect).
    static func cloze1Answer() throws -> String {
        let passage = PassageEntry(reference: "John 11:35", text: "Jesus wept.")
        return PassageLadder(level: .cloze1, attempts: 3).prompt(for: passage, entryID: "verses/joh-11-35").blanks
            .joined(separator: " ")
    }

    /// `rote study --practice`: the plan, a session whose answers are practice, the stats
    /// line, and what a bad selector says.
    @Test func practiceThroughTheBinary() async throws {
        let plan = await rote(["study", "words", "--practice", "--plan", "--list"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(
            plan.stdout.contains("Practice for ana: 1 entry") && plan.stdout.contains("words/run"), "\(plan.stdout)")
        let before = try progress("words/run")
        let session = await rote(["study", "words", "--practice"], input: "1\n\n1\n\n1\n\n1\n\n")
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stderr.contains("Practice: your answers are kept as practice"), "\(session.stderr)")
        let after = try progress("words/run")
        #expect(after.reviews.contains { $0.practice })
        #expect(after.scheduledReviews == before.reviews, "the real reviews are the ones that were there")
        #expect(after.state == Scheduler(settings: .default).replay(before.reviews, entryID: "words/run"))
        let stats = await rote(["stats"])
        #expect(stats.stdout.contains("practice (answers that do not reschedule): "), "\(stats.stdout)")
        for (arguments, message) in [
            (["--practice", "--due-within", "x"], "--due-within must be a number of days such as 7d (or 7), got 'x'"),
            (["--practice", "--lapsed-since", "2026-13-40"], "'2026-13-40' has no month 13 (months are 01 to 12)"),
            (["--lapsed-since", "2026-11-01"], "add --practice"),
            (["--review-ahead", "0"], "--review-ahead must be a number of days, 1 or more"),
        ] {
            let refused = await rote(["study"] + arguments)
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }

    @Test func allFourKindsWithUndoSuspendIgnoreAndQuit() async throws {
        let plan = await rote(["study", "--plan", "--list"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("letters/l") && !plan.stdout.contains("letters/m"), "m is locked: \(plan.stdout)")

        let script =
            [
                "ran", "run",  // words/run, due and learned: its third review asks two questions (seed 000),
                // the sentence completion and the reverse translation
                "يذهب", "go",  // words/go, new: translation match, sentence completion
                "y",  // verses/joh-11-35: Rote may keep passage practice
                "y", "He shares our grief.",  // consent to reflections, the reflection
                try Self.cloze1Answer(), "Jesus wept", "Jesus wept.",  // cloze 1, cloze 2, recitation
                "", "good",  // letters/l: reveal, self-grade
                "undo",  // at the next card: take the letter's review back
                "", "easy",  // letters/l again
                "suspend",  // maths order_steps
                "quit",  // stop before two_plus_two
            ].joined(separator: "\n") + "\n"
        let first = await rote(["study"], input: script)
        #expect(first.status == 0, "\(first.stderr)\n\(first.stdout)")
        #expect(first.stdout.contains("Undone: letters/l is back."), "\(first.stdout)")
        #expect(first.stdout.contains("Session saved: 4 reviews"), "\(first.stdout)")
        #expect(first.stdout.contains("1 entry suspended or ignored."))
        #expect(first.stdout.contains("next due "))

        #expect(try progress("words/run").reviews.count == 3)
        #expect(try progress("words/go").reviews.count == 1)
        let verse = try progress("verses/joh-11-35")
        #expect(
            verse.ladder?.level == "review" && verse.reflection?.text == "He shares our grief."
                && verse.reviews.count == 1)
        let letter = try progress("letters/l")
        #expect(letter.reviews.map(\.grade) == [.easy], "the undone 'good' is gone")
        #expect(try progress("maths/arithmetic/addition/order_steps").status == .suspended)
        #expect(
            directory.read("profiles/ana/progress/maths/arithmetic/addition/two_plus_two.yaml") == nil, "quit before it"
        )
        #expect((directory.read("profiles/ana/profile.yaml") ?? "").contains("reflections: {granted: true"))
        #expect((directory.read("profiles/ana/profile.yaml") ?? "").contains("passages: {granted: true"))

        let second = await rote(["study", "maths"], input: "ignore\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try progress("maths/arithmetic/addition/two_plus_two").status == .ignored)
        #expect(await rote(["study", "maths", "--plan"]).stdout.contains("Nothing to study right now"))

        let library = try LibraryLoader().load(lib)
        #expect(library.errors.isEmpty, "\(library.errors)")
        let sessions = library.sessions["ana"] ?? []
        #expect(sessions.count == 2)
        // Both sessions may start in the same second, so find the first by what it studied.
        let full = try #require(sessions.first { $0.decks.contains("verses") })
        #expect(
            full.attempts.map(\.question) == [
                "sentence-2", "reverse_translation", "translation", "example-1", "read1", "read2", "reflect", "cloze1",
                "cloze2", "recite", "draw",
            ],
            "the undone letter attempt is gone: \(full.attempts.map(\.question))")
        let subjects = await Shell.run("git", ["log", "--format=%s"], in: lib).stdout.split(separator: "\n")
        #expect(subjects.prefix(2).allSatisfy { $0.hasPrefix("Study: ") }, "\(subjects)")
        #expect(subjects.count == 3, "one commit per session on top of the fixture")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
        #expect(await rote(["log"]).stdout.contains("verses"))
    }

    @Test func typedAnswersReplaceTheChoicesAndAreGradedByTheTypedRules() async throws {
        // Choices by default; the profile's typed_answers makes typing the default, and
        // --no-typed brings the choices back for one session.
        func firstQuestion(_ arguments: [String]) async -> String {
            await rote(["study", "words"] + arguments, input: "quit\n").stdout
        }
        let first = await firstQuestion([])
        #expect(first.contains("  1. ") && !first.contains("Translate"))
        let profilePath = "profiles/ana/profile.yaml"
        let profile = try #require(directory.read(profilePath))
        directory.write(profilePath, profile + "settings:\n  typed_answers: true\n")
        #expect(try #require(LibraryLoader().load(lib).profiles["ana"]).settings.typedAnswers == true)
        #expect(
            await firstQuestion([]).contains("Fill the blank with the right form of يجري: They ___ home."),
            "typed by the profile's setting")
        let choices = await firstQuestion(["--no-typed"])
        #expect(choices.contains("  1. ") && !choices.contains("Translate"), "\(choices)")
        directory.write(profilePath, profile)

        let script =
            [
                "ran",  // words/run, due and learned: sentence completion, then
                "Run.",  // reverse translation (AR→EN), typed with a full stop
                "يَذْهَب",  // words/go, new: translation match (EN→AR), typed with harakat
                "goes",  // sentence completion: another form of go, so wrong
                "quit",
            ].joined(separator: "\n") + "\n"
        let typed = await rote(["study", "words", "--typed"], input: script)
        #expect(typed.status == 0, "\(typed.stderr)\n\(typed.stdout)")
        #expect(typed.stdout.contains("Translate back: يجري"), "\(typed.stdout)")
        #expect(typed.stdout.contains("Translate: go"))
        #expect(typed.stdout.contains("Fill the blank with the right form of يذهب: We ___ to school."))
        #expect(!typed.stdout.contains("  1. "), "no choices are shown: \(typed.stdout)")
        #expect(typed.stdout.contains("✗ the answer is go"))
        #expect(try progress("words/run").reviews.last?.grade != .again)
        #expect(try progress("words/go").reviews.map(\.grade) == [.again])
        let session = try #require(try LibraryLoader().load(lib).sessions["ana"]?.first)
        #expect(session.attempts.map(\.answer) == ["ran", "Run.", "يَذْهَب", "goes"])
        #expect(session.attempts.map(\.correct) == [true, true, true, false])
    }

    @Test func nothingBeforeTheFirstQuestionGivesItsAnswerAway() async throws {
        // words/run is due first: its sentence completion asks for "ran", and its word must not
        // be printed before that question.
        let output = await rote(["study", "words", "--typed"], input: "quit\n").stdout
        let question = try #require(output.range(of: "Fill the blank"), "\(output)")
        let before = output[..<question.lowerBound]
        #expect(before.contains("words") && before.contains("1 due"), "the plan shows decks and counts: \(before)")
        for answer in ["run —", "First:", "\nrun", " run\n"] {
            #expect(!before.contains(answer), "'\(answer)' appears before the first question: \(before)")
        }
        let plain = await rote(["study", "words"], input: "quit\n").stdout
        let firstOptions = try #require(plain.range(of: "  1. "), "\(plain)")
        #expect(!plain[..<firstOptions.lowerBound].contains("First:"), "\(plain)")
    }

    @Test func lettersRecordValidatesStoresAndUnlocks() async throws {
        let broken = await rote(
            ["letters", "record", "--letter", "l", "-"],
            input:
                #"{"mode": "memory", "score": 90, "stroke_order": 90, "direction": 90, "shape": 90, "start": 90, "started_at": "2026-11-21T10:00:00Z", "completed_at": "2026-11-21T10:00:05Z", "drawing": [[[1, 2], [3]]]}"#
        )
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("<stdin>: drawing[0][1]: a point is [x, y] or [x, y, t]"), "\(broken.stderr)")

        func attempt(_ score: Int, _ second: Int) async -> String {
            #"{"letter": "l", "mode": "memory", "score": \#(score), "stroke_order": 90, "direction": 90, "shape": 90, "start": 90, "tips": ["stem-down"], "hint_used": false, "started_at": "2026-11-21T10:00:0\#(second)Z", "completed_at": "2026-11-21T10:00:0\#(second)Z", "drawing": [[[50, 10, 0], [50, 80, 400]]]}"#
        }
        #expect(await rote(["letters", "record", "-"], input: attempt(85, 1)).stdout.contains("1/2 passes"))
        #expect(await rote(["letters"]).stdout.contains("locked    after 2 memory passes on l"))
        let unlocking = await rote(["letters", "record", "-"], input: await attempt(92, 2))
        #expect(unlocking.status == 0, "\(unlocking.stderr)")
        #expect(unlocking.stdout.contains("Unlocked letters/m."), "\(unlocking.stdout)")
        let shown = await rote(["letters"]).stdout
        #expect(shown.contains("best 92 (memory) · 2 attempts · 2/2 passes"), "\(shown)")
        #expect(shown.contains("2 of 2 unlocked"))
        #expect(await rote(["study", "letters", "--plan", "--list"]).stdout.contains("letters/m"))
        let file = try #require(directory.read("profiles/ana/letters/letters/l.yaml"))
        #expect(file.components(separatedBy: "\n  - {id: ").count == 3, "\(file)")
        #expect((directory.read("profiles/ana/profile.yaml") ?? "").contains("last_letter: letters/l"))
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: lib).stdout.hasPrefix(
                "Letters: letters/l memory 92 — unlocked letters/m"))
        let check = await rote(["check"]).stdout
        #expect(
            check.split(separator: "\n").count == 1 && check.hasSuffix(": 0 errors, 0 warnings\n"),
            "the letters file is a known library file: \(check)")
    }

    @Test func memoryAttemptsCountAsReviewsOfTheLetterOnce() async throws {
        // Drawn just now, so whether the letter is due afterwards follows from these reviews.
        let start = Date().addingTimeInterval(-60)
        func attempt(_ id: String, _ mode: String, _ score: Int, second: Int) async -> String {
            let at = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(second)))
            return
                #"{"id": "\#(id)", "letter": "l", "mode": "\#(mode)", "score": \#(score), "stroke_order": 90, "direction": 90, "shape": 90, "start": 90, "started_at": "\#(at)", "completed_at": "\#(at)", "duration_ms": 4000, "drawing": [[[50, 10, 0], [50, 80, 400]]]}"#
        }
        let traced = await rote(["letters", "record", "-"], input: await attempt("t1", "trace", 95, second: 1))
        #expect(traced.status == 0 && !traced.stdout.contains("review"), "\(traced.stdout)")
        #expect(directory.read("profiles/ana/progress/letters/l.yaml") == nil, "tracing is not a review")
        let memory = await rote(["letters", "record", "-"], input: await attempt("m1", "memory", 85, second: 2))
        #expect(memory.stdout.contains("Counted as a review: hard, next due"), "\(memory.stdout)")
        #expect(
            await rote(["letters", "record", "-"], input: attempt("m2", "memory", 93, second: 3)).stdout.contains(
                "Counted as a review: good"))
        #expect(await rote(["letters", "record", "-"], input: attempt("m2", "memory", 93, second: 3)).status == 0)
        let file = try progress("letters/l")
        #expect(
            file.reviews.map(\.id) == ["m1", "m2"], "one review per memory attempt, the same attempt twice counts once")
        #expect(file.reviews.map(\.grade) == [.hard, .good] && file.reviews.map(\.ms) == [4000, 4000])
        #expect(file.state != nil)
        #expect(
            await Shell.run("git", ["show", "HEAD:profiles/ana/progress/letters/l.yaml"], in: lib).stdout.contains(
                "id: m2"),
            "committed with the attempt")
        #expect(
            await Shell.run("git", ["log", "-3", "--format=%s"], in: lib).stdout.contains(
                "Letters: letters/l memory 93 — unlocked letters/m · review good"))
        #expect(
            await !rote(["study", "letters", "--plan", "--list"]).stdout.contains("letters/l"),
            "no longer due: just drawn from memory")
    }

    @Test func suspendIgnoreActivateAndResetCommands() async throws {
        #expect(await rote(["suspend", "words/run"]).stdout == "words/run: suspended\n")
        #expect(await !rote(["study", "--plan", "--list"]).stdout.contains("words/run"))
        #expect(await rote(["activate", "run"]).status == 0)
        #expect(await rote(["study", "--plan", "--list"]).stdout.contains("due  words/run"))
        #expect(await rote(["ignore", "go"]).stdout == "words/go: ignored\n")
        let reset = await rote(["reset", "words/run"])
        #expect(reset.stdout.contains("new again (2 earlier reviews kept as history)"), "\(reset.stdout)")
        let file = try progress("words/run")
        #expect(file.reviews.count == 2 && file.resetAt != nil && file.state == nil)
        #expect(await rote(["study", "--plan", "--list"]).stdout.contains("new  words/run"))
        #expect(await Shell.run("git", ["log", "-1", "--format=%s"], in: lib).stdout.hasPrefix("Reset: words/run"))
        #expect(await rote(["suspend", "nothing-here"]).stderr.contains("no entry 'nothing-here'"))
    }

    @Test func aSessionKilledOnTheLadderKeepsItsRungsAndConsent() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-C", lib.path, "--user", "ana", "study", "verses"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data("y\ny\nA reflection.\n".utf8))
        let path = lib.appending(path: "profiles/ana/progress/verses/joh-11-35.yaml").path
        var level: String?
        for _ in 0..<400 where level != "cloze1" {
            level = FileManager.default.contents(atPath: path).flatMap {
                ProgressFile.decode($0, path: "p").0?.ladder?.level
            }
            usleep(25_000)
        }
        #expect(level == "cloze1", "read, read and reflect are on disk before the kill")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Without its saved state (as when a kill comes between an answer and the state's
        // write), the interrupted session is committed as its files are.
        try? FileManager.default.removeItem(at: lib.appending(path: ".git/rote/session-state.json"))
        let next = await rote(["study", "verses"], input: "quit\n")
        #expect(next.stderr.contains("interrupted session"), "\(next.stderr)")
        let committed = await Shell.run("git", ["show", "HEAD:profiles/ana/progress/verses/joh-11-35.yaml"], in: lib)
            .stdout
        #expect(committed.contains("ladder: {level: cloze1") && committed.contains("A reflection."), "\(committed)")
        #expect(
            await Shell.run("git", ["show", "HEAD:profiles/ana/profile.yaml"], in: lib).stdout.contains(
                "reflections: {granted: true"))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
    }
}
