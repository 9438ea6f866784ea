import Dispatch
import Foundation
import RoteModel

/// Fits FSRS-6's 21 parameters to a learner's review history, and scores parameters on it —
/// Rote's counterpart of fsrs-rs's `compute_parameters` and `evaluate` (fsrs-rs 6.6, the
/// optimizer inside Anki).
///
/// ```swift
/// let data = FSRSDataset(histories: progressFiles.map(\.scheduledReviews))
/// switch FSRSOptimizer.fit(data) {
/// case .fitted(let fit): profile.settings.fsrsParameters = fit.parameters
/// case .notEnoughData(let reason): print(reason)
/// }
/// let score = FSRSOptimizer.evaluate(data, parameters: FSRSParameters.defaultValues)
/// ```
///
/// The method is fsrs-rs's: the same items, outlier rule and pre-training of the initial
/// stabilities; then Adam (learning rate 0.04, cosine-annealed to zero) for 10 epochs over
/// mini-batches of about 512 predictions, minimising the recency-weighted log loss plus
/// fsrs-rs's L2 pull towards the starting point, with every parameter clamped to fsrs-rs's
/// bounds after each step. Gradients are exact (`FSRSLoss`). It differs in ways that change
/// no definition: it computes in double precision; a mini-batch holds whole cards drawn at
/// random, so one pass over a card serves all of its items; it makes 10 passes where fsrs-rs
/// makes 5, since such batches are noisier; and it shuffles with Rote's own seeded generator.
///
/// Deterministic: the same histories, in the same order, give bit-identical parameters however
/// many threads run. Each mini-batch is cut into pieces fixed by the data and the seed; each
/// piece's gradient is summed on its own, and the pieces are added in order. Threads only
/// decide who computes which piece.
public enum FSRSOptimizer {
    /// The reviews below which `fit` keeps the defaults: items, i.e. reviews at least a day
    /// after the one before (first and same-day reviews are not counted, since nothing is
    /// predicted for them). Chosen by experiment (docs/scheduling.md,
    /// `OptimizerMinimumExperiment`): simulated learners fitted on their first 40 days and
    /// scored on the next 80 predicted worse than the defaults from 360 to 2 240 reviews when
    /// the learner was the default learner (by 0.007 falling to 0.001), and clearly better
    /// only from about 1 000 when it was not. fsrs-rs's own floors (8 and 64 items after its
    /// outlier rule) still apply below this.
    public static let minimumReviews = 1_000

    public struct Configuration: Sendable, Hashable {
        /// Passes over the data: twice fsrs-rs's 5, because a batch of whole cards is a noisier
        /// sample than fsrs-rs's batch of single items (a card's items move together). With
        /// 5, the end point varied with the shuffle (docs/scheduling.md); with 10 it does not,
        /// and passes are cheap here.
        public var epochs = 10
        public var batchSize = 512
        public var learningRate = 4e-2
        /// Weight of the L2 pull towards the starting parameters (fsrs-rs's `gamma`).
        public var gamma = 1.0
        /// Items with longer histories than this are not trained on (fsrs-rs's `max_seq_len`).
        public var maximumSequenceLength = 256
        public var seed: UInt64 = 2023
        /// Relearning steps of the scheduler the parameters serve; with more than one, fsrs-rs
        /// caps `w17·w18` so a lapse's relearning steps cannot raise stability.
        public var relearningSteps = 1
        /// Threads to compute with (at most one per core); nil: every core. Never changes the
        /// result.
        public var threads: Int? = nil
        /// Items below which `fit` keeps the defaults.
        public var minimumReviews = FSRSOptimizer.minimumReviews

        public init() {}
    }

    /// What `fit` found.
    public enum Outcome: Sendable, Hashable {
        case fitted(Fit)
        /// Too little usable data: the defaults stay. The text says why, for the learner.
        case notEnoughData(String)
    }

    public struct Fit: Sendable, Hashable {
        /// The 21 parameters, rounded to 4 decimals by `fit` (see `round`).
        public var parameters: [Double]
        /// Items the training used (after fsrs-rs's outlier rule and length limit).
        public var trainedReviews: Int
        /// True when only the initial stabilities could be fitted (fsrs-rs: fewer than 64
        /// items, or no item beyond each card's first interval); the rest are the defaults.
        public var initialStabilityOnly: Bool
    }

