import Foundation
import RoteModel
import Testing

@testable import Scheduling

/// The experiment behind `FSRSOptimizer.minimumReviews` (docs/scheduling.md): simulated
/// learners fitted on their first 40 days and scored on the next 80, against the defaults.
/// It prints figures and asserts nothing, takes a couple of minutes, and runs only when asked:
/// `ROTE_OPTIMIZER_EXPERIMENTS=1 swift test --filter OptimizerMinimumExperiment`.
@Suite struct OptimizerMinimumExperiment {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ROTE_OPTIMIZER_EXPERIMENTS"] != nil))
    func heldOutLogLossOfFitsOnFewReviews() throws {
        for (name, truth) in [
            ("the default learner", FSRSParameters.defaultValues),
            ("a learner far from the defaults", FSRSSimulator.farFromDefaults),
        ] {
            for (cards, perDay, seeds) in [(60, 5, 6), (120, 5, 6), (250, 5, 6), (500, 12, 4), (1_000, 25, 4)] {
                var fitted = 0.0
                var defaults = 0.0
                var runs = 0
                var items = 0
                for seed in 1...seeds {
                    var simulation = FSRSSimulator.Configuration()
                    simulation.truth = truth
                    simulation.cards = cards
                    simulation.newPerDay = perDay
                    simulation.reviews = .max
                    simulation.days = 120
                    simulation.seed = UInt64(seed)
                    let start = simulation.start.timeIntervalSince1970
                    let (cut, end) = (start + 40 * 86_400, start + 120 * 86_400)
                    let all = try FSRSSimulator.histories(simulation).map {
                        $0.filter { $0.at.timeIntervalSince1970 < end }
                    }
                    let training = FSRSDataset(histories: all.map { $0.filter { $0.at.timeIntervalSince1970 < cut } })
                    var configuration = FSRSOptimizer.Configuration()
                    configuration.minimumReviews = 0
                    guard let parameters = FSRSOptimizer.fit(training, configuration: configuration).parameters else {
                        continue
                    }
                    let later = FSRSDataset(histories: all)
                    // Review times in the dataset's flat order (empty histories are skipped there).
                    let times = all.filter { !$0.isEmpty }.flatMap { $0.map(\.at.timeIntervalSince1970) }
                    let isLater = later.itemsInOrder().map { times[$0] >= cut }
                    fitted += heldOut(later, isLater, parameters)
                    defaults += heldOut(later, isLater, FSRSParameters.defaultValues)
                    runs += 1
                    items += training.itemCount
                }
                guard runs > 0 else { continue }
                print(
                    "\(name), \(cards) cards: \(items / runs) training reviews; held-out log loss fitted \(fitted / Double(runs)), defaults \(defaults / Double(runs)), difference \((fitted - defaults) / Double(runs)) (\(runs) learners)"
                )
            }
        }
    }

    /// Unweighted log loss over the items `isLater` marks (by rank).
    func heldOut(_ data: FSRSDataset, _ isLater: [Bool], _ parameters: [Double]) -> Double {
        let model = FSRSLoss(parameters)
        var loss = 0.0
        var count = 0.0
        for card in 0..<data.cardCount {
            let range = data.reviews(ofCard: card)
            guard range.count > 1 else { continue }
            var state = model.initialState(Int(data.rating[range.lowerBound]))
            for index in (range.lowerBound + 1)..<range.upperBound {
                let r = model.retrievability(days: data.deltaT[index], stability: state.s)
                let rank = Int(data.itemRank[index])
                if rank >= 0, isLater[rank] {
                    let y = data.rating[index] > 1 ? 1.0 : 0.0
                    loss -= y * log(r) + (1 - y) * log(1 - r)
                    count += 1
                }
                state = model.next(
                    s: state.s, d: state.d, deltaT: data.deltaT[index], rating: Int(data.rating[index]), r: r)
            }
        }
        return loss / count
    }
}
