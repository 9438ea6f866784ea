import Foundation
import Yams

/// A YAML document's node tree as Rote reads it: what `MappingReader` and the file types
/// consume. `BlockYAMLReader` builds it directly; a file the block reader declines is read by
/// Yams and its tree converted (`init?(_:)`), so both paths give the same tree — same
/// strings, scalar styles and tags, line and column of every node (a differential test holds
/// them to it).
///
/// Scalars keep their text, style and tag; whether one is null, a number or a boolean is
/// asked of Yams's constructors, so the answers are Yams's. Collections keep their items and
/// mark only: nothing Rote reads looks at their style or tag.
public enum YAMLNode: Sendable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    /// Where a node starts: line and column from 1, the column in Unicode scalars, as
    /// libyaml counts.
    public struct Mark: Sendable, Hashable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    public struct Scalar: Sendable {
        public enum Style: Sendable, Hashable {
            case any, plain, singleQuoted, doubleQuoted, literal, folded
        }

        public var string: String
        public var style: Style
        /// The tag as Yams gives it: "" when there is none on a plain scalar (resolved from the
        /// text when asked), `tag:yaml.org,2002:str` on a quoted one without, else the tag.
        public var tag: String
        public var mark: Mark

        public init(_ string: String, style: Style, tag: String, mark: Mark) {
            self.string = string
            self.style = style
            self.tag = tag
            self.mark = mark
        }
    }

    /// Key-value pairs in file order.
    public struct Mapping: Sendable, RandomAccessCollection {
        public var pairs: [(key: YAMLNode, value: YAMLNode)]
        public var mark: Mark

        public init(_ pairs: [(key: YAMLNode, value: YAMLNode)], mark: Mark) {
            self.pairs = pairs
            self.mark = mark
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { pairs.count }
        public subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) { pairs[position] }
    }

    public struct Sequence: Sendable, RandomAccessCollection {
        public var items: [YAMLNode]
        public var mark: Mark

        public init(_ items: [YAMLNode], mark: Mark) {
            self.items = items
            self.mark = mark
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { items.count }
        public subscript(position: Int) -> YAMLNode { items[position] }
    }

    public var mark: Mark {
        switch self {
        case let .scalar(scalar): scalar.mark
        case let .mapping(mapping): mapping.mark
        case let .sequence(sequence): sequence.mark
        }
    }

    public var scalar: Scalar? {
        if case let .scalar(scalar) = self { return scalar }
        return nil
    }

    /// A scalar's text. A mapping holding a `=` key (YAML's value key) reads as that value's
    /// text, as Yams's `Node.string` has it.
    public var string: String? {
        switch self {
        case let .scalar(scalar): return scalar.string
        case let .mapping(mapping):
            for (key, value) in mapping where key.resolvedTag == Tag.Name.value.rawValue { return value.string }
            return nil
        case .sequence: return nil
        }
    }

    /// Whether Yams reads the node as null: a plain scalar spelt empty, `~` or null.
    public var isNull: Bool {
        guard let scalar else { return false }
        return BlockYAMLReader.isNull(scalar.string, style: scalar.style)
    }

    public var int: Int? {
        guard let scalar else { return nil }
        return BlockYAMLReader.int(scalar.string, style: scalar.style)
    }

    public var float: Double? { scalar.flatMap { Double.construct(from: $0.yams) } }

    public var bool: Bool? { scalar.flatMap { Bool.construct(from: $0.yams) } }

    /// The tag Yams resolves the node to (`tag:yaml.org,2002:int`, …).
    public var resolvedTag: String {
        switch self {
        case let .scalar(scalar):
            switch scalar.tag {
            case Tag.Name.implicit.rawValue: return Resolver.default.resolveTag(of: .scalar(scalar.yams)).rawValue
            case Tag.Name.nonSpecific.rawValue: return Tag.Name.str.rawValue
            default: return scalar.tag
            }
        case .mapping: return Tag.Name.map.rawValue
        case .sequence: return Tag.Name.seq.rawValue
        }
    }
}

// MARK: From and to Yams

extension YAMLNode {
    /// Yams's tree as Rote's, or nil when it holds an alias (`Yams.compose` resolves them all).
    init?(_ node: Node) {
        switch node {
        case let .scalar(scalar):
            self = .scalar(
                Scalar(
                    scalar.string, style: Scalar.Style(scalar.style), tag: scalar.tag.rawValue, mark: Mark(scalar.mark))
            )
        case let .mapping(mapping):
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            pairs.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                guard let key = YAMLNode(key), let value = YAMLNode(value) else { return nil }
                pairs.append((key, value))
            }
            self = .mapping(Mapping(pairs, mark: Mark(mapping.mark)))
        case let .sequence(sequence):
            var items: [YAMLNode] = []
            items.reserveCapacity(sequence.count)
            for item in sequence {
                guard let item = YAMLNode(item) else { return nil }
                items.append(item)
            }
            self = .sequence(Sequence(items, mark: Mark(sequence.mark)))
        case .alias:
            return nil
        }
    }
}

extension YAMLNode.Mark {
    /// Yams's mark; `Yams.compose` gives every node one.
    init(_ mark: Yams.Mark?) {
        self.init(line: mark?.line ?? 0, column: mark?.column ?? 0)
    }
}

extension YAMLNode.Scalar.Style {
    init(_ style: Node.Scalar.Style) {
        switch style {
        case .any: self = .any
        case .plain: self = .plain
        case .singleQuoted: self = .singleQuoted
        case .doubleQuoted: self = .doubleQuoted
        case .literal: self = .literal
        case .folded: self = .folded
        }
    }

    var yams: Node.Scalar.Style {
        switch self {
        case .any: .any
        case .plain: .plain
        case .singleQuoted: .singleQuoted
        case .doubleQuoted: .doubleQuoted
        case .literal: .literal
        case .folded: .folded
        }
    }
}

extension YAMLNode.Scalar {
    /// The scalar as Yams's, without a mark, to ask Yams's constructors what it reads as.
    var yams: Node.Scalar {
        Node.Scalar(string, Tag(Tag.Name(rawValue: tag), .default, sharedConstructor), style.yams)
    }
}

/// Every Yams scalar needs a tag object of its own (resolving one changes it in place), but
/// `Tag(.implicit)` builds a whole new `Constructor`, with its dictionaries, each time. Yams's
/// own parser shares one constructor the same way; it is only ever read.
nonisolated(unsafe) private let sharedConstructor = Constructor.default