    /// Log loss and RMSE(bins), as fsrs-rs's `evaluate` defines them.
    public struct Evaluation: Sendable, Hashable {
        /// Recency-weighted binary cross-entropy of the predicted recall probabilities.
        public var logLoss: Double
        /// Root mean square of (mean predicted − actual recall) over fsrs-rs's bins, weighted.
        public var rmseBins: Double
        /// Items scored.
        public var reviews: Int
    }

    // MARK: - Fitting

    /// Fits `data`'s reviews; parameters rounded to 4 decimals (`round`).
    public static func fit(_ data: FSRSDataset, configuration: Configuration = Configuration()) -> Outcome {
        switch fitUnrounded(data, configuration: configuration) {
        case .fitted(var fit):
            fit.parameters = round(fit.parameters)
            return .fitted(fit)
        case let other:
            return other
        }
    }

    /// fsrs-rs's preparation of the items: the outlier rule, the training items it keeps (in
    /// time order), their average recall, and the pre-trained initial stabilities.
    struct Preparation {
        /// Review indices of the training items, by rank among them.
        var trainIndices: [Int32]
        /// The first intervals of the cards kept, for pre-training.
        var kept: [FSRSPretraining.FirstInterval]
        var averageRecall: Float
        /// Pre-trained w0…w3 and the cards per first grade; nil when no grade has any.
        var initial: (stability: [Float], counts: [Int: Int])?
    }

    static func prepare(_ data: FSRSDataset) -> Preparation {
        let intervals = FSRSPretraining.firstIntervals(data)
        let removed = FSRSPretraining.removedFirstIntervals(intervals)
        let keptCards = intervals.map { interval in
            interval.map { !removed[$0.firstRating].contains($0.deltaT) } ?? false
        }
        var byRank = [Int32](repeating: -1, count: data.itemCount)
        for card in 0..<data.cardCount where keptCards[card] {
            for index in data.reviews(ofCard: card) where data.itemRank[index] >= 0 {
                byRank[Int(data.itemRank[index])] = Int32(index)
            }
        }
        let trainIndices = byRank.filter { $0 >= 0 }
        let recalled = trainIndices.reduce(0) { $0 + (data.rating[Int($1)] > 1 ? 1 : 0) }
        // fsrs-rs's `calculate_average_recall`, in single precision.
        let averageRecall = trainIndices.isEmpty ? 0 : Float(recalled) / Float(trainIndices.count)
        let kept = zip(intervals, keptCards).compactMap { $1 ? $0 : nil }
        return Preparation(
            trainIndices: trainIndices, kept: kept, averageRecall: averageRecall,
            initial: FSRSPretraining.initialStability(kept, averageRecall: averageRecall))
    }

