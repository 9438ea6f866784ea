public import Foundation
public import RoteModel
import RoteStore

/// What an import will do: the files it writes (library-relative path → bytes), what it
/// found, and a one-line summary for the commit message. Nothing is written until
/// `LibraryGit.apply` runs, and not at all when `isBlocked`.
public struct ImportPlan: Sendable {
    public var deck: String
    public var changes: [String: Data] = [:]
    /// What it found, each at its JSON path (`skills[0].slug`) or table row (`line 12`).
    public var issues: [Diagnostic] = []
    /// Counts by what happens to each item.
    public var created = 0, replaced = 0, unchanged = 0, kept = 0
    /// e.g. "1 domain, 1 skill, 2 questions".
    public var contents = ""

    public init(deck: String) { self.deck = deck }

    /// A plan filled by `fill`, with the issues it logged; a blocked plan keeps no changes,
    /// so nothing of it can be written.
    static func made(deck: String, file: String, fill: (inout ImportPlan, inout DiagnosticLog) -> Void) -> ImportPlan {
        var plan = ImportPlan(deck: deck)
        var log = DiagnosticLog(path: file)
        fill(&plan, &log)
        plan.issues = log.items
        if plan.isBlocked { plan.changes = [:] }
        return plan
    }

    public var errors: [Diagnostic] { issues.filter { $0.severity == .error } }
    public var isBlocked: Bool { !errors.isEmpty }

    /// Text for a person: counts, then every issue (errors first).
    public func report(dryRun: Bool) -> String {
        var lines: [String] = []
        let order: [Diagnostic.Severity] = [.error, .skipped, .warning]
        for severity in order {
            lines += issues.filter { $0.severity == severity }.map(\.description)
        }
        if isBlocked {
            lines.append(
                "Import blocked: \(errors.count) error\(errors.count == 1 ? "" : "s") above; nothing was written. Fix the file and run the import again."
            )
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
