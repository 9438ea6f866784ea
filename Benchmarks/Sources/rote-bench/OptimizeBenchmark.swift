import Foundation
import RoteModel
import Scheduling

/// Fitting FSRS-6 parameters (`rote optimize`) against fsrs-rs 6.6 (fsrs-rs-python 0.9.3, the
/// optimizer inside Anki), on histories of a simulated learner whose memory follows FSRS-6
/// with parameters far from the defaults (`FSRSSimulator`).
///
/// Three steps, which `bench.sh` runs:
/// 1. `--export DIR`: simulates each size (`--sizes cards:reviews,…`), writes its histories as
///    `rote replay` JSON lines (`DIR/<cards>x<reviews>.jsonl`), fits them with Rote `--runs`
///    times (the median time is kept: dataset built from the events in memory, then the fit —
///    what `compute_parameters` does from items in memory), and writes `DIR/rote.json`.
/// 2. `fsrs_optimize.py` times fsrs-rs's `compute_parameters` on the same items and scores
///    both parameter sets with fsrs-rs's own `evaluate`.
/// 3. `--results DIR/rote.json --reference FILE`: prints the table.
enum OptimizeBenchmark {
    struct Size: Codable {
        var cards: Int
        var reviews: Int
        var name: String { "\(cards)x\(reviews)" }
    }

    struct RoteResult: Codable {
        var name: String
        var cards: Int
        var reviews: Int
        var items: Int
        var parameters: [Double]
        var fit_seconds: Double
        var log_loss: Double
        var rmse_bins: Double
        var threads: Int
    }

    struct Reference: Decodable {
        struct Entry: Decodable {
            var name: String
            var items: Int
            var fsrs_rs_parameters: [Double]
            var fsrs_rs_fit_seconds: Double
            var fsrs_rs_card_ids_fit_seconds: Double?
            var fsrs_rs_log_loss: Double
            var fsrs_rs_rmse_bins: Double
            var rote_log_loss: Double
            var rote_rmse_bins: Double
            var truth_log_loss: Double?
            var truth_rmse_bins: Double?
        }
        var sizes: [Entry]
        var runs: Int
    }

