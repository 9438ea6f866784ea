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
        (issueLines + [summary(dryRun: dryRun)]).joined(separator: "\n")
    }

    /// Every issue, errors first, then rows left out, then warnings.
    public var issueLines: [String] {
        [Diagnostic.Severity.error, .skipped, .warning].flatMap { severity in
            issues.filter { $0.severity == severity }.map(\.description)
        }
    }

    /// The last line: what was written (or, in a dry run, would be), or why nothing was. A
    /// real run prints it only once the commit is made, so it never claims what failed.
    public func summary(dryRun: Bool) -> String {
        if isBlocked {
            return
                "Import blocked: \(errors.count) error\(errors.count == 1 ? "" : "s") above; nothing was written. Fix the file and run the import again."
        }
        let verb = dryRun ? "Would import" : "Imported"
        var counts = "\(created) new, \(replaced) replaced, \(unchanged) unchanged"
        if kept > 0 { counts += ", \(kept) kept as they were" }
        let skipped = issues.filter { $0.severity == .skipped }.count
        if skipped > 0 { counts += ", \(skipped) row\(skipped == 1 ? "" : "s") skipped" }
        return "\(verb) into \(LibraryPaths.content(deck))/: \(contents) (\(counts))."
    }
}
