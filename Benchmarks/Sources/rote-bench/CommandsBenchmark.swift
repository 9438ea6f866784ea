import Foundation
import RoteStore

#if canImport(Glibc)
import Glibc
#endif

/// Every command a user runs, each as its own process from start to exit, on a clone of a
/// generated library — the way a user (or an app calling `rote review`) meets them — beside
/// `git status --porcelain` on the same library in the same run. Each command's runs alternate
/// with git's, so both see the same machine; the table gives the medians and each one's
/// largest peak memory (the child's max RSS, from `wait4`).
///
///     rote-bench commands --library DIR --rote PATH [--runs K] [--work DIR] [--user NAME]
enum CommandsBenchmark {
    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments, allowed: ["library", "rote", "runs", "work", "user"])
        guard let library = options.string("library"), let rote = options.string("rote") else {
            throw OptionError(
                message: "usage: rote-bench commands --library DIR --rote PATH [--runs K] [--work DIR] [--user NAME]")
        }
        let runs = max(1, try options.int("runs", default: 5))
        let user = options.string("user") ?? "bench"
        let work = URL(fileURLWithPath: options.string("work") ?? NSTemporaryDirectory()).appending(
            path: "rote-bench-commands")
        let clone = work.appending(path: "library")
        let remote = work.appending(path: "remote.git")
        Bench.log("commands: cloning \(library)")
        try Bench.clone(URL(fileURLWithPath: library), to: clone)
        Bench.remove(remote)
        try Bench.run(
            "git", ["clone", "-q", "--bare", "--local", clone.path, remote.path], environment: Bench.gitEnvironment)
        try Bench.git(["remote", "set-url", "origin", remote.path], in: clone)
        try Bench.git(["fetch", "-q", "origin"], in: clone)
        try Bench.git(["branch", "-q", "--set-upstream-to=origin/main", "main"], in: clone)

        // An entry the learner has reviewed, by id and by its word.
        let progress = clone.appending(path: LibraryPaths(user: user).progressFolder)
        guard let deck = try FileManager.default.contentsOfDirectory(atPath: progress.path).sorted().first,
            let file = try FileManager.default.contentsOfDirectory(atPath: progress.appending(path: deck).path).sorted()
                .first(where: { $0.hasSuffix(".yaml") })
        else { throw OptionError(message: "\(library) has no progress files for \(user)") }
        let word = String(file.dropLast(5))
        let id = "\(deck)/\(word)"
        let export = work.appending(path: "export.json").path

        let commands: [(name: String, arguments: [String])] = [
            ("show ID", ["show", id]),
            ("show WORD", ["show", word]),
            ("history ID", ["history", id]),
            ("lookup WORD", ["lookup", word]),
            ("list DECK", ["list", deck]),
            ("stats", ["stats"]),
            ("review ID good", ["review", id, "good"]),
            ("suspend ID", ["suspend", id]),
            ("ignore ID", ["ignore", id]),
            ("activate ID", ["activate", id]),
            ("reset ID", ["reset", id]),
            ("study --plan", ["study", "--plan"]),
            ("check (nothing changed)", ["check"]),
            ("export --format json", ["export", "--format", "json", "--out", export]),
            ("sync (nothing to do)", ["sync"]),
        ]
        let git = try Bench.which("git")
        let environment = ["ROTE_USER": user, "NO_COLOR": "1"]
        // A first launch builds the launch index and settles git's index: a one-off, not measured.
        Bench.log("commands: first launch (builds the index)")
        _ = try measure([rote, "-C", clone.path, "study", "--plan"], environment: environment)
        _ = try measure([git, "-C", clone.path, "status", "--porcelain"], environment: [:])
        // Files written within two seconds of the index are "racy" and read again by the next
        // check, as git's own index does; a second launch after that settles them.
        Thread.sleep(forTimeInterval: 2.1)
        _ = try measure([rote, "-C", clone.path, "study", "--plan"], environment: environment)

        let size = try entryCount(clone)
        var table = Table(header: [
            "command (\(size): \(id))", "rote, median of \(runs)", "peak memory", "git status, same runs", "rote ÷ git",
        ])
        for (name, arguments) in commands {
            Bench.log("commands: \(name)")
            var roteTimes: [Double] = []
            var gitTimes: [Double] = []
            var peak = 0
            var failed: Int32 = 0
            for _ in 0..<runs {
                let measured = try measure([rote, "-C", clone.path] + arguments, environment: environment)
                if measured.status != 0 { failed = measured.status }
                roteTimes.append(measured.seconds)
                peak = max(peak, measured.maxRSS)
                gitTimes.append(
                    try measure([git, "-C", clone.path, "status", "--porcelain"], environment: [:]).seconds)
            }
            let ours = Timing.median(roteTimes)
            let theirs = Timing.median(gitTimes)
            table.add([
                name + (failed != 0 ? " (exit \(failed))" : ""), Bench.duration(ours),
                String(format: "%.0f MiB", Double(peak) / 1024), Bench.duration(theirs),
                String(format: "%.2f×", ours / theirs),
            ])
        }
        // `rote study` at a terminal: from start to its first card on screen, then quit.
        Bench.log("commands: study, first card")
        var cardTimes: [Double] = []
        var cardGitTimes: [Double] = []
        var cardPeak = 0
        for _ in 0..<runs {
            let measured = try firstCard([rote, "-C", clone.path, "study"], environment: environment)
            cardTimes.append(measured.seconds)
            cardPeak = max(cardPeak, measured.maxRSS)
            cardGitTimes.append(
                try measure([git, "-C", clone.path, "status", "--porcelain"], environment: [:]).seconds)
        }
        let card = Timing.median(cardTimes)
        let cardGit = Timing.median(cardGitTimes)
        table.add([
            "study: first card on screen", Bench.duration(card), String(format: "%.0f MiB", Double(cardPeak) / 1024),
            Bench.duration(cardGit),
            String(format: "%.2f×", card / cardGit),
        ])
        print("every command at \(size) entries (a fresh process each, start to exit)")
        print(table.render())
        Bench.remove(work)
    }

    /// The entries a library holds: its corpus files less the deck manifests.
    static func entryCount(_ library: URL) throws -> String {
        let corpus = library.appending(path: LibraryPaths.corpus)
        var count = 0
        for deck in try FileManager.default.contentsOfDirectory(atPath: corpus.path) {
            count +=
                (try FileManager.default.contentsOfDirectory(atPath: corpus.appending(path: deck).path)).filter {
                    $0.hasSuffix(".yaml") && $0 != "deck.yaml"
                }.count
        }
        return count >= 1_000 ? "\(count / 1_000)k" : "\(count)"
    }

    /// Runs `rote study` on a pseudo-terminal, as a learner at a terminal meets it: the seconds
    /// from spawn to its first card on screen (the card's header, "1 of N"), then `q` to quit;
    /// with the child's peak memory.
    static func firstCard(_ argv: [String], environment: [String: String]) throws -> (seconds: Double, maxRSS: Int) {
        var master: Int32 = 0
        var terminal: Int32 = 0
        guard openpty(&master, &terminal, nil, nil, nil) == 0 else {
            throw OptionError(message: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        defer { close(master) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 { posix_spawn_file_actions_adddup2(&actions, terminal, descriptor) }
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addclose(&actions, terminal)
        let started = ContinuousClock.now
        let spawned = Result {
            try spawn(
                argv,
                environment: environment.merging(["TERM": ProcessInfo.processInfo.environment["TERM"] ?? "xterm"]) {
                    mine, _ in mine
                }, actions: &actions)
        }
        close(terminal)
        let pid = try spawned.get()
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var shown: Duration?
        let marker = Array(" of ".utf8)
        let deadline = ContinuousClock.now + .seconds(60)
        while shown == nil, ContinuousClock.now < deadline {
            var poll = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 1_000) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            seen += buffer[0..<count]
            if seen.count >= marker.count,
                (0...(seen.count - marker.count)).contains(where: {
                    seen[$0..<($0 + marker.count)].elementsEqual(marker)
                })
            {
                shown = started.duration(to: .now)
            }
        }
        _ = "q".withCString { write(master, $0, 1) }
        // Drain what it prints as it quits, so it never blocks on a full terminal.
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            var poll = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&poll, 1, 100) > 0 { _ = read(master, &buffer, buffer.count) }
        }
        guard let shown else { throw OptionError(message: "rote study showed no card within a minute") }
        return (Double(shown.components.seconds) + Double(shown.components.attoseconds) * 1e-18, usage.ru_maxrss)
    }

    /// Runs a program to its end with its output discarded: wall time from spawn to exit, the
    /// child's peak memory (KiB) and its exit status.
    static func measure(_ argv: [String], environment: [String: String]) throws -> (
        seconds: Double, maxRSS: Int, status: Int32
    ) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let started = ContinuousClock.now
        let pid = try spawn(argv, environment: environment, actions: &actions)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (seconds, usage.ru_maxrss, exited)
    }

    /// Starts `argv` with this process's environment and `environment` over it, its files as
    /// `actions` say; returns its pid.
    static func spawn(_ argv: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t) throws
        -> pid_t
    {
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = variables.map { strdup("\($0)=\($1)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw OptionError(message: "could not start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        return pid
    }
}
