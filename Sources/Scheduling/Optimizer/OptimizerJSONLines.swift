import Dispatch
import Foundation
package import RoteModel

extension ReplayJSONLines {
    /// Histories read from JSON lines in `rote replay`'s format, for `rote optimize` and
    /// `rote evaluate`: each good line's reviews, in input order, and a diagnostic per bad line
    /// — the very diagnostics `rote replay` gives, since every line goes through the same
    /// reader. Blank lines are skipped. Settings on a line (parameters, steps) are checked as
    /// replay checks them but do not matter here: the optimizer fits its own parameters.
    package static func histories<Line: StringProtocol & Sendable>(
        _ lines: [Line], firstLineNumber: Int = 1
    ) -> (histories: [[ReviewEvent]], diagnostics: [Diagnostic]) {
        var results = [Result<[ReviewEvent], Diagnostic>?](repeating: nil, count: lines.count)
        let chunk = 1_024
        let chunks = (lines.count + chunk - 1) / chunk
        results.withUnsafeMutableBufferPointer { buffer in
            // Each chunk writes only its own slots.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { part in
                for index in (part * chunk)..<min((part + 1) * chunk, lines.count) {
                    let line = lines[index]
                    guard line.contains(where: { !$0.isWhitespace }) else { continue }
                    do throws(LineError) {
                        slots[index] = .success(try History(parsing: line, defaults: defaultSettings).events)
                    } catch {
                        slots[index] = .failure(.error("", firstLineNumber + index, error.message))
                    }
                }
            }
        }
        var histories: [[ReviewEvent]] = []
        var diagnostics: [Diagnostic] = []
        for result in results {
            switch result {
            case .success(let events)?: histories.append(events)
            case .failure(let diagnostic)?: diagnostics.append(diagnostic)
            case nil: break
            }
        }
        return (histories, diagnostics)
    }
}
