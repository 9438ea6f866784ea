import Foundation
import RoteModel
import Yams

/// One drawing of a letter, scored by the tracing app (seed 003's `LetterAttempt`).
///
/// Rote does not score drawings: the app does, and hands the result over as JSON through
/// `rote letters record`. Rote checks it (`parse(json:)`), keeps it in a `LetterAttemptsFile`,
/// and derives mastery and unlocks from it.
public struct LetterAttempt: Sendable, Equatable {
    /// How much help the learner had: tracing over the letter, over a faint ghost, or from
    /// memory.
    public enum Mode: String, Sendable, Hashable, CaseIterable, Comparable {
        case trace, ghost, memory

        /// trace < ghost < memory, by difficulty.
        public static func < (lhs: Mode, rhs: Mode) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// A point of the learner's drawing in the app's coordinates; `t` is milliseconds since the
    /// attempt started, when the app records it.
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var t: Double?

        public init(x: Double, y: Double, t: Double? = nil) {
            self.x = x
            self.y = y
            self.t = t
        }
    }

    /// A unique id (a UUID) when the app gives one; the attempt's merge key.
    public var id: String?
    public var mode: Mode
    /// Overall score, 0–100.
    public var score: Int
    /// Sub-scores, 0–100.
    public var strokeOrder: Int
    public var direction: Int
    public var shape: Int
    public var start: Int
    /// Coaching tip identifiers (`start-top-right`), stable across localisations.
    public var tips: [String]
    /// Whether the learner played the stroke animation for help.
    public var hintUsed: Bool
    /// Whole seconds, as every Rote timestamp.
    public var startedAt: Date
    public var completedAt: Date
    public var durationMs: Int
    /// Strokes in drawing order, each a list of points.
    public var drawing: [[Point]]

    public init(
        id: String? = nil, mode: Mode, score: Int, strokeOrder: Int, direction: Int, shape: Int, start: Int, tips: [String] = [],
        hintUsed: Bool = false, startedAt: Date, completedAt: Date, durationMs: Int, drawing: [[Point]] = []
    ) {
        self.id = id
        self.mode = mode
        self.score = score
        self.strokeOrder = strokeOrder
        self.direction = direction
        self.shape = shape
        self.start = start
        self.tips = tips
        self.hintUsed = hintUsed
        self.startedAt = Timestamp.wholeSeconds(startedAt)
        self.completedAt = Timestamp.wholeSeconds(completedAt)
        self.durationMs = durationMs
        self.drawing = drawing
    }

