import Foundation
import Yams

/// Reads the plain subset of YAML that Rote writes and people usually type — block mappings
/// and sequences, flow mappings and sequences on one line, plain, single- and double-quoted
/// scalars — into the node tree Rote reads (`YAMLNode`), at a fraction of libyaml's cost.
///
/// Yams hashes every mapping key (resolving its tag with regular expressions) to look for
/// duplicates, which made a 100 000-entry library take minutes to read. This reader checks
/// duplicates by text and leaves tags implicit, as libyaml does, so they are resolved only if
/// someone asks. On anything outside the subset — comments, anchors, tags, block scalars,
/// multi-line scalars, tabs, documents markers, odd escapes, a structure it is unsure of — it
/// returns nil and `YAMLSource` hands the text to Yams, which stays the reference and the one
/// that explains errors, and whose tree is converted. A differential test holds the block
/// reader's tree to `Yams.compose`'s (strings, tags, scalar styles, line and column of every
/// node) on every starter file and thousands of mutations.
enum BlockYAMLReader {
    static func parse(_ text: String) -> YAMLNode? {
        read(text, NodeTree())
    }

    /// Every node depth-first as one line each: what it is, where it is, and what it holds —
    /// what the differential test and the fuzz harness compare with `Yams.compose`'s tree
    /// (described the same way by `describe(_: Yams.Node)`).
    static func describe(_ node: YAMLNode) -> [String] {
        let at = "\(node.mark.line):\(node.mark.column)"
        switch node {
        case let .scalar(scalar):
            return ["scalar \(at) \(scalar.style) \(node.resolvedTag) \(scalar.string.debugDescription)"]
        case let .mapping(mapping):
            return ["mapping \(at) \(mapping.count)"] + mapping.flatMap { describe($0.key) + describe($0.value) }
        case let .sequence(sequence):
            return ["sequence \(at) \(sequence.count)"] + sequence.flatMap(describe)
        }
    }

    /// Yams's tree as `describe(_: YAMLNode)` describes Rote's: collections by their items
    /// alone, as Rote's tree keeps no collection style or tag.
    static func describe(_ node: Node) -> [String] {
        let at = node.mark.map { "\($0.line):\($0.column)" } ?? "?"
        switch node {
        case let .scalar(scalar):
            return ["scalar \(at) \(scalar.style) \(node.tag) \(scalar.string.debugDescription)"]
        case let .mapping(mapping):
            return ["mapping \(at) \(mapping.count)"] + mapping.flatMap { describe($0.key) + describe($0.value) }
        case let .sequence(sequence):
            return ["sequence \(at) \(sequence.count)"] + sequence.flatMap(describe)
        case .alias:
            return ["alias \(at)"]
        }
    }

    /// Reads `text` with the same rules into whatever tree `builder` makes of it: the same
    /// verdict on every file, whatever is built.
    static func read<Builder: TreeBuilder>(_ text: String, _ builder: Builder) -> Builder.Value? {
        var text = text
        return text.withUTF8 { bytes in
            // Comments are skipped unread, so what libyaml's reader refuses or counts as a line
            // break anywhere in the text is looked for first (found by fuzzing: a control
            // character in a comment, which libyaml refuses).
            guard !hasCharactersOnlyLibyamlJudges(bytes) else { return nil }
            var reader = Reader(bytes: bytes, builder: builder)
            return reader.document()
        }
    }

    /// True when the text holds a character libyaml's reader refuses (C0 controls but tab and
    /// newline, DEL, C1 controls, U+FFFE, U+FFFF) or reads as a line break or mark this reader
    /// does not (carriage return, NEL, line and paragraph separators, a byte-order mark).
    static func hasCharactersOnlyLibyamlJudges(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A { return true }
            } else if byte == 0x7F {
                return true
            } else if byte == 0xC2 {
                if index + 1 < count, bytes[index + 1] < 0xA0 { return true }
            } else if byte == 0xE2 {
                if index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    return true
                }
            } else if byte == 0xEF {
                if index + 2 < count,
                    (bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF)
                        || (bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE)
                {
                    return true
                }
            }
            index += 1
        }
        return false
    }
}

