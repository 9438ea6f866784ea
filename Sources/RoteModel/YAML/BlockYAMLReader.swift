import Foundation
import Yams

/// Reads the plain subset of YAML that Rote writes and people usually type — block mappings
/// and sequences, flow mappings and sequences on one line, plain, single- and double-quoted
/// scalars — into the very node tree `Yams.compose` builds, at a fraction of the cost.
///
/// Yams hashes every mapping key (resolving its tag with regular expressions) to look for
/// duplicates, which made a 100 000-entry library take minutes to read. This reader checks
/// duplicates by text and leaves tags implicit, as libyaml does, so they are resolved only if
/// someone asks. On anything outside the subset — comments, anchors, tags, block scalars,
/// multi-line scalars, tabs, documents markers, odd escapes, a structure it is unsure of — it
/// returns nil and `YAMLSource` hands the text to Yams, which stays the reference and the one
/// that explains errors. A differential test holds the two to identical trees (strings, tags,
/// styles, line and column of every node) on every starter file and thousands of mutations.
enum BlockYAMLReader {
    static func parse(_ text: String) -> Node? {
        guard marksCanBeMade else { return nil }
        return read(text, YamsTree())
    }

    /// Reads `text` with the same rules into whatever tree `builder` makes of it: the same
    /// verdict on every file, whatever is built.
    static func read<Builder: TreeBuilder>(_ text: String, _ builder: Builder) -> Builder.Value? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes, builder: builder)
            return reader.document()
        }
    }
}

/// What the block reader makes of the nodes it reads: Yams's tree (`YamsTree`), or less.
protocol TreeBuilder {
    associatedtype Value
    /// Whether `mark` is ever read: counting a node's column costs a pass over its line.
    static var needsMarks: Bool { get }
    func scalar(_ text: String, style: Node.Scalar.Style, mark: Mark) -> Value
    func mapping(_ pairs: [(key: String, keyMark: Mark, value: Value)], mark: Mark) -> Value
    func sequence(_ items: [Value], mark: Mark) -> Value
}

/// Yams's own node tree, as `Yams.compose` builds it.
struct YamsTree: TreeBuilder {
    static var needsMarks: Bool { true }

    func scalar(_ text: String, style: Node.Scalar.Style, mark: Mark) -> Node {
        .scalar(Node.Scalar(text, tag(style == .plain ? .implicit : quotedTagName), style, mark))
    }

    func mapping(_ pairs: [(key: String, keyMark: Mark, value: Node)], mark: Mark) -> Node {
        .mapping(Node.Mapping(pairs.map { (scalar($0.key, style: .plain, mark: $0.keyMark), $0.value) }, tag(.implicit), .any, mark))
    }

    func sequence(_ items: [Node], mark: Mark) -> Node {
        .sequence(Node.Sequence(items, tag(.implicit), .any, mark))
    }
}

/// Yams keeps `Mark`'s initialiser internal, and a tree without marks would lose the line
/// numbers diagnostics and entries carry. `Mark` is two `Int`s (line, column); the reader
/// builds marks that way only while the layout says so, and the differential test compares
/// every mark with libyaml's.
private let marksCanBeMade = MemoryLayout<Mark>.size == MemoryLayout<(Int, Int)>.size
    && MemoryLayout<Mark>.offset(of: \Mark.line) == 0 && MemoryLayout<Mark>.offset(of: \Mark.column) == MemoryLayout<Int>.size

/// libyaml marks a quoted scalar without a tag as non-specific (`!`), which resolves to text.
private let quotedTagName = Tag.Name(rawValue: "!")

/// Every node needs a tag object of its own (resolving one changes it in place), but
/// `Tag(.implicit)` builds a whole new `Constructor`, with its dictionaries, each time — a
/// third of the reading time. Yams's own parser shares one constructor the same way; it is
/// only ever read.
nonisolated(unsafe) private let sharedConstructor = Constructor.default

private func tag(_ name: Tag.Name) -> Tag { Tag(name, .default, sharedConstructor) }

