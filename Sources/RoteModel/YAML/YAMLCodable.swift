public import Foundation

/// A file format Rote reads with line-accurate diagnostics and writes in one canonical form.
/// `decode(render(x)) == x` holds for every conforming type (tested for each).
public protocol YAMLCodable: Sendable, Equatable {
    /// Reads the value from a mapping; returns nil when a required part is missing or wrong
    /// (the reason is in `reader.log`).
    init?(reading reader: inout MappingReader)
    /// The canonical YAML form.
    var yamlValue: YAMLValue { get }
    /// A fast reader for the canonical form only, returning nil for any other text so the
    /// general reader (the reference, with diagnostics) takes over. Most types have none.
    static func decodeCanonical(_ data: Data) -> Self?
    /// Whether control characters in the file's text are warned of: true for content people
    /// write and Rote shows (entries, deck and library manifests); learner files hold what
    /// Rote wrote, typed answers included, and a warning there could never be acted on.
    static var warnsOfControlCharacters: Bool { get }
}

extension YAMLCodable {
    /// Parses a whole file. Diagnostics include YAML errors, wrong types and unknown keys.
    public static func decodeCanonical(_ data: Data) -> Self? { nil }

    public static var warnsOfControlCharacters: Bool { false }

    public static func decode(_ data: Data, path: String) -> (Self?, [Diagnostic]) {
        if data.count <= YAMLSource.maximumFileSize, let value = decodeCanonical(data) { return (value, []) }
        let (node, problems) = YAMLSource.parse(data, path: path)
        guard let node else { return (nil, problems) }
        let (value, found) = decode(node, path: path)
        // YAML refuses raw control characters, so one can only come from an escape in a
        // double-quoted scalar (`"\e"`, `"\u001B"`): no backslash, nothing to look for.
        guard warnsOfControlCharacters,
            data.withUnsafeBytes({ bytes in bytes.baseAddress.map { memchr($0, 0x5C, bytes.count) != nil } ?? false })
        else { return (value, problems + found) }
        return (value, problems + found + YAMLSource.controlCharacterWarnings(in: node, path: path))
    }

    public static func decode(_ text: String, path: String) -> (Self?, [Diagnostic]) {
        decode(Data(text.utf8), path: path)
    }

    public static func decode(_ node: YAMLNode, path: String) -> (Self?, [Diagnostic]) {
        var log = DiagnosticLog(path: path)
        guard var reader = MappingReader(node, log: &log) else { return (nil, log.items) }
        let value = Self(reading: &reader)
        reader.finish()
        return (value, reader.log.items)
    }

    /// The canonical file text.
    public func render() -> String { yamlValue.renderDocument() }
}

/// Builds a mapping, leaving out optional keys that hold nothing.
package struct YAMLMapBuilder {
    package private(set) var pairs: [(String, YAMLValue)] = []

    package init() {}

    /// Adds a value; empty lists and mappings are left out, as readers default them.
    package mutating func add(_ key: String, _ value: YAMLValue) {
        if !value.isEmpty || value == .null { pairs.append((key, value)) }
    }

    package mutating func add(_ key: String, _ value: YAMLValue?) {
        if let value, !value.isEmpty { pairs.append((key, value)) }
    }

    package mutating func add(_ key: String, _ text: String?) {
        if let text { pairs.append((key, .string(text))) }
    }

    package mutating func add(_ key: String, _ number: Int?) {
        if let number { pairs.append((key, .int(number))) }
    }

    package mutating func add(_ key: String, _ number: Double?) {
        if let number { pairs.append((key, .double(number))) }
    }

    package mutating func add(_ key: String, _ flag: Bool?) {
        if let flag { pairs.append((key, .bool(flag))) }
    }

    package mutating func add(_ key: String, _ date: Date?) {
        if let date { pairs.append((key, .date(date))) }
    }

    package mutating func add(_ key: String, strings: [String]?) {
        if let strings, !strings.isEmpty { pairs.append((key, .strings(strings))) }
    }

    package func build(flow: Bool = false) -> YAMLValue { .map(pairs, flow: flow) }
}
