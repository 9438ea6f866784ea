public import AnkiImport
public import Exchange
public import Foundation
import Git
import RoteModel
import RoteStore

/// An import of a skills seed (.json) or a table (.csv, .tsv, .txt) into one deck.
public enum ContentImport: Sendable {
    case seed(SeedImporter)
    case table(TableImporter)

    func plan(_ data: Data, library: LoadedLibrary) -> ImportPlan {
        switch self {
        case .seed(let importer): importer.plan(data, library: library)
        case .table(let importer): importer.plan(data, library: library)
        }
    }
}

extension Library {
    /// Plans the import of `data` (from the file named `file`) and, unless it is blocked by
    /// what it found or `dryRun`, writes it as one commit, all or nothing, refusing to
    /// overwrite content with uncommitted edits. The plan is made under the lock against every
    /// file, since the rules across files apply to the library with the import in place (a
    /// seed's ids must be unique across the library, not only in its deck). Returns the plan
    /// and the commit, nil when nothing was written.
    public func importContent(
        _ data: Data, from file: String, as kind: ContentImport, mode: SeedImporter.Mode, dryRun: Bool
    ) throws -> (plan: ImportPlan, commit: String?) {
        try write(purpose: "import") { git in
            let everything = try LibraryLoader(users: .all, includeSessions: false).load(root)
            let plan = kind.plan(data, library: everything)
            guard !plan.isBlocked, !dryRun, !plan.changes.isEmpty else { return (plan, nil) }
            let commit = try git.apply(
                changes: plan.changes.mapValues { $0 },
                message: CommitMessage(
                    subject: "Import: \(file) into \(plan.deck) — \(plan.contents) (\(mode.rawValue))",
                    body:
                        "\(plan.created) new, \(plan.replaced) replaced, \(plan.unchanged) unchanged, \(plan.kept) kept."
                ),
                protectingUncommittedEdits: true)
            return (plan, commit?.hex)
        }
    }

    /// Imports an Anki package (.apkg, .colpkg): its notes as entries and this learner's review
    /// history as progress, in one commit (`AnkiImporter`).
    public func importAnkiPackage(at url: URL, deck: String?, mapping: AnkiFieldMapping) throws
        -> AnkiImporter.Report
    {
        try LibraryError.surfacing {
            try AnkiImporter(root: root).importPackage(
                at: url, options: .init(deck: deck, mapping: mapping, user: user))
        }
    }
}