    /// The JSON field names, in the order files write them.
    public static let fields = [
        "id", "mode", "score", "stroke_order", "direction", "shape", "start", "tips", "hint_used", "started_at",
        "completed_at", "duration_ms", "drawing",
    ]

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
    public static func parse(json: Data) throws(LetterAttemptError) -> LetterAttempt {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: json)
        } catch {
            throw LetterAttemptError(.invalidJSON, "", "the attempt is not valid JSON; send one object such as {\"mode\": \"memory\", \"score\": 86, …}")
        }
        guard case let .object(object) = root else {
            throw LetterAttemptError(.wrongType, "", "an attempt must be a JSON object, found \(root.kind)")
        }
        for key in object.keys.sorted() where !fields.contains(key) {
            let hint = seedNames[key].map { "; did you mean '\($0)'?" } ?? "; known fields: \(fields.joined(separator: ", "))"
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
            throw LetterAttemptError(.invalidValue, "completed_at", "completed_at \(Timestamp.format(completedAt)) is before started_at \(Timestamp.format(startedAt))")
        }
        let durationMs = try reader.int("duration_ms") ?? Int((completedAt.timeIntervalSince(startedAt) * 1000).rounded())
        guard durationMs >= 0 else { throw LetterAttemptError(.outOfRange, "duration_ms", "duration_ms must not be negative, found \(durationMs)") }
        let drawing = try reader.drawing("drawing")
        return LetterAttempt(
            id: id, mode: mode, score: score, strokeOrder: strokeOrder, direction: direction, shape: shape, start: start, tips: tips,
            hintUsed: hintUsed, startedAt: startedAt, completedAt: completedAt, durationMs: durationMs, drawing: drawing)
    }

    /// `parse(json:)` on text.
    public static func parse(json text: String) throws(LetterAttemptError) -> LetterAttempt {
        try parse(json: Data(text.utf8))
    }

    /// The canonical one-line YAML form (a flow mapping), keys in `fields` order.
    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("id", id)
        map.add("mode", .string(mode.rawValue))
        map.add("score", .int(score))
        map.add("stroke_order", .int(strokeOrder))
        map.add("direction", .int(direction))
        map.add("shape", .int(shape))
        map.add("start", .int(start))
        map.add("tips", strings: tips)
        map.add("hint_used", .bool(hintUsed))
        map.add("started_at", .date(startedAt))
        map.add("completed_at", .date(completedAt))
        map.add("duration_ms", .int(durationMs))
        map.add("drawing", .list(drawing.map { stroke in
            .list(stroke.map { point in
                .list([Self.number(point.x), Self.number(point.y)] + (point.t.map { [Self.number($0)] } ?? []), flow: true)
            }, flow: true)
        }, flow: true))
        return map.build(flow: true)
    }

    /// Whole numbers without a fraction, as apps usually send coordinates and times.
    static func number(_ value: Double) -> YAMLValue {
        value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
    }

    /// The order a file keeps attempts in: by completion, then start, then id.
    public static func fileOrder(_ lhs: LetterAttempt, _ rhs: LetterAttempt) -> Bool {
        if lhs.completedAt != rhs.completedAt { return lhs.completedAt < rhs.completedAt }
        if lhs.startedAt != rhs.startedAt { return lhs.startedAt < rhs.startedAt }
        return (lhs.id ?? "") < (rhs.id ?? "")
    }
}

/// Why an attempt's JSON was refused: the field (a JSON path such as `drawing[0][2]`, empty
/// for the whole document) and what to do about it.
public struct LetterAttemptError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
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

/// The stored attempts at one letter, one attempt per line:
///
/// ```yaml
/// letter: alphabet/a
/// attempts:
///   - {id: 0193…, mode: memory, score: 86, stroke_order: 90, direction: 80, shape: 85, start: 90, tips: [start-top-right], hint_used: false, started_at: 2026-11-21T10:00:00Z, completed_at: 2026-11-21T10:00:05Z, duration_ms: 5200, drawing: [[[10, 20, 0], [12, 24, 16]]]}
/// ```
///
/// Attempts are kept in `LetterAttempt.fileOrder`, so two devices' files merge as a union of
/// lines and a new attempt adds one line to a diff.
public struct LetterAttemptsFile: YAMLCodable {
    /// The letter's entry id, e.g. `alphabet/a`.
    public var letter: String
    public var attempts: [LetterAttempt]

    public init(letter: String, attempts: [LetterAttempt] = []) {
        self.letter = letter
        self.attempts = attempts.sorted(by: LetterAttempt.fileOrder)
    }

    public init?(reading reader: inout MappingReader) {
        let letter = reader.string("letter", required: true)
        attempts = []
        for (index, node) in (reader.list("attempts") ?? []).enumerated() {
            guard var item = reader.item(node, "attempts", index) else { continue }
            if let attempt = Self.readAttempt(&item) { attempts.append(attempt) }
            reader.absorb(item)
        }
        attempts.sort(by: LetterAttempt.fileOrder)
        guard let letter else { return nil }
        self.letter = letter
    }

