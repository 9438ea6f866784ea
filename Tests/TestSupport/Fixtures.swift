public import Foundation

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
    public static func write(into directory: TemporaryDirectory, overrides: [String: String] = [:], git: Bool = true) {
        for (path, text) in files.merging(overrides, uniquingKeysWith: { $1 }) where !text.isEmpty {
            directory.write(path, text)
        }
        if git {
            Shell.run("git", ["init", "-q", "-b", "main", "."], in: directory.url)
            Shell.run("git", ["add", "-A"], in: directory.url)
            Shell.run(
                "git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "fixture"],
                in: directory.url)
        }
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
/// module does not import.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32)
    -> Int32

/// Runs programs for tests and captures their output.
public enum Shell {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// A child that exits without reading its input must not kill the test run with SIGPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `program` (found on the PATH unless it is a path) in `directory`, feeding it
    /// `input`, and waits for it.
    ///
    /// Spawned with descriptors this function owns and closes once each, not through
    /// Foundation's `Process` and `Pipe`: under load they can close a descriptor another
    /// thread has just opened (swiftlang/swift#57827), and a libgit2 fetch in a test running
    /// alongside failed with "Bad file descriptor".
    @discardableResult
    public static func run(
        _ program: String, _ arguments: [String], in directory: URL? = nil, input: String? = nil,
        environment: [String: String] = [:]
    ) -> Output {
        _ = ignoreBrokenPipes
        // Through env(1): it finds the program on the PATH and moves to the directory.
        var argv = ["/usr/bin/env"]
        if let directory { argv.append("--chdir=" + directory.path) }
        argv += [program] + arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let envp = merged.map { "\($0.key)=\($0.value)" }

        // Each pipe is made close-on-exec, so a child another thread spawns does not keep it
        // open (`pipe2` is not in Swift's Glibc; a child spawned between `pipe` and `fcntl`
        // holds it only until it exits). The child's ends are moved onto 0, 1 and 2.
        var standardInput: [Int32] = [-1, -1]
        var standardOutput: [Int32] = [-1, -1]
        var standardError: [Int32] = [-1, -1]
        func makePipe(_ ends: inout [Int32]) -> Bool {
            guard pipe(&ends) == 0 else { return false }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard makePipe(&standardInput), makePipe(&standardOutput), makePipe(&standardError) else {
            let reason = String(cString: strerror(errno))
            for fd in standardInput + standardOutput + standardError where fd >= 0 { close(fd) }
            return Output(status: -1, stdout: "", stderr: "cannot make pipes for \(program): \(reason)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput[0], 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput[1], 1)
        posix_spawn_file_actions_adddup2(&actions, standardError[1], 2)
        // Nothing else goes to the child: a file another thread has open for writing (a
        // binary being copied, say) would otherwise stay open in it and make exec of that
        // file fail with "Text file busy". Foundation's Process does the same.
        _ = spawnActionsCloseFrom(&actions, 3)
        var pid: pid_t = 0
        let spawned = withCStrings(argv) { argv in
            withCStrings(envp) { envp in posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp) }
        }
        close(standardInput[0])
        close(standardOutput[1])
        close(standardError[1])
        guard spawned == 0 else {
            close(standardInput[1])
            close(standardOutput[0])
            close(standardError[0])
            return Output(
                status: -1, stdout: "", stderr: "cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        // Feed input, and read both outputs, concurrently: a child that answers while it reads
        // would otherwise fill a pipe and wait on us forever.
        let group = DispatchGroup()
        let bytes = Array((input ?? "").utf8)
        let inputEnd = standardInput[1]
        let outputEnd = standardOutput[0]
        let errorEnd = standardError[0]
        group.enter()
        DispatchQueue.global().async {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(inputEnd, $0.baseAddress! + written, bytes.count - written) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }  // the child closed its input (EPIPE): it wants no more
                written += count
            }
            close(inputEnd)
            group.leave()
        }
        nonisolated(unsafe) var errorBytes: [UInt8] = []
        group.enter()
        DispatchQueue.global().async {
            errorBytes = readAll(errorEnd)
            group.leave()
        }
        let outputBytes = readAll(outputEnd)
        group.wait()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // Exited: its code; killed by a signal: 128 + the signal, as a shell reports it.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Output(
            status: code, stdout: String(decoding: outputBytes, as: UTF8.self),
            stderr: String(decoding: errorBytes, as: UTF8.self))
    }

    /// Everything until end of file, then the descriptor closed.
    private static func readAll(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            result += buffer.prefix(count)
        }
        close(fd)
        return result
    }

    /// `strings` as a NUL-terminated array of C strings, for the length of `body`.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for copy in copies { free(copy) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
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

    public static func copy(git: Git = .committed) -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        for name in ["rote.yaml", "corpus", "profiles"] {
            try? FileManager.default.copyItem(
                at: Checkout.root.appending(path: name), to: directory.url.appending(path: name))
        }
        guard git != .none else { return directory }
        Shell.run("git", ["init", "-q", "-b", "main", "."], in: directory.url)
        guard git == .committed else { return directory }
        Shell.run("git", ["add", "-A"], in: directory.url)
        Shell.run(
            "git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "starter"],
            in: directory.url)
        return directory
    }
}
