import Foundation
import Launch
import RoteLibrary
import RoteModel
import RoteStore
import Study

/// How long a learner waits for a library to open, and how fast the reader's lookups are:
///
///     rote-bench launch --library DIR [--runs 3] [--lookups 2000000] [--user NAME] [--changes 100]
///                       [--anki-python PYTHON]
///
/// In one run, on a library made by `rote-bench generate`, each a median of `--runs`:
/// - the floor: reading every library file's bytes (what `cat` of them all does);
/// - cold launch: no launch index cache, so the index's rows read from every file on every
///   core (`LaunchRows.read`), the index built and saved, the due queue planned and the
///   first card read;
/// - warm launch: the cached index mapped, due queue and first card — with the stat check
///   of every file running beside it, timed to its end;
/// - launch after `--changes` progress files each got a new review: check, re-read those,
///   delta saved, plan, first card; the same after `--changes` entries edited where the
///   index does not look, after `--changes` entries re-ranked (written by rename, so their
///   folder's stamp moves too), and after a profile edit;
/// - a warm launch in a fresh process (`rote-bench launch-probe`), with its peak memory;
/// - lookups per second (form → lemma, rank, status), forms drawn uniformly from all forms;
/// - with `--anki-python`, Anki (the `anki` package) opening a collection of the same cards
///   and counting what is due (`Benchmarks/anki_due.py`).
enum LaunchBenchmark {
    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments, allowed: ["library", "runs", "lookups", "user", "changes", "anki-python"])
        guard let libraryPath = options.string("library") else {
            throw OptionError(message: "launch needs --library DIR (made by rote-bench generate)")
        }
        let root = URL(fileURLWithPath: libraryPath).standardizedFileURL.resolvingSymlinksInPath()
        let runs = max(try options.int("runs", default: 3), 1)
        let lookups = max(try options.int("lookups", default: 2_000_000), 1)
        let changes = max(try options.int("changes", default: 100), 1)
        let user = options.string("user") ?? probeUser(root)
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        let (paths, _) = loader.listFiles(root)
        let now = Date(timeIntervalSince1970: LibraryGenerator.end + 86_400)

        func readAll() -> Int {
            var problems: [Diagnostic] = []
            var bytes = 0
            for path in paths { bytes += loader.read(root, path, &problems)?.count ?? 0 }
            return bytes
        }

        Bench.log("launch: \(paths.count) files in \(root.lastPathComponent)")
        var floors: [Double] = []
        var colds: [Double] = []
        var warms: [Double] = []
        var checks: [Double] = []
        var changed: [Double] = []
        var probes: [Double] = []
        let contentEdits = Samples()
        let rankEdits = Samples()
        let profileEdits = Samples()
        var probeMemory: [Double] = []
        var probeReady: [Double] = []
        var probeVerified: [Double] = []
        var plans: [Double] = []
        var lastPlan: (SessionPlan, String)?
        for run in 1...runs {
            let (floor, _) = Timing.measure(readAll)
            floors.append(floor)
            if let cache = LibraryLaunch.cacheURL(root: root, user: user) {
                try? FileManager.default.removeItem(at: cache)
            }
            let (cold, coldPlan) = try Timing.measure {
                try ready(try LibraryLaunch.open(root: root, user: user), now: now)
            }
            colds.append(cold)

            // The launch right after the cold one competes with the write-back of the index
            // just saved (52 MiB at 100k), which slows its stat check 2-3×; the next one is
            // the warm launch a learner meets, so that is the one timed.
            _ = try LibraryLaunch.openVerified(root: root, user: user)
            let clock = ContinuousClock()
            let started = clock.now
            let launch = try LibraryLaunch.open(root: root, user: user)
            guard launch.source == .cache else {
                throw OptionError(message: "the warm launch did not find the cache: \(launch.source)")
            }
            let pending = launch.verifyInBackground()
            let warmPlan = try ready(launch, now: now)
            let warm = seconds(clock.now - started)
            let verified = try pending.wait()
            let check = seconds(clock.now - started)
            guard verified.source == .verified, warmPlan.1 == coldPlan.1, warmPlan.0.dueTotal == coldPlan.0.dueTotal
            else {
                throw OptionError(
                    message:
                        "the warm launch disagrees with the cold one (\(verified.source), \(warmPlan.1) vs \(coldPlan.1))"
                )
            }
            warms.append(warm)
            checks.append(check)
            plans.append(
                Timing.seconds {
                    verified.planner().plan(
                        limits: .from(verified.profile), now: now, timeZone: TimeZone(identifier: "UTC")!)
                })

            let originals = try touchProgressFiles(root: root, user: user, count: changes, run: run)
            let (afterChanges, changedLaunch) = try Timing.measure {
                () throws -> (LibraryLaunch, (SessionPlan, String)) in
                let launch = try LibraryLaunch.openVerified(root: root, user: user)
                return (launch, try ready(launch, now: now))
            }
            guard changedLaunch.0.source == .refreshed(files: changes) else {
                throw OptionError(message: "the launch after \(changes) changed files was \(changedLaunch.0.source)")
            }
            changed.append(afterChanges)
            for (path, bytes) in originals { try bytes.write(to: root.appending(path: path)) }
            // Stamps younger than two seconds are racy and always re-read; let them settle so
            // the next warm launch is a warm one.
            Thread.sleep(forTimeInterval: 2.1)
            _ = try LibraryLaunch.openVerified(root: root, user: user)

            // Edited entries: most edits (a translation, an example) leave what the index
            // keeps as it was and only move the files' stamps; a new rank (or new forms)
            // masks the old rows and adds the new ones. Both go into the delta.
            /// A launch after files changed, to the due queue and first card; it must have gone
            /// through the delta.
            func refreshedLaunch(after change: String) throws -> Double {
                let (seconds, launch) = try Timing.measure { () throws -> LibraryLaunch in
                    let launch = try LibraryLaunch.openVerified(root: root, user: user)
                    _ = try ready(launch, now: now)
                    return launch
                }
                guard case .refreshed = launch.source else {
                    throw OptionError(message: "the launch after \(change) was \(launch.source)")
                }
                return seconds
            }
            /// Stamps younger than two seconds are racy and always re-read: let the restored
            /// files settle so the next launch is a warm one.
            func settle() throws {
                Thread.sleep(forTimeInterval: 2.1)
                _ = try LibraryLaunch.openVerified(root: root, user: user)
            }
            for (times, ranks) in [(contentEdits, false), (rankEdits, true)] {
                let edited = try editEntries(root: root, count: changes, run: run, ranks: ranks)
                times.append(try refreshedLaunch(after: "\(changes) edited entries"))
                for (path, bytes) in edited { try bytes.write(to: root.appending(path: path)) }
                try settle()
            }

            // A settings file whose change the index does not see: the learner's profile, as
            // new daily limits or a content upgrade's seen versions rewrite it.
            let profile = root.appending(path: LibraryPaths(user: user).profile)
            let originalProfile = try Data(contentsOf: profile)
            try (originalProfile + Data("# edited by rote-bench\n".utf8)).write(to: profile, options: .atomic)
            profileEdits.append(try refreshedLaunch(after: "a profile edit"))
            try originalProfile.write(to: profile, options: .atomic)
            try settle()

            let probe = try probeProcess(root: root, user: user)
            probes.append(probe.wall)
            probeReady.append(probe.ready)
            probeVerified.append(probe.verified)
            probeMemory.append(probe.memory)
            lastPlan = warmPlan
            Bench.log(
                "launch: run \(run) of \(runs): read \(Bench.duration(floor)), cold \(Bench.duration(cold)), warm \(Bench.duration(warm)) "
                    + "(check done at \(Bench.duration(check))), after \(changes) changes \(Bench.duration(afterChanges)), fresh process \(Bench.duration(probe.wall)) (first card \(Bench.duration(probe.ready)), check done \(Bench.duration(probe.verified))) \(Int(probe.memory)) MiB"
            )
        }

        let launch = try LibraryLaunch.openVerified(root: root, user: user)
        let rows = launch.index.rows().entries
        var random = SeededGenerator(seed: 7)
        // Uniformly over all forms (the worst case: every lookup a cache miss), and as words
        // come in running text: a lemma's chance falling as 1/its rank (Zipf), which keeps
        // the common words in cache as a reader's text does.
        let uniform = StudyRandom.shuffled(rows.flatMap(\.forms), using: &random)
        let byRank = rows.sorted { ($0.rank ?? Int.max) < ($1.rank ?? Int.max) }.map(\.forms)
        let text = (0..<1_000_000).map { _ -> String in
            let lemma = min(
                byRank.count - 1, Int(pow(Double(byRank.count), Double.random(in: 0..<1, using: &random))) - 1)
            let forms = byRank[max(0, lemma)]
            return forms[Int.random(in: 0..<forms.count, using: &random)]
        }
        let index = launch.index
        func lookupRate(_ forms: [String]) throws -> Double {
            var found = 0
            let time = Timing.median(runs) {
                Timing.seconds {
                    found = 0
                    var left = lookups
                    while left > 0 {
                        for form in forms.prefix(left) where index.lookUp(form) != nil { found += 1 }
                        left -= min(left, forms.count)
                    }
                    return found
                }
            }
            guard found == lookups else {
                throw OptionError(message: "\(lookups - found) of \(lookups) lookups of known forms failed")
            }
            return Double(lookups) / time
        }
        let (uniformRate, textRate) = (try lookupRate(uniform), try lookupRate(text))

        var anki: (open: Double, due: String)?
        if let python = options.string("anki-python") {
            anki = try ankiDueCount(python: python, root: root, user: user, now: now, runs: runs)
        }

        let (plan, first) = lastPlan!
        print(
            "launch: \(root.lastPathComponent): \(paths.count) files, \(launch.index.entryCount) entries, \(launch.index.progressCount) progress files; "
                + "plan: \(plan.dueTotal) due, \(plan.due.count) reviews and \(plan.new.count) new today, first card \(first); index cache "
                + "\((try? FileManager.default.attributesOfItem(atPath: LibraryLaunch.cacheURL(root: root, user: user)!.path)[.size] as? Int).map { "\($0 / 1_048_576) MiB" } ?? "?")"
        )
        var table = Table(header: ["measurement", "rote (median of \(runs))", "reference (same run)", "ratio"])
        let floor = Timing.median(floors)
        table.add([
            "cold launch: no cache — rows read from every file, index built and saved, due queue, first card",
            Bench.duration(Timing.median(colds)),
            "read every file's bytes: \(Bench.duration(floor))",
            String(format: "%.1f× the floor", Timing.median(colds) / floor),
        ])
        let warm = Timing.median(warms)
        table.add([
            "warm launch: cached index, due queue, first card", Bench.duration(warm),
            anki.map { "Anki open + due counts: \(Bench.duration($0.open))" } ?? "—",
            anki.map { String(format: "%.2f× Anki's time", warm / $0.open) } ?? "—",
        ])
        table.add([
            "  its stat check of every file, done (from launch start, in this process)",
            Bench.duration(Timing.median(checks)), "—", "—",
        ])
        table.add([
            "launch after \(changes) changed progress files (check, re-read, index saved, due queue)",
            Bench.duration(Timing.median(changed)), "—", "—",
        ])
        table.add([
            "launch after \(changes) entries edited where the index does not look (check, re-read, delta saved)",
            Bench.duration(Timing.median(contentEdits.values)), "—", "—",
        ])
        table.add([
            "launch after \(changes) entries with a new rank, written by rename (check, folder's names counted, re-read, delta saved)",
            Bench.duration(Timing.median(rankEdits.values)), "—", "—",
        ])
        table.add([
            "launch after a profile edit the index does not depend on (check, profile read, delta saved)",
            Bench.duration(Timing.median(profileEdits.values)), "—", "—",
        ])
        table.add([
            "warm launch in a fresh process (`launch-probe`): first card", Bench.duration(Timing.median(probeReady)),
            "—", "—",
        ])
        table.add(["  its stat check done", Bench.duration(Timing.median(probeVerified)), "—", "—"])
        table.add([
            "  the whole process, start to exit (as the shell sees it)", Bench.duration(Timing.median(probes)), "—",
            "—",
        ])
        table.add([
            "building the session queue alone (plan from the index)", Bench.duration(Timing.median(plans)), "—", "—",
        ])
        table.add(["  its peak memory (max RSS)", String(format: "%.0f MiB", Timing.median(probeMemory)), "—", "—"])
        table.add([
            "lookups (form → lemma, rank, status), forms as in running text (Zipf)",
            String(format: "%.1f million/s", textRate / 1e6), "—", "—",
        ])
        table.add([
            "lookups, forms drawn uniformly from all \(uniform.count)",
            String(format: "%.1f million/s", uniformRate / 1e6), "—", "—",
        ])
        if let anki {
            table.add(["Anki's due counts (new, learning, review)", anki.due, "rote: \(plan.dueTotal) due", "—"])
        }
        print(table.render())
    }

    /// A launch's work up to the first card: plan today's session and read that card's file.
    static func ready(_ launch: LibraryLaunch, now: Date) throws -> (SessionPlan, String) {
        let plan = launch.planner().plan(
            limits: .from(launch.profile), now: now, timeZone: TimeZone(identifier: "UTC")!)
        guard let first = (plan.due + plan.new).first else { return (plan, "none") }
        guard let entry = launch.entry(id: first.id) else {
            throw OptionError(message: "the first card \(first.id) cannot be read")
        }
        return (plan, entry.id)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func probeUser(_ root: URL) -> String {
        let manifest = LibraryManifest.decode(
            FileManager.default.contents(atPath: root.appending(path: LibraryLocation.manifestName).path) ?? Data(),
            path: LibraryLocation.manifestName
        ).0
        return manifest?.defaultUser ?? "bench"
    }

    /// Adds a review to `count` progress files (a session synced from another device);
    /// returns their old bytes to put back.
    static func touchProgressFiles(root: URL, user: String, count: Int, run: Int) throws -> [(String, Data)] {
        let folder = LibraryPaths(user: user).progressFolder
        var paths: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root.appending(path: folder).path)
        while let next = enumerator?.nextObject() as? String, paths.count < count * 50 {
            if next.hasSuffix(".yaml") { paths.append(folder + "/" + next) }
        }
        var random = SeededGenerator(seed: UInt64(run))
        let chosen = Array(StudyRandom.shuffled(paths, using: &random).prefix(count))
        return try chosen.map { path in
            let url = root.appending(path: path)
            let original = try Data(contentsOf: url)
            let line =
                "  - {id: \(UUID().uuidString.lowercased()), at: 2031-01-02T10:00:00Z, grade: good, ms: 4200, device: bench}\n"
            try (original + Data(line.utf8)).write(to: url)
            return (path, original)
        }
    }

    /// Edits `count` entry files — a comment added in place, or with `ranks` the rank changed
    /// through a rename — which the index must notice and re-read; returns their old bytes to
    /// put back.
    static func editEntries(root: URL, count: Int, run: Int, ranks: Bool) throws -> [(String, Data)] {
        var paths: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root.appending(path: LibraryPaths.corpus).path)
        while let next = enumerator?.nextObject() as? String, paths.count < count * 50 {
            if next.hasSuffix(".yaml"), !next.hasSuffix("/deck.yaml") { paths.append(LibraryPaths.content(next)) }
        }
        var random = SeededGenerator(seed: UInt64(run) + 1000)
        return try StudyRandom.shuffled(paths, using: &random).prefix(count).map { path in
            let url = root.appending(path: path)
            let original = try Data(contentsOf: url)
            var text = String(decoding: original, as: UTF8.self)
            if ranks, let line = text.range(of: "\nrank: ") {
                text.replaceSubrange(line, with: "\nrank: 9")
            } else {
                text += "# edited by rote-bench\n"
            }
            if ranks {
                // As git and most editors write: a new file renamed over the old one, which
                // moves the folder's stamp too, so the check lists the folder again.
                try Data(text.utf8).write(to: url, options: .atomic)
            } else {
                try Data(text.utf8).write(to: url)
            }
            return (path, original)
        }
    }

    /// `rote-bench launch-probe` in a new process: its wall time, the seconds it took to the
    /// first card and to the end of its stat check, and its peak memory in MiB.
    static func probeProcess(root: URL, user: String) throws -> (
        wall: Double, ready: Double, verified: Double, memory: Double
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["launch-probe", "--library", root.path, "--user", user]
        let output = Pipe()
        process.standardOutput = output
        let (time, _) = try Timing.measure {
            try process.run()
            process.waitUntilExit()
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let fields =
            text.split(separator: "\n").last { $0.hasPrefix("probe ") }?.split(separator: " ").dropFirst().compactMap {
                Double($0)
            } ?? []
        guard process.terminationStatus == 0, fields.count == 3 else {
            throw OptionError(message: "launch-probe failed: \(text)")
        }
        return (time, fields[0], fields[1], fields[2])
    }

    /// `rote-bench launch-probe --library DIR --user NAME`: one warm launch to the first card
    /// with the stat check beside it, as `rote` does; prints `probe <ready s> <verified s>
    /// <peak MiB>`.
    static func probe(_ arguments: [String]) throws {
        let options = try Options(arguments, allowed: ["library", "user"])
        guard let path = options.string("library"), let user = options.string("user") else {
            throw OptionError(message: "launch-probe needs --library and --user")
        }
        let clock = ContinuousClock()
        let started = clock.now
        let launch = try LibraryLaunch.open(root: URL(fileURLWithPath: path), user: user)
        guard launch.source == .cache else {
            throw OptionError(message: "launch-probe found no cache: \(launch.source)")
        }
        let pending = launch.verifyInBackground()
        _ = try ready(launch, now: Date(timeIntervalSince1970: LibraryGenerator.end + 86_400))
        let ready = seconds(clock.now - started)
        guard try pending.wait().source == .verified else {
            throw OptionError(message: "launch-probe found files changed since the cache")
        }
        let verified = seconds(clock.now - started)
        // VmHWM, not getrusage: a process started by posix_spawn inherits its parent's
        // ru_maxrss across exec, so that would report the benchmark's own peak.
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak =
            status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first
            .flatMap { Double($0) } ?? .nan
        print("probe \(ready) \(verified) \(peak / 1024)")
    }

    /// Anki opening a collection of the same cards (built once beside the library by
    /// `Benchmarks/anki_due.py`) and counting what is due: median seconds, and its counts.
    static func ankiDueCount(python: String, root: URL, user: String, now: Date, runs: Int) throws -> (Double, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../anki_due.py")
            .standardizedFileURL
        let collection = root.deletingLastPathComponent().appending(path: root.lastPathComponent + ".anki2")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            script.path, "--library", root.path, "--user", user, "--collection", collection.path,
            "--now", String(Int(now.timeIntervalSince1970)), "--runs", String(runs),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").last(where: { $0.hasPrefix("anki ") })
        else {
            throw OptionError(message: "anki_due.py failed: \(text)")
        }
        // anki <median seconds> <new> <learning> <review>
        let fields = line.split(separator: " ")
        guard fields.count == 5, let seconds = Double(fields[1]) else {
            throw OptionError(message: "anki_due.py printed \(line)")
        }
        return (seconds, "\(fields[2]) new, \(fields[3]) learning, \(fields[4]) review")
    }
}

/// Timings gathered across runs.
final class Samples {
    var values: [Double] = []
    func append(_ value: Double) { values.append(value) }
}
