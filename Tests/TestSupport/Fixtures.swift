public import Foundation
import Subprocess

// swift-subprocess takes Apple's System on Darwin and the swift-system package elsewhere.
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The checkout's root, found from this file's path, for tests that read `corpus/`,
/// `Tests/*/Fixtures` or run the built binary. Nothing outside the checkout is ever read.
public enum Checkout {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.build/<configuration>/` where `swift build` put the products this test runs with.
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }
}

/// A small library with one deck of each kind, written file by file so tests can break any
/// one of them. Not a git repository unless `git: true` (then `git init` + commit by the
/// system git, to keep LibGit out of the fixture).
public enum FixtureLibrary {
    public static let files: [String: String] = [
        "rote.yaml": """
        format: 1
        default_user: ana
        decks: [words, verses, letters, maths]

        """,
        "corpus/words/deck.yaml": """
        kind: vocabulary
        title: Words
        version: 1.0.0
        order: rank

        """,
        "corpus/words/run.yaml": """
        word: run
        pos: verb
        translation: يجري
        forms: {base: run, third_person: runs, past: ran, past_participle: run, present_participle: running}
        rank: 157
        examples:
          - en: I {run} every day.
            ar: أنا {أجري} كل يوم.
            form: base
          - en: They {ran} home.
            ar: هم {ركضوا} إلى البيت.
            form: past
        questions:
          - id: translation
            type: translation_match
            prompt: run
            answer: يجري
            distractors: [يمشي, يجلس, يقف]
          - id: sentence-2
            type: sentence_completion
            example: 2
            sentence: They ___ home.
            answer: ran
            form: past
            blank: 1
            distractors: [run, runs, running]

        """,
        "corpus/words/go.yaml": """
        word: go
        pos: verb
        translation: يذهب
        forms: {base: go, third_person: goes, past: went, past_participle: gone, present_participle: going}
        rank: 33
        examples:
          - en: We {go} to school.
            ar: نحن {نذهب} إلى المدرسة.
            form: base
        questions:
          - id: translation
            type: translation_match
            prompt: go
            answer: يذهب
            distractors: [يأتي, يأكل, ينام]

        """,
        "corpus/verses/deck.yaml": """
        kind: passages
        title: Verses
        version: 1.0.0

        """,
        "corpus/verses/joh-11-35.yaml": """
        reference: John 11:35
        text: Jesus wept.
        translation: KJV
        order: 1

        """,
        "corpus/letters/deck.yaml": """
        kind: letters
        title: Letters
        version: 1.0.0
        unlock: {mode: memory, min_score: 80, passes: 2}

        """,
        "corpus/letters/l.yaml": """
        glyph: latin-small-l
        character: l
        order: 1
        strokes:
          - [[50, 10], [50, 80]]

        """,
        "corpus/maths/deck.yaml": """
        kind: skills
        title: Maths
        version: 1.0.0

        """,
        "corpus/maths/arithmetic/domain.yaml": """
        id: 11111111-1111-4111-8111-111111111111
        title: Arithmetic
        published: true

        """,
        "corpus/maths/arithmetic/addition/skill.yaml": """
        id: 22222222-2222-4222-8222-222222222222
        title: Addition
        published: true

        """,
        "corpus/maths/arithmetic/addition/two_plus_two.yaml": """
        id: 33333333-3333-4333-8333-333333333333
        type: mcq_single
        payload:
          prompt: What is 2 + 2?
          choices: ["3", "4", "5"]
          solution_index: 1
        explanation: Two and two make four.
        published: true

        """,
        "corpus/maths/arithmetic/addition/order_steps.yaml": """
        id: 44444444-4444-4444-8444-444444444444
        type: reorder_steps
        payload:
          steps: [Add the tens, Add the ones]
          solution: [1, 0]
        explanation: Ones first, then tens.
        published: true

        """,
        "profiles/ana/profile.yaml": """
        user: ana
        created_at: 2026-11-01T09:00:00Z
        updated_at: 2026-11-01T09:00:00Z

        """,
        "profiles/ana/progress/words/run.yaml": """
        entry: words/run
        status: active
        state: {phase: review, stability: 3.2, difficulty: 5.1, due: 2026-11-05T09:00:00Z, reps: 2, lapses: 0}
        reviews:
          - {id: a1, at: 2026-11-01T09:00:00Z, grade: good, ms: 2000, device: laptop}
          - {id: a2, at: 2026-11-02T09:00:00Z, grade: good, ms: 1500, device: laptop}

        """,
    ]

    /// Writes the fixture into `directory`, with `overrides` replacing or adding files
    /// (an empty string removes the file).
    public static func write(
        into directory: TemporaryDirectory, overrides: [String: String] = [:], git: Bool = true
    ) async {
        for (path, text) in files.merging(overrides, uniquingKeysWith: { $1 }) where !text.isEmpty {
            directory.write(path, text)
        }
        if git {
            await Shell.run("git", ["init", "-q", "-b", "main", "."], in: directory.url)
            await Shell.run("git", ["add", "-A"], in: directory.url)
            await Shell.run(
                "git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "fixture"],
                in: directory.url)
        }
    }
}

/// Runs programs for tests and captures their output.
public enum Shell {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// A child that exits without reading its input must not kill the test run with SIGPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// The most either output may hold: far above the largest a test reads (4.2 MB in
    /// `ShellTests`; `rote export --deck english-a1` prints 456 KB), so only a runaway child
    /// reaches it. swift-subprocess reserves this much address space per stream, which costs
    /// nothing until it is written.
    private static let outputLimit = 64 << 20

    /// Runs `program` (found on the PATH unless it is a path) in `directory`, feeding it
    /// `input`, and waits for it, reading both outputs as they come.
    ///
    /// swift-subprocess closes every other descriptor in the child (a file another thread has
    /// open for writing would otherwise stay open there, and exec of it would fail with "Text
    /// file busy"). Input goes through a writer rather than `.string`, which traps when the
    /// child exits without reading it (swiftlang/swift-subprocess#367).
    @discardableResult
    public static func run(
        _ program: String, _ arguments: [String], in directory: URL? = nil, input: String? = nil,
        environment: [String: String] = [:]
    ) async -> Output {
        _ = ignoreBrokenPipes
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        let bytes = Array((input ?? "").utf8)
        var overrides: [Environment.Key: String?] = [:]
        for (key, value) in environment { overrides[Environment.Key(stringLiteral: key)] = value }
        do {
            let result = try await Subprocess.run(
                executable, arguments: Arguments(arguments),
                environment: .inherit.updating(overrides),
                workingDirectory: directory.map { FilePath($0.path) },
                input: .inputWriter, output: .string(limit: outputLimit), error: .string(limit: outputLimit)
            ) { execution in
                // A child that stops reading (EPIPE) wants no more; that is not a failure.
                if !bytes.isEmpty { _ = try? await execution.standardInputWriter.write(bytes) }
                try? await execution.standardInputWriter.finish()
            }
            // Exited: its code; killed by a signal: 128 + the signal, as a shell reports it.
            let status: Int32
            switch result.terminationStatus {
            case .exited(let code): status = code
            case .signaled(let signal): status = 128 + signal
            }
            return Output(status: status, stdout: result.standardOutput, stderr: result.standardError)
        } catch {
            return Output(status: -1, stdout: "", stderr: "cannot run \(program): \(error)")
        }
    }

    /// Another process (python3) holding an `flock` on `file` — as a second rote process would
    /// hold a lock — with `note` written into it, until the returned process is killed.
    public static func holdLock(_ file: URL, note: String = "") throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a+'); fcntl.flock(f, fcntl.LOCK_EX); f.truncate(0); f.write(sys.argv[2]); f.flush(); print('locked', flush=True); time.sleep(60)",
            file.path, note,
        ]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        _ = output.fileHandleForReading.availableData
        return holder
    }
}

/// The checkout's own library — every starter deck and the demo learner — copied into a new
/// folder, for tests that need real content at its real size.
public enum StarterLibrary {
    public enum Git: Sendable {
        /// A plain folder.
        case none
        /// `git init`, nothing committed.
        case initialised
        /// `git init` and everything committed (by the system git).
        case committed
    }

    public static func copy(git: Git = .committed) async -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        for name in ["rote.yaml", "corpus", "profiles"] {
            try? FileManager.default.copyItem(
                at: Checkout.root.appending(path: name), to: directory.url.appending(path: name))
        }
        guard git != .none else { return directory }
        await Shell.run("git", ["init", "-q", "-b", "main", "."], in: directory.url)
        guard git == .committed else { return directory }
        await Shell.run("git", ["add", "-A"], in: directory.url)
        await Shell.run(
            "git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "starter"],
            in: directory.url)
        return directory
    }
}
