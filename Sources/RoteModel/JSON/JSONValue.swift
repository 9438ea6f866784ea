public import Foundation

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

    /// The value as a message shows it: `the number 3.0`, `the text "x"`, `a list`.
    public var shown: String {
        switch self {
        case .null: "null"
        case .bool: "true/false"
        case .number(let value): "the number \(YAMLValue.format(value))"
        case .string(let text): "the text \"\(text)\""
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Parses JSON text; the error names what is wrong and where (line and column).
    public static func parse(_ data: Data) -> Result<JSONValue, ParseError> {
        if let place = NestingLimit.placeTooDeep(json: data) {
            return .failure(ParseError(message: NestingLimit.jsonMessage, line: place.line, column: place.column))
        }
        do {
            return .success(try JSONDecoder().decode(JSONValue.self, from: data))
        } catch let DecodingError.dataCorrupted(context) {
            // JSONDecoder on Linux says only "The given data was not valid JSON."; the
            // serialization parser says where, as a byte offset or as the end of the file.
            if let located = ParseError.locate(in: data) { return .failure(located) }
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return .failure(ParseError(message: underlying ?? context.debugDescription))
        } catch {
            return .failure(ParseError(message: "\(error)"))
        }
    }

    public struct ParseError: RoteError, Equatable {
        public enum Code: String, RoteErrorCode {
            public typealias Failure = ParseError
            case invalidJSON
        }
        public var code: Code { .invalidJSON }
        public var message: String
        /// 1-based line and column (in characters) of the problem, when known.
        public var line: Int?
        public var column: Int?

        public init(message: String, line: Int? = nil, column: Int? = nil) {
            self.message = message
            self.line = line
            self.column = column
        }

        /// `line 3, column 18`, or empty when the place is not known.
        public var location: String {
            guard let line, let column else { return "" }
            return "line \(line), column \(column)"
        }

        /// The syntax error in `data` with its line and column, from the byte offset
        /// JSONSerialization reports ("… around character 34.", or "line 3, column 18" where
        /// Foundation says so itself) or the end of the file for text cut short. Nil when
        /// JSONSerialization finds no error or does not say where.
        static func locate(in data: Data) -> ParseError? {
            let reason: String
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                return nil
            } catch {
                reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            }
            let bytes = [UInt8](data)
            if let match = reason.firstMatch(of: /line (\d+), column (\d+)/), let line = Int(match.1),
                let column = Int(match.2)
            {
                return ParseError(message: reason, line: line, column: column)
            }
            let offset: Int
            let what: String
            if let match = reason.firstMatch(of: /around character (\d+)/), var at = Int(match.1) {
                // The offset does not count a UTF-8 byte-order mark.
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at += 3 }
                offset = min(at, bytes.count)
                let plain = reason.replacing(/\s?around character \d+\.?/, with: "")
                what = offset < bytes.count ? "\(plain), found \(token(bytes[offset...]))" : plain
            } else if reason.localizedCaseInsensitiveContains("end of file")
                || reason.localizedCaseInsensitiveContains("unexpected end")
            {
                offset = bytes.count
                what = "the file ends before the JSON does (an unclosed {, [ or string)"
            } else {
                return nil
            }
            let before = bytes[..<offset]
            let line = before.filter { $0 == 0x0A }.count + 1
            let hasMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? (hasMark ? 3 : 0)
            let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
            return ParseError(message: what, line: line, column: column)
        }

        /// The token starting at `text`, quoted for a message: one punctuation mark, or a
        /// word or string up to the next space or punctuation (at most 20 bytes).
        private static func token(_ text: ArraySlice<UInt8>) -> String {
            let punctuation = Set("{}[],:".utf8)
            guard let first = text.first else { return "the end of the file" }
            if punctuation.contains(first) { return "'\(Character(UnicodeScalar(first)))'" }
            let word = text.dropFirst().prefix { $0 > 0x20 && !punctuation.contains($0) }.prefix(19)
            return "'" + String(decoding: [first] + word, as: UTF8.self) + "'"
        }
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
        JSONValue.write(self, into: &out, indent: pretty ? 0 : nil)
        return out
    }

    /// The pretty form of this value as it appears nested `indent` levels deep.
    public func serialized(indent: Int) -> String { JSONValue.serialized(self, indent: indent) }

    /// The pretty JSON text of any tree read as JSON, as it appears nested `indent` levels
    /// deep: byte for byte what the tree made into a `JSONValue` would give.
    public static func serialized(_ tree: some JSONWritable, indent: Int) -> String {
        var out = ""
        write(tree, into: &out, indent: indent)
        return out
    }

    /// Indentation by level, made once: an export writes millions of lines.
    private static let pads = (0..<16).map { String(repeating: "  ", count: $0) }

    private static func write<Tree: JSONWritable>(_ tree: Tree, into out: inout String, indent: Int?) {
        let newline = indent == nil ? "" : "\n"
        let pad = { (level: Int) in
            level < JSONValue.pads.count ? JSONValue.pads[level] : String(repeating: "  ", count: level)
        }
        switch tree.jsonNode {
        case let .scalar(value):
            switch value {
            case .array, .object: write(value, into: &out, indent: indent)
            default: value.writeScalar(into: &out)
            }
        case let .array(items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[" + newline
            for (index, item) in items.enumerated() {
                if let indent { out += pad(indent + 1) }
                write(item, into: &out, indent: indent.map { $0 + 1 })
                out += (index < items.count - 1 ? "," : "") + newline
            }
            if let indent { out += pad(indent) }
            out += "]"
        case let .object(pairs):
            if pairs.isEmpty {
                out += "{}"
                return
            }
            // Sorted by key, and of equal keys the last, as a dictionary made from them keeps.
            let order = pairs.indices.sorted {
                pairs[$0].key != pairs[$1].key ? pairs[$0].key < pairs[$1].key : $0 < $1
            }
            var members: [(key: String, value: Tree)] = []
            members.reserveCapacity(order.count)
            for (position, index) in order.enumerated()
            where position + 1 == order.count || pairs[order[position + 1]].key != pairs[index].key {
                members.append(pairs[index])
            }
            out += "{" + newline
            for (index, member) in members.enumerated() {
                if let indent { out += pad(indent + 1) }
                out += JSONValue.quote(member.key) + (indent == nil ? ":" : ": ")
                write(member.value, into: &out, indent: indent.map { $0 + 1 })
                out += (index < members.count - 1 ? "," : "") + newline
            }
            if let indent { out += pad(indent) }
            out += "}"
        }
    }

    /// A scalar's text (containers are written by `write`).
    private func writeScalar(into out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .number(value):
            if let int = self.int { out += String(int) } else { out += "\(value)" }
        case let .string(text): out += JSONValue.quote(text)
        case .array, .object: break
        }
    }

    /// A JSON string literal: YAML's double-quoted form escapes only what JSON allows.
    static func quote(_ text: String) -> String { YAMLValue.doubleQuoted(text) }
}

