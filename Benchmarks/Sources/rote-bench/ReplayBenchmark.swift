import Dispatch
import Foundation
import RoteModel
import Scheduling

/// How fast replay turns review events into scheduling state, against py-fsrs 6.3.2.
///
/// Generates a deterministic library of histories from a seed (default 50 000 entries,
/// 1 000 000 reviews, answered around their due dates by a simulated learner), then times:
/// - FSRS replay of every history from events in memory (fuzz off, as the comparison needs);
/// - the same with fuzz on, which adds a hash per review;
/// - SM-2 replay of the same events;
/// - JSON-lines replay (`ReplayJSONLines`, what `rote replay` runs) of the subset py-fsrs times.
///
/// With `--export DIR` it only writes the histories (`histories.jsonl`, every line) and
/// Rote's JSON-lines output for the first `--subset-reviews` reviews' worth of lines
/// (`rote-subset.jsonl`), for `pyfsrs_replay.py` to time py-fsrs on and compare against. With
/// `--reference FILE` (that script's JSON) the table gets py-fsrs's column and the ratio.
/// Times are medians of `--runs` runs; nothing is asserted.
enum ReplayBenchmark {
    struct History {
        var id: String
        var events: [ReviewEvent]
    }

    /// What `pyfsrs_replay.py` writes.
    struct Reference: Decodable {
        var replay_reviews_per_second: Double
        var jsonl_reviews_per_second: Double
        var reviews: Int
        var runs: Int
        var match: Bool
        var detail: String
    }

    static func run(_ arguments: [String]) throws {
        let options = try Options(
            arguments, allowed: ["entries", "reviews", "runs", "seed", "subset-reviews", "export", "reference"])
        let entries = max(try options.int("entries", default: 50_000), 1)
        let reviewCount = try options.int("reviews", default: 1_000_000)
        let runs = max(try options.int("runs", default: 5), 1)
        let seed = UInt64(try options.int("seed", default: 20_261_121))
        let subsetReviews = try options.int("subset-reviews", default: 50_000)

        let settings = ReplayJSONLines.defaultSettings
        let histories = generate(entries: entries, reviews: reviewCount, seed: seed, settings: settings)
        let total = histories.reduce(0) { $0 + $1.events.count }
        let subset = Array(histories.prefix(subsetCount(histories, reviews: subsetReviews)))
        let subsetTotal = subset.reduce(0) { $0 + $1.events.count }
        let subsetLines = subset.map { line(for: $0, settings: settings) }

        if let directory = options.string("export") {
            let folder = URL(fileURLWithPath: directory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var all = histories.map { line(for: $0, settings: settings) }.joined(separator: "\n")
            all += "\n"
            try all.write(to: folder.appendingPathComponent("histories.jsonl"), atomically: true, encoding: .utf8)
            let output = ReplayJSONLines.replay(lines: subsetLines)
            guard output.diagnostics.isEmpty else { throw OptionError(message: "\(output.diagnostics)") }
            try (output.lines.joined(separator: "\n") + "\n")
                .write(to: folder.appendingPathComponent("rote-subset.jsonl"), atomically: true, encoding: .utf8)
            print("wrote \(histories.count) histories (\(total) reviews) to \(folder.path)/histories.jsonl;")
            print("Rote's results for the first \(subset.count) (\(subsetTotal) reviews) to rote-subset.jsonl")
            return
        }

        let reference = try options.string("reference").map {
            try JSONDecoder().decode(Reference.self, from: Data(contentsOf: URL(fileURLWithPath: $0)))
        }

        let fsrs = Scheduler(settings: settings)
        let fuzzed = Scheduler(settings: settings.withFuzzing(true))
        let sm2 = Scheduler(settings: try SchedulerSettings(scheduler: .sm2, enableFuzzing: false))
        let replayRate = Timing.median(runs) { Double(total) / Timing.seconds { replayAll(histories, with: fsrs) } }
        let parallelRate = Timing.median(runs) {
            Double(total) / Timing.seconds { replayAllInParallel(histories, with: fsrs) }
        }
        let powRate = Timing.median(runs) { Double(powCalls) / Timing.seconds { powLoop() } }
        let fuzzedRate = Timing.median(runs) { Double(total) / Timing.seconds { replayAll(histories, with: fuzzed) } }
        let sm2Rate = Timing.median(runs) { Double(total) / Timing.seconds { replayAll(histories, with: sm2) } }
        let jsonlRate = Timing.median(runs) {
            Double(subsetTotal) / Timing.seconds { ReplayJSONLines.replay(lines: subsetLines).lines.count }
        }

        print(
            "replay: \(histories.count) entries, \(total) reviews (JSON lines: first \(subset.count) entries, \(subsetTotal) reviews)"
        )
        let referenceRuns = reference.map { "median of \($0.runs)" } ?? "not run"
        var table = Table(header: [
            "measurement (reviews/s)", "rote (median of \(runs))", "reference: py-fsrs 6.3.2 (\(referenceRuns))",
            "ratio",
        ])
        func add(_ name: String, _ rote: Double, _ reference: Double?) {
            table.add([
                name, rate(rote), reference.map(rate) ?? "—",
                reference.map { String(format: "%.0f×", rote / $0) } ?? "—",
            ])
        }
        add("FSRS replay, events in memory", replayRate, reference?.replay_reviews_per_second)
        add(
            "FSRS replay, events in memory, histories on every core", parallelRate, reference?.replay_reviews_per_second
        )
        add("libm pow alone, calls/s (a review makes 1–4 calls to match py-fsrs bit for bit)", powRate, nil)
        add("FSRS replay, fuzz on", fuzzedRate, nil)
        add("SM-2 replay", sm2Rate, nil)
        add("JSON lines in → JSON lines out", jsonlRate, reference?.jsonl_reviews_per_second)
        print(table.render())
        if let reference {
            print(reference.match ? "results match (\(reference.detail))" : "RESULTS DIFFER: \(reference.detail)")
        }
    }

    // MARK: - Timing

    /// Replays every history; returns a checksum so the work cannot be optimised away.
    static func replayAll(_ histories: [History], with scheduler: Scheduler) -> Double {
        var checksum = 0.0
        for history in histories {
            if let state = scheduler.replay(history.events, entryID: history.id) {
                checksum += state.due.timeIntervalSince1970
            }
        }
        return checksum
    }

    /// The same replay with the histories shared out among the cores.
    static func replayAllInParallel(_ histories: [History], with scheduler: Scheduler) -> Double {
        let chunks = max(1, ProcessInfo.processInfo.activeProcessorCount) * 8
        let chunk = (histories.count + chunks - 1) / chunks
        var sums = [Double](repeating: 0, count: chunks)
        sums.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { part in
                var sum = 0.0
                for history in histories[min(part * chunk, histories.count)..<min((part + 1) * chunk, histories.count)]
                {
                    if let state = scheduler.replay(history.events, entryID: history.id) {
                        sum += state.due.timeIntervalSince1970
                    }
                }
                slots[part] = sum
            }
        }
        return sums.reduce(0, +)
    }