/// A mapping's keys so far, to refuse a duplicate: a short list searched in place (most
/// mappings have a handful of keys), a set past that.
private struct KeySet {
    private var list: [String] = []
    private var set: Set<String>?

    mutating func insert(_ key: String) -> (inserted: Bool, memberAfterInsert: String) {
        if set == nil {
            if list.contains(key) { return (false, key) }
            list.append(key)
            if list.count > 16 { set = Set(list) }
            return (true, key)
        }
        return set!.insert(key)
    }
}

func makeMark(line: Int, column: Int) -> Mark {
    unsafeBitCast((line, column), to: Mark.self)
}

private struct Reader<Builder: TreeBuilder> {
    typealias Value = Builder.Value
    let bytes: UnsafeBufferPointer<UInt8>
    let builder: Builder
    /// Start offsets of the lines (without their newline); blank lines are skipped by `next`.
    var lineStarts: [Int] = []
    var lineEnds: [Int] = []
    var line = 0

    init(bytes: UnsafeBufferPointer<UInt8>, builder: Builder) {
        self.bytes = bytes
        self.builder = builder
        var start = 0
        for index in 0..<bytes.count where bytes[index] == 0x0A {
            lineStarts.append(start)
            lineEnds.append(index)
            start = index + 1
        }
        if start < bytes.count {
            lineStarts.append(start)
            lineEnds.append(bytes.count)
        }
    }

    struct Failure: Error {}

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
    func mark(_ offset: Int, line: Int) -> Mark {
        guard Builder.needsMarks else { return makeMark(line: line + 1, column: 0) }
        var column = 1
        var index = lineStarts[line]
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return makeMark(line: line + 1, column: column)
    }

    // MARK: Document

    mutating func document() -> Value? {
        // A byte-order mark, a tab, a carriage return or a NUL anywhere: leave it to Yams.
        for byte in bytes where byte == 0x09 || byte == 0x0D || byte == 0x00 || byte == 0xEF { return nil }
        guard skipBlankLines(), indentation(of: line) == 0 else { return nil }
        do {
            // The root must be a mapping: a block sequence at the top is left to Yams.
            guard !isSequenceItem(lineStarts[line]) else { return nil }
            let root = try blockNode(indent: 0)
            guard !skipBlankLines() else { return nil }
            return root
        } catch {
            return nil
        }
    }

    /// A block mapping or sequence whose first line is `line`, indented by `indent`.
    mutating func blockNode(indent: Int) throws -> Value {
        let start = lineStarts[line] + indent
        if isSequenceItem(start) { return try blockSequence(indent: indent) }
        return try blockMapping(indent: indent, firstKeyAt: start)
    }

    func isSequenceItem(_ offset: Int) -> Bool {
        bytes[offset] == 0x2D && offset + 1 < lineEnds[line] && bytes[offset + 1] == 0x20
    }

    mutating func blockSequence(indent: Int) throws -> Value {
        let first = lineStarts[line] + indent
        let startLine = line
        var items: [Value] = []
        while skipBlankLines(), indentation(of: line) == indent, isSequenceItem(lineStarts[line] + indent) {
            var content = lineStarts[line] + indent + 2
            while content < lineEnds[line], bytes[content] == 0x20 { content += 1 }
            guard content < lineEnds[line] else { throw Failure() }
            let contentIndent = content - lineStarts[line]
            if isSequenceItem(content) { throw Failure() }
            if keyEnd(from: content) != nil {
                items.append(try blockMapping(indent: contentIndent, firstKeyAt: content))
            } else {
                items.append(try inlineValue(from: content))
                line += 1
                try expectNoDeeperLine(than: indent)
            }
        }
        return builder.sequence(items, mark: mark(first, line: startLine))
    }