    /// `fit` before rounding: what the determinism tests compare bit for bit.
    static func fitUnrounded(_ data: FSRSDataset, configuration: Configuration) -> Outcome {
        guard data.itemCount >= configuration.minimumReviews else {
            return .notEnoughData(
                "\(data.itemCount) review\(data.itemCount == 1 ? "" : "s") to learn from, fewer than the \(configuration.minimumReviews) needed (a review counts when it comes a day or more after the one before); the defaults stay"
            )
        }
        let preparation = prepare(data)
        let trainCount = preparation.trainIndices.count
        let notEnough =
            "too few reviews are usable after fsrs-rs's outlier rule (\(trainCount) of \(data.itemCount)); the defaults stay"
        // fsrs-rs's floors: below 8 training items, the defaults.
        guard trainCount >= 8, let (initialStability, counts) = preparation.initial else {
            return .notEnoughData(notEnough)
        }
        let start = initialStability.map(Double.init) + FSRSParameters.defaultValues[4...].map { Double(Float($0)) }
        // Below 64, or with nothing beyond each card's first interval, only w0…w3.
        if trainCount == preparation.kept.count || trainCount < 64 {
            return .fitted(Fit(parameters: start, trainedReviews: trainCount, initialStabilityOnly: true))
        }

        // Weights: fsrs-rs's recency weight by place among the training items; zero for
        // reviews not trained on (not items, other cards, histories past the length limit).
        let position = data.cardPositions()
        var weights = [Double](repeating: 0, count: data.reviewCount)
        var trained = 0
        for (rank, index) in preparation.trainIndices.enumerated()
        where position[Int(index)] + 1 <= configuration.maximumSequenceLength {
            weights[Int(index)] = FSRSDataset.recencyWeight(rank: rank, count: trainCount)
            trained += 1
        }
        var parameters = start
        train(data, weights: weights, trained: trained, parameters: &parameters, configuration: configuration)

        // As fsrs-rs: the trained initial stabilities made monotonic and filled again.
        let trainedStability = Dictionary(uniqueKeysWithValues: (1...4).map { ($0, Float(parameters[$0 - 1])) })
        if let smoothed = FSRSPretraining.smoothAndFill(trainedStability, counts: counts) {
            for index in 0..<4 { parameters[index] = Double(smoothed[index]) }
        }
        return .fitted(Fit(parameters: parameters, trainedReviews: trained, initialStabilityOnly: false))
    }

    /// Parameters rounded to 4 decimals, as Anki shows them: enough for the model (a change of
    /// 0.00005 moves a prediction far less than the data can tell), and what makes two
    /// machines whose maths libraries differ in the last bit still write the same file.
    public static func round(_ parameters: [Double]) -> [Double] {
        parameters.map { ($0 * 10_000).rounded() / 10_000 }
    }

    /// fsrs-rs's per-parameter standard deviations across users, scaling the L2 pull.
    static let parameterSpread: [Double] = [
        6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6, 0.12, 0.39, 0.18, 0.33, 0.3, 0.09, 0.16, 0.57, 0.25,
        1.03, 0.31, 0.32, 0.14, 0.27,
    ].map { Double(Float($0)) }

    /// A mini-batch: whole cards, each cut to end at its last trained item.
    struct Batch {
        /// (card's first review, review after its last trained item) ranges.
        var cards: [Range<Int>] = []
        /// Where each piece starts in `cards`, plus `cards.count`.
        var pieces: [Int] = []
        var predictions = 0
    }

    /// Each epoch's mini-batches: the cards with something to train on, in a fresh random
    /// order each epoch, packed into batches of at most `batchSize` predictions (a card with
    /// more forms a batch of its own).
    ///
    /// Whole cards, so one pass over a card serves all its items. fsrs-rs, given card ids,
    /// also batches whole cards, but sorted by length and fixed across epochs: then a batch
    /// holds cards met on the same few days, whose gradient pulls towards that cohort, and
    /// the fit lands measurably worse (RMSE(bins) 0.0063 against 0.0047 without card ids on
    /// the benchmark's 500 000 reviews). Cards drawn at random make every batch a sample of
    /// the whole history, as fsrs-rs's batches of single items are.
    static func epochBatches(
        _ data: FSRSDataset, weights: [Double], batchSize: Int, epochs: Int, random: inout SeededGenerator
    ) -> [[Batch]] {
        var cards: [(range: Range<Int>, predictions: Int)] = []
        for card in 0..<data.cardCount {
            let range = data.reviews(ofCard: card)
            var last = -1
            var predictions = 0
            for index in range where weights[index] != 0 {
                last = index
                predictions += 1
            }
            if last >= 0 { cards.append((range.lowerBound..<(last + 1), predictions)) }
        }
        // Pieces of about a quarter batch: small enough to share among cores, and fixed by
        // the data and seed alone, so the sum of their gradients never depends on the threads.
        let pieceSize = max(1, batchSize / 4)
        var order = Array(cards.indices)
        return (0..<epochs).map { _ in
            shuffle(&order, using: &random)
            var batches: [Batch] = []
            var current = Batch()
            var inPiece = 0
            func finish() {
                current.pieces.append(current.cards.count)
                batches.append(current)
                current = Batch()
                inPiece = 0
            }
            for card in order {
                let predictions = cards[card].predictions
                if !current.cards.isEmpty && current.predictions + predictions > batchSize { finish() }
                if current.cards.isEmpty {
                    current.pieces = [0]
                } else if inPiece >= pieceSize {
                    current.pieces.append(current.cards.count)
                    inPiece = 0
                }
                current.cards.append(cards[card].range)
                current.predictions += predictions
                inPiece += predictions
            }
            if !current.cards.isEmpty { finish() }
            return batches
        }
    }

