import Foundation

/// fsrs-rs's preparation of the training data and its pre-training of the four initial
/// stabilities, step for step (`dataset.rs`: `compute_outlier_analysis`,
/// `prepare_training_data`; `parameter_initialization.rs`: `initialize_stability_parameters`,
/// `search_parameters`, `smooth_and_fill`).
///
/// Where fsrs-rs computes in single precision (the average recall, the stabilities it stores,
/// `smooth_and_fill`), this does too, so on the same items it finds the same initial
/// stabilities to the last bit — the start of training and the values `w0…w3` fall back to.
enum FSRSPretraining {
    /// py-fsrs's and fsrs-rs's default initial stabilities, in single precision as fsrs-rs has them.
    static let defaultInitialStability: [Float] = [0.212, 1.2931, 2.3065, 8.2956]
    static let maximumInitialStability: Float = 100

    /// A card's first long-term review: the grade of the card's first review, and the
    /// `delta_t` and grade of the first review at least a day after the one before it.
    struct FirstInterval {
        var firstRating: Int
        var deltaT: UInt32
        var recalled: Bool
    }

    /// The first long-term review of every card that has one (nil for the others).
    static func firstIntervals(_ data: FSRSDataset) -> [FirstInterval?] {
        (0..<data.cardCount).map { card in
            let range = data.reviews(ofCard: card)
            guard let index = range.dropFirst().first(where: { data.deltaT[$0] > 0 }) else { return nil }
            return FirstInterval(
                firstRating: Int(data.rating[range.lowerBound]), deltaT: UInt32(data.deltaT[index]),
                recalled: data.rating[index] > 1)
        }
    }

    /// fsrs-rs's outlier rule: for each first grade, the rarest first intervals — up to 5 % of
    /// the cards (at least 20) — are removed, and so is any interval held by fewer than 6 cards
    /// or longer than 100 days (365 for easy). Returns, per first grade (index 1…4), the
    /// removed first intervals. Every item of a card whose first interval is removed leaves
    /// the training set, and the card leaves pre-training.
    static func removedFirstIntervals(_ intervals: [FirstInterval?]) -> [Set<UInt32>] {
        var groups: [Int: [UInt32: Int]] = [:]
        for case let interval? in intervals {
            groups[interval.firstRating, default: [:]][interval.deltaT, default: 0] += 1
        }
        var removed = [Set<UInt32>](repeating: [], count: 5)
        for rating in groups.keys.sorted() {
            // Largest groups first, ties by longer interval first; then walked from the end.
            let subGroups = groups[rating]!.sorted { a, b in a.value != b.value ? a.value > b.value : a.key > b.key }
            let total = subGroups.reduce(0) { $0 + $1.value }
            var removedSoFar = 0
            for (deltaT, count) in subGroups.reversed() {
                if removedSoFar + count >= max(20, total / 20) {
                    if count >= 6 && deltaT <= (rating != 4 ? 100 : 365) { continue }
                    removed[rating].insert(deltaT)
                } else {
                    removedSoFar += count
                    removed[rating].insert(deltaT)
                }
            }
        }
        return removed
    }

    /// The initial stabilities w0…w3 fitted to the first intervals of the kept cards, and how
    /// many cards each first grade had (`initialize_stability_parameters`); nil when no first
    /// grade has any (fsrs-rs's `NotEnoughData`).
    ///
    /// For each first grade, the recall rate at each first interval (Laplace-smoothed towards
    /// `averageRecall`) is fitted with the default forgetting curve by a ternary search over
    /// stability in 0.001…100, with a small pull towards the default; then the four are made
    /// monotonic and missing grades filled in (`smooth_and_fill`).
    static func initialStability(_ kept: [FirstInterval], averageRecall: Float) -> (
        stability: [Float], counts: [Int: Int]
    )? {
        var groups: [Int: [UInt32: (recalled: Int, count: Int)]] = [:]
        for interval in kept {
            var entry = groups[interval.firstRating, default: [:]][interval.deltaT, default: (0, 0)]
            entry.count += 1
            if interval.recalled { entry.recalled += 1 }
            groups[interval.firstRating, default: [:]][interval.deltaT] = entry
        }
        var stability: [Int: Float] = [:]
        var counts: [Int: Int] = [:]
        for (rating, byInterval) in groups {
            let data = byInterval.sorted { $0.key < $1.key }
            counts[rating] = data.reduce(0) { $0 + $1.value.count }
            stability[rating] = search(
                data.map {
                    (Double($0.key), Double($0.value.recalled) / Double($0.value.count), Double($0.value.count))
                },
                averageRecall: Double(averageRecall), defaultS0: Double(defaultInitialStability[rating - 1]))
        }
        guard let filled = smoothAndFill(stability, counts: counts) else { return nil }
        return (filled, counts)
    }