    /// A block mapping at `indent`; its first key starts at `firstKeyAt` on `line` (which may
    /// follow a `- ` when the mapping is a sequence item).
    mutating func blockMapping(indent: Int, firstKeyAt: Int) throws -> Value {
        let startLine = line
        var pairs: [(key: String, keyMark: Mark, value: Value)] = []
        var keys = KeySet()
        var keyStart = firstKeyAt
        while true {
            guard let colon = keyEnd(from: keyStart) else { throw Failure() }
            let keyText = try plainText(keyStart, colon, flow: false)
            guard keys.insert(keyText).inserted else { throw Failure() }
            let keyMark = mark(keyStart, line: line)
            var valueStart = colon + 1
            while valueStart < lineEnds[line], bytes[valueStart] == 0x20 { valueStart += 1 }
            if valueStart < lineEnds[line] {
                pairs.append((keyText, keyMark, try inlineValue(from: valueStart)))
                line += 1
                try expectNoDeeperLine(than: indent)
            } else {
                // The value is on the lines below: deeper, or a sequence at the same indent.
                line += 1
                guard skipBlankLines() else { throw Failure() }
                let next = indentation(of: line)
                if next > indent {
                    pairs.append((keyText, keyMark, try blockNode(indent: next)))
                } else if next == indent, isSequenceItem(lineStarts[line] + indent) {
                    pairs.append((keyText, keyMark, try blockSequence(indent: indent)))
                } else {
                    throw Failure()  // an empty value: its mark is libyaml's business
                }
            }
            guard skipBlankLines(), indentation(of: line) == indent else { break }
            keyStart = lineStarts[line] + indent
            if isSequenceItem(keyStart) { break }
        }
        return builder.mapping(pairs, mark: mark(firstKeyAt, line: startLine))
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
    func inlineValue(from start: Int) throws -> Value {
        var index = start
        let node = try flowNode(&index, flow: false)
        while index < lineEnds[line], bytes[index] == 0x20 { index += 1 }
        guard index == lineEnds[line] else { throw Failure() }
        return node
    }

    func flowNode(_ index: inout Int, flow: Bool) throws -> Value {
        guard index < lineEnds[line] else { throw Failure() }
        switch bytes[index] {
        case 0x7B: return try flowMapping(&index)
        case 0x5B: return try flowSequence(&index)
        case 0x22: return try doubleQuoted(&index)
        case 0x27: return try singleQuoted(&index)
        default: return try plain(&index, flow: flow)
        }
    }

    func flowMapping(_ index: inout Int) throws -> Value {
        let start = index
        index += 1
        var pairs: [(key: String, keyMark: Mark, value: Value)] = []
        var keys = KeySet()
        if index < lineEnds[line], bytes[index] == 0x7D {
            index += 1
            return builder.mapping([], mark: mark(start, line: line))
        }
        while true {
            let keyStart = index
            guard let colon = flowKeyEnd(from: index) else { throw Failure() }
            let keyText = try plainText(keyStart, colon, flow: true)
            guard keys.insert(keyText).inserted else { throw Failure() }
            let keyMark = mark(keyStart, line: line)
            index = colon + 2
            while index < lineEnds[line], bytes[index] == 0x20 { index += 1 }
            pairs.append((keyText, keyMark, try flowNode(&index, flow: true)))
            guard try flowSeparator(&index, closing: 0x7D) else { break }
        }
        return builder.mapping(pairs, mark: mark(start, line: line))
    }

    func flowSequence(_ index: inout Int) throws -> Value {
        let start = index
        index += 1
        var items: [Value] = []
        if index < lineEnds[line], bytes[index] == 0x5D {
            index += 1
            return builder.sequence([], mark: mark(start, line: line))
        }
        while true {
            // `[a: b]` is a mapping inside a sequence in YAML: not here.
            if flowKeyEnd(from: index) != nil { throw Failure() }
            items.append(try flowNode(&index, flow: true))
            guard try flowSeparator(&index, closing: 0x5D) else { break }
        }
        return builder.sequence(items, mark: mark(start, line: line))
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
        guard index > start, index + 1 < lineEnds[line], bytes[index] == 0x3A, bytes[index + 1] == 0x20 else { return nil }
        return index
    }

    /// A plain scalar: to the end of the line, or in flow to the next `,`, `}` or `]`.
    func plain(_ index: inout Int, flow: Bool) throws -> Value {
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
        let text = try plainText(start, trimmed, flow: flow)
        index = end
        return builder.scalar(text, style: .plain, mark: mark(start, line: line))
    }

    /// The text of a plain scalar between two offsets, refusing whatever would make YAML
    /// read it differently (indicators, comments, `: `, flow characters).
    func plainText(_ start: Int, _ end: Int, flow: Bool) throws -> String {
        guard end > start else { throw Failure() }
        let first = bytes[start]
        // Indicators that may not start a plain scalar, and `-`, `?`, `:` followed by a space.
        if [0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x25, 0x40, 0x60, 0x23, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x22, 0x27].contains(first) { throw Failure() }
        if first == 0x3F || first == 0x3A { throw Failure() }  // `?` and `:` start keys and values
        if first == 0x2D, start + 1 == end || bytes[start + 1] == 0x20 { throw Failure() }
        var previous: UInt8 = 0x20
        for index in start..<end {
            let byte = bytes[index]
            if byte == 0x23, previous == 0x20 { throw Failure() }  // a comment
            if byte == 0x3A, index + 1 == end || bytes[index + 1] == 0x20 { throw Failure() }
            if flow, byte == 0x3A, index + 1 < lineEnds[line], bytes[index + 1] == 0x3F || bytes[index + 1] == 0x2C { throw Failure() }  // libyaml refuses `:?`
            if flow, byte == 0x5B || byte == 0x5D || byte == 0x7B || byte == 0x7D || byte == 0x2C { throw Failure() }
            if byte < 0x20 || byte == 0x7F { throw Failure() }
            // C1 controls, NEL, line and paragraph separators, BOM: Yams's business.
            if byte == 0xC2, index + 1 < end, bytes[index + 1] < 0xA0 { throw Failure() }
            if byte == 0xE2, index + 2 < end, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 { throw Failure() }
            previous = byte
        }
        if previous == 0x3A { throw Failure() }
        // The text is a Swift string, so valid UTF-8, and a scalar starts and ends at ASCII
        // bytes (or a line's ends): its bytes are whole characters.
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    func doubleQuoted(_ index: inout Int) throws -> Value {
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
                case 0x22: utf8.append(0x22)
                case 0x5C: utf8.append(0x5C)
                case 0x2F: utf8.append(0x2F)
                case 0x6E: utf8.append(0x0A)
                case 0x74: utf8.append(0x09)
                case 0x72: utf8.append(0x0D)
                case 0x75:
                    guard index + 4 <= lineEnd, let value = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + 4)]), as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(value)
                    else { throw Failure() }
                    utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
                    index += 4
                default: throw Failure()
                }
                continue
            }
            if byte < 0x20 || byte == 0x7F { throw Failure() }
            utf8.append(byte)
            index += 1
        }
        index += 1
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Failure() }
        return builder.scalar(text, style: .doubleQuoted, mark: mark(start, line: line))
    }

    func singleQuoted(_ index: inout Int) throws -> Value {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        let lineEnd = lineEnds[line]
        while true {
            guard index < lineEnd else { throw Failure() }
            let byte = bytes[index]
            if byte == 0x27 {
                if index + 1 < lineEnd, bytes[index + 1] == 0x27 {
                    utf8.append(0x27)
                    index += 2
                    continue
                }
                break
            }
            if byte < 0x20 || byte == 0x7F { throw Failure() }
            utf8.append(byte)
            index += 1
        }
        index += 1
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Failure() }
        return builder.scalar(text, style: .singleQuoted, mark: mark(start, line: line))
    }
}

extension BlockYAMLReader {
    /// A scalar as `YamsTree` makes it, to ask Yams what it resolves to (null, an int).
    static func yamsScalar(_ text: String, style: Node.Scalar.Style) -> Node {
        YamsTree().scalar(text, style: style, mark: makeMark(line: 0, column: 0))
    }
}
