package import Foundation
import Git
package import RoteModel

/// The merge driver for `corpus/**`: entries, deck manifests and anything else a deck holds,
/// edited by hand or by `rote` on two devices.
///
/// 1. git's line merge first. When it is clean and the result is YAML that parses, with no
///    key twice in a mapping, it is taken as it is: comments and layout stay.
/// 2. Otherwise a YAML file is merged by its structure, field by field: a value one side
///    changed wins; lists of plain values keep what either side added and drop what either
///    removed; lists of mappings are matched by identity — an item's `id`, or else its first
///    field (an example's English sentence) — and merged item by item. An item removed on
///    one side and changed on the other is kept: nothing written is lost.
/// 3. A value both sides changed differently is a real conflict. The field keeps the value
///    whose text sorts first, so every device ends with the same bytes whichever merged
///    first, and the other value goes into the file's `conflicts:` list (`EditConflict`),
///    which `rote check` reports with both values. The file always parses.
///
/// Only a side that is not YAML (or a file that is not `.yaml`, such as an image) is left to
/// git's conflict markers, as before.
package enum EntryMerge {
    package static func merge(base: Data?, ours: Data, theirs: Data, path: String) -> MergeOutcome {
        if ours == theirs || theirs == base { return .merged(ours) }
        if ours == base { return .merged(theirs) }
        // The line merge and the choice of "first" below see the sides in a fixed order, so
        // the result does not depend on which device is "ours".
        let (first, second) = ours.lexicographicallyPrecedes(theirs) ? (ours, theirs) : (theirs, ours)
        if let text = try? Repository.mergeText(ancestor: base, ours: first, theirs: second, path: path),
            text.isClean, !path.hasSuffix(".yaml") || isWellFormed(text.contents, path: path)
        {
            return .merged(text.contents)
        }
        guard path.hasSuffix(".yaml") else {
            return .conflict("\(path): both sides changed the same lines")
        }
        guard let firstTree = tree(first, path: path), let secondTree = tree(second, path: path) else {
            return .conflict("\(path): one side is not YAML that parses, so its fields cannot be merged")
        }
        let baseTree = base.flatMap { tree($0, path: path) }
        var merger = StructureMerger()
        let merged = merger.merge(baseTree, firstTree, secondTree, field: "") ?? .map([], flow: false)
        return .merged(Data(merger.recording(into: merged).renderDocument().utf8))
    }

    /// The `conflicts:` records of a merged file: what `rote sync` and `rote merge-driver`
    /// warn of.
    package static func conflicts(in data: Data, path: String) -> [EditConflict] {
        guard let node = YAMLSource.parse(data, path: path).0 else { return [] }
        return EditConflict.records(in: node)
    }

    /// The file as a value, when it parses without errors to a mapping.
    static func tree(_ data: Data, path: String) -> YAMLValue? {
        let (node, problems) = YAMLSource.parse(data, path: path)
        guard let node, case .mapping = node, !problems.contains(where: { $0.severity == .error }) else {
            return nil
        }
        return YAMLValue(node)
    }

    /// YAML that parses to a mapping, with no mapping holding a key twice: a line merge of
    /// two additions in different places can write one key twice, which a reader would take
    /// only one of.
    static func isWellFormed(_ data: Data, path: String) -> Bool {
        let (node, problems) = YAMLSource.parse(data, path: path)
        guard let node, case .mapping = node, !problems.contains(where: { $0.severity == .error }) else {
            return false
        }
        func unique(_ node: YAMLNode) -> Bool {
            switch node {
            case .scalar: return true
            case let .sequence(items): return items.allSatisfy(unique)
            case let .mapping(mapping):
                let keys = mapping.map { $0.key.string ?? "" }
                return Set(keys).count == keys.count && mapping.allSatisfy { unique($0.value) }
            }
        }
        return unique(node)
    }
}

/// The field-by-field merge of two sides, always called with the sides in the same order
/// (`first` sorts before `second`), collecting the real conflicts.
struct StructureMerger {
    private(set) var conflicts: [EditConflict] = []

    /// The merged value, or nil when the field is gone. `field` names it in conflicts.
    mutating func merge(_ base: YAMLValue?, _ first: YAMLValue?, _ second: YAMLValue?, field: String) -> YAMLValue? {
        if first == second { return first }
        if base == first { return second }
        if base == second { return first }
        // Removed on one side, changed on the other: the change is kept.
        guard let first, let second else { return first ?? second }
        switch (first, second) {
        case let (.map(firstPairs, _), .map(secondPairs, _)):
            var basePairs: [(String, YAMLValue)] = []
            if case let .map(pairs, _)? = base { basePairs = pairs }
            return .map(mergePairs(basePairs, firstPairs, secondPairs, field: field), flow: false)
        case let (.list(firstItems, _), .list(secondItems, _)):
            var baseItems: [YAMLValue] = []
            if case let .list(items, _)? = base { baseItems = items }
            return .flowIfPlain(mergeLists(baseItems, firstItems, secondItems, field: field))
        default:
            break
        }
        return conflict(first, second, field: field)
    }

