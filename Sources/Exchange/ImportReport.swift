import Foundation
import RoteModel
import RoteStore

/// One finding of an import: where (a JSON path such as `skills[0].slug`, or a row of a
/// table), how bad, and what to do.
public struct ImportIssue: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// Blocks the whole import; nothing is written.
        case error
        /// Reported; the import goes on.
        case warning
        /// A table row left out of the import (the rest goes on).
        case skipped
    }

    /// The file imported, as given.
    public var file: String
    /// `skills[0].slug` for JSON, `line 12` for tables; empty for the file as a whole.
    public var location: String
    public var severity: Severity
    public var message: String

    public init(file: String, location: String, severity: Severity, message: String) {
        self.file = file
        self.location = location
        self.severity = severity
        self.message = message
    }

    public var description: String {
        "\(file)\(location.isEmpty ? "" : ": \(location)"): \(severity.rawValue): \(message)"
    }
}

/// What an import will do: the files it writes (library-relative path → bytes), what it
/// found, and a one-line summary for the commit message. Nothing is written until
/// `LibraryGit.apply` runs, and not at all when `isBlocked`.
public struct ImportPlan: Sendable {
    public var deck: String
    public var changes: [String: Data] = [:]
    public var issues: [ImportIssue] = []
    /// Counts by what happens to each item.
    public var created = 0, replaced = 0, unchanged = 0, kept = 0
    /// e.g. "1 domain, 1 skill, 2 questions".
    public var contents = ""

    public init(deck: String) { self.deck = deck }

    /// A plan filled by `fill`, with the issues it logged; a blocked plan keeps no changes,
    /// so nothing of it can be written.
    static func made(deck: String, file: String, fill: (inout ImportPlan, inout IssueLog) -> Void) -> ImportPlan {
        var plan = ImportPlan(deck: deck)
        var log = IssueLog(file: file)
        fill(&plan, &log)
        plan.issues = log.issues
        if plan.isBlocked { plan.changes = [:] }
        return plan
    }

    public var errors: [ImportIssue] { issues.filter { $0.severity == .error } }
    public var isBlocked: Bool { !errors.isEmpty }

    /// Text for a person: counts, then every issue (errors first).
    public func report(dryRun: Bool) -> String {
        var lines: [String] = []
        let order: [ImportIssue.Severity] = [.error, .skipped, .warning]
        for severity in order {
            lines += issues.filter { $0.severity == severity }.map(\.description)
        }
        if isBlocked {
            lines.append("Import blocked: \(errors.count) error\(errors.count == 1 ? "" : "s") above; nothing was written. Fix the file and run the import again.")
        } else {
            let verb = dryRun ? "Would import" : "Imported"
            var counts = "\(created) new, \(replaced) replaced, \(unchanged) unchanged"
            if kept > 0 { counts += ", \(kept) kept as they were" }
            let skipped = issues.filter { $0.severity == .skipped }.count
            if skipped > 0 { counts += ", \(skipped) row\(skipped == 1 ? "" : "s") skipped" }
            lines.append("\(verb) into corpus/\(deck)/: \(contents) (\(counts)).")
        }
        return lines.joined(separator: "\n")
    }
}
