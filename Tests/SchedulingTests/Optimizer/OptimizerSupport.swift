import Foundation
import RoteModel
import TestSupport

@testable import Scheduling

extension FSRSRsFixture {
    static func histories() throws -> [[ReviewEvent]] {
        let text = try String(contentsOf: historiesFile, encoding: .utf8)
        let read = ReplayJSONLines.histories(text.split(separator: "\n", omittingEmptySubsequences: false))
        precondition(read.diagnostics.isEmpty, "\(read.diagnostics)")
        return read.histories
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
                model.accumulate(
                    self, reviews: reviews(ofCard: card), weights: weights, loss: &loss, gradient: &gradient,
                    steps: &steps, gR: &gR)
            }
        }
        return (loss, gradient)
    }

    /// Weight 1 on every item.
    var unitWeights: [Double] { itemRank.map { $0 >= 0 ? 1 : 0 } }
}
