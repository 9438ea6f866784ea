import RoteModel
import Testing

@testable import LetterTracing

/// corpus/alphabet/a.yaml's template: the bowl anticlockwise from the top right, then the stem down.
let smallABowl: [[Double]] = [
    [68, 46], [58, 40], [46, 40], [36, 46], [32, 60], [36, 74], [46, 80], [58, 80], [68, 72],
]
let smallAStem: [[Double]] = [[68, 40], [68, 80]]
let smallA: [[TracePoint]] = [smallABowl, smallAStem].map { stroke in stroke.map { TracePoint(x: $0[0], y: $0[1]) } }

/// A hand is never exact: every point moved by up to `amount` box units, the same way each run.
func wobbled(_ strokes: [[TracePoint]], by amount: Double) -> [[TracePoint]] {
    strokes.enumerated().map { s, stroke in
        TraceScoring.resample(stroke, count: 20).enumerated().map { (i: Int, p: TracePoint) -> TracePoint in
            let dx: Double = (i + s) % 2 == 0 ? amount : -amount
            let dy: Double = i % 3 == 0 ? -amount : amount
            return TracePoint(x: p.x + dx, y: p.y + dy, t: Double(i * 16))
        }
    }
}

@Test func aPerfectTraceScoresFullMarksWithNoTips() {
    let result = TraceScoring.score(drawing: smallA, template: smallA)
    #expect(result == TraceScore(score: 100, start: 100, direction: 100, strokeOrder: 100, shape: 100, tips: []))
}

@Test func aSteadyHandStillPassesTheUnlockScore() {
    let result = TraceScoring.score(drawing: wobbled(smallA, by: 2), template: smallA)
    #expect(result.score >= 90)
    #expect(result.tips.isEmpty)
}

@Test func aStemDrawnUpwardsIsAReversedStroke() {
    let drawing = [smallA[0], smallA[1].reversed()]
    let result = TraceScoring.score(drawing: drawing, template: smallA)
    #expect(result.direction == 50)
    #expect(result.shape == 100)
    #expect(result.tips.contains(TraceScoring.Tip.directionReversed))
    #expect(result.start == 50, "the stem starts 40 units from its start, past the tolerance")
    #expect(result.tips.contains(TraceScoring.Tip.startPoint))
    #expect(result.score < 100)
}

@Test func aBowlDrawnClockwiseIsToldToGoAnticlockwise() {
    let drawing = [Array(smallA[0].reversed()), smallA[1]]
    let result = TraceScoring.score(drawing: drawing, template: smallA)
    #expect(result.direction == 50)
    #expect(result.tips.contains(TraceScoring.Tip.directionAnticlockwise))
    #expect(!result.tips.contains(TraceScoring.Tip.directionReversed))
}

@Test func theStemBeforeTheBowlIsTheWrongOrder() {
    let drawing = [smallA[1], smallA[0]]
    let result = TraceScoring.score(drawing: drawing, template: smallA)
    #expect(result.strokeOrder == 0)
    #expect(result.shape == 100)
    #expect(result.direction == 100)
    #expect(result.tips == [TraceScoring.Tip.strokeOrder])
    #expect(result.score == 80)
}

@Test func aScribbleFailsOnShape() {
    let zigzag = (0..<40).map { (i: Int) -> TracePoint in
        let x = Double(10 + (i % 2) * 80)
        return TracePoint(x: x, y: Double(10 + i * 2))
    }
    let result = TraceScoring.score(drawing: [zigzag], template: smallA)
    #expect(result.shape < 30)
    #expect(result.score < 40)
    #expect(result.tips.contains(TraceScoring.Tip.shape))
    #expect(result.tips.contains(TraceScoring.Tip.strokeCount))
}

@Test func anEmptyDrawingScoresNothing() {
    let result = TraceScoring.score(drawing: [], template: smallA)
    #expect(result.score == 0)
    #expect(result.tips == [TraceScoring.Tip.strokeCount])
}

@Test func aMissingStrokeCostsShapeAndIsNamed() {
    let result = TraceScoring.score(drawing: [smallA[0]], template: smallA)
    #expect(result.shape == 50)
    #expect(result.tips.contains(TraceScoring.Tip.strokeCount))
}

@Test func turningFollowsThePageNotTheMathsConvention() {
    // corpus/alphabet/o.yaml: from the top, leftwards and down — anticlockwise on the page.
    let corners: [[Double]] = [
        [50, 40], [40, 42], [34, 48], [32, 60], [34, 72], [40, 78], [50, 80], [60, 78], [66, 72], [68, 60], [66, 48],
        [60, 42], [50, 40],
    ]
    let o = corners.map { TracePoint(x: $0[0], y: $0[1]) }
    #expect(TraceScoring.turning(of: o) == .anticlockwise)
    #expect(TraceScoring.turning(of: o.reversed()) == .clockwise)
    #expect(TraceScoring.turning(of: smallA[1]) == .straight)
}

@Test func resamplingSpacesPointsEvenlyAlongTheStroke() {
    let points = TraceScoring.resample(
        [TracePoint(x: 0, y: 0), TracePoint(x: 10, y: 0), TracePoint(x: 10, y: 30)], count: 5)
    #expect(points.map(\.x) == [0, 10, 10, 10, 10])
    #expect(points.map(\.y) == [0, 0, 10, 20, 30])
}
