import Foundation
import RoteModel
import Scheduling
import Testing

/// Rote's workload simulator against fsrs-rs's (`Fixtures/fsrs-rs-simulator`, written by
/// fsrs-rs-python 0.9.3): both are simulations with different random sources, so what must
/// agree is the mean over seeds, and the retention the search settles on.
@Suite struct WorkloadSimulatorTests {
    struct Expected: Decodable {
        struct Settings: Decodable {
            var deck_size: Int
            var learn_span: Int
            var max_cost_perday: Double
            var learn_limit: Int
            var review_limit: Int
            var new_cards_ignore_review_limit: Bool
            var state_rating_costs: [[Double]]
        }
        struct ParameterSet: Decodable {
            var parameters: [Double]
            var memorized_final_mean: Double
            var memorized_final_stdev: Double
            var cost_total_mean: Double
            var reviews_total_mean: Double
            var optimal_retention: Double
        }
        struct Configuration: Decodable {
            var settings: Settings
            var parameter_sets: [String: ParameterSet]
        }
        var desired_retention: Double
        var seeds: [Int]
        var configurations: [String: Configuration]
    }

    static let expected: Expected = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fsrs-rs-simulator/expected.json")
        // A missing or broken fixture fails every test that reads it, with the reason.
        return try! JSONDecoder().decode(Expected.self, from: Data(contentsOf: url))
    }()

    static func configuration(_ settings: Expected.Settings) -> WorkloadSimulator.Configuration {
        var configuration = WorkloadSimulator.Configuration()
        configuration.deckSize = settings.deck_size
        configuration.learnSpan = settings.learn_span
        configuration.maxCostPerDay = settings.max_cost_perday
        configuration.learnLimit = settings.learn_limit
        configuration.reviewLimit = settings.review_limit
        configuration.newCardsIgnoreReviewLimit = settings.new_cards_ignore_review_limit
        configuration.stateRatingCosts = settings.state_rating_costs
        return configuration
    }

    static let parameterSets = ["defaults", "farFromDefaults", "highStakes"]
    static let cases = ["learner", "costly_lapses", "default"].flatMap { name in parameterSets.map { (name, $0) } }

    @Test("memorised after 365 days is within 3% of fsrs-rs's mean", arguments: cases)
    func memorisedMatchesFSRSRS(configurationName: String, parameterSet: String) throws {
        let entry = try #require(Self.expected.configurations[configurationName])
        let fsrsRS = try #require(entry.parameter_sets[parameterSet])
        let runs = WorkloadSimulator.simulations(
            parameters: try FSRSParameters(fsrsRS.parameters), desiredRetention: Self.expected.desired_retention,
            configuration: Self.configuration(entry.settings), count: Self.expected.seeds.count)
        let mean = WorkloadSimulator.Result.mean(runs)
        let memorized = try #require(mean.days.last).memorized
        #expect(
            abs(memorized / fsrsRS.memorized_final_mean - 1) < 0.03,
            "Rote \(memorized), fsrs-rs \(fsrsRS.memorized_final_mean)")
        // The work that bought it agrees too, more loosely (it is not the figure).
        let cost = mean.days.reduce(0) { $0 + $1.cost }
        #expect(abs(cost / fsrsRS.cost_total_mean - 1) < 0.05, "Rote \(cost) s, fsrs-rs \(fsrsRS.cost_total_mean) s")
    }

    /// The searches' inputs are means of 16 runs, so where the cost per memorised card is flat
    /// over a wide range the minimum either finds is noise: with costly lapses and the
    /// high-stakes learner, both simulators' costs lie within 1.5% of each other from 0.83 to
    /// 0.90, and fsrs-rs settles on 0.878, Rote on 0.835. There the test below asks instead that
    /// the two retentions cost the same.
    static let retentionCases = cases.filter { $0.0 != "default" && $0 != ("costly_lapses", "highStakes") }

    @Test("the recommended retention is within 0.01 of fsrs-rs's optimal_retention", arguments: retentionCases)
    func recommendedRetentionMatchesFSRSRS(configurationName: String, parameterSet: String) throws {
        let entry = try #require(Self.expected.configurations[configurationName])
        let fsrsRS = try #require(entry.parameter_sets[parameterSet])
        let retention = try #require(
            WorkloadSimulator.optimalRetention(
                parameters: try FSRSParameters(fsrsRS.parameters), configuration: Self.configuration(entry.settings)))
        #expect(
            abs(retention - fsrsRS.optimal_retention) <= 0.01, "Rote \(retention), fsrs-rs \(fsrsRS.optimal_retention)")
    }

    @Test func whereTheCostIsFlatBothRecommendationsCostTheSame() throws {
        let entry = try #require(Self.expected.configurations["costly_lapses"])
        let fsrsRS = try #require(entry.parameter_sets["highStakes"])
        let parameters = try FSRSParameters(fsrsRS.parameters)
        let configuration = Self.configuration(entry.settings)
        let retention = try #require(
            WorkloadSimulator.optimalRetention(parameters: parameters, configuration: configuration))
        func cost(_ retention: Double) -> Double {
            let runs = WorkloadSimulator.simulations(
                parameters: parameters, desiredRetention: retention, configuration: configuration, count: 16)
            return runs.reduce(0) { $0 + $1.costPerMemorized } / 16
        }
        let ours = cost(retention)
        let theirs = cost(fsrsRS.optimal_retention)
        #expect(
            abs(theirs / ours - 1) < 0.01,
            "Rote \(retention): \(ours) s; fsrs-rs \(fsrsRS.optimal_retention): \(theirs) s")
        // …and both beat the bounds of the search, so the minimum is a real one.
        #expect(ours < cost(WorkloadSimulator.retentionRange.lowerBound))
        #expect(ours < cost(WorkloadSimulator.retentionRange.upperBound))
    }

    @Test func theSameSeedGivesTheSameDaysAndAnotherSeedOthers() throws {
        var configuration = WorkloadSimulator.Configuration()
        configuration.deckSize = 300
        configuration.learnSpan = 60
        let parameters = FSRSParameters.default
        let first = WorkloadSimulator.simulate(
            parameters: parameters, desiredRetention: 0.9, configuration: configuration, seed: 7)
        let again = WorkloadSimulator.simulate(
            parameters: parameters, desiredRetention: 0.9, configuration: configuration, seed: 7)
        let other = WorkloadSimulator.simulate(
            parameters: parameters, desiredRetention: 0.9, configuration: configuration, seed: 8)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func limitsHoldEveryDay() throws {
        var configuration = WorkloadSimulator.Configuration()
        configuration.deckSize = 1_000
        configuration.learnSpan = 120
        configuration.learnLimit = 15
        configuration.reviewLimit = 40
        configuration.newCardsIgnoreReviewLimit = false
        let result = WorkloadSimulator.simulate(
            parameters: .default, desiredRetention: 0.9, configuration: configuration)
        for day in result.days {
            #expect(day.learned <= 15)
            #expect(day.reviews + day.learned <= 40)
        }
        // With reviews capped, the deck is not all met, and the review cap is reached.
        #expect(result.days.last!.introduced < 1_000)
        #expect(result.days.contains { $0.reviews + $0.learned == 40 })
    }

    @Test func answerTimesComeFromTimedAnswersByStateAndRating() {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        func at(_ days: Double, _ grade: Grade, _ ms: Int?) -> ReviewEvent {
            ReviewEvent(id: "r\(days)", at: start + days * 86_400, grade: grade, ms: ms)
        }
        let history = [
            at(0, .again, 30_000),  // learning
            at(0.01, .good, 10_000),  // learning
            at(2, .again, 20_000),  // review, a lapse
            at(2.01, .good, 6_000),  // relearning
            at(5, .good, 4_000),  // review
            at(9, .good, 2_000_000),  // review, too long to count
            at(15, .easy, nil),  // review, untimed
        ]
        let times = WorkloadSimulator.AnswerTimes(histories: [history])
        let defaults = WorkloadSimulator.Configuration().stateRatingCosts
        #expect(times.costs[0] == [30, defaults[0][1], 10, defaults[0][3]])
        #expect(times.costs[1] == [20, defaults[1][1], 4, defaults[1][3]])
        #expect(times.costs[2] == [defaults[2][0], defaults[2][1], 6, defaults[2][3]])
        #expect(times.timedAnswers == 5)
    }
}