/// What the block reader makes of the nodes it reads: Rote's node tree (`NodeTree`), or less.
protocol TreeBuilder {
    associatedtype Value
    /// Whether `mark` is ever read: counting a node's column costs a pass over its line.
    static var needsMarks: Bool { get }
    /// Whether a node of this kind at `depth` (the root is 0) is built. One that is not is
    /// read and checked all the same, to its last byte, but no text or list is made of it:
    /// it stands in the tree as `unbuilt`.
    static func builds(_ kind: NodeKind, depth: Int) -> Bool
    /// Whether the value of `key`, in a mapping at `depth`, is built at all: one not built
    /// is read and checked, with everything below it, as any node not built is.
    static func buildsValue(of key: UnsafeBufferPointer<UInt8>, depth: Int) -> Bool
    var unbuilt: Value { get }
    func scalar(_ text: String, style: YAMLNode.Scalar.Style, mark: YAMLNode.Mark) -> Value
    func mapping(_ pairs: [(key: String, keyMark: YAMLNode.Mark, value: Value)], mark: YAMLNode.Mark) -> Value
    func sequence(_ items: [Value], mark: YAMLNode.Mark) -> Value
}

enum NodeKind {
    case scalar, mapping, sequence
}

/// Rote's node tree, as `YAMLSource` hands it to the readers. Tags are those Yams gives:
/// implicit on a plain scalar (resolved from its text when asked), `tag:yaml.org,2002:str` on
/// a quoted one — which is why `"yes"` is text and not a flag.
struct NodeTree: TreeBuilder {
    static var needsMarks: Bool { true }
    static func builds(_ kind: NodeKind, depth: Int) -> Bool { true }
    static func buildsValue(of key: UnsafeBufferPointer<UInt8>, depth: Int) -> Bool { true }
    var unbuilt: YAMLNode {
        .scalar(YAMLNode.Scalar("", style: .plain, tag: "", mark: YAMLNode.Mark(line: 0, column: 0)))
    }

    func scalar(_ text: String, style: YAMLNode.Scalar.Style, mark: YAMLNode.Mark) -> YAMLNode {
        .scalar(YAMLNode.Scalar(text, style: style, tag: style == .plain ? "" : quotedTag, mark: mark))
    }

    func mapping(_ pairs: [(key: String, keyMark: YAMLNode.Mark, value: YAMLNode)], mark: YAMLNode.Mark) -> YAMLNode {
        .mapping(
            YAMLNode.Mapping(pairs.map { (scalar($0.key, style: .plain, mark: $0.keyMark), $0.value) }, mark: mark))
    }

    func sequence(_ items: [YAMLNode], mark: YAMLNode.Mark) -> YAMLNode {
        .sequence(YAMLNode.Sequence(items, mark: mark))
    }
}

/// The tag Yams gives a quoted scalar without one (libyaml's `quoted_implicit`).
let quotedTag = Tag.Name.str.rawValue

/// A mapping's keys so far, to refuse a duplicate, kept as their bytes in the text: a short
/// list searched in place (most mappings have a handful of keys), a set of strings past that.
private struct KeySet {
    private var list: [UnsafeBufferPointer<UInt8>] = []
    private var set: Set<String>?

    /// False when the key was there already.
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        if set == nil {
            for known in list
            where known.count == key.count && memcmp(known.baseAddress!, key.baseAddress!, key.count) == 0 {
                return false
            }
            list.append(key)
            if list.count > 16 { set = Set(list.map { String(decoding: $0, as: UTF8.self) }) }
            return true
        }
        return set!.insert(String(decoding: key, as: UTF8.self)).inserted
    }
}

/// A set of byte values as a 256-entry table: a test is one load, with no branch to
/// mispredict on text that mixes letters, digits and punctuation, and a run of bytes folds
/// into one answer.
final class ByteSet: Sendable {
    private let table: [UInt8]

    init(_ members: [UInt8]) {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in members { table[Int(byte)] = 1 }
        self.table = table
    }

    func contains(_ byte: UInt8) -> Bool { table[Int(byte)] != 0 }