    static func run(_ arguments: [String]) throws {
        let options = try Options(
            arguments, allowed: ["export", "sizes", "runs", "seed", "results", "reference", "threads", "start"])
        if let results = options.string("results") {
            try table(results: results, reference: options.string("reference"))
            return
        }
        guard let directory = options.string("export") else {
            throw OptionError(
                message: "give --export DIR (simulate and fit) or --results FILE [--reference FILE] (print)")
        }
        let sizes = try (options.string("sizes") ?? "1000:30000,20000:500000").split(separator: ",").map {
            text -> Size in
            let parts = text.split(separator: ":").compactMap { Int($0.replacingOccurrences(of: "_", with: "")) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
                throw OptionError(message: "--sizes takes cards:reviews pairs, e.g. 1000:30000")
            }
            return Size(cards: parts[0], reviews: parts[1])
        }
        let runs = max(try options.int("runs", default: 3), 1)
        let seed = UInt64(try options.int("seed", default: 20_261_121))
        let threads = try options.string("threads").map { _ in try options.int("threads", default: 0) }
        // The first day simulated (default 2026-01-01); an earlier one keeps every review in
        // the past, for histories written into a library.
        let start = try options.string("start").map { text -> Date in
            guard let date = Timestamp.parse(text + "T00:00:00Z") else {
                throw OptionError(message: "--start takes a date like 2010-01-01")
            }
            return date
        }
        let folder = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var results: [RoteResult] = []
        for size in sizes {
            var simulation = FSRSSimulator.Configuration()
            simulation.cards = size.cards
            simulation.reviews = size.reviews
            simulation.seed = seed
            if let start { simulation.start = start }
            let histories = try FSRSSimulator.histories(simulation)
            let lines = histories.enumerated().map { index, events in line(id: "c\(index)", events: events) }
            try (lines.joined(separator: "\n") + "\n").write(
                to: folder.appendingPathComponent("\(size.name).jsonl"), atomically: true, encoding: .utf8)
            var configuration = FSRSOptimizer.Configuration()
            configuration.threads = threads
            var fitted: [Double] = []
            var items = 0
            let seconds = Timing.median(
                (0..<runs).map { _ in
                    let (seconds, outcome) = Timing.measure { () -> FSRSOptimizer.Outcome in
                        let data = FSRSDataset(histories: histories)
                        items = data.itemCount
                        return FSRSOptimizer.fit(data, configuration: configuration)
                    }
                    if case .fitted(let fit) = outcome { fitted = fit.parameters }
                    return seconds
                })
            guard !fitted.isEmpty else { throw OptionError(message: "\(size.name): Rote fitted nothing") }
            let score = FSRSOptimizer.evaluate(FSRSDataset(histories: histories), parameters: fitted)!
            results.append(
                RoteResult(
                    name: size.name, cards: size.cards, reviews: histories.reduce(0) { $0 + $1.count }, items: items,
                    parameters: fitted, fit_seconds: seconds, log_loss: score.logLoss, rmse_bins: score.rmseBins,
                    threads: threads ?? ProcessInfo.processInfo.activeProcessorCount))
            FileHandle.standardError.write(
                Data("\(size.name): \(items) items, Rote fit \(String(format: "%.3f", seconds)) s\n".utf8))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(results).write(to: folder.appendingPathComponent("rote.json"))
        try encoder.encode(FSRSSimulator.farFromDefaults).write(to: folder.appendingPathComponent("truth.json"))
    }

    static func line(id: String, events: [ReviewEvent]) -> String {
        let reviews = events.map { "{\"at\": \"\(Timestamp.format($0.at))\", \"rating\": \($0.grade.rawValue)}" }
        return "{\"id\": \"\(id)\", \"reviews\": [\(reviews.joined(separator: ", "))]}"
    }

    static func table(results path: String, reference referencePath: String?) throws {
        let results = try JSONDecoder().decode([RoteResult].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let reference = try referencePath.map {
            try JSONDecoder().decode(Reference.self, from: Data(contentsOf: URL(fileURLWithPath: $0)))
        }
        var table = Table(header: [
            "FSRS-6 fit (cards × reviews)", "items", "fit s: rote", "fsrs-rs", "ratio",
            "log loss†: rote", "fsrs-rs", "Δ", "RMSE(bins)†: rote", "fsrs-rs", "ratio",
        ])
        for result in results {
            let entry = reference?.sizes.first { $0.name == result.name }
            func f(_ value: Double?, _ digits: Int) -> String {
                value.map { String(format: "%.\(digits)f", $0) } ?? "—"
            }
            table.add([
                "\(result.cards) × \(result.reviews)", "\(result.items)",
                f(result.fit_seconds, 3), f(entry?.fsrs_rs_fit_seconds, 3),
                entry.map { String(format: "%.1f×", $0.fsrs_rs_fit_seconds / result.fit_seconds) } ?? "—",
                f(entry?.rote_log_loss ?? result.log_loss, 5), f(entry?.fsrs_rs_log_loss, 5),
                entry.map { String(format: "%+.5f", $0.rote_log_loss - $0.fsrs_rs_log_loss) } ?? "—",
                f(entry?.rote_rmse_bins ?? result.rmse_bins, 5), f(entry?.fsrs_rs_rmse_bins, 5),
                entry.map { String(format: "%.3f", $0.rote_rmse_bins / $0.fsrs_rs_rmse_bins) } ?? "—",
            ])
        }
        print(table.render())
        let threads = results.first?.threads ?? 1
        print(
            "† scored by fsrs-rs's own evaluate\(reference == nil ? " (no reference: Rote's evaluate)" : ""); fit times are medians of \(reference?.runs ?? 1)+ runs, Rote on \(threads) thread\(threads == 1 ? "" : "s"), fsrs-rs on one (it trains serially)."
        )
        if let reference, reference.sizes.contains(where: { $0.fsrs_rs_card_ids_fit_seconds != nil }) {
            let faster = reference.sizes.map { entry in
                "\(entry.name): \(String(format: "%.3f", entry.fsrs_rs_card_ids_fit_seconds ?? .nan)) s"
            }
            print(
                "fsrs-rs given card ids too (its per-card batches; the fits above are without, as compute_parameters(items) runs by default): \(faster.joined(separator: ", "))"
            )
        }
        if let reference, reference.sizes.contains(where: { $0.truth_log_loss != nil }) {
            let truth = reference.sizes.map {
                "\($0.name): log loss \(String(format: "%.5f", $0.truth_log_loss ?? .nan)), RMSE(bins) \(String(format: "%.5f", $0.truth_rmse_bins ?? .nan))"
            }
            print("the simulated learner's true parameters score: \(truth.joined(separator: "; "))")
        }
    }
}
