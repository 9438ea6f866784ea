public import Foundation
public import RoteModel

/// Comma-, tab- or otherwise-separated text as spreadsheets and Anki write it: RFC 4180
/// quoting (a field in `"…"` may hold the separator, newlines and `""` for a quote), CRLF or
/// LF line ends, a UTF-8 byte-order mark. Anki's "Notes in Plain Text" headers are read too:
/// `#separator:tab`, `#html:true`, `#columns:Front<TAB>Back`, `#tags column:3` and the other
/// `#key:value` lines before the first row.
public struct DelimitedText: Sendable, Equatable {
    /// One row and the line of the file it starts on (1-based).
    public struct Row: Sendable, Equatable {
        public var line: Int
        public var fields: [String]
    }

    public var separator: Character
    /// Column names: from `#columns:`, else the first row (nil when the file has neither —
    /// an Anki file without `#columns:`).
    public var columns: [String]?
    public var rows: [Row]
    /// `#html:true`: fields hold HTML.
    public var html: Bool
    /// Anki `#tags column:N` (1-based).
    public var tagsColumn: Int?
    /// True when the file had Anki `#key:value` headers.
    public var ankiHeaders: Bool

    public enum ParseError: RoteError, Equatable {
        case unterminatedQuote(line: Int)
        case notText
        case badSeparator(String, line: Int)

        public enum Code: String, RoteErrorCode {
            public typealias Failure = ParseError
            case unterminatedQuote, notText, badSeparator
        }

        public var code: Code {
            switch self {
            case .unterminatedQuote: .unterminatedQuote
            case .notText: .notText
            case .badSeparator: .badSeparator
            }
        }

        public var description: String { message }

        public var message: String {
            switch self {
            case let .unterminatedQuote(line): "line \(line): a quoted field is never closed (a \" is missing)"
            case .notText: "the file is not UTF-8 text"
            case let .badSeparator(name, line):
                "line \(line): unknown #separator '\(name)'; use comma, semicolon, tab, space, pipe or a single character"
            }
        }
    }

    /// Parses `data`; `defaultSeparator` applies when no `#separator:` header names one.
    /// With `headerRow`, the first row names the columns unless `#columns:` did.
    public static func parse(_ data: Data, defaultSeparator: Character, headerRow: Bool = true) throws -> DelimitedText
    {
        guard var text = String(data: data, encoding: .utf8) else { throw ParseError.notText }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var separator = defaultSeparator
        var columnsLine: String?
        var html = false
        var anki = false
        var tagsColumn: Int?
        var line = 1
        // Anki headers: `#key:value` lines at the very top.
        var scalars = Substring(text)
        while scalars.hasPrefix("#") {
            let end = scalars.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) ?? scalars.endIndex
            let header = scalars[scalars.index(after: scalars.startIndex)..<end]
            if let colon = header.firstIndex(of: ":") {
                anki = true
                let key = header[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = String(header[header.index(after: colon)...])
                switch key {
                case "separator":
                    switch value.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "comma", ",": separator = ","
                    case "semicolon", ";": separator = ";"
                    case "tab", "\t": separator = "\t"
                    case "space", " ": separator = " "
                    case "pipe", "|": separator = "|"
                    case let other where other.count == 1: separator = other.first!
                    default: throw ParseError.badSeparator(value, line: line)
                    }
                case "html": html = value.trimmingCharacters(in: .whitespaces).lowercased() == "true"
                case "columns": columnsLine = value
                case "tags column": tagsColumn = Int(value.trimmingCharacters(in: .whitespaces))
                default: break
                }
            }
            scalars = end < scalars.endIndex ? scalars[scalars.index(after: end)...] : scalars[end...]
            line += 1
        }
        var rows = try split(scalars, separator: separator, firstLine: line)
        var columns: [String]?
        if let columnsLine {
            columns = try split(Substring(columnsLine), separator: separator, firstLine: 1).first?.fields
        } else if headerRow, !anki, !rows.isEmpty {
            columns = rows.removeFirst().fields
        }
        return DelimitedText(
            separator: separator, columns: columns?.map { $0.trimmingCharacters(in: .whitespaces) }, rows: rows,
            html: html, tagsColumn: tagsColumn, ankiHeaders: anki)
    }

    /// Splits text into rows of fields. Blank lines are skipped.
    static func split(_ text: Substring, separator: Character, firstLine: Int) throws -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = ""
        var line = firstLine
        var rowLine = firstLine
        var inQuotes = false
        var quotedField = false
        var rowHasContent = false
        var iterator = text.makeIterator()
        var pending: Character?
        func next() -> Character? {
            if let value = pending {
                pending = nil
                return value
            }
            return iterator.next()
        }
        func endRow() {
            fields.append(field)
            if rowHasContent || fields.count > 1 || !field.isEmpty { rows.append(Row(line: rowLine, fields: fields)) }
            fields = []
            field = ""
            quotedField = false
            rowHasContent = false
        }
        while let character = next() {
            if inQuotes {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            inQuotes = false
                            pending = following
                        }
                    } else {
                        inQuotes = false
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character == "\r\n" ? "\n" : character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty && !quotedField:
                inQuotes = true
                quotedField = true
                rowHasContent = true
            case separator:
                fields.append(field)
                field = ""
                quotedField = false
                rowHasContent = true
            case "\n", "\r\n", "\r":
                endRow()
                line += 1
                rowLine = line
            default:
                field.append(character)
            }
        }
        if inQuotes { throw ParseError.unterminatedQuote(line: rowLine) }
        if !field.isEmpty || !fields.isEmpty || rowHasContent { endRow() }
        return rows
    }

    /// Writes rows (the first being the header) with `separator`, quoting fields that hold
    /// the separator, a quote or a line break; lines end in LF.
    public static func render(_ rows: [[String]], separator: Character) -> String {
        rows.isEmpty ? "\n" : rows.map { render(row: $0, separator: separator) }.joined()
    }

    /// One row and its line break, as `render` writes it.
    public static func render(row: [String], separator: Character) -> String {
        row.map { field in
            if field.contains(separator) || field.contains("\"") || field.contains("\n") || field.contains("\r")
                || field.hasPrefix(" ") || field.hasSuffix(" ")
            {
                return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            return field
        }.joined(separator: String(separator)) + "\n"
    }

    /// Plain text of an HTML field: tags dropped (`<br>` and `<div>` as line breaks), the
    /// common entities decoded.
    public static func plainText(fromHTML html: String) -> String {
        var out = ""
        var tag: String?
        for character in html {
            if var current = tag {
                if character == ">" {
                    let name =
                        current.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/ ")).split(
                            separator: " "
                        ).first ?? ""
                    if ["br", "div", "p"].contains(name), !out.isEmpty, !out.hasSuffix("\n") { out += "\n" }
                    tag = nil
                } else {
                    current.append(character)
                    tag = current
                }
            } else if character == "<" {
                tag = ""
            } else {
                out.append(character)
            }
        }
        for (entity, value) in [
            ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&"),
        ] {
            out = out.replacingOccurrences(of: entity, with: value)
        }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
