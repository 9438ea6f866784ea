/// Splits text into normalised words for recall: at white space, punctuation and symbols,
/// and around every ideograph (Han, kana), which is a word of its own.
///
/// Works on the UTF-8 bytes, decoding a scalar only beyond ASCII, because it runs over the
/// whole typed text on every keystroke.
enum RecallTokenizer {
    struct Token: Sendable, Equatable {
        /// As written, from its first to its last word character.
        var text: String
        /// Lower case, without apostrophes or harakat.
        var key: String
    }

    /// Apostrophes join the parts of a word (`don't`, `ma’am`) instead of splitting it.
    @inline(__always) static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "'" || scalar == "\u{2019}" || scalar == "\u{02BC}"
    }

    /// Letters, marks (harakat among them) and digits make words.
    @inline(__always) static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A)
                || (value >= 0x30 && value <= 0x39)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Whitespace, punctuation and symbols end a word.
    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        !isWordScalar(scalar) && !isApostrophe(scalar)
    }

    static func tokens(_ text: String) -> [Token] {
        var text = text
        return text.withUTF8 { tokens(bytes: $0) }
    }

    static func tokens(bytes: UnsafeBufferPointer<UInt8>) -> [Token] {
        var tokens: [Token] = []
        var key: [UInt8] = []
        key.reserveCapacity(32)
        var start = -1
        var end = 0
        var ascii = true
        func flush() {
            if start >= 0, !key.isEmpty {
                let word = String(decoding: key, as: UTF8.self)
                tokens.append(
                    Token(
                        text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self),
                        key: ascii ? word : word.lowercased()))
            }
            key.removeAll(keepingCapacity: true)
            start = -1
            ascii = true
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    if start < 0 { start = index }
                    end = index + 1
                    key.append(byte)
                } else if byte >= 0x41, byte <= 0x5A {
                    if start < 0 { start = index }
                    end = index + 1
                    key.append(byte + 0x20)
                } else if byte != 0x27 || start < 0 {
                    flush()
                }
                index += 1
                continue
            }
            // A multi-byte scalar (the text is valid UTF-8).
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            if isWordScalar(scalar) {
                // An ideograph is a word of its own (as the cloze ladder cuts it), so a Chinese
                // recitation is compared character by character, not clause by clause.
                let ideograph = ClauseWord.isIdeograph(scalarValue: value)
                if ideograph { flush() }
                if start < 0 { start = index }
                end = index + length
                if let folded = TypedAnswer.foldedArabic(scalar) {
                    if folded == scalar {
                        key.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                    } else {
                        key.append(contentsOf: Array(String(folded).utf8))
                    }
                    ascii = false
                }
                if ideograph {
                    index += length
                    flush()
                    continue
                }
            } else if !isApostrophe(scalar) || start < 0 {
                flush()
            }
            index += length
        }
        flush()
        return tokens
    }
}
