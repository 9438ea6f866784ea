import Foundation
import RoteModel
@testable import Scheduling

/// The fsrs-rs fixture (see `Fixtures/fsrs-rs/README.md`): simulated histories and what fsrs-rs
/// computed on them.
enum FSRSRsFixture {
    static let folder = TestFiles.packageRoot.appendingPathComponent("Tests/SchedulingTests/Fixtures/fsrs-rs")

    struct Scored: Decodable {
        var parameters: [Double]
        var log_loss: Double
        var rmse_bins: Double
    }

    struct Expected: Decodable {
        var items: Int
        var first_interval_items: Int
        var defaults: Scored
        var truth: Scored
        var fsrs_rs_fit: Scored
        var pretrained_initial_stability: [Double]
    }

    static func histories() throws -> [[ReviewEvent]] {
        let text = try String(contentsOf: folder.appendingPathComponent("histories.jsonl"), encoding: .utf8)
        let read = ReplayJSONLines.histories(text.split(separator: "\n", omittingEmptySubsequences: false))
        precondition(read.diagnostics.isEmpty, "\(read.diagnostics)")
        return read.histories
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: folder.appendingPathComponent("expected.json")))
    }
}

extension FSRSOptimizer.Outcome {
    var parameters: [Double]? {
        if case .fitted(let fit) = self { return fit.parameters }
        return nil
    }

    var reason: String? {
        if case .notEnoughData(let reason) = self { return reason }
        return nil
    }
}

extension FSRSDataset {
    /// The loss `fit` minimises for one set of parameters, summed over every card, with its
    /// gradient — what the gradient tests differentiate.
    func lossAndGradient(_ parameters: [Double], weights: [Double]) -> (loss: Double, gradient: [Double]) {
        let model = FSRSLoss(parameters)
        var loss = 0.0
        var gradient = [Double](repeating: 0, count: 21)
        var steps: [FSRSLoss.Step] = []
        var gR: [Double] = []
        weights.withUnsafeBufferPointer { weights in
            for card in 0..<cardCount {
                model.accumulate(self, reviews: reviews(ofCard: card), weights: weights, loss: &loss, gradient: &gradient, steps: &steps, gR: &gR)
            }
        }
        return (loss, gradient)
    }

    /// Weight 1 on every item.
    var unitWeights: [Double] { itemRank.map { $0 >= 0 ? 1 : 0 } }
}
