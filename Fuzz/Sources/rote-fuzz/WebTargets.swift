import Foundation
import LetterTracing
import RoteLibrary
import RoteModel

@testable import RoteServer

enum WebTargets {
    /// A two-stroke letter's template, as a letters deck gives one.
    static let template: [[TracePoint]] = [
        (0...20).map { TracePoint(x: 20 + Double($0) * 3, y: 10 + Double($0) * 4) },
        (0...10).map { TracePoint(x: 30 + Double($0) * 4, y: 50) },
    ]

    /// Any bytes as the body of each call of `rote serve`'s API, read as the server reads them
    /// (`JSONReply.decode`), and what the server then does with them without a library: the
    /// reader's tokens must put the text back together, a drawing must be refused or scored
    /// within 0–100, and the Host header's split must not crash.
    static func request(_ data: Data) {
        _ = try? JSONReply.decode(StartRequest.self, from: data)
        _ = try? JSONReply.decode(ReplyRequest.self, from: data)
        _ = try? JSONReply.decode(RecallRequest.self, from: data)
        _ = try? JSONReply.decode(StatusRequest.self, from: data)
        let text = String(decoding: data, as: UTF8.self)
        for candidate in [(try? JSONReply.decode(ReaderRequest.self, from: data))?.text, text].compactMap({ $0 }) {
            let tokens = ReaderText.tokens(candidate)
            if tokens.map(\.text).joined() != candidate {
                propertyFailed("the reader's tokens do not put the text back together", candidate)
            }
        }
        if let trace = try? JSONReply.decode(TraceRequest.self, from: data), let drawing = try? trace.points() {
            for (index, scored) in [
                TraceScoring.score(drawing: drawing, template: template),
                TraceScoring.score(drawing: template, template: drawing),
            ].enumerated() {
                let parts = [scored.score, scored.start, scored.direction, scored.strokeOrder, scored.shape]
                if !parts.allSatisfy((0...100).contains) {
                    propertyFailed(
                        "a trace score outside 0–100 (\(index == 0 ? "drawing" : "as template"))", "\(parts)")
                }
            }
        }
        _ = AccessPolicy.split(authority: text)
    }
}