    /// Keys in the first side's order, then the second's new ones; each merged on its own.
    private mutating func mergePairs(
        _ base: [(String, YAMLValue)], _ first: [(String, YAMLValue)], _ second: [(String, YAMLValue)], field: String
    ) -> [(String, YAMLValue)] {
        let baseValues = Dictionary(base, uniquingKeysWith: { kept, _ in kept })
        let firstValues = Dictionary(first, uniquingKeysWith: { kept, _ in kept })
        let secondValues = Dictionary(second, uniquingKeysWith: { kept, _ in kept })
        var keys = first.map(\.0)
        keys += second.map(\.0).filter { firstValues[$0] == nil }
        var merged: [(String, YAMLValue)] = []
        var seen: Set<String> = []
        for key in keys where seen.insert(key).inserted {
            let path = field.isEmpty ? key : "\(field).\(key)"
            if let value = merge(baseValues[key], firstValues[key], secondValues[key], field: path) {
                merged.append((key, value))
            }
        }
        return merged
    }

    /// Lists of mappings matched by identity and merged item by item; any other list (plain
    /// values, a mix, or mappings where two share an identity) as a set in order: what
    /// either side added is kept, what either side removed goes.
    private mutating func mergeLists(
        _ base: [YAMLValue], _ first: [YAMLValue], _ second: [YAMLValue], field: String
    ) -> [YAMLValue] {
        guard let baseKeyed = Self.keyed(base), let firstKeyed = Self.keyed(first),
            let secondKeyed = Self.keyed(second)
        else {
            let removed = Set(base).subtracting(first).union(Set(base).subtracting(second))
            var merged: [YAMLValue] = []
            var seen: Set<YAMLValue> = []
            for item in first + second where !removed.contains(item) && seen.insert(item).inserted {
                merged.append(item)
            }
            return merged
        }
        let baseItems = Dictionary(uniqueKeysWithValues: baseKeyed.map { ($0.identity, $0.item) })
        let firstItems = Dictionary(uniqueKeysWithValues: firstKeyed.map { ($0.identity, $0.item) })
        let secondItems = Dictionary(uniqueKeysWithValues: secondKeyed.map { ($0.identity, $0.item) })
        var order = firstKeyed.map(\.identity)
        order += secondKeyed.map(\.identity).filter { firstItems[$0] == nil }
        var merged: [YAMLValue] = []
        for identity in order {
            let path = "\(field)[\(identity.name)=\(identity.value)]"
            if let item = merge(baseItems[identity], firstItems[identity], secondItems[identity], field: path) {
                merged.append(item)
            }
        }
        return merged
    }

    struct Identity: Hashable {
        var name: String
        var value: String
    }

    /// Each item's identity: its `id`, or else its first field. Nil when an item is not a
    /// mapping or two items share one.
    private static func keyed(_ items: [YAMLValue]) -> [(identity: Identity, item: YAMLValue)]? {
        var seen: Set<Identity> = []
        var keyed: [(identity: Identity, item: YAMLValue)] = []
        for item in items {
            guard case let .map(pairs, _) = item, let named = pairs.first(where: { $0.0 == "id" }) ?? pairs.first,
                named.1.isScalar
            else { return nil }
            let identity = Identity(name: named.0, value: named.1.inline())
            guard seen.insert(identity).inserted else { return nil }
            keyed.append((identity, item))
        }
        return keyed
    }

    /// Both sides changed the value differently: the one whose text sorts first stays in
    /// the field, the other is recorded.
    private mutating func conflict(_ first: YAMLValue, _ second: YAMLValue, field: String) -> YAMLValue {
        let (kept, other) = first.renderDocument() <= second.renderDocument() ? (first, second) : (second, first)
        conflicts.append(EditConflict(field: field.isEmpty ? "(the whole file)" : field, kept: kept, other: other))
        return kept
    }

    /// The merged file with this merge's conflicts added to its `conflicts:` list. Earlier
    /// records stay, even for the same field: each holds a value someone wrote.
    func recording(into merged: YAMLValue) -> YAMLValue {
        guard !conflicts.isEmpty, case var .map(pairs, _) = merged else { return merged }
        var records: [YAMLValue] = []
        if let index = pairs.firstIndex(where: { $0.0 == EditConflict.key }) {
            if case let .list(items, _) = pairs[index].1 { records = items }
            pairs.remove(at: index)
        }
        for record in conflicts.map(\.yamlValue) where !records.contains(record) { records.append(record) }
        pairs.append((EditConflict.key, .list(records, flow: false)))
        return .map(pairs, flow: false)
    }
}