    static func readAttempt(_ item: inout MappingReader) -> LetterAttempt? {
        let id = item.string("id")
        let modeText = item.string("mode", required: true)
        var scores: [Int?] = []
        for key in ["score", "stroke_order", "direction", "shape", "start"] {
            let value = item.int(key, required: true)
            if let value, !(0...100).contains(value) {
                item.error(key, "'\(item.context).\(key)' must be 0…100, found \(value)")
                scores.append(nil)
            } else {
                scores.append(value)
            }
        }
        let tips = item.strings("tips") ?? []
        let hintUsed = item.bool("hint_used") ?? false
        let startedAt = item.date("started_at", required: true)
        let completedAt = item.date("completed_at", required: true)
        let durationMs = item.int("duration_ms", required: true)
        var drawing: [[LetterAttempt.Point]] = []
        var drawingValid = true
        for (strokeIndex, stroke) in (item.list("drawing") ?? []).enumerated() {
            guard case let .sequence(points) = stroke else {
                item.log.error(stroke.mark?.line, "'\(item.context).drawing[\(strokeIndex + 1)]' must be a list of points")
                drawingValid = false
                continue
            }
            var line: [LetterAttempt.Point] = []
            for point in points {
                let numbers: [Double]? = {
                    guard case let .sequence(values) = point else { return nil }
                    let numbers = values.compactMap { $0.float ?? $0.int.map(Double.init) }
                    return numbers.count == values.count && (2...3).contains(numbers.count) ? numbers : nil
                }()
                guard let numbers else {
                    item.log.error(point.mark?.line, "'\(item.context).drawing[\(strokeIndex + 1)]' has a point that is not [x, y] or [x, y, t]")
                    drawingValid = false
                    continue
                }
                line.append(LetterAttempt.Point(x: numbers[0], y: numbers[1], t: numbers.count == 3 ? numbers[2] : nil))
            }
            drawing.append(line)
        }
        guard let modeText, let startedAt, let completedAt, let durationMs, drawingValid,
            let score = scores[0], let strokeOrder = scores[1], let direction = scores[2], let shape = scores[3], let start = scores[4]
        else { return nil }
        guard let mode = LetterAttempt.Mode(rawValue: modeText) else {
            item.error("mode", "unknown mode '\(modeText)'; use trace, ghost or memory")
            return nil
        }
        return LetterAttempt(
            id: id, mode: mode, score: score, strokeOrder: strokeOrder, direction: direction, shape: shape, start: start, tips: tips,
            hintUsed: hintUsed, startedAt: startedAt, completedAt: completedAt, durationMs: durationMs, drawing: drawing)
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("letter", .string(letter))
        map.add("attempts", .list(attempts.sorted(by: LetterAttempt.fileOrder).map(\.yamlValue), flow: false))
        return map.build()
    }

    /// The file with `attempt` added (an attempt with the same id replaces nothing: the copy
    /// is dropped, as progress reviews are).
    public func adding(_ attempt: LetterAttempt) -> LetterAttemptsFile {
        if let id = attempt.id, attempts.contains(where: { $0.id == id }) { return self }
        return LetterAttemptsFile(letter: letter, attempts: attempts + [attempt])
    }
}

/// What a learner has achieved with one letter, derived from its attempts (seed 003's
/// `LetterMastery`, computed rather than stored, so it never disagrees with the attempts).
public struct LetterMastery: Sendable, Equatable {
    /// The highest score; nil before any attempt.
    public var bestScore: Int?
    /// The mode of the best score; among equal best scores the hardest mode (memory over ghost
    /// over trace).
    public var bestMode: LetterAttempt.Mode?
    public var attemptCount: Int
    /// When the latest attempt was completed.
    public var lastPracticedAt: Date?
    /// Attempts in the rule's mode (memory) scoring at least its `min_score` (seed 003's
    /// `memoryPassCount`).
    public var passes: Int

    public init(attempts: some Collection<LetterAttempt>, rule: DeckManifest.UnlockRule = .init()) {
        attemptCount = attempts.count
        let best = attempts.max { ($0.score, $0.mode) < ($1.score, $1.mode) }
        bestScore = best?.score
        bestMode = best?.mode
        lastPracticedAt = attempts.map(\.completedAt).max()
        passes = attempts.count { $0.mode.rawValue == rule.mode && $0.score >= rule.minScore }
    }

    /// Whether these passes unlock the next letter under `rule`.
    public func unlocksNext(_ rule: DeckManifest.UnlockRule = .init()) -> Bool { passes >= rule.passes }
}

