// rote-bench: Rote's measurements, each printed as a small table.
//
//     rote-bench replay [--entries N] [--reviews M] [--runs K] [--seed S]
//                       [--subset-reviews R] [--export DIR] [--reference FILE]
//     rote-bench recall [--words N] [--runs K] [--calls C] [--seed S] [--budget-us B]
//     rote-bench generate --out DIR [--entries N] [--progress P] [--reviews R] [--sessions S]
//                       [--seed S] [--batch B]
//     rote-bench merge --library DIR [--changed N] [--runs K] [--reference full|sample|none]
//                       [--reference-runs K] [--sample N] [--sync-runs K] [--rote PATH]
//                       [--work DIR] [--seed S]
//     rote-bench commit --library DIR [--reviews N] [--runs K] [--work DIR] [--seed S]
//     rote-bench launch --library DIR [--runs K] [--lookups N] [--user NAME]
//     rote-bench commands --library DIR --rote PATH [--runs K] [--work DIR] [--user NAME]
//     rote-bench trace [--runs K] [--points N]
//     rote-bench optimize --export DIR [--sizes CARDS:REVIEWS,…] [--runs K] [--seed S] [--threads T]
//     rote-bench optimize --results DIR/rote.json [--reference FILE]
//
// Benchmarks/bench.sh runs them against their references (py-fsrs for replay, the system git
// for merge and commit, on a library made by `generate`, fsrs-rs for optimize).

import Foundation

/// A measurement: parses its own options and prints its own table.
typealias Measurement = (_ options: [String]) throws -> Void

let measurements: [(name: String, run: Measurement)] = [
    ("replay", ReplayBenchmark.run),
    ("recall", RecallBenchmark.run),
    ("generate", LibraryGenerator.run),
    ("merge", MergeBenchmark.run),
    ("commit", CommitBenchmark.run),
    ("launch", LaunchBenchmark.run),
    ("launch-probe", LaunchBenchmark.probe),
    ("commands", CommandsBenchmark.run),
    ("optimize", OptimizeBenchmark.run),
    ("trace", TraceBenchmark.run),
    ("simulate", SimulateBenchmark.run),
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let measurement = measurements.first(where: { $0.name == name }) else {
    let names = measurements.map(\.name).joined(separator: "|")
    FileHandle.standardError.write(Data("usage: rote-bench \(names) [options]\n".utf8))
    exit(2)
}
do {
    try measurement.run(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("rote-bench \(name): \(error)\n".utf8))
    exit(1)
}

/// A plain-text table: columns padded to their widest cell.
struct Table {
    var header: [String]
    var rows: [[String]] = []

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
                .joined(separator: " | ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// Options as `--name value` pairs.
struct Options {
    private var values: [String: String] = [:]

    init(_ arguments: [String], allowed: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let key = arguments[index]
            guard key.hasPrefix("--"), allowed.contains(String(key.dropFirst(2))), index + 1 < arguments.count else {
                throw OptionError(
                    message: "unexpected \(key); options: \(allowed.sorted().map { "--" + $0 }.joined(separator: " "))")
            }
            values[String(key.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
    }

    func int(_ name: String, default value: Int) throws -> Int {
        guard let text = values[name] else { return value }
        guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= 0 else {
            throw OptionError(message: "--\(name) needs a whole number, got \(text)")
        }
        return number
    }

    func string(_ name: String) -> String? { values[name] }
}

struct OptionError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
