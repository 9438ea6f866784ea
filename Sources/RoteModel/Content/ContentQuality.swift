import Foundation

/// The content-quality rules `rote check` applies to what people write, beyond the format:
/// Arabic fields written in Arabic script, CEFR levels that fit their batch, and passages that
/// hold the spoken words without the narration around them (docs/format.md, "Content checks").
package enum ContentQuality {
    /// Whether `text` has at least one letter of the Arabic script (the Arabic block, its
    /// supplement and extended-A blocks, and the presentation forms).
    package static func hasArabicLetter(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0620...0x064A, 0x066E...0x06D3, 0x06D5, 0x06EE...0x06FF, 0x0750...0x077F, 0x08A0...0x08C9,
                0xFB50...0xFDFF, 0xFE70...0xFEFC:
                return true
            default:
                return false
            }
        }
    }

    // MARK: CEFR and batches

    static let levels = ["A1", "A2", "B1", "B2", "C1", "C2"]

    /// The CEFR level seed 000 gives a batch: 1–9 A1, 10–18 A2, 19–27 B1; nil beyond (future
    /// expansion, any level).
    package static func level(ofBatch batch: Int) -> String? {
        switch batch {
        case 1...9: return "A1"
        case 10...18: return "A2"
        case 19...27: return "B1"
        default: return nil
        }
    }

    /// What is wrong with a word's `cefr` for its `batch`, or nil. A batch holds words of its
    /// level or of the level just above (the very common A2 words beginners need sit in the A1
    /// batches); a word below its batch's level belongs in an earlier batch.
    package static func cefrProblem(cefr: String, batch: Int?) -> String? {
        guard let rank = levels.firstIndex(of: cefr) else {
            return "cefr '\(cefr)' is not a CEFR level; use one of \(levels.joined(separator: ", "))"
        }
        guard let batch, let expected = level(ofBatch: batch), let expectedRank = levels.firstIndex(of: expected) else {
            return nil
        }
        if rank < expectedRank {
            return
                "cefr \(cefr) in batch \(batch), whose words are \(expected); move the word to an earlier batch (\(cefrBatches(cefr))) or correct its level"
        }
        if rank > expectedRank + 1 {
            return
                "cefr \(cefr) in batch \(batch), whose words are \(expected) (or \(levels[expectedRank + 1])); move the word to a later batch or correct its level"
        }
        return nil
    }

    static func cefrBatches(_ level: String) -> String {
        switch level {
        case "A1": return "1–9"
        case "A2": return "10–18"
        default: return "19–27"
        }
    }

    // MARK: Narration in passages

    /// A speech verb of narration.
    static let speechVerbs: Set<String> = ["said", "saith", "answered", "answering", "spake", "saying"]
    /// First and second person (and the impersonal `it`): a clause with one of these is the
    /// speaker talking ("Ye have heard that it was said", "Therefore said I unto you"), not the
    /// narrator introducing him.
    static let speakerWords: Set<String> = [
        "i", "me", "my", "mine", "ye", "you", "your", "we", "us", "our", "thou", "thee", "thy", "it",
    ]

    /// The narration left in a passage that should hold only spoken words, or nil: an opening
    /// clause that introduces speech (`And he said unto them,`), a closing one (`…saying,`), or
    /// Jesus named as the speaker anywhere (`Jesus saith`). Characters inside a parable speak
    /// too (`And the son said unto him, Father…`), and that narration is the speaker's own
    /// words, so only the opening and closing clauses are looked at. The rule of
    /// tools/red-letter/build.py.
    package static func narration(in text: String) -> String? {
        let words = text.split(whereSeparator: { !$0.isLetter })
        let verbs: Set<String> = ["said", "saith", "answered", "spake"]
        for (first, second) in zip(words, words.dropFirst()) {
            let (a, b) = (first.lowercased(), second.lowercased())
            if (a == "jesus" && verbs.contains(b)) || (verbs.contains(a) && b == "jesus") {
                return "\(first) \(second)"
            }
        }
        let clauseEnd = text.firstIndex { ",;:.?!".contains($0) } ?? text.endIndex
        let opening = text[..<clauseEnd]
        if introducesSpeech(opening) { return String(opening) + String(text[clauseEnd...].prefix(1)) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let last = trimmed.last, ",:;".contains(last) {
            let body = trimmed.dropLast()
            let start = body.lastIndex { ",;:.?!".contains($0) }.map { body.index(after: $0) } ?? body.startIndex
            let closing = body[start...]
            if let lastWord = closing.split(whereSeparator: { !$0.isLetter }).last?.lowercased(),
                speechVerbs.contains(lastWord)
                    || (introducesSpeech(closing) && ["them", "him", "her"].contains(lastWord))
            {
                return closing.trimmingCharacters(in: .whitespaces) + String(last)
            }
        }
        return nil
    }

    static func introducesSpeech(_ clause: Substring) -> Bool {
        let words = clause.split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() }
        return words.contains(where: speechVerbs.contains) && !words.contains(where: speakerWords.contains)
    }
}
