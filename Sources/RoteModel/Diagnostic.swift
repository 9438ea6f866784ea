/// A problem found in a file or an input, printed the way compilers do:
/// `corpus/english-a1/run.yaml:12: error: examples[1].en has no {marker}`.
///
/// The one diagnostic of Rote: library files and their checks, imports (where a problem sits
/// at a JSON path such as `skills[0].slug` or a table's `line 12`, given as `location`), and
/// JSON-lines input (`rote replay`, `rote optimize`), whose diagnostics get their path with
/// `inFile(_:)` once the caller knows what to call the input.
public struct Diagnostic: RoteError, Hashable {
    /// A diagnostic is a `RoteError` when it is why something failed (`Result`'s failure):
    /// its `message` is its text, its `description` the whole line with the place.
    public enum Code: String, RoteErrorCode {
        public typealias Failure = Diagnostic
        case fileProblem
    }

    public var code: Code { .fileProblem }

    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Blocks what was asked (an import writes nothing).
        case error
        /// Reported; the rest goes on.
        case warning
        /// An input row left out (of a table import); the rest goes on.
        case skipped

        /// Errors first, then rows left out, then warnings.
        private var rank: Int {
            switch self {
            case .error: 0
            case .skipped: 1
            case .warning: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Path relative to the library root (or as given, for files outside it).
    public var path: String
    /// 1-based line, when the problem has one.
    public var line: Int?
    /// Where in the file, when that is not a line of it: a JSON path (`skills[0].slug`) or a
    /// table's row (`line 12`); empty for the file as a whole. Printed as `path: location:`.
    public var location: String?
    public var severity: Severity
    public var message: String

    public init(path: String, line: Int?, severity: Severity, message: String) {
        self.path = path
        self.line = line
        self.severity = severity
        self.message = message
    }

    public init(path: String, location: String, severity: Severity, message: String) {
        self.path = path
        self.location = location
        self.severity = severity
        self.message = message
    }

    public static func error(_ path: String, _ line: Int?, _ message: String) -> Diagnostic {
        Diagnostic(path: path, line: line, severity: .error, message: message)
    }

    public static func warning(_ path: String, _ line: Int?, _ message: String) -> Diagnostic {
        Diagnostic(path: path, line: line, severity: .warning, message: message)
    }

    /// The same problem, named as being in `path` (a JSON-lines input read before its name
    /// was known: `<stdin>`, or the file given).
    public func inFile(_ path: String) -> Diagnostic {
        var copy = self
        copy.path = path
        return copy
    }

    /// The line a person reads. Messages quote content and paths, which may hold control
    /// characters; they are shown escaped (`\u{1B}`), never sent to the terminal raw.
    public var description: String {
        let place = location.map { $0.isEmpty ? path : "\(path): \($0)" } ?? "\(path):\(line.map(String.init) ?? "1")"
        return ControlCharacters.visible("\(place): \(severity.rawValue): \(message)")
    }

    /// Orders by path, then line, so reports read top to bottom.
    public static func fileOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        if (lhs.line ?? 0) != (rhs.line ?? 0) { return (lhs.line ?? 0) < (rhs.line ?? 0) }
        return lhs.message < rhs.message
    }
}

/// Diagnostics collected while reading one file: a library file's, placed by line, or an
/// import's, placed by location (a JSON path such as `skills[0].slug`, or a table's `line 12`).
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

    public mutating func error(_ location: String, _ message: String) {
        items.append(Diagnostic(path: path, location: location, severity: .error, message: message))
    }

    public mutating func warning(_ location: String, _ message: String) {
        items.append(Diagnostic(path: path, location: location, severity: .warning, message: message))
    }

    /// An input row left out; the rest of the input goes on.
    public mutating func skipped(_ location: String, _ message: String) {
        items.append(Diagnostic(path: path, location: location, severity: .skipped, message: message))
    }

    public mutating func append(contentsOf other: [Diagnostic]) { items.append(contentsOf: other) }

    public var hasErrors: Bool { items.contains { $0.severity == .error } }

    /// True when an error sits at `location` or inside it (`skills[0]` holds `skills[0].slug`).
    public func hasErrors(under location: String) -> Bool {
        items.contains {
            guard $0.severity == .error, let place = $0.location else { return false }
            return place == location || place.hasPrefix(location + ".") || place.hasPrefix(location + "[")
        }
    }
}
