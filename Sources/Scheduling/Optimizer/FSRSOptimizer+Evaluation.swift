import Dispatch
import Foundation
import RoteModel

/// Scoring parameters on a learner's reviews, as fsrs-rs's `evaluate` does.
extension FSRSOptimizer {
    /// Log loss and RMSE(bins) of `parameters` over every item of `data`, as fsrs-rs's
    /// `FSRS::evaluate` computes them: parameters first clipped to fsrs-rs's bounds, each
    /// item weighted by its recency (`0.25 + 0.75·(rank/(n−1))³`), log loss the weighted mean
    /// binary cross-entropy, RMSE(bins) the weighted root mean square of the gap between mean
    /// prediction and mean outcome in each bin of (`delta_t`, reviews so far, lapses so far).
    ///
    /// Nil when there is no item. Double precision where fsrs-rs uses single, so the figures
    /// agree with fsrs-rs's to about five significant digits.
    public static func evaluate(_ data: FSRSDataset, parameters: [Double], threads: Int? = nil) -> Evaluation? {
        guard data.itemCount > 0, parameters.count == 21 else { return nil }
        var w = parameters
        clip(&w, relearningSteps: 1, shortTerm: false)
        let model = FSRSLoss(w)
        var predictions = [Double](repeating: 0, count: data.itemCount)
        var bins = [FSRSDataset.RMSEBin](repeating: .init(deltaT: 0, length: 0, lapses: 0), count: data.itemCount)
        let threadCount = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        let chunk = 4_096
        let chunks = (data.cardCount + chunk - 1) / chunk
        predictions.withUnsafeMutableBufferPointer { predicted in
            bins.withUnsafeMutableBufferPointer { binned in
                // Each item's slot is written by the one card that holds it.
                nonisolated(unsafe) let predicted = predicted
                nonisolated(unsafe) let binned = binned
                let work: @Sendable (Int) -> Void = { part in
                    for card in (part * chunk)..<min((part + 1) * chunk, data.cardCount) {
                        let range = data.reviews(ofCard: card)
                        guard range.count > 1 else { continue }
                        var (s, d) = model.initialState(Int(data.rating[range.lowerBound]))
                        // Long-term reviews and lapses among them so far, for the bins.
                        var longTerm = 0
                        var lapses = 0
                        for index in (range.lowerBound + 1)..<range.upperBound {
                            let t = data.deltaT[index]
                            let rating = Int(data.rating[index])
                            let r = model.retrievability(days: t, stability: s)
                            let rank = Int(data.itemRank[index])
                            if rank >= 0 {
                                predicted[rank] = r
                                binned[rank] = FSRSDataset.rmseBin(
                                    deltaT: t, longTermBefore: longTerm, lapsesBefore: lapses)
                            }
                            if t > 0 {
                                longTerm += 1
                                if rating == 1 { lapses += 1 }
                            }
                            if index + 1 < range.upperBound {
                                (s, d) = model.next(s: s, d: d, deltaT: t, rating: rating, r: r)
                            }
                        }
                    }
                }
                if threadCount <= 1 || chunks <= 1 {
                    for part in 0..<chunks { work(part) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
                }
            }
        }
        // Sums in item order, and bins in key order: the same figures every run.
        let ordered = data.itemsInOrder()
        var loss = 0.0
        var weightSum = 0.0
        var binSums: [FSRSDataset.RMSEBin: (predicted: Double, actual: Double, count: Double, weight: Double)] = [:]
        for rank in 0..<data.itemCount {
            let index = ordered[rank]
            let p = predictions[rank]
            let y = data.rating[index] > 1 ? 1.0 : 0.0
            let weight = FSRSDataset.recencyWeight(rank: rank, count: data.itemCount)
            loss += (y * log(p) + (1 - y) * log(1 - p)) * weight
            weightSum += weight
            var sums = binSums[bins[rank], default: (0, 0, 0, 0)]
            sums.predicted += p
            sums.actual += y
            sums.count += 1
            sums.weight += weight
            binSums[bins[rank]] = sums
        }
        var squares = 0.0
        var binWeights = 0.0
        for key in binSums.keys.sorted(by: { ($0.deltaT, $0.length, $0.lapses) < ($1.deltaT, $1.length, $1.lapses) }) {
            let sums = binSums[key]!
            let gap = sums.predicted / sums.count - sums.actual / sums.count
            squares += gap * gap * sums.weight
            binWeights += sums.weight
        }
        return Evaluation(
            logLoss: -loss / weightSum, rmseBins: (squares / binWeights).squareRoot(), reviews: data.itemCount)
    }
}
