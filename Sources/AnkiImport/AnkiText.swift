import Foundation
import RoteModel

/// Turns Anki's field HTML into the plain text Rote's files hold, and finds the media a field
/// refers to.
enum AnkiText {
    /// A field's text and the media it names.
    struct Field: Equatable {
        var text: String
        var sounds: [String]
        var images: [String]
        /// Whether control characters were removed from the text.
        var hadControlCharacters = false
    }

    /// `text` without control characters (`ControlCharacters`), and whether it had any. They
    /// are removed rather than kept escaped: a field is words to study, where an ESC or BEL
    /// (a paste from a terminal, an add-on's leftovers, `&#27;`) means nothing, and kept it
    /// would put a warning on every such entry.
    static func withoutControlCharacters(_ text: String) -> (text: String, removed: Bool) {
        guard ControlCharacters.contains(text) else { return (text, false) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.filter { !ControlCharacters.isControl($0) })
        return (String(kept), true)
    }

    /// Strips tags (a `<br>` or `<div>` becomes a line break … then a space), decodes the
    /// common entities, pulls out `[sound:x]` and `<img src="x">`, and trims whitespace.
    static func field(_ html: String) -> Field {
        var sounds: [String] = []
        var images: [String] = []
        var text = html
        while let open = text.range(of: "[sound:"), let close = text[open.upperBound...].firstIndex(of: "]") {
            sounds.append(String(text[open.upperBound..<close]))
            text.replaceSubrange(open.lowerBound...close, with: "")
        }
        var plain = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "<", let close = text[index...].firstIndex(of: ">") {
                let tag = String(text[text.index(after: index)..<close])
                let lowered = tag.lowercased()
                if lowered.hasPrefix("img"), let source = attribute("src", in: tag) { images.append(source) }
                if lowered.hasPrefix("br") || lowered.hasPrefix("div") || lowered.hasPrefix("/div")
                    || lowered.hasPrefix("p") || lowered.hasPrefix("/p")
                {
                    plain += " "
                }
                index = text.index(after: close)
                continue
            }
            plain.append(character)
            index = text.index(after: index)
        }
        // Line breaks and tabs are spacing, the rest of the control characters go (entities
        // decoded first, since `&#27;` is an ESC too).
        let spaced = decodeEntities(plain).split(whereSeparator: {
            $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" || $0 == "\u{a0}"
        })
        .joined(separator: " ")
        let (collapsed, removed) = withoutControlCharacters(spaced)
        return Field(text: collapsed, sounds: sounds, images: images, hadControlCharacters: removed)
    }

    /// `{{c1::Paris}} is in {{c2::France::country}}` → `Paris is in France`.
    static func clozeAnswers(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{c") {
            guard let separator = rest[open.upperBound...].range(of: "::"),
                rest[open.upperBound..<separator.lowerBound].allSatisfy(\.isNumber),
                let close = rest[separator.upperBound...].range(of: "}}")
            else { break }
            result += rest[..<open.lowerBound]
            let inner = rest[separator.upperBound..<close.lowerBound]
            result += inner.range(of: "::").map { inner[..<$0.lowerBound] } ?? inner
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: "\(name)=", options: .caseInsensitive) else { return nil }
        var value = tag[range.upperBound...]
        if let quote = value.first, quote == "\"" || quote == "'" {
            value = value.dropFirst()
            return value.firstIndex(of: quote).map { String(value[..<$0]) }
        }
        return String(value.prefix { !$0.isWhitespace && $0 != "/" && $0 != ">" })
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var index = text.startIndex
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
        while index < text.endIndex {
            if text[index] == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") {
                let name = String(text[text.index(after: index)..<semicolon])
                var replacement: String?
                if let value = named[name] {
                    replacement = value
                } else if name.hasPrefix("#x") || name.hasPrefix("#X"), let code = UInt32(name.dropFirst(2), radix: 16),
                    let scalar = Unicode.Scalar(code)
                {
                    replacement = String(Character(scalar))
                } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(code) {
                    replacement = String(Character(scalar))
                }
                if let replacement {
                    out += replacement
                    index = text.index(after: semicolon)
                    continue
                }
            }
            out.append(text[index])
            index = text.index(after: index)
        }
        return out
    }
}
