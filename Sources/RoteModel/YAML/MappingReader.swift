public import Foundation

/// Reads the fields of one YAML mapping into typed values, recording a diagnostic with the
/// line for every missing required field, wrong type or unknown key — so one bad field is
/// reported and skipped, and the rest of the file still loads.
///
/// ```swift
/// var reader = MappingReader(node, log: &log, context: "")
/// let word = reader.string("word", required: true)
/// reader.finish()   // warns about keys nobody asked for
/// ```
public struct MappingReader {
    public let node: YAMLNode
    // Keys and values side by side, and which keys a read asked for: scanning the keys
    // touches no node (copying a node retains its payload, a large share of loading).
    private let keyList: [String]
    private let values: [YAMLNode]
    private var used: [Bool]
    /// Dotted path of this mapping inside the file, e.g. `examples[2]`, for messages.
    public let context: String
    public var log: DiagnosticLog

    /// Fails (logging an error) when `node` is not a mapping.
    public init?(_ node: YAMLNode, log: inout DiagnosticLog, context: String = "") {
        guard case let .mapping(mapping) = node else {
            log.error(
                node.mark.line,
                "\(context.isEmpty ? "the file" : context) must be a mapping of keys to values, found \(MappingReader.kind(of: node))"
            )
            return nil
        }
        self.node = node
        self.keyList = mapping.map { $0.key.string ?? "" }
        self.values = mapping.map(\.value)
        self.used = Array(repeating: false, count: keyList.count)
        self.context = context
        self.log = log
    }

    public var line: Int? { node.mark.line }

    /// The keys present, in file order.
    public var keys: [String] { keyList }

    public func has(_ key: String) -> Bool { keyList.contains(key) }

    /// The key as a reader finds it in the file: `settings.desired_retention`.
    public func label(_ key: String) -> String { context.isEmpty ? key : "\(context).\(key)" }

    /// The raw node of a key, marking it as known.
    public mutating func value(_ key: String, required: Bool = false) -> YAMLNode? {
        guard let index = keyList.firstIndex(of: key) else {
            if required { log.error(line, "missing required field '\(label(key))'") }
            return nil
        }
        used[index] = true
        let found = values[index]
        if found.isNull {
            if required { log.error(found.mark.line, "'\(label(key))' is empty but required") }
            return nil
        }
        return found
    }

    public mutating func string(_ key: String, required: Bool = false) -> String? {
        guard let node = value(key, required: required) else { return nil }
        guard case let .scalar(scalar) = node else {
            log.error(node.mark.line, "'\(label(key))' must be text, found \(MappingReader.kind(of: node))")
            return nil
        }
        return scalar.string
    }

    public mutating func int(_ key: String, required: Bool = false) -> Int? {
        guard let node = value(key, required: required) else { return nil }
        guard let number = node.int else {
            log.error(node.mark.line, "'\(label(key))' must be a whole number, found \(MappingReader.describe(node))")
            return nil
        }
        return number
    }

    public mutating func double(_ key: String, required: Bool = false) -> Double? {
        guard let node = value(key, required: required) else { return nil }
        // `.nan` and `.inf` are YAML numbers, but no setting or memory state means one, and
        // each would trap where Rote turns a number into whole days or a percentage.
        if let number = node.float ?? node.int.map(Double.init), number.isFinite { return number }
        log.error(node.mark.line, "'\(label(key))' must be a finite number, found \(MappingReader.describe(node))")
        return nil
    }

    public mutating func bool(_ key: String, required: Bool = false) -> Bool? {
        guard let node = value(key, required: required) else { return nil }
        guard let flag = node.bool else {
            log.error(node.mark.line, "'\(label(key))' must be true or false, found \(MappingReader.describe(node))")
            return nil
        }
        return flag
    }

    public mutating func date(_ key: String, required: Bool = false) -> Date? {
        guard let text = string(key, required: required) else { return nil }
        guard let date = Timestamp.parse(text) else {
            log.error(lineOf(key), "'\(label(key))' must be a UTC timestamp like 2026-11-21T10:00:00Z, found '\(text)'")
            return nil
        }
        return date
    }

    /// A list of text values; a single scalar is not accepted (say `[x]`).
    public mutating func strings(_ key: String, required: Bool = false) -> [String]? {
        guard let items = list(key, required: required) else { return nil }
        var out: [String] = []
        for (index, item) in items.enumerated() {
            guard case let .scalar(scalar) = item else {
                log.error(
                    item.mark.line, "'\(label(key))[\(index + 1)]' must be text, found \(MappingReader.kind(of: item))")
                continue
            }
            out.append(scalar.string)
        }
        return out
    }

