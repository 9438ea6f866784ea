import Foundation
import TestSupport
import Testing

/// `rote simulate` and the retention `rote optimize` recommends, run as a user runs them on
/// the optimizer's fixture library (ana's 500 simulated entries).
@Suite struct SimulateCLITests {
    func rote(_ arguments: [String], in directory: URL) async -> Shell.Output {
        await Shell.run(
            OptimizeCLITests.binary, arguments, in: directory, environment: ["ROTE_USER": "ana"])
    }

    struct Printed: Decodable {
        struct Day: Decodable {
            var reviews: Int
            var new: Int
            var minutes: Double
            var memorized: Double
        }
        var parameters_source: String
        var deck_size: Int
        var days: Int
        var new_per_day: Int
        var timed_answers: Int
        var simulation: [Day]
        var recommendation: Recommendation?
        struct Recommendation: Decodable { var desired_retention: Double }
    }

    @Test func printsEveryDayAsJSONAndAWeeklyTable() async throws {
        let directory = try await OptimizeCLITests.library()
        let json = await rote(
            [
                "simulate", "--format", "json", "--days", "60", "--deck-size", "300", "--new-per-day", "12",
                "--recommend",
            ],
            in: directory.url)
        #expect(json.status == 0, "\(json.stderr)")
        let printed = try JSONDecoder().decode(Printed.self, from: Data(json.stdout.utf8))
        #expect(printed.days == 60 && printed.simulation.count == 60)
        #expect(printed.deck_size == 300 && printed.new_per_day == 12)
        #expect(printed.parameters_source == "defaults")
        // The fixture library's own demo reviews carry two answer times.
        #expect(printed.timed_answers == 2)
        #expect(printed.simulation.allSatisfy { $0.new <= 12 })
        // 300 entries at 12 a day are all met by day 25, and memorised stays below them.
        #expect(printed.simulation.reduce(0) { $0 + $1.new } == 300)
        #expect(printed.simulation.last!.memorized > 200 && printed.simulation.last!.memorized < 300)
        let recommended = try #require(printed.recommendation?.desired_retention)
        #expect((0.70...0.95).contains(recommended))

        let text = await rote(["simulate", "--days", "60", "--deck-size", "300"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\nweek       reviews/day  new/day  minutes/day  memorised\n"), "\(text.stdout)")
        #expect(text.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }.count == 9, "\(text.stdout)")
        #expect(text.stdout.contains("FSRS-6's defaults"))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty)
    }

    @Test func optimizeRecommendsARetentionAndAppliesNothing() async throws {
        let directory = try await OptimizeCLITests.library()
        let profile = directory.read("profiles/ana/profile.yaml")
        let output = await rote(["optimize", "--dry-run"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Recommended desired retention: 0."), "\(output.stdout)")
        #expect(output.stdout.contains("nothing was changed"))
        #expect(directory.read("profiles/ana/profile.yaml") == profile)
    }

    @Test func saysWhatToDoWithABadDeckOrRetention() async throws {
        let directory = try await OptimizeCLITests.library()
        let deck = await rote(["simulate", "--deck", "nope"], in: directory.url)
        #expect(deck.status != 0)
        #expect(deck.stderr.contains("no deck 'nope' in this library; the decks are"), "\(deck.stderr)")
        let retention = await rote(["simulate", "--retention", "0.5"], in: directory.url)
        #expect(retention.status != 0)
        #expect(retention.stderr.contains("--retention must be between 0.70 and 0.99"), "\(retention.stderr)")
    }
}
