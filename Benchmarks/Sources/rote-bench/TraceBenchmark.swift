import Foundation
import LetterTracing
import RoteModel

/// Scoring one tracing attempt (`TraceScoring.score`), the work behind the Tracing page's Done:
/// a two-stroke letter drawn with `points` points a stroke, as a pen at 60 Hz gives over a
/// few seconds. The goal is 5 ms an attempt.
///
///     rote-bench trace [--runs K] [--points N]
enum TraceBenchmark {
    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments, allowed: ["runs", "points"])
        let runs = max(1, try options.int("runs", default: 2000))
        let points = max(2, try options.int("points", default: 240))
        // corpus/alphabet/a.yaml's template.
        let template: [[TracePoint]] = [
            [(68, 46), (58, 40), (46, 40), (36, 46), (32, 60), (36, 74), (46, 80), (58, 80), (68, 72)].map {
                TracePoint(x: $0.0, y: $0.1)
            },
            [(68, 40), (68, 80)].map { TracePoint(x: $0.0, y: $0.1) },
        ]
        let drawing = template.map { stroke in
            TraceScoring.resample(stroke, count: points).enumerated().map { index, point in
                TracePoint(
                    x: point.x + sin(Double(index)) * 1.5, y: point.y + cos(Double(index)) * 1.5, t: Double(index) * 16)
            }
        }
        var times: [Double] = []
        var total = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            total &+= TraceScoring.score(drawing: drawing, template: template).score
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        print("trace scoring, \(template.count) strokes × \(points) points, \(runs) runs (score \(total / runs))")
        print(
            String(
                format: "  median %.3f ms · p99 %.3f ms · max %.3f ms (goal ≤ 5 ms)", times[times.count / 2],
                times[times.count * 99 / 100], times.last!))
    }
}