    /// Whether any of the bytes is in the set, in one pass without a branch.
    func containsAny(of bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        table.withUnsafeBufferPointer { table in
            var any: UInt8 = 0
            for byte in bytes { any |= table[Int(byte)] }
            return any != 0
        }
    }

    /// Whether all of the bytes are in the set, in one pass without a branch.
    func containsAll(of bytes: UnsafeRawBufferPointer) -> Bool {
        table.withUnsafeBufferPointer { table in
            var all: UInt8 = 1
            for byte in bytes { all &= table[Int(byte)] }
            return all != 0
        }
    }

    /// Bytes a plain scalar's rules look at twice: controls, `#`, `,`, `:`, brackets and
    /// braces, DEL, and the lead bytes of C1 controls and line separators.
    static let plainScalarSuspects = ByteSet(
        Array(0x00...0x1F) + [0x23, 0x2C, 0x3A, 0x5B, 0x5D, 0x7B, 0x7D, 0x7F, 0xC2, 0xE2])
}

private struct Reader<Builder: TreeBuilder> {
    typealias Value = Builder.Value
    let bytes: UnsafeBufferPointer<UInt8>
    let builder: Builder
    /// Start offsets of the lines (without their newline); blank lines are skipped by `next`.
    var lineStarts: [Int] = []
    var lineEnds: [Int] = []
    var line = 0
    /// Collections open around the one being read; past `NestingLimit.maximumDepth` the file
    /// is declined, and `YAMLSource` reports it before Yams would recurse as deep.
    var nesting = 0
    /// The last offset `mark` counted a column for.
    var lastMark = (line: -1, offset: 0, column: 1)

    init(bytes: UnsafeBufferPointer<UInt8>, builder: Builder) {
        self.bytes = bytes
        self.builder = builder
        lineStarts.reserveCapacity(bytes.count / 16 + 1)
        lineEnds.reserveCapacity(bytes.count / 16 + 1)
        var start = 0
        if let base = bytes.baseAddress {
            while start < bytes.count, let newline = memchr(base + start, 0x0A, bytes.count - start) {
                let index = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                lineStarts.append(start)
                lineEnds.append(index)
                start = index + 1
            }
        }
        if start < bytes.count {
            lineStarts.append(start)
            lineEnds.append(bytes.count)
        }
    }

    struct Failure: Error {}

    mutating func enterCollection() throws {
        nesting += 1
        if nesting > NestingLimit.maximumDepth { throw Failure() }
    }

    // MARK: Lines

    func indentation(of line: Int) -> Int {
        var offset = lineStarts[line]
        while offset < lineEnds[line], bytes[offset] == 0x20 { offset += 1 }
        return offset - lineStarts[line]
    }

    /// Empty, spaces only, or a comment on a line of its own: YAML ignores all three.
    func isBlank(_ line: Int) -> Bool {
        let offset = lineStarts[line] + indentation(of: line)
        return offset == lineEnds[line] || bytes[offset] == 0x23
    }

    /// Moves past blank lines; false at the end of the text.
    mutating func skipBlankLines() -> Bool {
        while line < lineStarts.count, isBlank(line) { line += 1 }
        return line < lineStarts.count
    }

    /// Line and column (both from 1, the column in Unicode scalars, as libyaml counts) of an offset.
    ///
    /// Nodes are marked in the order they come, so counting goes on from the last mark on the
    /// same line: counting each from the line's start made a line of 32 000 drawing points
    /// (one letter attempt) take seconds to read.
    mutating func mark(_ offset: Int, line: Int) -> YAMLNode.Mark {
        guard Builder.needsMarks else { return YAMLNode.Mark(line: line + 1, column: 0) }
        var column = 1
        var index = lineStarts[line]
        if lastMark.line == line, lastMark.offset <= offset {
            column = lastMark.column
            index = lastMark.offset
        }
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        lastMark = (line, offset, column)
        return YAMLNode.Mark(line: line + 1, column: column)
    }

    // MARK: Document

