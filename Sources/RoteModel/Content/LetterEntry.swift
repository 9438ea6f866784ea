import Foundation
import Yams

/// A letter to trace (the letter-tracing seed): its glyph id, the stroke template an app draws
/// and scores against, and its place in the unlock order.
public struct LetterEntry: YAMLCodable {
    /// Content people write and Rote shows: control characters in it are warned of.
    public static var warnsOfControlCharacters: Bool { true }

    /// A point of a stroke template in the deck's 100×100 box.
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// Stable glyph id matching the app's manifest, e.g. `latin-small-a`.
    public var glyph: String
    public var character: String?
    public var name: String?
    /// Position in the unlock order (1 = unlocked from the start).
    public var order: Int
    /// Strokes in writing order; each is a polyline in pen direction.
    public var strokes: [[Point]]
    /// Coaching tip identifiers, stable across localisations.
    public var tips: [String]

    public init(
        glyph: String, character: String? = nil, name: String? = nil, order: Int, strokes: [[Point]],
        tips: [String] = []
    ) {
        self.glyph = glyph
        self.character = character
        self.name = name
        self.order = order
        self.strokes = strokes
        self.tips = tips
    }

    public init?(reading reader: inout MappingReader) {
        let glyph = reader.string("glyph", required: true)
        character = reader.string("character")
        name = reader.string("name")
        let order = reader.int("order", required: true)
        tips = reader.strings("tips") ?? []
        var strokes: [[Point]] = []
        var valid = true
        for (index, stroke) in (reader.list("strokes", required: true) ?? []).enumerated() {
            guard case let .sequence(points) = stroke, !points.isEmpty else {
                reader.log.error(stroke.mark?.line, "strokes[\(index + 1)] must be a non-empty list of [x, y] points")
                valid = false
                continue
            }
            var polyline: [Point] = []
            for point in points {
                guard case let .sequence(pair) = point, pair.count == 2,
                    let x = pair[0].float ?? pair[0].int.map(Double.init),
                    let y = pair[1].float ?? pair[1].int.map(Double.init)
                else {
                    reader.log.error(point.mark?.line, "strokes[\(index + 1)] has a point that is not [x, y] numbers")
                    valid = false
                    continue
                }
                if !(0...100).contains(x) || !(0...100).contains(y) {
                    reader.log.error(
                        point.mark?.line, "strokes[\(index + 1)] point [\(x), \(y)] lies outside the 0…100 box")
                    valid = false
                }
                polyline.append(Point(x: x, y: y))
            }
            strokes.append(polyline)
        }
        guard let glyph, let order, valid else { return nil }
        if strokes.isEmpty {
            reader.error("strokes", "a letter needs at least one stroke")
            return nil
        }
        self.glyph = glyph
        self.order = order
        self.strokes = strokes
    }

    /// Whole coordinates are written without a fraction, as authors write them.
    static func coordinate(_ value: Double) -> YAMLValue {
        value == value.rounded() && abs(value) < 1e9 ? .int(Int(value)) : .double(value)
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("glyph", .string(glyph))
        map.add("character", character)
        map.add("name", name)
        map.add("order", .int(order))
        map.add(
            "strokes",
            .list(
                strokes.map { stroke in
                    YAMLValue.list(
                        stroke.map { point in
                            YAMLValue.list(
                                [LetterEntry.coordinate(point.x), LetterEntry.coordinate(point.y)], flow: true)
                        }, flow: true)
                }, flow: false))
        map.add("tips", strings: tips)
        return map.build()
    }
}