    /// Scratch space of one worker: the forward pass's steps for the card at hand.
    final class Scratch: @unchecked Sendable {
        var steps: [FSRSLoss.Step] = []
        var gR: [Double] = []
        var gradient = [Double](repeating: 0, count: 21)
    }

    static func train(
        _ data: FSRSDataset, weights: [Double], trained: Int, parameters: inout [Double], configuration: Configuration
    ) {
        var random = SeededGenerator(seed: configuration.seed)
        let epochs = epochBatches(
            data, weights: weights, batchSize: configuration.batchSize, epochs: configuration.epochs, random: &random)
        let steps = epochs.reduce(0) { $0 + $1.count }
        guard steps > 0 else { return }
        let initial = parameters
        let threads = max(1, configuration.threads ?? ProcessInfo.processInfo.activeProcessorCount)
        var adam = Adam()
        var schedule = CosineAnnealing(steps: Double(steps), initial: configuration.learningRate)
        let maximumPieces = epochs.joined().map { $0.pieces.count - 1 }.max() ?? 1
        var pieceGradients = [Double](repeating: 0, count: maximumPieces * 21)
        // Scratch space per piece, not per thread: whichever thread takes a piece uses its own.
        let scratch = (0..<maximumPieces).map { _ in Scratch() }
        // Helpers spin between batches, so never more of them than there are other cores.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let helpers = min(threads, cores) > 1 ? PieceRunners.make(helpers: min(threads, cores) - 1) : nil
        defer { helpers?.stop() }
        weights.withUnsafeBufferPointer { weights in
            nonisolated(unsafe) let weights = weights
            for batch in epochs.joined() {
                let learningRate = schedule.step()
                let model = FSRSLoss(parameters)
                let pieceCount = batch.pieces.count - 1
                pieceGradients.withUnsafeMutableBufferPointer { buffer in
                    // Each piece writes only its own 21 slots.
                    nonisolated(unsafe) let out = buffer
                    let work: @Sendable (Int) -> Void = { piece in
                        let scratch = scratch[piece]
                        for slot in 0..<21 { scratch.gradient[slot] = 0 }
                        var loss = 0.0
                        for card in batch.pieces[piece]..<batch.pieces[piece + 1] {
                            model.accumulate(
                                data, reviews: batch.cards[card], weights: weights, loss: &loss,
                                gradient: &scratch.gradient, steps: &scratch.steps, gR: &scratch.gR)
                        }
                        for slot in 0..<21 { out[piece * 21 + slot] = scratch.gradient[slot] }
                    }
                    // Pieces go to whichever thread claims them first, so a helper descheduled
                    // by other work holds the batch up by one piece at most.
                    if let helpers, pieceCount > 1 {
                        helpers.run(pieceCount, work)
                    } else {
                        for piece in 0..<pieceCount { work(piece) }
                    }
                }
                // The pieces' gradients, added in piece order, then the L2 pull.
                var gradient = [Double](repeating: 0, count: 21)
                for piece in 0..<pieceCount {
                    for slot in 0..<21 { gradient[slot] += pieceGradients[piece * 21 + slot] }
                }
                let scale = configuration.gamma * Double(batch.predictions) / Double(trained)
                for slot in 0..<21 {
                    let spread = parameterSpread[slot]
                    gradient[slot] += 2 * (parameters[slot] - initial[slot]) / (spread * spread) * scale
                }
                adam.step(&parameters, gradient: gradient, learningRate: learningRate)
                clip(&parameters, relearningSteps: configuration.relearningSteps, shortTerm: true)
            }
        }
    }