    static let powCalls = 20_000_000

    /// The C library's `pow`, which FSRS must call (as py-fsrs does through CPython) for its
    /// results to match py-fsrs to the last bit: the cost no replay that matches can go under.
    static func powLoop() -> Double {
        var sum = 0.0
        for index in 0..<powCalls { sum += pow(1.0 + Double(index % 9_973) * 0.0137, -0.1542) }
        return sum
    }

    static func rate(_ value: Double) -> String {
        value >= 1_000_000 ? String(format: "%.2f M", value / 1_000_000) : String(format: "%.1f k", value / 1_000)
    }

    // MARK: - Histories

    /// A simulated learner: answers again 10 %, hard 15 %, good 60 %, easy 15 %; comes back to
    /// learning steps within half an hour of due and to reviews mostly a little late, sometimes
    /// early, sometimes very late. Every number comes from `seed`.
    static func generate(entries: Int, reviews: Int, seed: UInt64, settings: SchedulerSettings) -> [History] {
        var random = SeededGenerator(seed: seed)
        let fsrs = FSRS(settings: settings)
        let start = Timestamp.parse("2026-01-01T00:00:00Z")!.timeIntervalSince1970
        var histories: [History] = []
        histories.reserveCapacity(entries)
        for entry in 0..<entries {
            let count = reviews / entries + (entry < reviews % entries ? 1 : 0)
            var time = start + Double(random.next(upperBound: UInt64(365 * 86_400)))
            var state: MemoryState? = nil
            var events: [ReviewEvent] = []
            events.reserveCapacity(count)
            for index in 0..<count {
                let roll = random.next(upperBound: UInt64(100))
                let grade: Grade = roll < 10 ? .again : roll < 25 ? .hard : roll < 85 ? .good : .easy
                let event = ReviewEvent(id: "r\(index)", at: Date(timeIntervalSince1970: time), grade: grade)
                events.append(event)
                let next = fsrs.next(after: state, grade: grade, at: event.at)
                state = next
                let due: Double = next.due.timeIntervalSince1970
                let wait: Double = due - time
                time = next.phase == .review ? reviewTime(due: due, wait: wait, &random) : due + draw(1800, &random)
                time = time.rounded(.down)
            }
            histories.append(History(id: "bench/\(entry)", events: events))
        }
        return histories
    }

    /// When the simulated learner comes back to a review due after `wait` seconds: mostly
    /// up to a quarter of the wait late, sometimes early, sometimes up to twice the wait late.
    static func reviewTime(due: Double, wait: Double, _ random: inout SeededGenerator) -> Double {
        let timing = random.next(upperBound: UInt64(100))
        if timing < 75 { return due + draw(wait / 4, &random) }
        if timing < 90 { return due - wait + wait * 0.3 + draw(wait * 0.7, &random) }
        return due + draw(wait * 2, &random)
    }

    /// A whole number of seconds in `0...limit`.
    static func draw(_ limit: Double, _ random: inout SeededGenerator) -> Double {
        Double(random.next(upperBound: UInt64(max(limit, 0)) + 1))
    }

    /// How many leading histories hold at least `reviews` reviews (all, if fewer).
    static func subsetCount(_ histories: [History], reviews: Int) -> Int {
        var sum = 0
        for (index, history) in histories.enumerated() {
            sum += history.events.count
            if sum >= reviews { return index + 1 }
        }
        return histories.count
    }

    /// One history as a line in the vectors' format, every setting spelled out.
    static func line(for history: History, settings: SchedulerSettings) -> String {
        let reviews = history.events.map {
            "{\"at\": \"\(Timestamp.format($0.at))\", \"rating\": \($0.grade.rawValue), \"id\": \"\($0.id)\"}"
        }
        func list(_ values: [Double]) -> String { values.map { $0.description }.joined(separator: ", ") }
        func seconds(_ values: [Double]) -> String { values.map { String(Int($0)) }.joined(separator: ", ") }
        return "{\"id\": \"\(history.id)\", \"parameters\": [\(list(settings.parameters.values))], "
            + "\"desired_retention\": \(settings.desiredRetention), "
            + "\"learning_steps_s\": [\(seconds(settings.learningSteps))], "
            + "\"relearning_steps_s\": [\(seconds(settings.relearningSteps))], "
            + "\"maximum_interval\": \(settings.maximumInterval), \"enable_fuzzing\": false, "
            + "\"reviews\": [\(reviews.joined(separator: ", "))]}"
    }
}
