import Foundation
import RoteModel
import RoteSync
import Scheduling

/// The laws every merge driver keeps, on three arbitrary versions of a file: the input split
/// at NUL bytes into base, ours and theirs (two parts: no base).
///
/// - merge(a, b) and merge(b, a) give the same bytes, or both refuse (a conflict);
/// - merging the result with itself changes nothing: merge(m, m) = m;
/// - progress and letters files are unions: nothing of either side is lost, and merging the
///   result again with either side changes nothing.
enum MergeTargets {
    static func sides(_ data: Data) -> (base: Data?, ours: Data, theirs: Data)? {
        let parts = data.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { Data($0) }
        switch parts.count {
        case 2: return (nil, parts[0], parts[1])
        case 3: return (parts[0], parts[1], parts[2])
        default: return nil
        }
    }

    static func merged(_ outcome: MergeOutcome) -> Data? {
        if case let .merged(data) = outcome { return data }
        return nil
    }

    static func text(_ data: Data?) -> String { data.map { String(decoding: $0, as: UTF8.self) } ?? "nil" }

    static func laws(_ kind: MergeKind, _ data: Data, union: ((Data, Data, Data) -> String?)? = nil) {
        guard let (base, ours, theirs) = sides(data) else { return }
        func merge(_ base: Data?, _ a: Data, _ b: Data) -> Data? {
            merged(
                SemanticMerge.merge(
                    kind: kind, base: base, ours: a, theirs: b, path: "profiles/ana/\(kind)/x/y.yaml",
                    settings: .default))
        }
        let forward = merge(base, ours, theirs)
        let backward = merge(base, theirs, ours)
        if forward != backward {
            propertyFailed(
                "\(kind): merge(a, b) != merge(b, a)",
                "base: \(text(base))\nours: \(text(ours))\ntheirs: \(text(theirs))\n→ \(text(forward))\n← \(text(backward))"
            )
        }
        guard let result = forward else { return }
        let again = merge(base, result, result)
        if again != result { propertyFailed("\(kind): merge(m, m) != m", "m: \(text(result))\nagain: \(text(again))") }
        if let union, let problem = union(ours, theirs, result) {
            propertyFailed(
                "\(kind): \(problem)", "ours: \(text(ours))\ntheirs: \(text(theirs))\nmerged: \(text(result))")
        }
    }

    /// The first id of either side missing from the result, as a problem; nil when none is.
    static func lost(_ sides: [Data], in result: Data, ids: (Data) -> [String]?) -> String? {
        guard let kept = ids(result).map(Set.init) else { return "the merged file does not read" }
        for side in sides {
            if let missing = (ids(side) ?? []).first(where: { !kept.contains($0) }) { return "\(missing) was lost" }
        }
        return nil
    }

    static func progress(_ data: Data) {
        laws(.progress, data) { ours, theirs, result in
            if let problem = lost(
                [ours, theirs], in: result, ids: { ProgressFile.decode($0, path: "p").0?.reviews.map(\.id) })
            {
                return problem
            }
            for side in [ours, theirs]
            where MergeTargets.merged(ProgressMerge.merge(base: nil, ours: result, theirs: side, settings: .default))
                != result
            {
                return "merging a side into the result again changed it"
            }
            return nil
        }
    }

    static func profile(_ data: Data) { laws(.profile, data) }

    static func immutable(_ data: Data) { laws(.immutable, data) }

    static func letters(_ data: Data) {
        laws(.letters, data) { ours, theirs, result in
            lost(
                [ours, theirs], in: result,
                ids: { LetterAttemptsFile.decode($0, path: "l").0?.attempts.compactMap(\.id) })
        }
    }
}