/// Which letters a learner may practise (seed 003's unlock rule, with the deck's numbers).
///
/// Letters go by `order` (then id). The first — order 1 — is always unlocked; each later
/// letter unlocks when the letter just before it has `passes` attempts in the rule's mode
/// scoring at least `min_score` (`DeckManifest.unlock`; default memory mode, 2 passes of 80).
/// Only the letter just before counts, as the seed says.
public enum LetterUnlock {
    /// The unlocked letter ids among `letters`, given each letter's attempts by id.
    public static func unlocked(
        letters: [(id: String, order: Int)], attempts: [String: [LetterAttempt]], rule: DeckManifest.UnlockRule = .init()
    ) -> Set<String> {
        let ordered = letters.sorted { $0.order != $1.order ? $0.order < $1.order : $0.id < $1.id }
        var result = Set<String>()
        for (index, letter) in ordered.enumerated() {
            if index == 0 {
                result.insert(letter.id)
                continue
            }
            let previous = ordered[index - 1].id
            if LetterMastery(attempts: attempts[previous] ?? [], rule: rule).unlocksNext(rule) { result.insert(letter.id) }
        }
        return result
    }

    /// The unlocked letters of a letters deck's entries (other entries are ignored).
    public static func unlocked(entries: [Entry], attempts: [String: [LetterAttempt]], rule: DeckManifest.UnlockRule = .init()) -> Set<String> {
        let letters: [(id: String, order: Int)] = entries.compactMap { entry in
            guard case let .letter(letter) = entry.content else { return nil }
            return (entry.id, letter.order)
        }
        return unlocked(letters: letters, attempts: attempts, rule: rule)
    }
}

/// A parsed JSON value, so every field can be type-checked with a message naming it.
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true/false"
        case .number(let value): "the number \(YAMLValue.format(value))"
        case .string(let text): "the text \"\(text)\""
        case .array: "a list"
        case .object: "an object"
        }
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
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be text, found \(value.kind)")
        }
        return text
    }

    func int(_ key: String, required: Bool = false) throws(LetterAttemptError) -> Int? {
        guard let value = try value(key, required: required) else { return nil }
        guard case let .number(number) = value, number == number.rounded(), abs(number) < 1e15 else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be a whole number, found \(value.kind)")
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
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be true or false, found \(value.kind)")
        }
        return flag
    }

    func date(_ key: String) throws(LetterAttemptError) -> Date {
        let text = try string(key, required: true)!
        guard let date = Timestamp.parse(text) else {
            throw LetterAttemptError(.invalidValue, key, "'\(key)' must be a UTC timestamp like 2026-11-21T10:00:00Z, found \"\(text)\"")
        }
        return date
    }

    func strings(_ key: String) throws(LetterAttemptError) -> [String]? {
        guard let value = try value(key, required: false) else { return nil }
        guard case let .array(items) = value else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be a list of text, found \(value.kind)")
        }
        var out: [String] = []
        for (index, item) in items.enumerated() {
            guard case let .string(text) = item else {
                throw LetterAttemptError(.wrongType, "\(key)[\(index)]", "must be text, found \(item.kind)")
            }
            out.append(text)
        }
        return out
    }

    func drawing(_ key: String) throws(LetterAttemptError) -> [[LetterAttempt.Point]] {
        guard let value = try value(key, required: false) else { return [] }
        guard case let .array(strokes) = value else {
            throw LetterAttemptError(.wrongType, key, "'\(key)' must be a list of strokes, found \(value.kind)")
        }
        var drawing: [[LetterAttempt.Point]] = []
        for (strokeIndex, stroke) in strokes.enumerated() {
            let strokePath = "\(key)[\(strokeIndex)]"
            guard case let .array(points) = stroke else {
                throw LetterAttemptError(.wrongType, strokePath, "a stroke must be a list of points, found \(stroke.kind)")
            }
            guard !points.isEmpty else { throw LetterAttemptError(.invalidValue, strokePath, "a stroke needs at least one point") }
            var line: [LetterAttempt.Point] = []
            for (pointIndex, point) in points.enumerated() {
                let pointPath = "\(strokePath)[\(pointIndex)]"
                guard case let .array(numbers) = point, (2...3).contains(numbers.count) else {
                    throw LetterAttemptError(.wrongType, pointPath, "a point is [x, y] or [x, y, t], found \(point.kind)")
                }
                var values: [Double] = []
                for (index, number) in numbers.enumerated() {
                    guard case let .number(value) = number, value.isFinite else {
                        throw LetterAttemptError(.wrongType, "\(pointPath)[\(index)]", "must be a number, found \(number.kind)")
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
