package import Foundation

/// Which library paths take which of Rote's merge drivers: the one table behind the tracked
/// `.gitattributes` a new library gets, the `.git/info/attributes` every clone is given by
/// `rote setup-git` and `rote sync`, and `MergeKind.forPath` (RoteSync), which picks the
/// driver for a path in process.
///
/// A library created before a rule existed (say `letters/**`) keeps its old tracked
/// `.gitattributes`; `.git/info/attributes` holds the full table and takes precedence over it
/// for git and libgit2 alike, so every clone merges by the current rules either way.
package enum MergeRules {
    /// One line of the table: a path pattern and the driver kind it takes (the `<kind>` of
    /// `rote merge-driver <kind>`, the driver named `rote-<kind>`).
    package struct Rule: Sendable, Equatable {
        /// A gitattributes pattern relative to the library root, made of literal segments,
        /// `*` (one non-empty segment) and, last, `**` (anything inside the folder).
        package let pattern: String
        package let kind: String

        package var driver: String { MergeRules.driverName(kind) }
        /// The rule as a gitattributes line.
        package var line: String { "\(pattern) merge=\(driver)" }
    }

    package static let rules: [Rule] = [
        Rule(pattern: "\(LibraryPaths.profiles)/*/progress/**", kind: "progress"),
        Rule(pattern: "\(LibraryPaths.profiles)/*/profile.yaml", kind: "profile"),
        Rule(pattern: "\(LibraryPaths.profiles)/*/sessions/**", kind: "immutable"),
        Rule(pattern: "\(LibraryPaths.profiles)/*/saved/**", kind: "immutable"),
        Rule(pattern: "\(LibraryPaths.profiles)/*/letters/**", kind: "letters"),
        Rule(pattern: "\(LibraryPaths.corpus)/**", kind: "entry"),
    ]

    /// The driver name git and libgit2 know a kind by: `rote-progress`, ….
    package static func driverName(_ kind: String) -> String { "rote-\(kind)" }

    /// The tracked `.gitattributes` of a new library.
    package static var gitAttributes: String {
        "# Rote's merge drivers (defined by `rote setup-git`); see docs/sync.md.\n"
            + rules.map { $0.line + "\n" }.joined()
    }

    /// The driver kind for a path relative to the library root, or nil for paths git merges
    /// line by line itself. Matches as git matches the table's patterns: a folder itself
    /// (`profiles/ana/progress`), a trailing slash or an empty segment names no file.
    package static func kind(forPath path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: \.isEmpty) else { return nil }
        return rules.first { matches($0.pattern, segments) }?.kind
    }

    static func matches(_ pattern: String, _ segments: [Substring]) -> Bool {
        let parts = pattern.split(separator: "/")
        for (index, part) in parts.enumerated() {
            if part == "**", index == parts.count - 1 { return segments.count > index }
            guard index < segments.count, part == "*" || part == segments[index] else { return false }
        }
        return segments.count == parts.count
    }

    // MARK: - .git/info/attributes

    static let blockStart =
        "# Rote's merge rules: written by `rote setup-git` and `rote sync` from the current Rote; do not edit."
    static let blockEnd = "# End of Rote's merge rules."

    /// The block of rules in `.git/info/attributes`.
    package static var infoAttributesBlock: String {
        ([blockStart] + rules.map(\.line) + [blockEnd]).map { $0 + "\n" }.joined()
    }

    /// Writes the full table into `<gitDirectory>/info/attributes`, replacing the block an
    /// earlier Rote wrote and keeping every other line there. Untracked, and above the tracked
    /// `.gitattributes` in precedence, so a library whose `.gitattributes` predates a rule
    /// still merges by it. Returns true when the file changed.
    @discardableResult
    package static func installInfoAttributes(gitDirectory: URL) throws -> Bool {
        let url = gitDirectory.appending(path: "info/attributes")
        let existing = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var kept: [Substring] = []
        var inside = false
        for line in existing.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == blockStart {
                inside = true
                continue
            }
            if inside {
                if line == blockEnd { inside = false }
                continue
            }
            kept.append(line)
        }
        while kept.last?.isEmpty == true { kept.removeLast() }
        let updated = kept.map { $0 + "\n" }.joined() + infoAttributesBlock
        guard updated != existing else { return false }
        do {
            try AtomicFile.write(updated, to: url)
        } catch {
            throw LibraryError(
                .gitFailure, "\(error) (Rote's merge rules); make that folder writable, then run `rote setup-git`",
                cause: error)
        }
        return true
    }
}