    /// fsrs-rs's `clip_parameters`: the bounds its optimizer keeps every parameter in. All lie
    /// inside py-fsrs's bounds, so clipped parameters are always valid `FSRSParameters`.
    static func clip(_ w: inout [Double], relearningSteps: Int, shortTerm: Bool) {
        var ceiling = 2.0
        if relearningSteps > 1 {
            let sum = log(w[11]) + log(pow(2, w[13]) - 1) + w[14] * 0.3
            ceiling = min(max(-sum / Double(relearningSteps), 0.01).squareRoot(), 2)
        }
        let minimumS = Double(Float(FSRSLoss.minimumStability))
        let bounds: [(Double, Double)] = [
            (minimumS, 100), (minimumS, 100), (minimumS, 100), (minimumS, 100),
            (1, 10), (0.001, 4), (0.001, 4), (0.001, 0.75), (0, 4.5), (0, 0.8), (0.001, 3.5),
            (0.001, 5), (0.001, 0.25), (0.001, 0.9), (0, 4), (0, 1), (1, 6),
            (0, ceiling), (0, ceiling), (shortTerm ? 0.01 : 0, 0.8), (0.1, 0.8),
        ]
        for index in 0..<21 {
            let (low, high) = bounds[index]
            w[index] = min(max(w[index], Double(Float(low))), Double(Float(high)))
        }
    }

    /// Fisher–Yates with a bounded draw of our own, so the order is the same with every
    /// Swift version (the standard library's `shuffle` may change how it draws).
    static func shuffle(_ values: inout [Int], using random: inout SeededGenerator) {
        guard values.count > 1 else { return }
        for index in stride(from: values.count - 1, to: 0, by: -1) {
            let bound = UInt64(index + 1)
            let pick = Int(random.next().multipliedFullWidth(by: bound).high)
            values.swapAt(index, pick)
        }
    }

    /// Adam as fsrs-rs's `HostAdam`: β1 0.9, β2 0.999, ε 1e-8, bias-corrected.
    struct Adam {
        var m = [Double](repeating: 0, count: 21)
        var v = [Double](repeating: 0, count: 21)
        var t = 0

        mutating func step(_ parameters: inout [Double], gradient: [Double], learningRate: Double) {
            t += 1
            let bias1 = 1 - pow(0.9, Double(t))
            let bias2 = 1 - pow(0.999, Double(t))
            for i in 0..<21 {
                m[i] = 0.9 * m[i] + (1 - 0.9) * gradient[i]
                v[i] = 0.999 * v[i] + (1 - 0.999) * gradient[i] * gradient[i]
                let mHat = m[i] / bias1
                let vHat = v[i] / bias2
                parameters[i] -= learningRate * mHat / (vHat.squareRoot() + 1e-8)
            }
        }
    }

    /// fsrs-rs's `CosineAnnealingLR` (PyTorch's recursive form) from `initial` to 0 over `steps`.
    struct CosineAnnealing {
        let steps: Double
        let initial: Double
        var count = -1.0
        var current: Double

        init(steps: Double, initial: Double) {
            self.steps = steps
            self.initial = initial
            current = initial
        }

        mutating func step() -> Double {
            count += 1
            if count == 0 {
                current = initial
            } else if (count - 1 - steps).truncatingRemainder(dividingBy: 2 * steps) == 0 {
                current = initial * (1 - cos(Double.pi / steps)) / 2
            } else {
                current = (1 + cos(Double.pi * count / steps)) / (1 + cos(Double.pi * (count - 1) / steps)) * current
            }
            return current
        }
    }
}

extension FSRSDataset {
    /// Each review's position in its card (0 for the first).
    func cardPositions() -> [Int] {
        var positions = [Int](repeating: 0, count: reviewCount)
        for card in 0..<cardCount {
            let range = reviews(ofCard: card)
            for index in range { positions[index] = index - range.lowerBound }
        }
        return positions
    }

    /// The review index of each item, by rank.
    func itemsInOrder() -> [Int] {
        var ordered = [Int](repeating: 0, count: itemCount)
        for index in 0..<reviewCount where itemRank[index] >= 0 { ordered[Int(itemRank[index])] = index }
        return ordered
    }
}
