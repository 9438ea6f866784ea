/// How deep a file's lists and mappings may nest, for every reader Rote has (the block YAML
/// reader, Yams, JSON). Rote's own files nest five levels at most; the limit only stops a
/// file built to be deep. Every reader, and everything that walks a parsed tree (converting
/// Yams's tree, counting aliases, destroying the tree), recurses once per level, so a file of
/// `[` repeated 40 000 times (80 KB) overflowed the stack and killed the process: `check`,
/// `serve`, and `sync`'s merge driver on a file pushed by another clone. Refused before any
/// tree is built, such a file is one error on its line and the rest of the library loads.
///
/// 100 levels take a few kilobytes of stack in a debug build, well within the smallest stack a
/// reader runs on (a 512 KiB secondary thread).
package enum NestingLimit {
    package static let maximumDepth = 100

    /// The message for a YAML file nested deeper than the limit.
    package static var message: String {
        "lists and mappings here nest more than \(maximumDepth) levels deep; Rote's files nest a few levels — look for a run of unclosed [ or { (or of `- `) and remove the extra nesting"
    }

    /// The message for JSON nested deeper than the limit.
    package static var jsonMessage: String {
        "arrays and objects here nest more than \(maximumDepth) levels deep; look for a run of unclosed [ or { and remove the extra nesting"
    }

    /// The line (from 1) where a YAML text's lists and mappings first nest deeper than
    /// `maximumDepth`, or nil when they never do.
    ///
    /// A pre-scan for the text Yams reads, as Yams recurses while it builds its tree: this
    /// follows libyaml's scanner just far enough to count collections — flow brackets outside
    /// quoted scalars and comments, and block collections by libyaml's stack of indentations
    /// (a mapping and the sequence at its own indentation are two levels). It may count more
    /// than the tree holds (a `- ` continuing a plain scalar) but never fewer, so nothing that
    /// passes nests deeper; a real file is far below the limit either way.
    package static func lineTooDeep(yaml bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var scan = YAMLDepthScan(bytes: bytes)
        return scan.run()
    }

    /// Where (line and column, from 1, the column in characters) a JSON text first nests
    /// deeper than `maximumDepth`, or nil. Exact: brackets outside strings. Foundation's own
    /// limit (512) is deeper than a recursive `Decodable` value (`JSONValue`) can be decoded on
    /// a 512 KiB thread's stack: measured, it overflows there at 511.
    package static func placeTooDeep(json bytes: some Sequence<UInt8>) -> (line: Int, column: Int)? {
        var depth = 0
        var line = 1
        var column = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if byte == 0x0A {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > maximumDepth { return (line, column) }
            case 0x5D, 0x7D: depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }
}

/// The state of `NestingLimit.lineTooDeep(yaml:)`'s single pass.
private struct YAMLDepthScan {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var line = 1
    var lineStart = 0
    /// libyaml's stack of block indentations: each a mapping or a sequence, and whether a
    /// mapping holds a sequence written at its own indentation (`key:` then `- item`).
    var blocks: [(column: Int, isMapping: Bool, hasIndentlessSequence: Bool)] = []
    var blockLevels = 0
    var flow = 0
    /// Lines indented more than this are a block scalar's text (`|`, `>`), not structure.
    var blockScalarParent: Int?
    /// Whether the next token starts a node (where a quote opens a quoted scalar, and not text
    /// inside a plain one). Kept across lines inside flow collections.
    var expectsNode = true
    /// Whether the last line ended inside plain text, which a deeper line continues.
    var plainRunsOn = false
    /// Where the last quoted scalar or flow collection in block context began: a key's column
    /// when `: ` follows it.
    var nodeColumn = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var depth: Int { blockLevels + flow }

    func byte(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// The length of the line break at `offset` (libyaml's: LF, CR, CRLF, NEL, LS, PS), or 0.
    func breakLength(at offset: Int) -> Int {
        guard let first = byte(offset) else { return 0 }
        switch first {
        case 0x0A: return 1
        case 0x0D: return byte(offset + 1) == 0x0A ? 2 : 1
        case 0xC2: return byte(offset + 1) == 0x85 ? 2 : 0
        case 0xE2: return byte(offset + 1) == 0x80 && (byte(offset + 2) == 0xA8 || byte(offset + 2) == 0xA9) ? 3 : 0
        default: return 0
        }
    }

    /// Whether the byte at `offset` ends a token: a space, a tab, a line break or the end.
    func isBlankOrEnd(_ offset: Int) -> Bool {
        guard let value = byte(offset) else { return true }
        return value == 0x20 || value == 0x09 || breakLength(at: offset) > 0
    }

    mutating func newLine(_ length: Int) {
        index += length
        line += 1
        lineStart = index
    }

    /// `---` or `...` at the start of a line.
    func isDocumentMarker(indent: Int) -> Bool {
        guard indent == 0, let first = byte(index), first == 0x2D || first == 0x2E else { return false }
        return byte(index + 1) == first && byte(index + 2) == first && isBlankOrEnd(index + 3)
    }

    mutating func skipToLineEnd() {
        while index < bytes.count, breakLength(at: index) == 0 { index += 1 }
    }

    /// A block collection of the given kind whose first token is at `column`, as libyaml's
    /// `roll_indent` sees it. True when the depth is now over the limit.
    mutating func block(at column: Int, isMapping: Bool) -> Bool {
        if let top = blocks.last, column <= top.column {
            // A sequence at a mapping's own indentation is one more level; a key back at the
            // mapping's indentation ends that sequence.
            guard column == top.column, top.isMapping, !isMapping != top.hasIndentlessSequence else { return false }
            blocks[blocks.count - 1].hasIndentlessSequence = !isMapping
            blockLevels += isMapping ? -1 : 1
        } else {
            blocks.append((column, isMapping, false))
            blockLevels += 1
        }
        return depth > NestingLimit.maximumDepth
    }

    /// Skips a quoted scalar starting at `index` (which may run over lines).
    mutating func skipQuoted() {
        let quote = bytes[index]
        index += 1
        while index < bytes.count {
            let value = bytes[index]
            if quote == 0x22, value == 0x5C {
                index += 2
                continue
            }
            if value == quote {
                if quote == 0x27, byte(index + 1) == 0x27 {
                    index += 2
                    continue
                }
                index += 1
                return
            }
            let length = breakLength(at: index)
            if length > 0 { newLine(length) } else { index += 1 }
        }
    }

    mutating func run() -> Int? {
        while index < bytes.count {
            var indent = 0
            while byte(index) == 0x20 {
                index += 1
                indent += 1
            }
            let length = breakLength(at: index)
            if length > 0 {
                newLine(length)
                continue
            }
            guard index < bytes.count else { break }
            if let parent = blockScalarParent {
                if indent > parent {
                    skipToLineEnd()
                    continue
                }
                blockScalarParent = nil
            }
            let marker = isDocumentMarker(indent: indent)
            if flow == 0, plainRunsOn, !marker, byte(index) != 0x23, indent > blocks.last?.column ?? -1 {
                // More of a plain scalar, all text (libyaml continues one on any deeper line).
                skipToLineEnd()
                continue
            }
            plainRunsOn = false
            if flow == 0 {
                expectsNode = true
                while let top = blocks.last, top.column > indent {
                    blocks.removeLast()
                    blockLevels -= top.hasIndentlessSequence ? 2 : 1
                }
                // A document marker or a directive starts afresh.
                if indent == 0, byte(index) == 0x25 {
                    skipToLineEnd()
                    continue
                }
                if marker {
                    blocks = []
                    blockLevels = 0
                    index += 3
                }
            }
            if scanLine() { return line }
        }
        return nil
    }

    /// Scans the rest of the current line (and the lines a quoted scalar runs over); true when
    /// the depth goes over the limit.
    mutating func scanLine() -> Bool {
        while index < bytes.count {
            let length = breakLength(at: index)
            if length > 0 {
                newLine(length)
                return false
            }
            let value = bytes[index]
            let column = index - lineStart
            if value == 0x20 || value == 0x09 {
                index += 1
                continue
            }
            if value == 0x23, index == lineStart || bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 {
                skipToLineEnd()
                continue
            }
            if expectsNode, value == 0x22 || value == 0x27 {
                if flow == 0 { nodeColumn = column }
                skipQuoted()
                expectsNode = false
                continue
            }
            if flow > 0 {
                switch value {
                case 0x5B, 0x7B:
                    flow += 1
                    if depth > NestingLimit.maximumDepth { return true }
                    expectsNode = true
                case 0x5D, 0x7D:
                    flow -= 1
                    expectsNode = false
                case 0x2C: expectsNode = true
                case 0x3F where isBlankOrEnd(index + 1), 0x3A where isBlankOrEnd(index + 1): expectsNode = true
                default: expectsNode = false
                }
                index += 1
                continue
            }
            if value == 0x3A, isBlankOrEnd(index + 1) {
                // The value of a key written as something other than plain text (quoted, a
                // flow collection), or of a `? ` key.
                index += 1
                if !expectsNode, block(at: nodeColumn, isMapping: true) { return true }
                expectsNode = true
                continue
            }
            guard expectsNode else {
                index += 1
                continue
            }
            switch value {
            case 0x5B, 0x7B:
                nodeColumn = column
                flow = 1
                index += 1
                if depth > NestingLimit.maximumDepth { return true }
            case 0x2D where isBlankOrEnd(index + 1), 0x3F where isBlankOrEnd(index + 1):
                index += 1
                if block(at: column, isMapping: value == 0x3F) { return true }
            case 0x7C, 0x3E:
                // libyaml's current indentation, which the scalar's lines are deeper than.
                blockScalarParent = blocks.last?.column ?? 0
                skipToLineEnd()
            case 0x26, 0x21:
                // An anchor or a tag: the node follows.
                while !isBlankOrEnd(index) { index += 1 }
            default:
                // Plain text: a key when `: ` follows on the line.
                while index < bytes.count, breakLength(at: index) == 0 {
                    let here = bytes[index]
                    if here == 0x3A, isBlankOrEnd(index + 1) { break }
                    if here == 0x23, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { break }
                    index += 1
                }
                if byte(index) == 0x3A {
                    index += 1
                    if block(at: column, isMapping: true) { return true }
                } else {
                    expectsNode = false
                    plainRunsOn = byte(index) != 0x23
                }
            }
        }
        return false
    }
}
