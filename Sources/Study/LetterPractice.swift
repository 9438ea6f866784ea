public import Foundation
public import RoteModel
import Scheduling

extension LetterAttempt {
    /// The optional JSON field naming the letter an attempt is at (an entry id such as
    /// `alphabet/a`, its last segment, the glyph id or the character); not stored in the
    /// attempt, since the file it goes into names the letter.
    package static let letterField = "letter"

    /// The `letter` field of an attempt's JSON, if it has one that is text.
    package static func letter(inJSON json: Data) -> String? {
        guard NestingLimit.placeTooDeep(json: json) == nil,
            case let .object(object)? = try? JSONDecoder().decode(JSONValue.self, from: json),
            case let .string(letter)? = object[letterField]
        else { return nil }
        return letter
    }

    /// Seed 003's column names, so a message can point an app still using them to the right one.
    static let seedNames = [
        "strokeOrderScore": "stroke_order", "directionScore": "direction", "shapeScore": "shape", "startScore": "start",
        "hintUsed": "hint_used", "startedAt": "started_at", "completedAt": "completed_at", "durationMs": "duration_ms",
        "rawDrawing": "drawing", "strokeOrder": "stroke_order",
    ]

    /// Reads an attempt from the app's JSON object:
    ///
    /// ```json
    /// {"mode": "memory", "score": 86, "stroke_order": 90, "direction": 80, "shape": 85, "start": 90,
    ///  "tips": ["start-top-right"], "hint_used": false, "started_at": "2026-11-21T10:00:00Z",
    ///  "completed_at": "2026-11-21T10:00:05Z", "duration_ms": 5200, "drawing": [[[10, 20, 0], [12, 24, 16]]]}
    /// ```
    ///
    /// Required: mode (trace|ghost|memory), score and the four sub-scores (whole numbers
    /// 0–100), started_at and completed_at (UTC ISO-8601, completed not before started).
    /// Optional: id, tips (default none), hint_used (default false), duration_ms (default the
    /// time between the timestamps), drawing (default empty; strokes of `[x, y]` or
    /// `[x, y, t]` points). Any other key is an error, so a misspelt field is never dropped
    /// silently.
    ///
    /// - Throws: `LetterAttemptError` naming the field, e.g. `drawing[0][2]: a point is [x, y] or [x, y, t]`.
    package static func parse(json: Data) throws(LetterAttemptError) -> LetterAttempt {
        let root: JSONValue
        // `JSONValue` is decoded recursively: a deep document is refused before it is.
        if let place = NestingLimit.placeTooDeep(json: json) {
            throw LetterAttemptError(
                .invalidJSON, "", "line \(place.line), column \(place.column): \(NestingLimit.jsonMessage)")
        }
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: json)
        } catch {
            throw LetterAttemptError(
                .invalidJSON, "",
                "the attempt is not valid JSON; send one object such as {\"mode\": \"memory\", \"score\": 86, …}")
        }
        guard case let .object(object) = root else {
            throw LetterAttemptError(.wrongType, "", "an attempt must be a JSON object, found \(root.shown)")
        }
        for key in object.keys.sorted() where !fields.contains(key) && key != letterField {
            let hint =
                seedNames[key].map { "; did you mean '\($0)'?" } ?? "; known fields: \(fields.joined(separator: ", "))"
            throw LetterAttemptError(.unknownField, key, "unknown field '\(key)'" + hint)
        }
        let reader = JSONFields(object)
        let id = try reader.string("id")
        let modeText = try reader.string("mode", required: true)!
        guard let mode = Mode(rawValue: modeText) else {
            throw LetterAttemptError(.invalidValue, "mode", "unknown mode '\(modeText)'; use trace, ghost or memory")
        }
        let score = try reader.score("score")
        let strokeOrder = try reader.score("stroke_order")
        let direction = try reader.score("direction")
        let shape = try reader.score("shape")
        let start = try reader.score("start")
        let tips = try reader.strings("tips") ?? []
        let hintUsed = try reader.bool("hint_used") ?? false
        let startedAt = try reader.date("started_at")
        let completedAt = try reader.date("completed_at")
        guard completedAt >= startedAt else {
            throw LetterAttemptError(
                .invalidValue, "completed_at",
                "completed_at \(Timestamp.format(completedAt)) is before started_at \(Timestamp.format(startedAt))")
        }
        let durationMs =
            try reader.int("duration_ms") ?? Int((completedAt.timeIntervalSince(startedAt) * 1000).rounded())
        guard durationMs >= 0 else {
            throw LetterAttemptError(
                .outOfRange, "duration_ms", "duration_ms must not be negative, found \(durationMs)")
        }
        let drawing = try reader.drawing("drawing")
        return LetterAttempt(
            id: id, mode: mode, score: score, strokeOrder: strokeOrder, direction: direction, shape: shape,
            start: start, tips: tips,
            hintUsed: hintUsed, startedAt: startedAt, completedAt: completedAt, durationMs: durationMs, drawing: drawing
        )
    }

    /// `parse(json:)` on text.
    package static func parse(json text: String) throws(LetterAttemptError) -> LetterAttempt {
        try parse(json: Data(text.utf8))
    }

}

/// Why an attempt's JSON was refused: the field (a JSON path such as `drawing[0][2]`, empty
/// for the whole document) and what to do about it.
public struct LetterAttemptError: RoteError, Hashable {
    public enum Code: String, RoteErrorCode {
        public typealias Failure = LetterAttemptError
        case invalidJSON, missingField, unknownField, wrongType, outOfRange, invalidValue
    }

    public var code: Code
    public var field: String
    public var message: String

