import Foundation
import Scheduling

/// The workload simulator (`rote simulate`) against fsrs-rs's (fsrs-rs-python 0.9.3), on one
/// simulator setting both take: one simulated year at desired retention 0.9, and the search
/// for the optimal retention. `Benchmarks/fsrs_simulate.py` times fsrs-rs and writes FILE;
/// this times Rote (medians of --runs and --optimal-runs) and prints both side by side, with
/// the memorised count after the last day (mean over --seeds seeds) and the retention each
/// recommends.
///
///     rote-bench simulate [--deck-size N] [--learn-limit K] [--review-limit R] [--max-cost S]
///                         [--runs K] [--optimal-runs K] [--seeds N] [--reference FILE]
enum SimulateBenchmark {
    struct Reference: Decodable {
        var simulate_seconds: Double
        var memorized_final_mean: Double
        var optimal_retention_seconds: Double
        var optimal_retention: Double
    }

    static func run(_ arguments: [String]) throws {
        let options = try Options(
            arguments,
            allowed: [
                "deck-size", "learn-limit", "review-limit", "max-cost", "runs", "optimal-runs", "seeds", "reference",
            ])
        var configuration = WorkloadSimulator.Configuration()
        configuration.deckSize = try options.int("deck-size", default: configuration.deckSize)
        configuration.learnLimit = try options.int("learn-limit", default: configuration.learnLimit)
        configuration.reviewLimit = try options.int("review-limit", default: configuration.reviewLimit)
        configuration.maxCostPerDay = Double(try options.int("max-cost", default: Int(configuration.maxCostPerDay)))
        let runs = max(1, try options.int("runs", default: 5))
        let optimalRuns = max(1, try options.int("optimal-runs", default: 3))
        let seeds = max(1, try options.int("seeds", default: 10))
        let reference = try options.string("reference").map {
            try JSONDecoder().decode(Reference.self, from: Data(contentsOf: URL(fileURLWithPath: $0)))
        }
        let parameters = FSRSParameters.default

        let simulateSeconds = Timing.median(runs) {
            Timing.seconds {
                WorkloadSimulator.simulate(parameters: parameters, desiredRetention: 0.9, configuration: configuration)
            }
        }
        let memorized =
            (1...seeds).map {
                WorkloadSimulator.simulate(
                    parameters: parameters, desiredRetention: 0.9, configuration: configuration, seed: UInt64($0)
                ).days.last!.memorized
            }.reduce(0, +) / Double(seeds)
        var optimal: Double?
        let optimalSeconds = Timing.median(optimalRuns) {
            Timing.seconds {
                optimal = WorkloadSimulator.optimalRetention(parameters: parameters, configuration: configuration)
            }
        }

        print(
            "workload simulator, default parameters: \(configuration.deckSize) cards, \(configuration.learnSpan) days, new/day \(configuration.learnLimit == .max ? "no limit" : "\(configuration.learnLimit)"), reviews/day \(configuration.reviewLimit == .max ? "no limit" : "\(configuration.reviewLimit)"), \(Int(configuration.maxCostPerDay)) s a day; \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )
        var table = Table(header: ["measurement", "rote", "fsrs-rs 6.6 (fsrs-rs-python 0.9.3)", "ratio"])
        table.add([
            "simulate, one year at 0.9 (median of \(runs))", Bench.duration(simulateSeconds),
            reference.map { Bench.duration($0.simulate_seconds) } ?? "–",
            reference.map { Bench.ratio(simulateSeconds, $0.simulate_seconds) } ?? "–",
        ])
        table.add([
            "optimal retention (median of \(optimalRuns))", Bench.duration(optimalSeconds),
            reference.map { Bench.duration($0.optimal_retention_seconds) } ?? "–",
            reference.map { Bench.ratio(optimalSeconds, $0.optimal_retention_seconds) } ?? "–",
        ])
        table.add([
            "memorised after the last day (mean of \(seeds) seeds)", String(format: "%.1f", memorized),
            reference.map { String(format: "%.1f", $0.memorized_final_mean) } ?? "–",
            reference.map { String(format: "%+.2f%%", (memorized / $0.memorized_final_mean - 1) * 100) } ?? "–",
        ])
        table.add([
            "recommended retention", optimal.map { String(format: "%.4f", $0) } ?? "none",
            reference.map { String(format: "%.4f", $0.optimal_retention) } ?? "–",
            reference.flatMap { r in optimal.map { String(format: "%+.4f", $0 - r.optimal_retention) } } ?? "–",
        ])
        print(table.render())
    }
}
