public import Foundation
import Yams

/// A YAML value as Rote writes it: the canonical form of every file Rote renders. Mappings
/// keep their key order, so files come out with a fixed layout and diffs stay small.
public indirect enum YAMLValue: Sendable, Hashable {
    /// Text, quoted only when a plain scalar would read back as something else.
    case string(String)
    /// Written exactly as given: numbers, booleans, timestamps.
    case raw(String)
    case null
    /// A sequence; `flow` writes it on one line as `[a, b]`.
    case list([YAMLValue], flow: Bool)
    /// A mapping in key order; `flow` writes it on one line as `{a: 1, b: 2}`.
    case map([(String, YAMLValue)], flow: Bool)

    public static func int(_ value: Int) -> YAMLValue { .raw(String(value)) }
    public static func double(_ value: Double) -> YAMLValue { .raw(YAMLValue.format(value)) }
    /// Steps kept in seconds, written in minutes on one line: `[0, 10, 45]`.
    public static func minuteSteps(_ seconds: [Double]) -> YAMLValue {
        .list(
            seconds.map { seconds in
                let minutes = seconds / 60
                return minutes == minutes.rounded() && abs(minutes) < 1e15 ? .int(Int(minutes)) : .double(minutes)
            }, flow: true)
    }
    public static func bool(_ value: Bool) -> YAMLValue { .raw(value ? "true" : "false") }
    public static func date(_ value: Date) -> YAMLValue { .raw(Timestamp.format(value)) }
    public static func strings(_ values: [String], flow: Bool = true) -> YAMLValue {
        .list(values.map(YAMLValue.string), flow: flow)
    }

    /// Shortest text that reads back as the same Double.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return ".nan" }
        if value.isInfinite { return value > 0 ? ".inf" : "-.inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) + ".0" }
        return "\(value)"
    }

    public static func == (lhs: YAMLValue, rhs: YAMLValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)), let (.raw(a), .raw(b)): return a == b
        case (.null, .null): return true
        case let (.list(a, fa), .list(b, fb)): return a == b && fa == fb
        case let (.map(a, fa), .map(b, fb)):
            return fa == fb && a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case let .string(text), let .raw(text): hasher.combine(text)
        case .null: hasher.combine(0)
        case let .list(items, _): hasher.combine(items)
        case let .map(pairs, _):
            for (key, value) in pairs {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// True for values that write nothing useful (null, empty list or map); renderers skip
    /// optional keys holding them.
    public var isEmpty: Bool {
        switch self {
        case .null: true
        case let .list(items, _): items.isEmpty
        case let .map(pairs, _): pairs.isEmpty
        default: false
        }
    }
}

extension YAMLValue {
    /// Renders a top-level mapping as a whole file (ending in a newline).
    public func renderDocument() -> String {
        var out = ""
        render(into: &out, indent: 0, context: .document)
        if !out.hasSuffix("\n") { out += "\n" }
        return out
    }

    private enum Context { case document, mapValue, listItem }

    private func render(into out: inout String, indent: Int, context: Context) {
        let pad = String(repeating: " ", count: indent)
        switch self {
        case .string, .raw, .null:
            out += inline()
        case let .list(items, flow):
            if flow || items.isEmpty {
                out += inline()
                return
            }
            if context == .mapValue { out += "\n" }
            for (index, item) in items.enumerated() {
                if index > 0 || context == .mapValue { out += pad }
                out += "- "
                item.render(into: &out, indent: indent + 2, context: .listItem)
                if !out.hasSuffix("\n") { out += "\n" }
            }
        case let .map(pairs, flow):
            if flow || pairs.isEmpty {
                out += inline()
                return
            }
            if context == .mapValue { out += "\n" }
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 || context == .mapValue { out += pad }
                out += YAMLValue.quoteIfNeeded(key) + ":"
                switch value {
                case .list(let items, false) where !items.isEmpty:
                    value.render(into: &out, indent: indent + 2, context: .mapValue)
                case .map(let inner, false) where !inner.isEmpty:
                    value.render(into: &out, indent: indent + 2, context: .mapValue)
                default:
                    out += " "
                    value.render(into: &out, indent: indent + 2, context: .mapValue)
                    out += "\n"
                }
            }
        }
    }

    /// The one-line (flow) form.
    public func inline() -> String {
        switch self {
        case let .string(text): return YAMLValue.quoteIfNeeded(text)
        case let .raw(text): return text
        case .null: return "null"
        case let .list(items, _): return "[" + items.map { $0.inline() }.joined(separator: ", ") + "]"
        case let .map(pairs, _):
            return "{" + pairs.map { YAMLValue.quoteIfNeeded($0.0) + ": " + $0.1.inline() }.joined(separator: ", ")
                + "}"
        }
    }

    /// Words a YAML 1.1 reader (libyaml, Yams) takes as booleans or null when unquoted.
    private static let reservedWords: Set<String> = [
        "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n",
    ]

    /// A plain scalar when it reads back as the same string in block and flow context,
    /// otherwise a double-quoted one with JSON-compatible escapes.
    public static func quoteIfNeeded(_ text: String) -> String {
        needsQuotes(text) ? doubleQuoted(text) : text
    }

    static func needsQuotes(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return true }
        if reservedWords.contains(text.lowercased()) { return true }
        if "?:,[]{}#&*!|>'\"%@` \t".unicodeScalars.contains(first) { return true }
        // A leading digit, sign or dot is fine unless YAML would read the text as a number,
        // timestamp or other non-string (ids like `0133e566-…` stay plain).
        if "-+.0123456789".unicodeScalars.contains(first) {
            if first == "-", text.unicodeScalars.dropFirst().first == " " || text == "-" { return true }
            if !isUUID(text), Resolver.default.resolveTag(of: Node(text)) != .str { return true }
        }
        if last == " " || last == ":" || last == "\t" { return true }
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            switch scalar {
            case ",", "[", "]", "{", "}", "\"", "\\": return true
            case "#" where previous == " ": return true
            case " " where previous == ":": return true
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0xFEFF || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    return true
                }
            }
            previous = scalar
        }
        return false
    }

    /// `8-4-4-4-12` hex digits: no YAML number or timestamp has that shape, so review ids
    /// skip the resolver's regular expressions (a large share of writing a progress file).
    static func isUUID(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == 0x2D else { return false }
            } else {
                guard (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
                else { return false }
            }
        }
        return true
    }

    static func doubleQuoted(_ text: String) -> String {
        // Most text needs no escape: one pass over its bytes says so, and it is copied whole.
        // Escaped are ASCII controls, quote and backslash, and (as two- or three-byte
        // sequences) U+0080–U+009F, U+2028, U+2029 and U+FEFF.
        var copy = text
        let plain = copy.withUTF8 { bytes in
            for (index, byte) in bytes.enumerated() {
                switch byte {
                case 0x00..<0x20, 0x22, 0x5C, 0x7F: return false
                case 0xC2 where index + 1 < bytes.count && bytes[index + 1] < 0xA0: return false
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    return false
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF:
                    return false
                default: continue
                }
            }
            return true
        }
        return plain ? "\"" + text + "\"" : escapedDoubleQuoted(text)
    }

    /// `doubleQuoted` scalar by scalar, escaping what must be.
    static func escapedDoubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0xFEFF || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
