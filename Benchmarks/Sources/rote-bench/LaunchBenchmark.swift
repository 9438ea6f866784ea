import Foundation
import RoteModel
import RoteStore
import Study

/// How long a learner waits for a library to open, and how fast the reader's lookups are:
///
///     rote-bench launch --library DIR [--runs 3] [--lookups 2000000] [--user NAME]
///
/// In one run, on a library made by `rote-bench generate`:
/// - the floor: reading every library file's bytes (what `cat` of them all does), the least
///   any launch that looks at every file can cost;
/// - launch as `rote study` does it: `LibraryLoader` (list, read, parse on every core,
///   validate), `LibraryIndex`, and the session plan (due counts and the first card);
/// - lookups per second of inflected forms (`LibraryIndex.lookUp`: lemma, rank and the learner's status), on forms drawn from
///   the library with a fixed seed;
/// - peak memory (maximum resident set size of this process after its first launch).
///
/// There is no index cache yet, so a warm launch costs what a cold one does (the page cache
/// is warm in both: the first run reads the files from disk, and is reported separately).
enum LaunchBenchmark {
    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments, allowed: ["library", "runs", "lookups", "user"])
        guard let libraryPath = options.string("library") else { throw OptionError(message: "launch needs --library DIR (made by rote-bench generate)") }
        let root = URL(fileURLWithPath: libraryPath).standardizedFileURL
        let runs = max(try options.int("runs", default: 3), 1)
        let lookups = max(try options.int("lookups", default: 2_000_000), 1)
        let loader = LibraryLoader(users: .all, includeSessions: false)
        let (paths, _) = loader.listFiles(root)

        func readAll() -> Int {
            var problems: [Diagnostic] = []
            var bytes = 0
            for path in paths { bytes += loader.read(root, path, &problems)?.count ?? 0 }
            return bytes
        }
        func launch() throws -> (LoadedLibrary, LibraryIndex, SessionPlan) {
            let library = try loader.load(root)
            let user = options.string("user") ?? library.manifest?.defaultUser ?? "bench"
            let index = LibraryIndex(library: library, user: user)
            let plan = SessionPlanner(library: library, index: index).plan(
                limits: .from(index.profile), now: Date(timeIntervalSince1970: LibraryGenerator.end + 86_400))
            return (library, index, plan)
        }

        Bench.log("launch: \(paths.count) files in \(root.lastPathComponent)")
        let (first, opened) = try Timing.measure(launch)
        // Peak memory of one launch: read before the timed runs, which build a second library
        // while this one is still held.
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakMiB = Double(usage.ru_maxrss) / 1024
        Bench.log("launch: first launch \(Bench.duration(first)), peak memory \(Int(peakMiB)) MiB")
        var floors: [Double] = [], launches: [Double] = []
        var bytes = 0
        for run in 1...runs {
            let (floor, read) = Timing.measure(readAll)
            bytes = read
            floors.append(floor)
            let (time, _) = try Timing.measure(launch)
            launches.append(time)
            Bench.log("launch: run \(run) of \(runs): read \(Bench.duration(floor)), launch \(Bench.duration(time))")
        }
        let (library, index, plan) = opened

        // Forms to look up: every form of every word, in a seeded order.
        var forms = Array(index.lemmasByForm.keys)
        var random = SeededGenerator(seed: 7)
        forms = StudyRandom.shuffled(forms, using: &random)
        var found = 0
        let lookupTime = Timing.median(runs) {
            Timing.seconds {
                found = 0
                for number in 0..<lookups where index.lookUp(forms[number % forms.count]) != nil { found += 1 }
                return found
            }
        }
        let reviews = library.progress.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.reviews.count } }
        print("launch: \(root.lastPathComponent): \(paths.count) files (\(bytes / 1_048_576) MiB), \(library.entries.count) entries, "
            + "\(library.progress.values.reduce(0) { $0 + $1.count }) progress files, \(reviews) reviews; "
            + "plan: \(plan.dueTotal) due, \(plan.due.count) reviews and \(plan.new.count) new today, first card \((plan.due + plan.new).first?.id ?? "none")")
        var table = Table(header: ["measurement", "rote (median of \(runs))", "reference: read every file's bytes (median of \(runs))", "ratio (rote ÷ reference)"])
        let (launchMedian, floorMedian) = (Timing.median(launches), Timing.median(floors))
        table.add(["launch to index and due queue (warm page cache; no index cache yet)", Bench.duration(launchMedian), Bench.duration(floorMedian),
                   String(format: "%.1f×", launchMedian / floorMedian)])
        table.add(["first launch in this process (page cache as found)", Bench.duration(first), "—", "—"])
        table.add(["lookups (inflected form → lemma, rank, status)", String(format: "%.2f million/s", Double(lookups) / lookupTime / 1e6), "—", "—"])
        table.add(["peak memory of a launch (max RSS after the first)", String(format: "%.0f MiB", peakMiB), "—", "—"])
        print(table.render())
    }
}
