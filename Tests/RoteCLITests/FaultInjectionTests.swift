import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Faults a learner's machine meets: a `rote` process killed at any instant, a full disk, a
/// library on a read-only file system, a lock left by a dead process or held by a live one.
/// After each, nothing committed or answered is lost, git and `rote check` find the library
/// sound, and the next command carries on.
@Suite(.serialized) struct FaultInjectionTests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    /// Seeded runs of the kill test; `ROTE_FAULT_RUNS` changes it (the issue asks for 200).
    static var runs: Int { ProcessInfo.processInfo.environment["ROTE_FAULT_RUNS"].flatMap(Int.init) ?? 200 }

    let directory = TemporaryDirectory("rote-faults")
    var hub: URL { directory.url.appending(path: "hub.git") }
    var desk: URL { directory.url.appending(path: "desk") }
    var laptop: URL { directory.url.appending(path: "laptop") }

    @discardableResult
    func rote(_ library: URL, _ arguments: [String], input: String? = nil) async -> Shell.Output {
        await Shell.run(
            Self.binary, ["-C", library.path, "--user", "ana"] + arguments, input: input, environment: ["NO_COLOR": "1"]
        )
    }

    /// The fixture library as a clone of a bare hub, and a second clone of it.
    func makeNetwork() async {
        let seed = TemporaryDirectory("rote-faults-seed")
        await FixtureLibrary.write(
            into: seed,
            overrides: [
                "profiles/ana/profile.yaml":
                    "user: ana\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nsettings:\n  new_per_day: 50\n"
            ])
        await Shell.run("git", ["clone", "-q", "--bare", seed.url.path, hub.path])
        for clone in [desk, laptop] {
            await Shell.run("git", ["clone", "-q", hub.path, clone.path])
            await Shell.run("git", ["config", "user.name", "Test"], in: clone)
            await Shell.run("git", ["config", "user.email", "test@example.invalid"], in: clone)
            await rote(clone, ["setup-git"])
        }
    }

    /// Review ids in the progress files of `tree` (a commit) or, with nil, of the work tree.
    func reviewIDs(in library: URL, tree: String?) async -> Set<String> {
        let output: String
        if let tree {
            output =
                await Shell.run(
                    "git", ["grep", "-h", "-o", "{id: [^,]*", tree, "--", "profiles/ana/progress"], in: library
                )
                .stdout
        } else {
            // A write's temporary file (`.<name>.<pid>.<n>.tmp`) killed before its rename holds a
            // review nobody was told was recorded: not an answer, and never committed.
            output = await Shell.run(
                "grep", ["-rho", "--exclude=.*.tmp", "{id: [^,]*", "profiles/ana/progress"], in: library
            ).stdout
        }
        return Set(output.split(separator: "\n").map { String($0.dropFirst("{id: ".count)) })
    }

    enum Command: CaseIterable { case sync, importTable, review, study }

    /// Starts `rote` and kills it with SIGKILL after `delay` microseconds unless it ended
    /// first; returns its exit status when it ended by itself.
    func runAndKill(_ arguments: [String], input: String?, after delay: UInt32) throws -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-C", desk.path, "--user", "ana"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(Double(delay) / 1_000_000)
        while process.isRunning, Date() < deadline { usleep(500) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    func arguments(for command: Command, run: Int, using random: inout SeededGenerator) async -> (
        arguments: [String], input: String?, reviewID: String?
    ) {
        switch command {
        case .sync:
            return (["sync"], nil, nil)
        case .importTable:
            let rows = (0..<40).map { "word\(run)x\($0),meaning \($0)" }.joined(separator: "\n")
            let file = directory.url.appending(path: "table-\(run).csv")
            try? Data(("word,translation\n" + rows + "\n").utf8).write(to: file)
            return (["import", file.path, "--deck", "table\(run)", "--kind", "vocabulary"], nil, nil)
        case .review:
            let entry = ["words/run", "words/go", "maths/arithmetic/addition/two_plus_two"].randomElement(
                using: &random)!
            let id = "kill-\(run)"
            return (
                ["review", entry, ["again", "hard", "good", "easy"].randomElement(using: &random)!, "--id", id], nil, id
            )
        case .study:
            let answers = (0..<30).map { _ in ["1", "2", "3", "1 2", "good", "run"].randomElement(using: &random)! }
            return (["study", "words", "maths", "--new", "10"], answers.joined(separator: "\n") + "\n", nil)
        }
    }

    /// SIGKILL at a seeded random instant of `rote sync`, `import`, `review` and `study`, while
    /// a second clone keeps syncing its own reviews so the killed syncs have merges to make.
    @Test(.timeLimit(.minutes(10))) func killedAtRandomInstantsNothingIsLostAndTheNextCommandRecovers() async throws {
        await makeNetwork()
        // How long each command takes when left alone: kills land anywhere in that span.
        var durations: [Command: UInt32] = [:]
        var calibration = SeededGenerator(seed: 0)
        for command in Command.allCases {
            let (arguments, input, _) = await arguments(for: command, run: -1, using: &calibration)
            let start = Date()
            let status = try runAndKill(arguments, input: input, after: 30_000_000)
            #expect(status == 0, "\(command) left alone succeeds")
            durations[command] = UInt32(max(0.02, Date().timeIntervalSince(start)) * 1_000_000)
        }
        print(
            "fault runs: commands take \(Command.allCases.map { "\($0) \(durations[$0]! / 1000) ms" }.joined(separator: ", "))"
        )
        #expect(await rote(desk, ["sync"]).status == 0)

        var committed = await reviewIDs(in: desk, tree: "HEAD")
        var pushedByLaptop = Set<String>()
        var kills = 0
        var completed = 0
        var killed: [Command: Int] = [:]
        let started = Date()
        for run in 0..<Self.runs {
            var random = SeededGenerator(seed: UInt64(run) &* 0x9E37_79B9_7F4A_7C15 &+ 21)
            if run % 4 == 3 {
                let id = "laptop-\(run)"
                #expect(await rote(laptop, ["review", "words/run", "good", "--id", id]).status == 0)
                if await rote(laptop, ["sync"]).status == 0 { pushedByLaptop.insert(id) }
            }
            let command = Command.allCases.randomElement(using: &random)!
            let (arguments, input, reviewID) = await arguments(for: command, run: run, using: &random)
            let delay = UInt32.random(in: 0...durations[command]!, using: &random)
            let status = try runAndKill(arguments, input: input, after: delay)
            if status == nil {
                kills += 1
                killed[command, default: 0] += 1
            } else {
                completed += 1
            }
            let context =
                "run \(run): \(command) killed after \(delay / 1000) ms (\(status.map { "ended by itself with \($0)" } ?? "killed"))"

            #expect(status == nil || status == 0, "\(context): a command left alone succeeds")
            let fsck = await Shell.run("git", ["fsck", "--no-progress", "--no-dangling"], in: desk)
            #expect(fsck.status == 0, "\(context): git fsck: \(fsck.stderr)")
            // Answered: whatever a study session wrote to a progress file before the kill (it
            // writes each answer as it is given), and a review `rote review` said it recorded.
            // A killed `rote review` recorded nothing — it is all or nothing, and the caller
            // retries it with the same id, below.
            var answered = await reviewIDs(in: desk, tree: nil)
            if let reviewID {
                if status == 0 {
                    #expect(answered.contains(reviewID), "\(context): the recorded review is in its file")
                } else {
                    answered.remove(reviewID)
                }
            }

            let next = await rote(desk, ["sync"])
            #expect(next.status == 0, "\(context): the next command: \(next.stderr)")
            let check = await rote(desk, ["check"])
            #expect(check.status == 0, "\(context): rote check: \(check.stdout)\(check.stderr)")
            let pending = await Shell.run(
                "git", ["status", "--porcelain", "--", "rote.yaml", "corpus", "profiles"], in: desk
            ).stdout
            #expect(pending.isEmpty, "\(context): uncommitted after recovery: \(pending)")
            let now = await reviewIDs(in: desk, tree: "HEAD")
            let lost = committed.union(answered).union(pushedByLaptop).subtracting(now)
            #expect(lost.isEmpty, "\(context): reviews lost: \(lost.sorted())")
            if let reviewID, status == nil {
                let retried = await rote(desk, arguments)
                #expect(retried.status == 0, "\(context): the retried review: \(retried.stderr)")
                let copies = await Shell.run(
                    "git", ["grep", "-h", "-c", "{id: \(reviewID),", "HEAD", "--", "profiles/ana/progress"], in: desk
                ).stdout
                #expect(
                    copies.trimmingCharacters(in: .whitespacesAndNewlines) == "1",
                    "\(context): the retried review is recorded once: \(copies)")
            }
            if command == .importTable {
                let deck = await Shell.run("git", ["ls-tree", "--name-only", "HEAD", "corpus/table\(run)/"], in: desk)
                    .stdout
                    .split(separator: "\n")
                #expect(
                    deck.isEmpty || deck.count == 41,
                    "\(context): an import is all or nothing, found \(deck.count) files")
            }
            committed = await reviewIDs(in: desk, tree: "HEAD")
            if !lost.isEmpty || next.status != 0 || check.status != 0 { break }
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            "fault runs: \(Self.runs) (\(kills) killed — \(Command.allCases.map { "\($0) \(killed[$0] ?? 0)" }.joined(separator: ", ")) — and \(completed) ended first) in \(Int(seconds)) s"
        )
        #expect(kills >= Self.runs / 3, "runs are killed mid-command, not after: \(kills) of \(Self.runs)")
        #expect(await Shell.run("git", ["fsck", "--no-progress"], in: hub).status == 0)
    }

    @Test func aLockLeftByADeadProcessIsTakenOverAndALiveOneIsNamedByItsPID() async throws {
        await makeNetwork()
        let lock = desk.appending(path: ".git/rote/lock")
        try FileManager.default.createDirectory(at: lock.deletingLastPathComponent(), withIntermediateDirectories: true)
        // A holder that died: its note is still in the file, but no process holds the lock.
        try Data("pid 999999: rote study\n".utf8).write(to: lock)
        let after = await rote(desk, ["review", "words/run", "good"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect((try? String(contentsOf: lock, encoding: .utf8)) == "", "the note goes with the lock")

        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl, os, sys, time; f = open(sys.argv[1], 'a+'); fcntl.flock(f, fcntl.LOCK_EX); f.truncate(0); f.write('pid %d: rote study\\n' % os.getpid()); f.flush(); print('locked', flush=True); time.sleep(60)",
            lock.path,
        ]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        _ = output.fileHandleForReading.availableData
        let busy = await rote(desk, ["review", "words/go", "good"])
        #expect(
            busy.status != 0 && busy.stderr.contains("pid \(holder.processIdentifier): rote study"), "\(busy.stderr)")
        #expect(directory.read("desk/profiles/ana/progress/words/go.yaml") == nil, "the refused review wrote nothing")
    }

    @Test(
        .enabled(
            if: TemporaryMount.permitted, "mounting a tmpfs needs root (CAP_SYS_ADMIN); this machine does not allow it")
    )
    func aFullDiskGivesAClearErrorAndLosesNothing() async throws {
        let mount = try TemporaryMount(size: "3m")
        defer { mount.unmount() }
        let library = mount.url.appending(path: "lib")
        await FixtureLibrary.write(into: TemporaryDirectory(at: library))
        #expect(await rote(library, ["review", "words/run", "good", "--id", "before-full"]).status == 0)
        let before = await Shell.run("git", ["rev-parse", "HEAD"], in: library).stdout
        let committed = await reviewIDs(in: library, tree: "HEAD")
        // Fill the disk to the last block.
        let filler = mount.url.appending(path: "filler")
        await Shell.run("sh", ["-c", "cat /dev/zero > '\(filler.path)' 2>/dev/null; sync"])
        for command in [
            ["review", "words/run", "good", "--id", "on-full"], ["study", "words", "--new", "3"],
            ["suspend", "words/go"],
        ] {
            let refused = await rote(library, command, input: "1\n1\n1\n")
            #expect(refused.status == 1, "\(command): fails cleanly, no crash: \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.contains("No space left on device"), "\(command): says why: \(refused.stderr)")
        }
        #expect(await Shell.run("git", ["rev-parse", "HEAD"], in: library).stdout == before)
        #expect(await reviewIDs(in: library, tree: "HEAD") == committed)
        #expect(await Shell.run("git", ["fsck", "--no-progress"], in: library).status == 0)
        try FileManager.default.removeItem(at: filler)
        #expect(await rote(library, ["review", "words/run", "good", "--id", "after-full"]).status == 0)
        #expect(await rote(library, ["check"]).status == 0)
        #expect(await reviewIDs(in: library, tree: "HEAD").isSuperset(of: committed.union(["after-full"])))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: library).stdout.isEmpty)
    }

    @Test(
        .enabled(
            if: TemporaryMount.permitted, "mounting a tmpfs needs root (CAP_SYS_ADMIN); this machine does not allow it")
    )
    func aReadOnlyLibraryGivesAClearErrorAndLosesNothing() async throws {
        let mount = try TemporaryMount(size: "16m")
        defer { mount.unmount() }
        let library = mount.url.appending(path: "lib")
        await FixtureLibrary.write(into: TemporaryDirectory(at: library))
        #expect(await rote(library, ["review", "words/run", "good", "--id", "before-ro"]).status == 0)
        let committed = await reviewIDs(in: library, tree: "HEAD")
        try mount.remount(readOnly: true)
        for command in [["review", "words/run", "good"], ["study", "words", "--new", "3"], ["sync"]] {
            let refused = await rote(library, command, input: "1\n1\n")
            #expect(refused.status == 1, "\(command): fails cleanly: \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.contains("Read-only file system"), "\(command): says why: \(refused.stderr)")
        }
        let shown = await rote(library, ["show", "words/run"])
        #expect(
            shown.status == 0 && shown.stdout.contains("words/run") || shown.stderr.contains("Read-only file system"),
            "reading works or says why: \(shown.status) \(shown.stdout) \(shown.stderr)")
        try mount.remount(readOnly: false)
        #expect(await reviewIDs(in: library, tree: "HEAD") == committed)
        #expect(await rote(library, ["review", "words/run", "good", "--id", "after-ro"]).status == 0)
        #expect(await rote(library, ["check"]).status == 0)
        #expect(await Shell.run("git", ["fsck", "--no-progress"], in: library).status == 0)
    }
}

/// A small tmpfs mounted for one test (the machine's root may mount; CI runs as root).
struct TemporaryMount {
    let url: URL
    private let holder: TemporaryDirectory

    static let permitted: Bool = {
        guard getuid() == 0 else { return false }
        guard let probe = try? TemporaryMount(size: "1m") else { return false }
        probe.unmount()
        return true
    }()

    init(size: String) throws {
        holder = TemporaryDirectory("rote-mount")
        url = holder.url.appending(path: "mnt")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // mount(2) itself rather than mount(8): `permitted` and `defer { unmount() }` are synchronous.
        try Self.check(mount("tmpfs", url.path, "tmpfs", 0, "size=\(size)"), "mounting a tmpfs on \(url.path)")
    }

    func remount(readOnly: Bool) throws {
        let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
        try Self.check(
            mount(nil, url.path, nil, flags, nil), "remounting \(url.path) \(readOnly ? "read-only" : "read-write")")
    }

    private static func check(_ result: Int32, _ action: String) throws {
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: "\(action): \(reason)"])
        }
    }

    func unmount() { umount2(url.path, Int32(MNT_DETACH)) }
}
