package import Foundation
import Yams

/// Turns a file's bytes into a YAML node tree, refusing what would hurt: files over the size
/// limit, bytes that are not UTF-8, git conflict markers, anchors and aliases (an alias bomb
/// expands exponentially), and YAML syntax errors. Every refusal is a diagnostic with a line.
package enum YAMLSource {
    /// Largest file Rote reads. Entry, progress and session files are kilobytes; anything
    /// this big is a mistake, and reading it would stall a launch.
    package static let maximumFileSize = 4 << 20

    /// Parses `data` read from `path`. Returns the root node (nil when the file could not be
    /// read as YAML) and what was wrong.
    package static func parse(_ data: Data, path: String) -> (YAMLNode?, [Diagnostic]) {
        if data.count > maximumFileSize {
            return (
                nil,
                [
                    .error(
                        path, nil,
                        "file is \(data.count / 1_048_576) MiB; Rote reads files up to \(maximumFileSize / 1_048_576) MiB — split it or move it out of the library"
                    )
                ]
            )
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            let line = firstInvalidUTF8Line(data)
            return (nil, [.error(path, line, "file is not UTF-8 text; re-save it as UTF-8")])
        }
        return parse(text, path: path)
    }

    /// Parses text already known to be UTF-8.
    package static func parse(_ text: String, path: String) -> (YAMLNode?, [Diagnostic]) {
        // The common shapes without libyaml's cost; anything else (and every error) below.
        if let node = BlockYAMLReader.parse(text) { return (node, []) }
        let markers = conflictMarkerLines(text)
        if !markers.isEmpty {
            return (
                nil,
                markers.map {
                    .error(
                        path, $0,
                        "unresolved git merge conflict marker; edit the file to keep the right lines and remove the markers"
                    )
                }
            )
        }
        // Yams recurses once per level as it builds its tree, so a deep file is refused first.
        var bytes = text
        if let line = bytes.withUTF8({ NestingLimit.lineTooDeep(yaml: $0) }) {
            return (nil, [.error(path, line, NestingLimit.message)])
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            return (nil, [describe(error, path: path)])
        } catch {
            return (nil, [.error(path, nil, "cannot read YAML: \(error)")])
        }
        guard let node else { return (nil, [.error(path, 1, "file is empty; expected a YAML mapping")]) }
        // Every node written out takes at least two bytes, so a tree with more nodes than
        // that can only come from aliases repeating anchors — an alias bomb when nested.
        // Counting stops at the limit, so even a bomb is refused in linear time.
        var budget = text.utf8.count / 2 + 16
        if text.contains("*"), !fitsBudget(node, &budget) {
            return (
                nil,
                [
                    .error(
                        path, 1,
                        "YAML aliases (*name) expand this file far beyond its size; Rote files do not use anchors and aliases — write the values out"
                    )
                ]
            )
        }
        // Yams's tree in Rote's, which the readers take. `Yams.compose` resolves every alias,
        // so the conversion cannot fail on what it returns.
        guard let converted = YAMLNode(node) else {
            return (
                nil,
                [
                    .error(
                        path, 1,
                        "YAML aliases (*name) were left unresolved; Rote files do not use anchors and aliases — write the values out"
                    )
                ]
            )
        }
        return (converted, [])
    }

    /// Counts nodes depth-first, giving up as soon as the budget is spent.
    static func fitsBudget(_ node: Node, _ budget: inout Int) -> Bool {
        budget -= 1
        if budget < 0 { return false }
        switch node {
        case let .sequence(sequence):
            for item in sequence where !fitsBudget(item, &budget) { return false }
        case let .mapping(mapping):
            for (key, value) in mapping where !fitsBudget(key, &budget) || !fitsBudget(value, &budget) { return false }
        default: break
        }
        return true
    }

    static func describe(_ error: YamlError, path: String) -> Diagnostic {
        switch error {
        case let .reader(problem, offset?, value, yaml):
            // Yams gives the offset in Characters; its own message quotes the line raw, so a
            // NUL or ESC in it would reach the terminal, and the diagnostic had no line.
            let (line, column, text) = position(ofCharacter: offset, in: yaml)
            let shown = ControlCharacters.visible(String(text.prefix(120))) + (text.count > 120 ? "…" : "")
            if let scalar = Unicode.Scalar(UInt32(bitPattern: value)), ControlCharacters.isControl(scalar) {
                return .error(
                    path, line,
                    "control character \(ControlCharacters.describe(scalar)) at column \(column) is not allowed in YAML (the line reads: \(shown)); delete it — most editors do not show it, `cat -A` does"
                )
            }
            return .error(path, line, "YAML error: \(problem) at column \(column) (the line reads: \(shown))")
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _):
            let where_ = context.map { "\($0.text) " } ?? ""
            return .error(
                path, mark.line,
                "YAML syntax error: \(problem) \(where_)at column \(mark.column)".replacingOccurrences(
                    of: "  ", with: " "))
        case let .composer(context, problem, mark, _):
            let where_ = context.map { "\($0.text) " } ?? ""
            return .error(path, mark.line, "YAML error: \(problem) \(where_)".trimmingCharacters(in: .whitespaces))
        case let .duplicatedKeysInMapping(duplicates, context):
            return .error(
                path, context.mark.line, "duplicate key \(duplicates.joined(separator: ", ")) in a mapping; keep one")
        default:
            return .error(path, nil, "cannot read YAML: " + ControlCharacters.visible("\(error)"))
        }
    }

    /// The line (from 1), the column (from 1, in Unicode scalars, as libyaml counts) and the
    /// text of the line holding the Character at `offset` of `text`. A control character is
    /// always a Character of its own, so the offset lands on it.
    static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int, text: Substring) {
        let target = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) ?? text.endIndex
        let before = text[..<target]
        let lineStart =
            before.lastIndex(where: { $0 == "\n" || $0 == "\r\n" }).map(text.index(after:)) ?? text.startIndex
        let line = 1 + before.reduce(0) { $0 + ($1 == "\n" || $1 == "\r\n" ? 1 : 0) }
        let lineEnd = text[target...].firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) ?? text.endIndex
        let column = 1 + text.unicodeScalars[lineStart..<target].count
        return (line, column, text[lineStart..<lineEnd])
    }

    /// A warning for each scalar (key or value) holding a control character, on its line and
    /// named by its place in the file (`examples[1].en`): a terminal would obey the character
    /// rather than show it, so it is almost always a paste or an import gone wrong.
    package static func controlCharacterWarnings(in node: YAMLNode, path: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        func visit(_ node: YAMLNode, _ place: String) {
            switch node {
            case let .scalar(scalar):
                let controls = Array(scalar.string.unicodeScalars.filter(ControlCharacters.isControl))
                guard !controls.isEmpty else { return }
                var seen: Set<UInt32> = []
                let distinct = controls.filter { seen.insert($0.value).inserted }
                func list(_ items: [String]) -> String {
                    items.count == 1 ? items[0] : items.dropLast().joined(separator: ", ") + " and " + items.last!
                }
                let named = list(distinct.map(ControlCharacters.describe))
                let shown = list(distinct.map(ControlCharacters.escape))
                let subject = place.isEmpty ? "the file" : "'\(place)'"
                let message =
                    distinct.count == 1
                    ? "\(subject) holds \(named), a control character: a terminal would obey it rather than show it (Rote prints it as \(shown)); remove it unless it is meant"
                    : "\(subject) holds \(named), control characters: a terminal would obey them rather than show them (Rote prints them as \(shown)); remove them unless they are meant"
                found.append(.warning(path, scalar.mark.line, message))
            case let .mapping(mapping):
                for (key, value) in mapping {
                    let name = key.string ?? "?"
                    visit(key, place.isEmpty ? name : "\(place).\(name)")
                    visit(value, place.isEmpty ? name : "\(place).\(name)")
                }
            case let .sequence(sequence):
                for (index, item) in sequence.enumerated() { visit(item, "\(place)[\(index + 1)]") }
            }
        }
        visit(node, "")
        return found
    }

    /// Whether a file holds a line of git's conflict markers (binary files too: their
    /// markers are as much a failed merge).
    package static func hasConflictMarkers(_ data: Data) -> Bool {
        // A byte search first: a sync checks every file it pushes, and almost none has any.
        guard data.range(of: Data("<<<<<<<".utf8)) != nil || data.range(of: Data(">>>>>>>".utf8)) != nil else {
            return false
        }
        return !conflictMarkerLines(String(decoding: data, as: UTF8.self)).isEmpty
    }

    static func conflictMarkerLines(_ text: String) -> [Int] {
        guard text.contains("<<<<<<<") || text.contains(">>>>>>>") else { return [] }
        var lines: [Int] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("<<<<<<< ") || line == "<<<<<<<" || line.hasPrefix(">>>>>>> ") || line == ">>>>>>>"
                || line == "=======" || line.hasPrefix("||||||| ")
            {
                lines.append(index + 1)
            }
        }
        return lines
    }

    static func firstInvalidUTF8Line(_ data: Data) -> Int {
        var line = 1
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return line
            }
            if length > 1 {
                guard data.distance(from: index, to: data.endIndex) >= length else { return line }
                for offset in 1..<length where data[index + offset] & 0xC0 != 0x80 { return line }
                if String(validating: data[index..<(index + length)], as: UTF8.self) == nil { return line }
            }
            if byte == 0x0A { line += 1 }
            index += length
        }
        return line
    }
}
