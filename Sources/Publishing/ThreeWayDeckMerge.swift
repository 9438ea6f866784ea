import Foundation
import Git

/// Merges three versions of a deck folder file by file: a file changed on one side only takes
/// that side; a text file changed on both is merged line by line as git does
/// (`git_merge_file`); anything else changed on both sides is a conflict, reported with its
/// line, unless a preference settles it.
enum ThreeWayDeckMerge {
    struct Conflict: Equatable {
        var path: String
        var line: Int
        var message: String
    }

    struct Result {
        /// The merged folder: relative path → contents (a path missing here is deleted).
        var files: [String: Data] = [:]
        var conflicts: [Conflict] = []
        var taken: [String] = []
        var merged: [String] = []
        var keptLocal: [String] = []
        var settled: [String] = []

        var summary: String {
            var lines: [String] = []
            if !taken.isEmpty {
                lines.append("- \(taken.count) file\(taken.count == 1 ? "" : "s") taken from the publisher")
            }
            if !merged.isEmpty {
                lines.append(
                    "- \(merged.count) file\(merged.count == 1 ? "" : "s") merged with local edits: \(merged.sorted().joined(separator: ", "))"
                )
            }
            if !keptLocal.isEmpty {
                lines.append(
                    "- \(keptLocal.count) locally edited file\(keptLocal.count == 1 ? "" : "s") kept as they are")
            }
            if !settled.isEmpty {
                lines.append("- conflicts settled by preference in: \(settled.sorted().joined(separator: ", "))")
            }
            return lines.joined(separator: "\n")
        }
    }

    static func merge(
        base: [String: Data], ours: [String: Data], theirs: [String: Data], prefer: PublisherDecks.Preference
    ) -> Result {
        var result = Result()
        for path in Set(base.keys).union(ours.keys).union(theirs.keys).sorted() {
            let (b, o, t) = (base[path], ours[path], theirs[path])
            if o == t {
                if let o { result.files[path] = o }
                continue
            }
            if b == t {
                if let o { result.files[path] = o }
                if b != o { result.keptLocal.append(path) }
                continue
            }
            if b == o {
                if let t { result.files[path] = t }
                result.taken.append(path)
                continue
            }
            // Changed on both sides, differently.
            guard let o, let t else {
                let message =
                    o == nil
                    ? "you removed this file, which the publisher changed"
                    : "the publisher removed this file, which you edited"
                switch prefer {
                case .none: result.conflicts.append(Conflict(path: path, line: 1, message: message))
                case .mine: if let o { result.files[path] = o }
                case .theirs: if let t { result.files[path] = t }
                }
                if prefer != .none { result.settled.append(path) }
                continue
            }
            guard isText(o), isText(t), b.map(isText) ?? true else {
                switch prefer {
                case .none:
                    result.conflicts.append(
                        Conflict(path: path, line: 1, message: "a binary file changed both here and by the publisher"))
                case .mine: result.files[path] = o
                case .theirs: result.files[path] = t
                }
                if prefer != .none { result.settled.append(path) }
                continue
            }
            do {
                let favor: Repository.Favor =
                    switch prefer {
                    case .none: .none
                    case .mine: .ours
                    case .theirs: .theirs
                    }
                let clean = try Repository.mergeText(
                    ancestor: b, ours: o, theirs: t, path: path, oursLabel: "yours", theirsLabel: "publisher")
                if clean.isClean {
                    result.files[path] = clean.contents
                    result.merged.append(path)
                } else if prefer != .none {
                    result.files[path] = try Repository.mergeText(
                        ancestor: b, ours: o, theirs: t, path: path, favor: favor
                    ).contents
                    result.settled.append(path)
                } else {
                    for line in markerLines(clean.contents) {
                        result.conflicts.append(
                            Conflict(
                                path: path, line: line,
                                message: "your edit and the publisher's change touch the same lines"))
                    }
                }
            } catch {
                result.conflicts.append(Conflict(path: path, line: 1, message: "could not be merged (\(error))"))
            }
        }
        return result
    }

    /// Text a line merge can handle: UTF-8 without NUL bytes.
    static func isText(_ data: Data) -> Bool {
        !data.contains(0) && String(data: data, encoding: .utf8) != nil
    }

    /// Where each conflict starts, as a line of *your* file: merged lines outside conflicts
    /// and your side of each conflict are your lines; the markers and the publisher's side are
    /// not (1-based).
    static func markerLines(_ merged: Data) -> [Int] {
        let text = String(decoding: merged, as: UTF8.self)
        var result: [Int] = []
        var yourLine = 0
        var inTheirs = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<<<<<<<") {
                result.append(yourLine + 1)
            } else if line.hasPrefix("=======") {
                inTheirs = true
            } else if line.hasPrefix(">>>>>>>") {
                inTheirs = false
            } else if !inTheirs {
                yourLine += 1
            }
        }
        return result.isEmpty ? [1] : result
    }
}