    public init(_ code: Code, _ field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

/// When a tracing attempt is also a review of the letter for the scheduler.
///
/// Seed 003 records attempts and mastery but leaves spacing to Rote. A memory-mode attempt —
/// the letter drawn without a template — is exactly what a review asks (`rote study`'s letter
/// card: write it from memory, then check), so it counts as one: the app's practice moves the
/// letter's schedule and `rote study` does not ask again for a letter just drawn well. Trace
/// and ghost modes copy over a template, like reading a word card: they count for mastery
/// only.
package enum LetterReview {
    /// The review grade for an attempt, nil when it is not a review (trace, ghost). Under the
    /// deck's pass score (`min_score`, 80) it is `again`; otherwise `Grading`'s rule with the
    /// score as the similarity: under 90 `hard`, else `good` (an app's attempt has no
    /// latency against the learner's median, so never `easy`). A hint caps it at `hard`.
    package static func grade(for attempt: LetterAttempt, rule: DeckManifest.UnlockRule = .init()) -> Grade? {
        guard attempt.mode == .memory else { return nil }
        let answer = Answer(correct: attempt.score >= rule.minScore, similarity: Double(attempt.score) / 100)
        let grade = Grading.grade([answer]) ?? .again
        return attempt.hintUsed ? min(grade, .hard) : grade
    }
}

/// Typed access to a JSON object's fields, throwing errors that name the field.
struct JSONFields {
    let object: [String: JSONValue]

    init(_ object: [String: JSONValue]) { self.object = object }

    func value(_ key: String, required: Bool) throws(LetterAttemptError) -> JSONValue? {
        guard let value = object[key] else {
            if required { throw LetterAttemptError(.missingField, key, "missing required field '\(key)'") }
            return nil
        }
        if case .null = value {
            if required { throw LetterAttemptError(.missingField, key, "'\(key)' is null but required") }
            return nil
        }
        return value
    }

    func string(_ key: String, required: Bool = false) throws(LetterAttemptError) -> String? {
        guard let value = try value(key, required: required) else { return nil }
        guard case let .string(text) = value else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be text, found \(value.shown)")
        }
        return text
    }

    func int(_ key: String, required: Bool = false) throws(LetterAttemptError) -> Int? {
        guard let value = try value(key, required: required) else { return nil }
        guard case let .number(number) = value, number == number.rounded(), abs(number) < 1e15 else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be a whole number, found \(value.shown)")
        }
        return Int(number)
    }

    /// A required whole-number score 0–100.
    func score(_ key: String) throws(LetterAttemptError) -> Int {
        let number = try int(key, required: true)!
        guard (0...100).contains(number) else {
            throw LetterAttemptError(.outOfRange, key, "'\(key)' must be 0…100, found \(number)")
        }
        return number
    }

    func bool(_ key: String) throws(LetterAttemptError) -> Bool? {
        guard let value = try value(key, required: false) else { return nil }
        guard case let .bool(flag) = value else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be true or false, found \(value.shown)")
        }
        return flag
    }

    func date(_ key: String) throws(LetterAttemptError) -> Date {
        let text = try string(key, required: true)!
        guard let date = Timestamp.parse(text) else {
            throw LetterAttemptError(
                .invalidValue, key, "'\(key)' must be a UTC timestamp like 2026-11-21T10:00:00Z, found \"\(text)\"")
        }
        return date
    }

    func strings(_ key: String) throws(LetterAttemptError) -> [String]? {
        guard let value = try value(key, required: false) else { return nil }
        guard case let .array(items) = value else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be a list of text, found \(value.shown)")
        }
        var out: [String] = []
        for (index, item) in items.enumerated() {
            guard case let .string(text) = item else {
                throw LetterAttemptError(.wrongType, "\(key)[\(index)]", "must be text, found \(item.shown)")
            }
            out.append(text)
        }
        return out
    }

    func drawing(_ key: String) throws(LetterAttemptError) -> [[LetterAttempt.Point]] {
        guard let value = try value(key, required: false) else { return [] }
        guard case let .array(strokes) = value else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be a list of strokes, found \(value.shown)")
        }
        let points = strokes.reduce(0) { total, stroke in
            if case let .array(points) = stroke { total + points.count } else { total }
        }
        guard points <= LetterAttempt.maximumPoints else {
            throw LetterAttemptError(.outOfRange, key, LetterAttempt.tooManyPoints(points))
        }
        var drawing: [[LetterAttempt.Point]] = []
        for (strokeIndex, stroke) in strokes.enumerated() {
            let strokePath = "\(key)[\(strokeIndex)]"
            guard case let .array(points) = stroke else {
                throw LetterAttemptError(
                    .wrongType, strokePath, "a stroke must be a list of points, found \(stroke.shown)")
            }
            guard !points.isEmpty else {
                throw LetterAttemptError(.invalidValue, strokePath, "a stroke needs at least one point")
            }
            var line: [LetterAttempt.Point] = []
            for (pointIndex, point) in points.enumerated() {
                let pointPath = "\(strokePath)[\(pointIndex)]"
                guard case let .array(numbers) = point, (2...3).contains(numbers.count) else {
                    throw LetterAttemptError(
                        .wrongType, pointPath, "a point is [x, y] or [x, y, t], found \(point.shown)")
                }
                var values: [Double] = []
                for (index, number) in numbers.enumerated() {
                    guard case let .number(value) = number, value.isFinite else {
                        throw LetterAttemptError(
                            .wrongType, "\(pointPath)[\(index)]", "must be a number, found \(number.shown)")
                    }
                    values.append(value)
                }
                line.append(LetterAttempt.Point(x: values[0], y: values[1], t: values.count == 3 ? values[2] : nil))
            }
            drawing.append(line)
        }
        return drawing
    }
}