    mutating func document() -> Value? {
        // A byte-order mark, a tab, a carriage return or a NUL anywhere: leave it to Yams.
        if let base = bytes.baseAddress {
            for byte: Int32 in [0x09, 0x0D, 0x00, 0xEF] where memchr(base, byte, bytes.count) != nil { return nil }
        }
        guard skipBlankLines(), indentation(of: line) == 0 else { return nil }
        do {
            // The root must be a mapping: a block sequence at the top is left to Yams.
            guard !isSequenceItem(lineStarts[line]) else { return nil }
            let root = try blockNode(indent: 0, depth: 0)
            guard !skipBlankLines() else { return nil }
            return root
        } catch {
            return nil
        }
    }

    /// The depth a node not built is read at: deeper than any text nests, so nothing below
    /// it is built either.
    static var notBuilt: Int { 1 << 40 }

    func building(_ kind: NodeKind, _ depth: Int) -> Bool {
        depth < Self.notBuilt && Builder.builds(kind, depth: depth)
    }

    /// The depth to read the value of `key` at, in a mapping at `depth`.
    func depthOfValue(of key: UnsafeBufferPointer<UInt8>, builds: Bool, depth: Int) -> Int {
        builds && Builder.buildsValue(of: key, depth: depth) ? depth + 1 : Self.notBuilt
    }

    /// A block mapping or sequence whose first line is `line`, indented by `indent`.
    mutating func blockNode(indent: Int, depth: Int) throws -> Value {
        let start = lineStarts[line] + indent
        if isSequenceItem(start) { return try blockSequence(indent: indent, depth: depth) }
        return try blockMapping(indent: indent, firstKeyAt: start, depth: depth)
    }

    func isSequenceItem(_ offset: Int) -> Bool {
        bytes[offset] == 0x2D && offset + 1 < lineEnds[line] && bytes[offset + 1] == 0x20
    }

    mutating func blockSequence(indent: Int, depth: Int) throws -> Value {
        try enterCollection()
        defer { nesting -= 1 }
        let first = lineStarts[line] + indent
        let startLine = line
        let builds = building(.sequence, depth)
        var items: [Value] = []
        while skipBlankLines(), indentation(of: line) == indent, isSequenceItem(lineStarts[line] + indent) {
            var content = lineStarts[line] + indent + 2
            while content < lineEnds[line], bytes[content] == 0x20 { content += 1 }
            guard content < lineEnds[line] else { throw Failure() }
            let contentIndent = content - lineStarts[line]
            if isSequenceItem(content) { throw Failure() }
            let item: Value
            if keyEnd(from: content) != nil {
                item = try blockMapping(indent: contentIndent, firstKeyAt: content, depth: depth + 1)
            } else {
                item = try inlineValue(from: content, depth: depth + 1)
                line += 1
                try expectNoDeeperLine(than: indent)
            }
            if builds { items.append(item) }
        }
        return builds ? builder.sequence(items, mark: mark(first, line: startLine)) : builder.unbuilt
    }

