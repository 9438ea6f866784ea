import Foundation
import RoteModel

/// Reads the fields of one JSON object, naming each problem by its JSON path
/// (`skills[0].slug`), and warning about keys nobody asked for.
struct Record {
    let path: String
    let fields: [String: JSONValue]
    var log: DiagnosticLog
    private var used: Set<String> = []
    private let isObject: Bool

    init(path: String, value: JSONValue, log: DiagnosticLog) {
        self.path = path
        self.log = log
        if case let .object(fields) = value {
            self.fields = fields
            isObject = true
        } else {
            self.fields = [:]
            isObject = false
            self.log.error(path, "must be an object, found \(value.kind)")
        }
    }

    private func at(_ key: String) -> String { key.isEmpty ? path : "\(path).\(key)" }

    func has(_ key: String) -> Bool { fields[key] != nil }

    mutating func error(_ key: String, _ message: String) { log.error(at(key), message) }
    mutating func warning(_ key: String, _ message: String) { log.warning(at(key), message) }

    mutating func ignore(_ keys: [String]) { used.formUnion(keys) }

    /// The value of a key; a missing or null required key is an error.
    mutating func value(_ key: String, required: Bool = false) -> JSONValue? {
        used.insert(key)
        guard isObject else { return nil }
        guard let value = fields[key] else {
            if required { log.error(at(key), "missing required field '\(key)'") }
            return nil
        }
        if value == .null {
            if required { log.error(at(key), "'\(key)' is null; it is required") }
            return nil
        }
        return value
    }

    mutating func string(_ key: String, required: Bool) -> String? {
        guard let value = value(key, required: required) else { return nil }
        guard case let .string(text) = value else {
            log.error(at(key), "'\(key)' must be a string, found \(value.kind)")
            return nil
        }
        return text
    }

    mutating func uuid(_ key: String, required: Bool) -> String? {
        guard let text = string(key, required: required) else { return nil }
        guard UUID(uuidString: text) != nil else {
            log.error(at(key), "'\(text)' is not a UUID (like b3e738f6-245e-401a-8a49-641fdaed1e7a)")
            return nil
        }
        return text.lowercased()
    }

    mutating func int(_ key: String) -> Int? {
        guard let value = value(key, required: true) else { return nil }
        guard let number = value.int else {
            log.error(at(key), "'\(key)' must be a whole number, found \(value.kind)")
            return nil
        }
        return number
    }

    /// An optional number; missing is a warning naming the default.
    mutating func optionalInt(_ key: String, defaultNote: String) -> Int? {
        guard let value = value(key) else {
            log.warning(at(key), "missing optional field '\(key)'; \(defaultNote) is used")
            return nil
        }
        guard let number = value.int else {
            log.error(at(key), "'\(key)' must be a whole number, found \(value.kind)")
            return nil
        }
        return number
    }

    mutating func optionalBool(_ key: String, defaultNote: String) -> Bool? {
        guard let value = value(key) else {
            log.warning(at(key), "missing optional field '\(key)'; \(defaultNote) is used")
            return nil
        }
        guard case let .bool(flag) = value else {
            log.error(at(key), "'\(key)' must be true or false, found \(value.kind)")
            return nil
        }
        return flag
    }

    mutating func strings(_ key: String) -> [String]? {
        guard let value = value(key, required: true) else { return nil }
        guard case let .array(items) = value else {
            log.error(at(key), "'\(key)' must be an array of strings, found \(value.kind)")
            return nil
        }
        var out: [String] = []
        for (index, item) in items.enumerated() {
            guard case let .string(text) = item else {
                log.error(at(key) + "[\(index)]", "must be a string, found \(item.kind)")
                return nil
            }
            out.append(text)
        }
        return out
    }

    mutating func ints(_ key: String) -> [Int]? {
        guard let value = value(key, required: true) else { return nil }
        guard case let .array(items) = value else {
            log.error(at(key), "'\(key)' must be an array of whole numbers, found \(value.kind)")
            return nil
        }
        var out: [Int] = []
        for (index, item) in items.enumerated() {
            guard let number = item.int else {
                log.error(at(key) + "[\(index)]", "must be a whole number, found \(item.kind)")
                return nil
            }
            out.append(number)
        }
        return out
    }

    /// Warns about keys no one read, and hands the log back.
    func finish() -> DiagnosticLog {
        var log = log
        for key in fields.keys.sorted() where !used.contains(key) {
            log.warning(at(key), "unknown key '\(key)' (ignored)")
        }
        return log
    }
}
