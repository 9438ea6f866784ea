import Dispatch
import Foundation
package import RoteModel

/// Replays histories written as JSON lines — the format of py-fsrs's reference vectors — and
/// writes the state after every review as JSON lines: what `rote replay` prints.
///
/// This is how Rote is compared with py-fsrs (or any FSRS implementation) on any history: both
/// read the same lines, both write the same fields. Input, one object per line:
///
///     {"id": "card-1", "parameters": [21 numbers], "desired_retention": 0.9,
///      "learning_steps_s": [60, 600], "relearning_steps_s": [600], "maximum_interval": 36500,
///      "scheduler": "fsrs", "enable_fuzzing": false,
///      "reviews": [{"at": "2026-11-21T10:00:00Z", "rating": 3, "id": "r1"}, …]}
///
/// Every key but `reviews` may be missing and takes its value from the `defaults` settings;
/// other keys (such as the vectors' `expect`) are ignored. `rating` is 1–4 or
/// again|hard|good|easy; a review's optional `id` feeds fuzz and breaks ties between equal
/// times (without one, its position is used). Output, one line per input line:
///
///     {"id": "card-1", "reviews": [{"state": "learning", "step": 0, "stability": 2.3065,
///      "difficulty": 2.118103970459016, "due": "2026-11-21T10:10:00Z"}, …]}
///
/// With `"scheduler": "sm2"` each review has `ease` and `interval` (days) instead of
/// `stability` and `difficulty`. Doubles print with full round-trip precision.
///
/// Fuzz is off unless a line (or `defaults`) turns it on: py-fsrs's vectors are unfuzzed and
/// its fuzz is random, so comparisons need it off.
///
/// A bad line — malformed JSON, an unknown rating, a timestamp without a zone, reviews out of
/// time order, FSRS parameters of the wrong count or outside py-fsrs's bounds, other invalid
/// settings — gives one diagnostic naming the line number and why, and the next line is
/// processed as usual. Blank lines are skipped. A diagnostic has no path (the input may be a
/// stream); the caller names it with `Diagnostic.inFile(_:)`.
package enum ReplayJSONLines {
    /// Output lines for the good input lines, in input order, and a diagnostic per bad line.
    package struct Output: Sendable, Hashable {
        package var lines: [String] = []
        package var diagnostics: [Diagnostic] = []

        package init(lines: [String] = [], diagnostics: [Diagnostic] = []) {
            self.lines = lines
            self.diagnostics = diagnostics
        }
    }

    /// py-fsrs's defaults with fuzz off.
    package static let defaultSettings = SchedulerSettings.default.withFuzzing(false)

    /// Replays every line of `input` (split on newlines).
    package static func replay(_ input: String, defaults: SchedulerSettings = defaultSettings) -> Output {
        replay(lines: input.split(separator: "\n", omittingEmptySubsequences: false), defaults: defaults)
    }

    /// Replays a sequence of lines, numbering them from 1.
    package static func replay(
        lines: some Sequence<some StringProtocol & Sendable>, defaults: SchedulerSettings = defaultSettings
    ) -> Output {
        var output = Output()
        for result in replayLines(Array(lines), firstLineNumber: 1, defaults: defaults) {
            switch result {
            case .success(let text): output.lines.append(text)
            case .failure(let diagnostic): output.diagnostics.append(diagnostic)
            case nil: break
            }
        }
        return output
    }

    /// Replays lines on every core (each line is a history of its own) and returns what
    /// `replayLine` gives for each, in input order.
    package static func replayLines<Line: StringProtocol & Sendable>(
        _ lines: [Line], firstLineNumber: Int, defaults: SchedulerSettings = defaultSettings
    ) -> [Result<String, Diagnostic>?] {
        var results = [Result<String, Diagnostic>?](repeating: nil, count: lines.count)
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunk = max(1, (lines.count + workers * 4 - 1) / (workers * 4))
        let chunks = (lines.count + chunk - 1) / chunk
        results.withUnsafeMutableBufferPointer { buffer in
            // Each chunk writes only its own slots.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { part in
                for index in (part * chunk)..<min((part + 1) * chunk, lines.count) {
                    slots[index] = replayLine(lines[index], lineNumber: firstLineNumber + index, defaults: defaults)
                }
            }
        }
        return results
    }

    /// Replays one line: its output line, a diagnostic, or nil for a blank line.
    package static func replayLine(
        _ line: some StringProtocol, lineNumber: Int, defaults: SchedulerSettings = defaultSettings
    ) -> Result<String, Diagnostic>? {
        guard line.contains(where: { !$0.isWhitespace }) else { return nil }
        do {
            let history = try History(parsing: line, defaults: defaults)
            let scheduler = Scheduler(settings: history.settings)
            let states = scheduler.history(history.events, entryID: history.id ?? "")
            return .success(write(id: history.id, states: states, scheduler: history.settings.scheduler))
        } catch {
            return .failure(.error("", lineNumber, error.message))
        }
    }

    // MARK: - Reading

    struct LineError: Error {
        var message: String
    }

    /// One input line, checked.
    struct History {
        var id: String?
        var settings: SchedulerSettings
        var events: [ReviewEvent]

        init(parsing line: some StringProtocol, defaults: SchedulerSettings) throws(LineError) {
            let fields: LineFields
            do {
                fields = try JSONDecoder().decode(LineFields.self, from: Data(line.utf8))
            } catch {
                throw LineError(message: Self.message(for: error))
            }
            id = fields.id?.text
            settings = try Self.settings(fields, defaults: defaults)
            events = try Self.events(fields.reviews)
        }

        static func settings(_ fields: LineFields, defaults: SchedulerSettings) throws(LineError) -> SchedulerSettings {
            var scheduler = defaults.scheduler
            if let name = fields.scheduler {
                guard let kind = SchedulerKind(name: name) else {
                    throw LineError(message: "unknown scheduler \"\(name)\" (use fsrs or sm2)")
                }
                scheduler = kind
            }
            var maximumInterval: Int? = nil
            if let days = fields.maximum_interval {
                guard days == days.rounded(), abs(days) < 1e15 else {
                    throw LineError(message: "maximum_interval must be a whole number")
                }
                maximumInterval = Int(days)
            }
            do {
                return try SchedulerSettings(
                    scheduler: scheduler,
                    parameters: fields.parameters ?? defaults.parameters.values,
                    desiredRetention: fields.desired_retention ?? defaults.desiredRetention,
                    learningSteps: fields.learning_steps_s ?? defaults.learningSteps,
                    relearningSteps: fields.relearning_steps_s ?? defaults.relearningSteps,
                    maximumInterval: maximumInterval ?? defaults.maximumInterval,
                    enableFuzzing: fields.enable_fuzzing ?? defaults.enableFuzzing,
                    leechThreshold: defaults.leechThreshold, sm2: defaults.sm2)
            } catch {
                throw LineError(message: error.message)
            }
        }

        static func events(_ reviews: [ReviewFields]?) throws(LineError) -> [ReviewEvent] {
            guard let reviews else {
                throw LineError(message: "missing \"reviews\": expected an array of {\"at\", \"rating\"}")
            }
            var events: [ReviewEvent] = []
            events.reserveCapacity(reviews.count)
            for (index, review) in reviews.enumerated() {
                let place = "reviews[\(index)]"
                guard let atText = review.at else {
                    throw LineError(message: "\(place): missing \"at\" timestamp")
                }
                guard let at = Timestamp.parse(atText) else {
                    throw LineError(
                        message:
                            "\(place): timestamp \"\(atText)\" is not ISO-8601 with a zone, e.g. 2026-11-21T10:00:00Z")
                }
                let grade: Grade
                switch review.rating {
                case .grade(let value)?: grade = value
                case .invalid(let text)?:
                    throw LineError(message: "\(place): unknown rating \(text) (use 1-4 or again, hard, good, easy)")
                case nil: throw LineError(message: "\(place): missing \"rating\"")
                }
                if let previous = events.last, at < previous.at {
                    throw LineError(
                        message:
                            "\(place) at \(atText) is before reviews[\(index - 1)] at \(Timestamp.format(previous.at)); reviews must be in time order"
                    )
                }
                events.append(ReviewEvent(id: review.id ?? Self.positionalID(index), at: at, grade: grade))
            }
            return events
        }

        /// `#000001`: sorts like the position when reviews share a time and have no ids.
        static func positionalID(_ index: Int) -> String {
            let digits = String(index)
            return "#" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        }

        /// Says which key had the wrong kind of value, from where the decoder stopped.
        static func message(for error: any Error) -> String {
            guard let error = error as? DecodingError else { return "malformed JSON: \(error)" }
            let context: DecodingError.Context
            switch error {
            case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c):
                context = c
            @unknown default:
                return "malformed JSON: \(error)"
            }
            let path = context.codingPath
            guard let key = path.first?.stringValue else {
                if case .dataCorrupted = error {
                    let reason = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                    return "malformed JSON: \(reason ?? context.debugDescription)"
                }
                return "malformed line: expected a JSON object"
            }
            switch key {
            case "parameters", "learning_steps_s", "relearning_steps_s": return "\(key) must be an array of numbers"
            case "desired_retention", "maximum_interval": return "\(key) must be a number"
            case "enable_fuzzing": return "\(key) must be true or false"
            case "scheduler", "id": return "\(key) must be a string"
            case "reviews":
                guard path.count > 1, let index = path[1].intValue else {
                    return "\"reviews\" must be an array of {\"at\", \"rating\"}"
                }
                switch path.count > 2 ? path[2].stringValue : "" {
                case "at": return "reviews[\(index)]: \"at\" must be a timestamp string"
                case "id": return "reviews[\(index)]: id must be a string"
                default: return "reviews[\(index)]: expected an object with \"at\" and \"rating\""
                }
            default: return "malformed JSON: \(context.debugDescription)"
            }
        }
    }

    /// The keys of an input line Rote reads, named as in py-fsrs's `Scheduler.to_dict`. Typed,
    /// so `JSONDecoder` reads numbers exactly (Foundation's `JSONSerialization` on Linux can
    /// be one unit in the last place off, which would break parity with py-fsrs's parameters).
    struct LineFields: Decodable {
        var id: FlexibleID?
        var scheduler: String?
        var parameters: [Double]?
        var desired_retention: Double?
        var learning_steps_s: [Double]?
        var relearning_steps_s: [Double]?
        var maximum_interval: Double?
        var enable_fuzzing: Bool?
        var reviews: [ReviewFields]?
    }

    struct ReviewFields: Decodable {
        var at: String?
        var rating: Rating?
        var id: String?
    }

    /// An id written as a string or a number.
    struct FlexibleID: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int64.self) {
                text = String(number)
            } else {
                text = try value.decode(String.self)
            }
        }
    }

    /// A rating as written: a valid grade, or the text of whatever else was there.
    enum Rating: Decodable {
        case grade(Grade)
        case invalid(String)

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) {
                self = Grade(rawValue: number).map(Rating.grade) ?? .invalid(String(number))
            } else if let number = try? value.decode(Double.self) {
                self = .invalid(String(number))
            } else if let name = try? value.decode(String.self) {
                self = Grade(name: name).map(Rating.grade) ?? .invalid("\"\(name)\"")
            } else if let flag = try? value.decode(Bool.self) {
                self = .invalid(String(flag))
            } else {
                self = .invalid("of the wrong kind")
            }
        }
    }

    // MARK: - Writing

    static func write(id: String?, states: [MemoryState], scheduler: SchedulerKind) -> String {
        var out = "{\"id\": "
        out.reserveCapacity(40 + states.count * 140)
        if let id { appendQuoted(id, to: &out) } else { out += "null" }
        out += ", \"reviews\": ["
        for (index, state) in states.enumerated() {
            if index > 0 { out += ", " }
            out += "{\"state\": \"\(state.phase.rawValue)\", \"step\": "
            out += state.step.map(String.init) ?? "null"
            switch scheduler {
            case .fsrs:
                out += ", \"stability\": \(number(state.stability)), \"difficulty\": \(number(state.difficulty))"
            case .sm2:
                out +=
                    ", \"ease\": \(number(state.ease)), \"interval\": \(state.interval.map { String(Int($0)) } ?? "null")"
            }
            out += ", \"due\": \"\(Timestamp.format(state.due))\"}"
        }
        out += "]}"
        return out
    }

    /// Swift's shortest round-trip form; nil as JSON null.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return value.description
    }

    static func appendQuoted(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
