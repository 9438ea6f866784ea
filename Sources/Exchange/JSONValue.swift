import Foundation

/// A parsed JSON document that keeps the difference between numbers, booleans and strings
/// (JSONSerialization on Linux does not), so a seed file's `"is_published": 1` is reported as
/// a wrong type instead of silently read as true.
public indirect enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses JSON text; the error names what is wrong and where, as the decoder reports it.
    public static func parse(_ data: Data) -> Result<JSONValue, ParseError> {
        do {
            return .success(try JSONDecoder().decode(JSONValue.self, from: data))
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return .failure(ParseError(message: underlying ?? context.debugDescription))
        } catch {
            return .failure(ParseError(message: "\(error)"))
        }
    }

    public struct ParseError: Error, Sendable, Equatable {
        public var message: String
    }

    /// What kind of value this is, for messages: "a string", "an array".
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var int: Int? {
        if case let .number(value) = self, value == value.rounded(), abs(value) < 9e15 { return Int(value) }
        return nil
    }

    /// JSON text of the value, keys sorted, for writing exports.
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: pretty ? 0 : nil)
        return out
    }

    private func write(into out: inout String, indent: Int?) {
        let newline = indent == nil ? "" : "\n"
        let pad = { (level: Int) in String(repeating: "  ", count: level) }
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .number(value):
            if let int = self.int { out += String(int) } else { out += "\(value)" }
        case let .string(text): out += JSONValue.quote(text)
        case let .array(items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + newline
            for (index, item) in items.enumerated() {
                if let indent { out += pad(indent + 1) }
                item.write(into: &out, indent: indent.map { $0 + 1 })
                out += (index < items.count - 1 ? "," : "") + newline
            }
            if let indent { out += pad(indent) }
            out += "]"
        case let .object(pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{" + newline
            let keys = pairs.keys.sorted()
            for (index, key) in keys.enumerated() {
                if let indent { out += pad(indent + 1) }
                out += JSONValue.quote(key) + (indent == nil ? ":" : ": ")
                pairs[key]!.write(into: &out, indent: indent.map { $0 + 1 })
                out += (index < keys.count - 1 ? "," : "") + newline
            }
            if let indent { out += pad(indent) }
            out += "}"
        }
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
