package import Foundation
package import RoteModel

/// The rule for the files Rote rewrites — progress, profiles, letter attempts: **Rote never
/// writes over a file it could not read.** A rewrite keeps only what was understood, so a file
/// with a damaged line (a hand edit, conflict markers, a newer format) would silently lose every
/// review the reader skipped. Such a file is refused with its first problem as `file:line`, and
/// the learner repairs it by hand or with `rote check --repair`, which is explicit, never
/// automatic. Every other file of the library keeps working.
package enum ReadBeforeRewrite {
    /// The file at `path` (library-relative) decoded for a rewrite: nil when there is none, the
    /// value when it reads cleanly, and an `unreadable` error when it has any problem — an error,
    /// or a warning that something in it would be dropped (an unknown key, a repeated review).
    package static func read<File: YAMLCodable>(_ type: File.Type, at path: String, in root: URL) throws -> File? {
        guard let data = FileManager.default.contents(atPath: root.appending(path: path).path) else { return nil }
        return try decode(type, data, at: path)
    }

    /// `read` for bytes already in hand.
    package static func decode<File: YAMLCodable>(_ type: File.Type, _ data: Data, at path: String) throws -> File {
        let (value, problems) = File.decode(data, path: path)
        if let value, problems.isEmpty { return value }
        throw refusal(path: path, problems: problems)
    }

    /// The error a refused rewrite throws: the file's first problem and what to do.
    package static func refusal(path: String, problems: [Diagnostic]) -> LibraryError {
        let ordered = problems.sorted(by: Diagnostic.fileOrder)
        let first = ordered.first { $0.severity == .error } ?? ordered.first
        let more =
            problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"))" : ""
        let problem = first?.description ?? "\(path):1: error: cannot be read"
        return LibraryError(
            .unreadable,
            "\(problem)\(more)\nRote will not write over a file it cannot read in full, so nothing was changed. Fix the line by hand and run `rote check`, or run `rote check --repair` to rebuild the file from the reviews it can still read."
        )
    }
}