    public mutating func ints(_ key: String, required: Bool = false) -> [Int]? {
        guard let items = list(key, required: required) else { return nil }
        var out: [Int] = []
        for (index, item) in items.enumerated() {
            guard let number = item.int else {
                log.error(
                    item.mark.line,
                    "'\(label(key))[\(index + 1)]' must be a whole number, found \(MappingReader.describe(item))")
                continue
            }
            out.append(number)
        }
        return out
    }

    /// Learning or relearning steps: a list of minutes, each 0 or more (`[0, 10, 45]`);
    /// returned in seconds. A bad item is reported and the whole list left unset.
    public mutating func minuteSteps(_ key: String) -> [Double]? {
        guard let items = list(key) else { return nil }
        var seconds: [Double] = []
        for (index, item) in items.enumerated() {
            guard let minutes = item.float ?? item.int.map(Double.init), minutes >= 0, minutes.isFinite else {
                log.error(
                    item.mark.line,
                    "'\(label(key))[\(index + 1)]' must be 0 or more minutes, found \(MappingReader.describe(item)); e.g. [0, 10, 45]"
                )
                return nil
            }
            seconds.append(minutes * 60)
        }
        return seconds
    }

    public mutating func list(_ key: String, required: Bool = false) -> [YAMLNode]? {
        guard let node = value(key, required: required) else { return nil }
        guard case let .sequence(sequence) = node else {
            log.error(node.mark.line, "'\(label(key))' must be a list, found \(MappingReader.kind(of: node))")
            return nil
        }
        return sequence.items
    }

    /// A nested mapping's reader; its diagnostics flow back when passed to `absorb`.
    public mutating func mapping(_ key: String, required: Bool = false) -> MappingReader? {
        guard let node = value(key, required: required) else { return nil }
        var nested = DiagnosticLog(path: log.path)
        let reader = MappingReader(node, log: &nested, context: label(key))
        log.append(contentsOf: nested.items)
        return reader
    }

    /// A mapping of text to text (e.g. `forms`), in file order.
    public mutating func stringMap(_ key: String, required: Bool = false) -> [(String, String)]? {
        guard var nested = mapping(key, required: required) else { return nil }
        var out: [(String, String)] = []
        for name in nested.keys {
            if let text = nested.string(name) { out.append((name, text)) }
        }
        absorb(nested)
        return out
    }

    /// Reads a nested mapping at a list position; give it back with `absorb` when done.
    public mutating func item(_ node: YAMLNode, _ key: String, _ index: Int) -> MappingReader? {
        var nested = DiagnosticLog(path: log.path)
        let reader = MappingReader(node, log: &nested, context: "\(label(key))[\(index + 1)]")
        log.append(contentsOf: nested.items)
        return reader
    }

    /// Takes over a nested reader's diagnostics (after its `finish()`).
    public mutating func absorb(_ nested: MappingReader) {
        var nested = nested
        nested.finish()
        log.append(contentsOf: nested.log.items)
    }

    public mutating func error(_ key: String, _ message: String) {
        log.error(lineOf(key), message)
    }

    public mutating func warning(_ key: String, _ message: String) {
        log.warning(lineOf(key), message)
    }

    /// The line of a key's value, else of the mapping.
    public func lineOf(_ key: String) -> Int? {
        keyList.firstIndex(of: key).map { values[$0].mark.line } ?? line
    }

    /// Warns once about each key that no field read asked for. Call after reading.
    public mutating func finish() {
        for index in keyList.indices where !used[index] {
            // The entry merge's record of values two devices changed differently: each one
            // is reported with both values, and the rest of the file loads as it is.
            if context.isEmpty, keyList[index] == EditConflict.key {
                for conflict in EditConflict.records(inList: values[index]) {
                    log.warning(conflict.line, conflict.message)
                }
                used[index] = true
                continue
            }
            log.warning(values[index].mark.line, "unknown key '\(label(keyList[index]))' (ignored); check its spelling")
            used[index] = true
        }
    }

    static func kind(of node: YAMLNode) -> String {
        switch node {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .scalar: "text"
        }
    }

    static func describe(_ node: YAMLNode) -> String {
        if case let .scalar(scalar) = node { return "'\(scalar.string)'" }
        return kind(of: node)
    }
}