/// A tree that can be written as JSON text: `JSONValue` itself, or another tree read as JSON
/// (an export writes its YAML values straight to JSON text this way, without making a
/// `JSONValue` with a dictionary for every map).
public protocol JSONWritable {
    var jsonNode: JSONNode<Self> { get }
}

/// One node of a tree read as JSON: a scalar, or a container whose children are trees too.
/// An object's members may come in any order and repeat a key: they are written sorted by
/// key, the last of equal keys kept.
public enum JSONNode<Child> {
    case scalar(JSONValue)
    case array([Child])
    case object([(key: String, value: Child)])
}

extension JSONValue: JSONWritable {
    public var jsonNode: JSONNode<JSONValue> {
        switch self {
        case let .array(items): .array(items)
        case let .object(pairs): .object(pairs.map { (key: $0.key, value: $0.value) })
        default: .scalar(self)
        }
    }

    /// A tree made into a `JSONValue`.
    public init(_ tree: some JSONWritable) {
        switch tree.jsonNode {
        case let .scalar(value): self = value
        case let .array(items): self = .array(items.map { JSONValue($0) })
        case let .object(pairs):
            self = .object(Dictionary(pairs.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { $1 }))
        }
    }
}

/// A pretty-printed JSON object written a member at a time, byte for byte what
/// `JSONValue.object(…).serialized()` gives for the same members: members come in sorted key
/// order, and an array member may be written item by item, so a document of any size is
/// written in bounded memory.
package struct JSONObjectWriter {
    private let sink: (String) throws -> Void
    private var members = 0

    /// Starts the object; `sink` receives the text in order.
    package init(_ sink: @escaping (String) throws -> Void) throws {
        self.sink = sink
        try sink("{")
    }

    private mutating func key(_ key: String) throws {
        try sink((members == 0 ? "\n" : ",\n") + "  " + JSONValue.quote(key) + ": ")
        members += 1
    }

    package mutating func member(_ key: String, _ value: JSONValue) throws {
        try self.key(key)
        try sink(value.serialized(indent: 1))
    }

    /// An array member whose items `produce` hands to the function it is given, one at a time.
    package mutating func arrayMember(_ key: String, _ produce: (_ item: (JSONValue) throws -> Void) throws -> Void)
        throws
    {
        try arrayMember(
            key,
            rendered: { item in
                try withoutActuallyEscaping(item) { item in try produce { try item($0.serialized(indent: 2)) } }
            })
    }

    /// An array member whose items come already rendered as an array item is (`serialized(indent: 2)`),
    /// for a caller that renders them on several cores.
    package mutating func arrayMember(_ key: String, rendered produce: (_ item: (String) throws -> Void) throws -> Void)
        throws
    {
        try self.key(key)
        var items = 0
        let sink = self.sink
        try produce { item in
            try sink((items == 0 ? "[\n" : ",\n") + "    " + item)
            items += 1
        }
        try sink(items == 0 ? "[]" : "\n  ]")
    }

    /// Ends the object.
    package func finish() throws {
        try sink(members == 0 ? "}" : "\n}")
    }
}
