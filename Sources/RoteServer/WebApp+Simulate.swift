import Foundation
import RoteLibrary
import Scheduling

/// `GET /api/simulate`: `rote simulate` for the Stats page — a year of study on the learner's
/// settings, every day of it (the page draws weeks).
struct SimulationAnswer: Encodable {
    struct Day: Encodable {
        var reviews: Int
        var new: Int
        var minutes: Double
        var memorized: Double
    }

    var days: Int
    var deckSize: Int
    var newPerDay: Int
    var reviewsPerDay: Int
    var desiredRetention: Double
    var parametersSource: String
    var timedAnswers: Int
    var simulation: [Day]
}

extension WebApp {
    func simulation() throws -> SimulationAnswer {
        var question = WorkloadQuestion()
        // Fewer runs than the command's 8: the page asks on every visit, and 4 runs' mean is
        // already smooth at a chart's resolution.
        question.seeds = 4
        let forecast = try library().simulateWorkload(question)
        let c = forecast.configuration
        return SimulationAnswer(
            days: c.learnSpan, deckSize: c.deckSize, newPerDay: c.learnLimit, reviewsPerDay: c.reviewLimit,
            desiredRetention: forecast.desiredRetention, parametersSource: forecast.parametersSource.rawValue,
            timedAnswers: forecast.timedAnswers,
            simulation: forecast.result.days.map {
                .init(reviews: $0.reviews, new: $0.learned, minutes: $0.cost / 60, memorized: $0.memorized)
            })
    }
}
