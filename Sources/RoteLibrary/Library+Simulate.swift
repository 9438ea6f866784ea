import Foundation
import RoteModel
import RoteStore
public import Scheduling
import Study

/// What `rote simulate` was asked: every setting that is nil comes from the learner.
public struct WorkloadQuestion: Sendable {
    public var deck: String?
    public var desiredRetention: Double?
    public var days: Int?
    public var newPerDay: Int?
    public var reviewsPerDay: Int?
    public var deckSize: Int?
    /// A cap on a day's study, after which the day's other cards wait (nil: none, as a
    /// profile has no such limit; fsrs-rs's default is 30).
    public var minutesPerDay: Double?
    public var parameters: [Double]?
    /// Also search for the retention with the least time per memorised card.
    public var recommend = false
    /// Runs averaged (seeds 42, 43, …).
    public var seeds = 8

    public init() {}
}

/// A simulated year (or `days`) of study on the learner's settings, and a recommended retention.
public struct WorkloadForecast: Sendable {
    public enum Source: String, Sendable { case given, fitted, defaults }

    public var parameters: [Double]
    public var parametersSource: Source
    public var desiredRetention: Double
    public var configuration: WorkloadSimulator.Configuration
    /// Answers whose recorded time went into `configuration.stateRatingCosts` (0: fsrs-rs's
    /// default times throughout).
    public var timedAnswers: Int
    /// The mean over the seeds, day by day.
    public var result: WorkloadSimulator.Result
    public var recommendation: Recommendation?
    /// Set when a recommendation was asked for and the search did not settle in 0.70…0.95.
    public var recommendationFailed = false

    public struct Recommendation: Sendable {
        public var retention: Double
        /// The mean simulation at that retention.
        public var result: WorkloadSimulator.Result
    }
}

extension Library {
    /// Simulates studying with the learner's parameters (fitted, else the defaults), limits,
    /// desired retention and own answer times, each replaced by what `question` gives. Reads
    /// only; nothing is written, and applying a recommended retention is the learner's step.
    public func simulateWorkload(_ question: WorkloadQuestion) throws -> WorkloadForecast {
        let library = try learnerForFitting(deck: question.deck)
        let profile = library.profiles[user]
        let fitted = FSRSFitting.currentParameters(profile: profile, deck: question.deck)
        let values = question.parameters ?? fitted
        let source: WorkloadForecast.Source =
            question.parameters != nil ? .given : values == FSRSParameters.defaultValues ? .defaults : .fitted
        let parameters: FSRSParameters
        do {
            parameters = try FSRSParameters(values)
        } catch {
            throw LibraryError(.invalidValue, "the parameters do not work for FSRS-6: \(error.message)")
        }
        var configuration = WorkloadSimulator.Configuration()
        let times = WorkloadSimulator.AnswerTimes(
            histories: FSRSFitting.histories(library: library, user: user, deck: question.deck))
        configuration.stateRatingCosts = times.costs
        configuration.learnSpan = question.days ?? 365
        configuration.learnLimit = question.newPerDay ?? profile?.settings.newPerDay ?? 10
        configuration.reviewLimit = question.reviewsPerDay ?? profile?.settings.reviewsPerDay ?? 200
        // The planner stops new entries once the day's reviews reach the limit.
        configuration.newCardsIgnoreReviewLimit = false
        configuration.maxCostPerDay = question.minutesPerDay.map { $0 * 60 } ?? .infinity
        configuration.maxInterval = Double(profile?.settings.maximumInterval ?? 36_500)
        if let size = question.deckSize {
            configuration.deckSize = size
        } else {
            configuration.deckSize = max(1, try ids(inDeck: question.deck).count)
        }
        let retention =
            question.desiredRetention ?? profile?.settings.desiredRetention ?? SchedulerSettings.defaultDesiredRetention
        if let problem = configuration.problem {
            throw LibraryError(.invalidValue, "cannot simulate: \(problem)")
        }
        let seeds = max(1, question.seeds)
        let result = WorkloadSimulator.Result.mean(
            WorkloadSimulator.simulations(
                parameters: parameters, desiredRetention: retention, configuration: configuration, count: seeds))
        var forecast = WorkloadForecast(
            parameters: values, parametersSource: source, desiredRetention: retention, configuration: configuration,
            timedAnswers: times.timedAnswers, result: result)
        if question.recommend {
            if let best = WorkloadSimulator.optimalRetention(parameters: parameters, configuration: configuration) {
                let atBest = WorkloadSimulator.Result.mean(
                    WorkloadSimulator.simulations(
                        parameters: parameters, desiredRetention: best, configuration: configuration, count: seeds))
                forecast.recommendation = WorkloadForecast.Recommendation(retention: best, result: atBest)
            } else {
                forecast.recommendationFailed = true
            }
        }
        return forecast
    }
}