    /// A block mapping at `indent`; its first key starts at `firstKeyAt` on `line` (which may
    /// follow a `- ` when the mapping is a sequence item).
    mutating func blockMapping(indent: Int, firstKeyAt: Int, depth: Int) throws -> Value {
        try enterCollection()
        defer { nesting -= 1 }
        let startLine = line
        let builds = building(.mapping, depth)
        var pairs: [(key: String, keyMark: YAMLNode.Mark, value: Value)] = []
        var keys = KeySet()
        var keyStart = firstKeyAt
        while true {
            guard let colon = keyEnd(from: keyStart) else { throw Failure() }
            try checkPlain(keyStart, colon, flow: false)
            let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<colon])
            guard keys.insert(key) else { throw Failure() }
            let keyLine = line
            let valueDepth = depthOfValue(of: key, builds: builds, depth: depth)
            let value: Value
            var valueStart = colon + 1
            while valueStart < lineEnds[line], bytes[valueStart] == 0x20 { valueStart += 1 }
            if valueStart < lineEnds[line] {
                value = try inlineValue(from: valueStart, depth: valueDepth)
                line += 1
                try expectNoDeeperLine(than: indent)
            } else {
                // The value is on the lines below: deeper, or a sequence at the same indent.
                line += 1
                guard skipBlankLines() else { throw Failure() }
                let next = indentation(of: line)
                if next > indent {
                    value = try blockNode(indent: next, depth: valueDepth)
                } else if next == indent, isSequenceItem(lineStarts[line] + indent) {
                    value = try blockSequence(indent: indent, depth: valueDepth)
                } else {
                    throw Failure()  // an empty value: its mark is libyaml's business
                }
            }
            if builds { pairs.append((text(keyStart, colon), mark(keyStart, line: keyLine), value)) }
            guard skipBlankLines(), indentation(of: line) == indent else { break }
            keyStart = lineStarts[line] + indent
            if isSequenceItem(keyStart) { break }
        }
        return builds ? builder.mapping(pairs, mark: mark(firstKeyAt, line: startLine)) : builder.unbuilt
    }

    /// After a value that ended its line, a deeper line would continue a plain scalar or be
    /// an error in YAML; either way, not this reader's call.
    mutating func expectNoDeeperLine(than indent: Int) throws {
        if skipBlankLines(), indentation(of: line) > indent { throw Failure() }
    }

    /// The offset of the `:` ending a plain key that starts at `start` (`key:` then a space or
    /// the end of the line), or nil when the line is not a key line.
    func keyEnd(from start: Int) -> Int? {
        var index = start
        let end = lineEnds[line]
        while index < end {
            let byte = bytes[index]
            if byte == 0x3A, index + 1 == end || bytes[index + 1] == 0x20 { return index > start ? index : nil }
            if !isKeyByte(byte) { return nil }
            index += 1
        }
        return nil
    }

    func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F || byte == 0x2D || byte == 0x2E
    }

    // MARK: Values on one line

    /// A value that runs to the end of the line: a flow collection or a scalar.
    mutating func inlineValue(from start: Int, depth: Int) throws -> Value {
        var index = start
        let node = try flowNode(&index, flow: false, depth: depth)
        while index < lineEnds[line], bytes[index] == 0x20 { index += 1 }
        guard index == lineEnds[line] else { throw Failure() }
        return node
    }

    mutating func flowNode(_ index: inout Int, flow: Bool, depth: Int) throws -> Value {
        guard index < lineEnds[line] else { throw Failure() }
        switch bytes[index] {
        case 0x7B: return try flowMapping(&index, depth: depth)
        case 0x5B: return try flowSequence(&index, depth: depth)
        case 0x22: return try doubleQuoted(&index, builds: building(.scalar, depth))
        case 0x27: return try singleQuoted(&index, builds: building(.scalar, depth))
        default: return try plain(&index, flow: flow, builds: building(.scalar, depth))
        }
    }

    mutating func flowMapping(_ index: inout Int, depth: Int) throws -> Value {
        try enterCollection()
        defer { nesting -= 1 }
        let start = index
        let builds = building(.mapping, depth)
        let startMark = builds ? mark(start, line: line) : YAMLNode.Mark(line: 0, column: 0)
        index += 1
        var pairs: [(key: String, keyMark: YAMLNode.Mark, value: Value)] = []
        var keys = KeySet()
        if index < lineEnds[line], bytes[index] == 0x7D {
            index += 1
            return builds ? builder.mapping([], mark: startMark) : builder.unbuilt
        }
        while true {
            let keyStart = index
            guard let colon = flowKeyEnd(from: index) else { throw Failure() }
            try checkPlain(keyStart, colon, flow: true)
            let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<colon])
            guard keys.insert(key) else { throw Failure() }
            let keyMark = builds ? mark(keyStart, line: line) : startMark
            index = colon + 2
            while index < lineEnds[line], bytes[index] == 0x20 { index += 1 }
            let value = try flowNode(&index, flow: true, depth: depthOfValue(of: key, builds: builds, depth: depth))
            if builds { pairs.append((text(keyStart, colon), keyMark, value)) }
            guard try flowSeparator(&index, closing: 0x7D) else { break }
        }
        return builds ? builder.mapping(pairs, mark: startMark) : builder.unbuilt
    }

    mutating func flowSequence(_ index: inout Int, depth: Int) throws -> Value {
        try enterCollection()
        defer { nesting -= 1 }
        let start = index
        let builds = building(.sequence, depth)
        let startMark = builds ? mark(start, line: line) : YAMLNode.Mark(line: 0, column: 0)
        index += 1
        var items: [Value] = []
        if index < lineEnds[line], bytes[index] == 0x5D {
            index += 1
            return builds ? builder.sequence([], mark: startMark) : builder.unbuilt
        }
        while true {
            // `[a: b]` is a mapping inside a sequence in YAML: not here.
            if flowKeyEnd(from: index) != nil { throw Failure() }
            let item = try flowNode(&index, flow: true, depth: depth + 1)
            if builds { items.append(item) }
            guard try flowSeparator(&index, closing: 0x5D) else { break }
        }
        return builds ? builder.sequence(items, mark: startMark) : builder.unbuilt
    }

    /// After an item: `, ` continues (true), the closing bracket ends (false).
    func flowSeparator(_ index: inout Int, closing: UInt8) throws -> Bool {
        guard index < lineEnds[line] else { throw Failure() }
        if bytes[index] == closing {
            index += 1
            return false
        }
        guard bytes[index] == 0x2C, index + 1 < lineEnds[line], bytes[index + 1] == 0x20 else { throw Failure() }
        index += 2
        guard index < lineEnds[line], bytes[index] != 0x20 else { throw Failure() }
        return true
    }

    /// The `:` of `key: ` inside a flow mapping.
    func flowKeyEnd(from start: Int) -> Int? {
        var index = start
        while index + 1 < lineEnds[line], isKeyByte(bytes[index]) { index += 1 }
        guard index > start, index + 1 < lineEnds[line], bytes[index] == 0x3A, bytes[index + 1] == 0x20 else {
            return nil
        }
        return index
    }

    /// A plain scalar: to the end of the line, or in flow to the next `,`, `}` or `]`.
    mutating func plain(_ index: inout Int, flow: Bool, builds: Bool) throws -> Value {
        let start = index
        var end = index
        let lineEnd = lineEnds[line]
        while end < lineEnd {
            let byte = bytes[end]
            if flow, byte == 0x2C || byte == 0x7D || byte == 0x5D { break }
            end += 1
        }
        var trimmed = end
        while trimmed > start, bytes[trimmed - 1] == 0x20 { trimmed -= 1 }
        try checkPlain(start, trimmed, flow: flow)
        index = end
        return builds
            ? builder.scalar(text(start, trimmed), style: .plain, mark: mark(start, line: line)) : builder.unbuilt
    }

    /// Checks that the bytes between two offsets are a plain scalar, refusing whatever would
    /// make YAML read them differently (indicators, comments, `: `, flow characters).
    func checkPlain(_ start: Int, _ end: Int, flow: Bool) throws {
        guard end > start else { throw Failure() }
        let first = bytes[start]
        // Indicators that may not start a plain scalar, and `-`, `?`, `:` followed by a space.
        switch first {
        case 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x25, 0x40, 0x60, 0x23, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x22, 0x27:
            throw Failure()
        case 0x3F, 0x3A: throw Failure()  // `?` and `:` start keys and values
        case 0x20: throw Failure()  // `[ a]`: YAML skips the space, found by fuzzing
        case 0x2D where start + 1 == end || bytes[start + 1] == 0x20: throw Failure()
        default: break
        }
        // Most scalars hold no byte that needs a second look: one pass without a branch
        // tells, and only then are the rules checked byte by byte.
        let suspects = ByteSet.plainScalarSuspects
        guard suspects.containsAny(of: UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return }
        for index in start..<end {
            let byte = bytes[index]
            guard suspects.contains(byte) else { continue }
            if byte == 0x23, index == start || bytes[index - 1] == 0x20 { throw Failure() }  // a comment
            if byte == 0x3A, index + 1 == end || bytes[index + 1] == 0x20 { throw Failure() }
            if flow, byte == 0x3A, index + 1 < lineEnds[line], bytes[index + 1] == 0x3F || bytes[index + 1] == 0x2C {
                throw Failure()
            }  // libyaml refuses `:?`
            if flow, byte == 0x5B || byte == 0x5D || byte == 0x7B || byte == 0x7D || byte == 0x2C { throw Failure() }
            if byte < 0x20 || byte == 0x7F { throw Failure() }
            // C1 controls, NEL, line and paragraph separators, BOM: Yams's business.
            if byte == 0xC2, index + 1 < end, bytes[index + 1] < 0xA0 { throw Failure() }
            if byte == 0xE2, index + 2 < end, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
            {
                throw Failure()
            }
        }
        if bytes[end - 1] == 0x3A { throw Failure() }
    }

    /// A plain scalar's text. The text is a Swift string, so valid UTF-8, and a scalar starts
    /// and ends at ASCII bytes (or a line's ends): its bytes are whole characters.
    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    mutating func doubleQuoted(_ index: inout Int, builds: Bool) throws -> Value {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        let lineEnd = lineEnds[line]
        while true {
            guard index < lineEnd else { throw Failure() }  // runs onto the next line
            let byte = bytes[index]
            if byte == 0x22 { break }
            if byte == 0x5C {
                guard index + 1 < lineEnd else { throw Failure() }
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case 0x22: if builds { utf8.append(0x22) }
                case 0x5C: if builds { utf8.append(0x5C) }
                case 0x2F: if builds { utf8.append(0x2F) }
                case 0x6E: if builds { utf8.append(0x0A) }
                case 0x74: if builds { utf8.append(0x09) }
                case 0x72: if builds { utf8.append(0x0D) }
                case 0x75:
                    // Four hex digits exactly: `UInt32(_:radix:)` would also take a sign (`\u+aee`,
                    // found by fuzzing), which libyaml refuses.
                    guard index + 4 <= lineEnd,
                        bytes[index..<(index + 4)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                        let value = UInt32(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + 4)]), as: UTF8.self),
                            radix: 16),
                        let scalar = Unicode.Scalar(value)
                    else { throw Failure() }
                    if builds { utf8.append(contentsOf: Array(String(Character(scalar)).utf8)) }
                    index += 4
                default: throw Failure()
                }
                continue
            }
            if byte < 0x20 || byte == 0x7F { throw Failure() }
            if builds { utf8.append(byte) }
            index += 1
        }
        index += 1
        // Bytes copied between escapes and escapes of whole scalars are valid UTF-8, so this
        // check never fails, and skipping it for a node not built changes no verdict.
        guard builds else { return builder.unbuilt }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Failure() }
        return builder.scalar(text, style: .doubleQuoted, mark: mark(start, line: line))
    }

    mutating func singleQuoted(_ index: inout Int, builds: Bool) throws -> Value {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        let lineEnd = lineEnds[line]
        while true {
            guard index < lineEnd else { throw Failure() }
            let byte = bytes[index]
            if byte == 0x27 {
                if index + 1 < lineEnd, bytes[index + 1] == 0x27 {
                    if builds { utf8.append(0x27) }
                    index += 2
                    continue
                }
                break
            }
            if byte < 0x20 || byte == 0x7F { throw Failure() }
            if builds { utf8.append(byte) }
            index += 1
        }
        index += 1
        guard builds else { return builder.unbuilt }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Failure() }
        return builder.scalar(text, style: .singleQuoted, mark: mark(start, line: line))
    }
}

extension BlockYAMLReader {
    /// Whether Yams reads the scalar as null (`Node.null`): only plain scalars can be, and
    /// Yams looks for these spellings alone. A test holds this to Yams's answer.
    static func isNull(_ text: String, style: YAMLNode.Scalar.Style) -> Bool {
        style == .plain && (text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL")
    }

    /// The integer Yams reads from the scalar (`Node.int`). Plain decimal digits without a
    /// leading zero are read here, as Yams would; anything else (signs, `_`, radix prefixes,
    /// sexagesimal `1:30`) is asked of Yams, whose rules are wider than they look.
    static func int(_ text: String, style: YAMLNode.Scalar.Style) -> Int? {
        if style == .plain, let first = text.utf8.first, first >= 0x31, first <= 0x39, text.utf8.count <= 18,
            text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            return text.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        return Int.construct(
            from: YAMLNode.Scalar(
                text, style: style, tag: style == .plain ? "" : quotedTag, mark: YAMLNode.Mark(line: 0, column: 0)
            ).yams)
    }
}
