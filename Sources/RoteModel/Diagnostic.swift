/// A problem found in a library file, printed the way compilers do:
/// `corpus/english-a1/run.yaml:12: error: examples[1].en has no {marker}`.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error, warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    /// Path relative to the library root (or as given, for files outside it).
    public var path: String
    /// 1-based line, when the problem has one.
    public var line: Int?
    public var severity: Severity
    public var message: String

    public init(path: String, line: Int?, severity: Severity, message: String) {
        self.path = path
        self.line = line
        self.severity = severity
        self.message = message
    }

    public static func error(_ path: String, _ line: Int?, _ message: String) -> Diagnostic {
        Diagnostic(path: path, line: line, severity: .error, message: message)
    }

    public static func warning(_ path: String, _ line: Int?, _ message: String) -> Diagnostic {
        Diagnostic(path: path, line: line, severity: .warning, message: message)
    }

    /// The line a person reads. Messages quote content and paths, which may hold control
    /// characters; they are shown escaped (`\u{1B}`), never sent to the terminal raw.
    public var description: String {
        ControlCharacters.visible("\(path):\(line.map(String.init) ?? "1"): \(severity.rawValue): \(message)")
    }

    /// Orders by path, then line, so reports read top to bottom.
    public static func fileOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        if (lhs.line ?? 0) != (rhs.line ?? 0) { return (lhs.line ?? 0) < (rhs.line ?? 0) }
        return lhs.message < rhs.message
    }
}

/// Diagnostics collected while reading one file.
public struct DiagnosticLog: Sendable {
    public let path: String
    public private(set) var items: [Diagnostic] = []

    public init(path: String) { self.path = path }

    public mutating func error(_ line: Int?, _ message: String) {
        items.append(.error(path, line, message))
    }

    public mutating func warning(_ line: Int?, _ message: String) {
        items.append(.warning(path, line, message))
    }

    public mutating func append(contentsOf other: [Diagnostic]) { items.append(contentsOf: other) }

    public var hasErrors: Bool { items.contains { $0.severity == .error } }
}
