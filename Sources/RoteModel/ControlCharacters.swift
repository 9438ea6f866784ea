/// Control characters in text that reaches a terminal or a message.
///
/// A terminal obeys control characters instead of showing them: ESC starts sequences that
/// retitle the window, recolour or move the cursor and rewrite what is on screen, BEL rings,
/// CR returns over the line already printed. Content comes from files anyone can edit and from
/// imported decks, so Rote never lets one through raw: `visible` writes each as a Swift-style
/// escape, `\u{1B}`, which says exactly which character is there.
///
/// The characters are Unicode's control category (Cc) — C0 (U+0000–U+001F), DEL (U+007F) and
/// C1 (U+0080–U+009F) — except tab and line feed, which lay text out as meant. Format
/// characters (Cf) such as the right-to-left mark are not controls: Arabic text needs them.
package enum ControlCharacters {
    /// Whether `scalar` is a control character Rote shows escaped.
    @inline(__always)
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09 && value != 0x0A) || (value >= 0x7F && value <= 0x9F)
    }

    /// Whether `text` holds a control character.
    package static func contains(_ text: some StringProtocol) -> Bool {
        // Every control character's UTF-8 starts with a byte below 0x20, 0x7F or 0xC2: test
        // those bytes first, since this runs over every string Rote prints.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return false }
        return text.unicodeScalars.contains(where: isControl)
    }

    /// `text` with every control character written as `\u{XX}` (`\u{1B}` for ESC); text
    /// without one is returned as it is.
    package static func visible(_ text: String) -> String {
        guard contains(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `\u{1B}`: how `visible` writes one control character.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// `U+001B (ESC)`: a control character named for a message.
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        let number = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
        return names[Int(scalar.value)].map { "\(number) (\($0))" } ?? number
    }

    private static let names: [Int: String] = {
        let c0 = [
            "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF", "CR", "SO", "SI",
            "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
        ]
        var names = Dictionary(uniqueKeysWithValues: c0.enumerated().map { ($0.offset, $0.element) })
        names[0x7F] = "DEL"
        names[0x85] = "NEL"
        names[0x9B] = "CSI"
        return names
    }()
}
