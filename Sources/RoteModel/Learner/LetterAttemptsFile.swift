public import Foundation

/// One drawing of a letter, scored by the tracing app (seed 003's `LetterAttempt`).
///
/// Rote does not score drawings: the app does, and hands the result over as JSON through
/// `rote letters record`. Rote checks it (`LetterAttempt.parse(json:)` in Study), keeps it in a `LetterAttemptsFile`,
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
        id: String? = nil, mode: Mode, score: Int, strokeOrder: Int, direction: Int, shape: Int, start: Int,
        tips: [String] = [],
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

    /// The most points a drawing may hold, all strokes together. The tracing page samples
    /// pointer moves, about 60 a second: a letter drawn in a few seconds is a few hundred
    /// points, and a minute of drawing is 3 600. More than this is not a drawing of a letter,
    /// and every point is read again whenever the letter's attempts are (`GET /api/letters`,
    /// `check`, a merge), so `rote letters record` and `POST /api/letters/attempts` refuse it.
    package static let maximumPoints = 5000

    /// Why a drawing of `count` points is refused, for `letters record` and the web app.
    package static func tooManyPoints(_ count: Int) -> String {
        "the drawing has \(count) points, more than the \(maximumPoints) Rote records for one attempt; send fewer points (a letter takes a few hundred)"
    }

    /// The JSON field names, in the order files write them.
    public static let fields = [
        "id", "mode", "score", "stroke_order", "direction", "shape", "start", "tips", "hint_used", "started_at",
        "completed_at", "duration_ms", "drawing",
    ]

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
        map.add(
            "drawing",
            .list(
                drawing.map { stroke in
                    .list(
                        stroke.map { point in
                            .list(
                                [Self.number(point.x), Self.number(point.y)]
                                    + (point.t.map { [Self.number($0)] } ?? []), flow: true)
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
                item.log.error(
                    stroke.mark.line, "'\(item.context).drawing[\(strokeIndex + 1)]' must be a list of points")
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
                    item.log.error(
                        point.mark.line,
                        "'\(item.context).drawing[\(strokeIndex + 1)]' has a point that is not [x, y] or [x, y, t]")
                    drawingValid = false
                    continue
                }
                line.append(LetterAttempt.Point(x: numbers[0], y: numbers[1], t: numbers.count == 3 ? numbers[2] : nil))
            }
            drawing.append(line)
        }
        // Kept, as a merge or a rewrite must not drop an attempt, but named: only an app that
        // bypassed `letters record` writes one this big.
        let points = drawing.reduce(0) { $0 + $1.count }
        if points > LetterAttempt.maximumPoints {
            item.warning(
                "drawing",
                "'\(item.context).drawing' has \(points) points, more than the \(LetterAttempt.maximumPoints) Rote records for one attempt; the attempt counts, but every read of this file goes through each point — remove the drawing (the scores stay) if the file is slow to read"
            )
        }
        guard let modeText, let startedAt, let completedAt, let durationMs, drawingValid,
            let score = scores[0], let strokeOrder = scores[1], let direction = scores[2], let shape = scores[3],
            let start = scores[4]
        else { return nil }
        guard let mode = LetterAttempt.Mode(rawValue: modeText) else {
            item.error("mode", "unknown mode '\(modeText)'; use trace, ghost or memory")
            return nil
        }
        return LetterAttempt(
            id: id, mode: mode, score: score, strokeOrder: strokeOrder, direction: direction, shape: shape,
            start: start, tips: tips,
            hintUsed: hintUsed, startedAt: startedAt, completedAt: completedAt, durationMs: durationMs, drawing: drawing
        )
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
