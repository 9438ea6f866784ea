/// Text laid out for a terminal of a given width: lines broken between words, never inside
/// one ("I like th / e music"), each character counted as wide as a terminal draws it.
package enum TerminalLines {
    /// The columns a terminal gives `character`: none for the invisible ones (direction
    /// marks and isolates, joiners, controls), two for East Asian wide and full-width
    /// letters and emoji, one for the rest. A grapheme's combining marks ride on its base.
    package static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return scalar.properties.generalCategory == .nonspacingMark ? 0 : 1
        }
    }

    /// The columns `text` takes on one line.
    package static func width(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` as lines of at most `width` columns, broken at spaces; a word wider than a
    /// line is cut where it must be. Each line of `text` is wrapped on its own, a line that
    /// fits is left exactly as it is, and the lines a long one becomes keep its indentation
    /// and start under the text of a list item (`• `, `- `, `2. `, `3) `), so a bullet or a
    /// numbered choice stays one block. A `width` below 1 breaks nothing.
    package static func wrapped(_ text: String, width: Int) -> [String] {
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard width > 0 else { return paragraphs.map(String.init) }
        return paragraphs.flatMap { paragraph in
            self.width(of: paragraph) <= width ? [String(paragraph)] : wrap(paragraph, width: width)
        }
    }

    private static func wrap(_ paragraph: Substring, width: Int) -> [String] {
        let indent = paragraph.prefix { $0 == " " }
        let item = paragraph.dropFirst(indent.count)
        let digits = item.prefix(while: \.isASCII).prefix { $0.isNumber }
        let marker =
            item.hasPrefix("• ") || item.hasPrefix("- ")
            ? 2
            : !digits.isEmpty && [". ", ") "].contains(item.dropFirst(digits.count).prefix(2)) ? digits.count + 2 : 0
        // An indent of half the line or more would leave too little room under it.
        let hangingWidth = self.width(of: indent) + marker
        let hanging = hangingWidth * 2 < width ? String(repeating: " ", count: hangingWidth) : ""
        var lines: [String] = []
        var line = String(indent)
        var used = self.width(of: indent)
        var hasWord = false
        func breakLine() {
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
            line = hanging
            used = self.width(of: hanging)
            hasWord = false
        }
        // Split on single spaces, so the runs of spaces that align a card's columns stay.
        for word in paragraph.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = self.width(of: word)
            let gap = hasWord ? 1 : 0
            if hasWord, used + gap + wordWidth > width {
                breakLine()
                if word.isEmpty { continue }
            }
            if used + (hasWord ? 1 : 0) + wordWidth <= width {
                if hasWord {
                    line += " "
                    used += 1
                }
                line += word
                used += wordWidth
                hasWord = hasWord || !word.isEmpty
                continue
            }
            // Wider than a whole line: cut into pieces that fit.
            for character in word {
                let characterWidth = self.width(of: character)
                if hasWord, used + characterWidth > width { breakLine() }
                line.append(character)
                used += characterWidth
                hasWord = true
            }
        }
        lines.append(line)
        return lines
    }
}
