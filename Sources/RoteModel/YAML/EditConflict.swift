import Foundation

/// One value two devices changed differently, as the entry merge (`EntryMerge` in RoteSync)
/// leaves it: the field keeps one value, so the file still loads, and the file's top-level
/// `conflicts:` list keeps the other until the learner picks one.
///
/// ```yaml
/// conflicts:
///   - field: examples[en=I {run} every morning.].ar
///     kept: أنا {أجري} كل صباح.
///     other: أنا {أركض} كل صباح.
/// ```
///
/// Readers of every file type report each record as a warning on its line (`MappingReader`'s
/// `finish`), so `rote check` names the file, the line and both values.
public struct EditConflict: Sendable, Equatable {
    /// The top-level key the records live under.
    public static let key = "conflicts"

    /// Where the value lives in the file: `translation`, `definition.ar`,
    /// `questions[id=reverse].answer`, `examples[en=I {run} every morning.].ar`.
    public var field: String
    /// The value the field holds now.
    public var kept: YAMLValue
    /// The value the other device wrote.
    public var other: YAMLValue
    /// The record's line in the file, when read from one.
    public var line: Int?

    public init(field: String, kept: YAMLValue, other: YAMLValue, line: Int? = nil) {
        self.field = field
        self.kept = kept
        self.other = other
        self.line = line
    }

    /// The record as it is written in the list.
    public var yamlValue: YAMLValue {
        .map([("field", .string(field)), ("kept", kept), ("other", other)], flow: false)
    }

    /// What `rote check`, `rote sync` and `rote merge-driver` say of it.
    public var message: String {
        "two devices changed '\(field)' differently: it keeps \(kept.inline()); the other device wrote \(other.inline()) — put the value you want in '\(field)', then delete this item from '\(Self.key)'"
    }

    /// The records of a file's top-level mapping; none when it has no `conflicts:` list.
    public static func records(in root: YAMLNode) -> [EditConflict] {
        guard case let .mapping(mapping) = root,
            let list = mapping.first(where: { $0.key.string == key })?.value
        else { return [] }
        return records(inList: list)
    }

    /// The records of a `conflicts:` list node; an item that is not a record is skipped.
    static func records(inList list: YAMLNode) -> [EditConflict] {
        guard case let .sequence(items) = list else { return [] }
        return items.compactMap { item in
            guard case let .mapping(record) = item,
                let field = record.first(where: { $0.key.string == "field" })?.value.string
            else { return nil }
            let value = { (name: String) in
                record.first(where: { $0.key.string == name }).map { YAMLValue($0.value) } ?? .null
            }
            return EditConflict(field: field, kept: value("kept"), other: value("other"), line: item.mark.line)
        }
    }
}

extension YAMLValue {
    /// A parsed node as a value to merge and write back: text stays text (quoted where it
    /// must be), a plain number, boolean or date stays as written, and lists of plain values
    /// are written on one line. Comments and the layout of the original are not kept.
    public init(_ node: YAMLNode) {
        switch node {
        case let .scalar(scalar):
            if node.isNull {
                self = .null
            } else if scalar.style == .plain,
                node.resolvedTag != "tag:yaml.org,2002:str" || YAMLValue.needsQuotes(scalar.string)
            {
                // A plain number, date or boolean, or plain text that a flow list would need
                // quoted: written back as it was, in block context (see `flowList`).
                self = .raw(scalar.string)
            } else {
                self = .string(scalar.string)
            }
        case let .mapping(mapping):
            self = .map(
                mapping.map { (pair: (key: YAMLNode, value: YAMLNode)) in
                    (pair.key.string ?? "", YAMLValue(pair.value))
                }, flow: false)
        case let .sequence(sequence):
            self = .flowIfPlain(sequence.map(YAMLValue.init))
        }
    }

    /// A list, written on one line when every item is a scalar that reads back the same
    /// there (`[jog, sprint]`), else one item per line.
    public static func flowIfPlain(_ items: [YAMLValue]) -> YAMLValue {
        let flow =
            !items.isEmpty
            && items.allSatisfy { item in
                switch item {
                case .string, .null: true
                case let .raw(text): !text.contains { ",[]{}".contains($0) }
                case .list, .map: false
                }
            }
        return .list(items, flow: flow)
    }

    /// True for text, a raw scalar or null.
    public var isScalar: Bool {
        switch self {
        case .string, .raw, .null: true
        case .list, .map: false
        }
    }
}