    /// `search_parameters` for one first grade: (delta_t, recall, count) rows in delta_t order.
    static func search(
        _ rows: [(deltaT: Double, recall: Double, count: Double)], averageRecall: Double, defaultS0: Double
    ) -> Float {
        let decay = -Double(Float(0.1542))
        let factor = pow(0.9, 1 / decay) - 1
        let smoothed = rows.map { ($0.deltaT, ($0.recall * $0.count + averageRecall) / ($0.count + 1), $0.count) }
        func loss(_ s: Double) -> Double {
            var total = 0.0
            for (t, recall, count) in smoothed {
                let y = pow(t / s * factor + 1, decay)
                total += -(recall * log(y) + (1 - recall) * log(1 - y)) * count
            }
            return total + abs(s - defaultS0) / 16
        }
        var low = Double(FSRSLoss.minimumStability.float)
        var high = Double(maximumInitialStability)
        var optimal = defaultS0
        var iterations = 0
        while high - low > Double.ulpOfOne && iterations < 1000 {
            iterations += 1
            let mid1 = low + (high - low) / 3
            let mid2 = high - (high - low) / 3
            if loss(mid1) < loss(mid2) { high = mid2 } else { low = mid1 }
            optimal = (high + low) / 2
        }
        return Float(optimal)
    }

    /// `smooth_and_fill`: makes the stabilities of the first grades present monotonic (the
    /// grade with more cards wins a disagreement), fills in missing grades from the others with
    /// fsrs-rs's fixed ratios, and clamps to 0.001…100. Nil when no grade is present.
    static func smoothAndFill(_ input: [Int: Float], counts: [Int: Int]) -> [Float]? {
        var stability = input.filter { counts[$0.key] != nil }
        for (small, big) in [(1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (1, 4)] {
            if let smallValue = stability[small], let bigValue = stability[big], smallValue > bigValue {
                if counts[small]! > counts[big]! { stability[big] = smallValue } else { stability[small] = bigValue }
            }
        }
        let w1: Float = 0.41
        let w2: Float = 0.54
        var s: [Float?] = [nil, stability[1], stability[2], stability[3], stability[4]]
        var result: [Float]
        switch stability.count {
        case 0:
            return nil
        case 1:
            let (rating, value) = stability.first!
            let factor = value / defaultInitialStability[rating - 1]
            result = defaultInitialStability.map { $0 * factor }.sorted()
        case 2:
            switch (s[1], s[2], s[3], s[4]) {
            case (nil, nil, let r3?, let r4?):
                let r2 = pow(r3, 1 / (1 - w2)) * pow(r4, 1 - 1 / (1 - w2))
                s[2] = r2
                s[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
            case (nil, let r2?, nil, let r4?):
                let r3 = pow(r2, 1 - w2) * pow(r4, w2)
                s[3] = r3
                s[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
            case (nil, let r2?, let r3?, nil):
                s[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
                s[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
            case (let r1?, nil, nil, let r4?):
                // Rust's `w1.mul_add(-w2, w1 + w2)`: one rounding.
                let sum = (w1 + w2).addingProduct(w1, -w2)
                let r2 = pow(r1, w1 / sum) * pow(r4, 1 - w1 / sum)
                s[2] = r2
                s[3] = pow(r1, 1 - w2 / sum) * pow(r4, w2 / sum)
            case (let r1?, nil, let r3?, nil):
                let r2 = pow(r1, w1) * pow(r3, 1 - w1)
                s[2] = r2
                s[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
            case (let r1?, let r2?, nil, nil):
                let r3 = pow(r1, 1 - 1 / (1 - w1)) * pow(r2, 1 / (1 - w1))
                s[3] = r3
                s[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
            default:
                break
            }
            result = s.compactMap { $0 }
        case 3:
            switch (s[1], s[2], s[3], s[4]) {
            case (nil, let r2?, let r3?, _):
                s[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
            case (let r1?, nil, let r3?, _):
                s[2] = pow(r1, w1) * pow(r3, 1 - w1)
            case (_, let r2?, nil, let r4?):
                s[3] = pow(r2, 1 - w2) * pow(r4, w2)
            case (_, let r2?, let r3?, nil):
                s[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
            default:
                break
            }
            result = s.compactMap { $0 }
        default:
            result = s.compactMap { $0 }
        }
        return result.prefix(4).map { min(max($0, Float(FSRSLoss.minimumStability)), maximumInitialStability) }
    }
}

extension Double {
    /// This value rounded to single precision, as a double (fsrs-rs keeps constants in f32).
    fileprivate var float: Float { Float(self) }
}
