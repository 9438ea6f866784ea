import Foundation
package import RoteModel

/// A point of a drawing or a template, in the letters deck's 100×100 box (x to the right, y
/// downwards): the point `rote letters record` stores, `t` (ms since the start) when known.
package typealias TracePoint = LetterAttempt.Point

extension LetterAttempt.Point {
    func distance(to other: TracePoint) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}

/// How a tracing attempt compares with its letter's template: four sub-scores and the overall
/// score, each 0–100 as `rote letters record` stores them, and canonical tip ids for what to
/// work on.
package struct TraceScore: Sendable, Equatable {
    package var score: Int
    package var start: Int
    package var direction: Int
    package var strokeOrder: Int
    package var shape: Int
    package var tips: [String]

    package init(score: Int, start: Int, direction: Int, strokeOrder: Int, shape: Int, tips: [String]) {
        self.score = score
        self.start = start
        self.direction = direction
        self.strokeOrder = strokeOrder
        self.shape = shape
        self.tips = tips
    }
}

/// Scores a drawing against a letter's stroke template. No I/O, no state: the same strokes
/// always get the same score.
///
/// Every stroke, drawn or template, is resampled to `resampleCount` points spaced evenly
/// along its length. The distance between two strokes is the mean distance between their
/// corresponding points, in box units; a drawn stroke's distance to a template stroke is the
/// smaller of that distance forwards and reversed, so shape does not depend on direction.
/// Drawn strokes are paired with template strokes greedily, closest pair first, each stroke
/// in at most one pair.
///
/// - shape: 100 × (1 − d / `shapeTolerance`), floored at 0, where d is the mean pair distance
///   over max(drawn, template) strokes, an unpaired stroke counting `shapeTolerance`;
/// - start: per pair, 100 × (1 − gap / `startTolerance`) for the gap between the first drawn
///   point and the template's first point, averaged;
/// - direction: the share of pairs drawn the template's way round (forwards closer than
///   reversed);
/// - stroke order: the share of consecutive pairs, in drawing order, whose template strokes
///   are also consecutive in writing order (all of them for a one-stroke letter);
/// - score: 40% shape, 20% each of the others, with stroke order and direction counting
///   nothing when no stroke resembles the template.
package enum TraceScoring {
    package static let resampleCount = 32
    package static let shapeTolerance = 25.0
    package static let startTolerance = 30.0
    /// Sub-scores below this earn their tip.
    package static let tipThreshold = 70

    /// Tip ids, stable across translations of the page that shows them.
    package enum Tip {
        package static let startPoint = "start-point"
        package static let directionReversed = "direction-reversed"
        package static let directionClockwise = "direction-clockwise"
        package static let directionAnticlockwise = "direction-anticlockwise"
        package static let strokeOrder = "stroke-order"
        package static let strokeCount = "stroke-count"
        package static let shape = "shape"
    }

    package static func score(drawing: [[TracePoint]], template: [[TracePoint]]) -> TraceScore {
        let drawn = drawing.filter { !$0.isEmpty }.map { resample($0) }
        let model = template.filter { !$0.isEmpty }.map { resample($0) }
        guard !drawn.isEmpty, !model.isEmpty else {
            return TraceScore(score: 0, start: 0, direction: 0, strokeOrder: 0, shape: 0, tips: [Tip.strokeCount])
        }
        struct Pair {
            var drawn: Int, model: Int, forwards: Double, backwards: Double
            var distance: Double { min(forwards, backwards) }
        }
        var candidates: [Pair] = []
        for (d, stroke) in drawn.enumerated() {
            for (m, target) in model.enumerated() {
                candidates.append(
                    Pair(
                        drawn: d, model: m, forwards: meanDistance(stroke, target),
                        backwards: meanDistance(stroke.reversed(), target)))
            }
        }
        candidates.sort { ($0.distance, $0.drawn, $0.model) < ($1.distance, $1.drawn, $1.model) }
        var pairs: [Pair] = []
        var usedDrawn = Set<Int>()
        var usedModel = Set<Int>()
        for pair in candidates where !usedDrawn.contains(pair.drawn) && !usedModel.contains(pair.model) {
            pairs.append(pair)
            usedDrawn.insert(pair.drawn)
            usedModel.insert(pair.model)
        }
        pairs.sort { $0.drawn < $1.drawn }
        let strokeCount = max(drawn.count, model.count)
        let unpaired = Double(strokeCount - pairs.count)
        let meanShapeDistance =
            (pairs.map { min($0.distance, shapeTolerance) }.reduce(0, +) + unpaired * shapeTolerance)
            / Double(strokeCount)
        let shape = percent(1 - meanShapeDistance / shapeTolerance)
        let start = percent(
            pairs.map { max(0, 1 - drawn[$0.drawn][0].distance(to: model[$0.model][0]) / startTolerance) }.reduce(0, +)
                / Double(pairs.count))
        let reversed = pairs.filter { $0.backwards < $0.forwards }
        var direction = percent(1 - Double(reversed.count) / Double(pairs.count))
        var strokeOrder =
            pairs.count < 2
            ? 100
            : percent(
                Double(zip(pairs, pairs.dropFirst()).filter { $1.model == $0.model + 1 }.count)
                    / Double(pairs.count - 1))
        // A drawing like nothing in the template has no direction or order to speak of.
        if shape == 0 {
            direction = 0
            strokeOrder = 0
        }
        let score = Int(
            (0.4 * Double(shape) + 0.2 * Double(start) + 0.2 * Double(direction) + 0.2 * Double(strokeOrder)).rounded())
        var tips: [String] = []
        if drawn.count != model.count { tips.append(Tip.strokeCount) }
        if start < tipThreshold { tips.append(Tip.startPoint) }
        if let first = reversed.first {
            switch turning(of: model[first.model]) {
            case .clockwise: tips.append(Tip.directionClockwise)
            case .anticlockwise: tips.append(Tip.directionAnticlockwise)
            case .straight: tips.append(Tip.directionReversed)
            }
        }
        if strokeOrder < 100, pairs.count > 1, shape > 0 { tips.append(Tip.strokeOrder) }
        if shape < tipThreshold { tips.append(Tip.shape) }
        return TraceScore(
            score: score, start: start, direction: direction, strokeOrder: strokeOrder, shape: shape, tips: tips)
    }

    /// Which way a stroke turns as the eye sees it on a page whose y grows downwards.
    package enum Turning: Sendable, Equatable { case clockwise, anticlockwise, straight }

    /// A stroke that encloses (with the chord back to its start) an area of less than a tenth
    /// of its bounding box's is straight: reversing it is a reversed stroke, not a wrong turn.
    package static func turning(of stroke: [TracePoint]) -> Turning {
        guard stroke.count > 2 else { return .straight }
        var twiceArea = 0.0
        for (a, b) in zip(stroke, stroke.dropFirst() + [stroke[0]]) { twiceArea += a.x * b.y - b.x * a.y }
        let xs = stroke.map(\.x)
        let ys = stroke.map(\.y)
        let box = (xs.max()! - xs.min()!) * (ys.max()! - ys.min()!)
        guard box > 0, abs(twiceArea / 2) >= box / 10 else { return .straight }
        // With y downwards, a positive shoelace area is clockwise on the page.
        return twiceArea > 0 ? .clockwise : .anticlockwise
    }

    /// `resampleCount` points evenly spaced along the stroke's length.
    package static func resample(_ stroke: [TracePoint], count: Int = resampleCount) -> [TracePoint] {
        guard stroke.count > 1 else { return Array(repeating: stroke.first ?? TracePoint(x: 0, y: 0), count: count) }
        let segments = zip(stroke, stroke.dropFirst()).map { $0.distance(to: $1) }
        let length = segments.reduce(0, +)
        guard length > 0 else { return Array(repeating: stroke[0], count: count) }
        var points: [TracePoint] = []
        points.reserveCapacity(count)
        var segment = 0
        var covered = 0.0
        for index in 0..<count {
            let target = length * Double(index) / Double(count - 1)
            while segment < segments.count - 1, covered + segments[segment] < target {
                covered += segments[segment]
                segment += 1
            }
            let fraction = segments[segment] > 0 ? min(1, max(0, (target - covered) / segments[segment])) : 0
            let a = stroke[segment]
            let b = stroke[segment + 1]
            points.append(TracePoint(x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction))
        }
        return points
    }

    static func meanDistance(_ a: some Collection<TracePoint>, _ b: [TracePoint]) -> Double {
        zip(a, b).map { $0.distance(to: $1) }.reduce(0, +) / Double(b.count)
    }

    static func percent(_ fraction: Double) -> Int { Int((max(0, min(1, fraction)) * 100).rounded()) }
}
