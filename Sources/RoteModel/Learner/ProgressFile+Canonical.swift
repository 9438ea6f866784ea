import Foundation

/// A reader for progress files exactly as Rote writes them, without building a YAML tree.
///
/// Launch, merge and replay read millions of reviews; going through Yams costs milliseconds a
/// file (a node per scalar, a regular expression per tag, a hash per key). Progress files are
/// machine-written in one canonical form, so this reader accepts that form and nothing else:
/// plain scalars, one top-level `key: value` a line, `state` and each review as one flow
/// mapping. Whenever the text strays from it — a quote, a comment, an unknown key, an odd
/// number, a duplicate, a hand edit of any kind — it gives up and the caller uses the general
/// reader, which stays the reference and the one that explains problems. A differential test
/// holds the two to the same answers on mutated files.
extension ProgressFile {
    public static func decodeCanonical(_ data: Data) -> ProgressFile? {
        data.withUnsafeBytes { CanonicalProgressReader(bytes: $0)?.file }
    }
}

private struct CanonicalProgressReader {
    var file: ProgressFile

    init?(bytes: UnsafeRawBufferPointer) {
        var entry: String?, status: ProgressFile.Status?, statusAt: Date?, state: MemoryState?
        var seen: Set<Substring> = []
        var reviews: [ReviewEvent] = []
        var ids = Set<String>()
        var inReviews = false
        var start = 0
        let count = bytes.count
        while start < count {
            var end = start
            while end < count, bytes[end] != 0x0A { end += 1 }
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            if inReviews {
                // `  - {id: …, at: …, grade: …, ms: …, device: …}`
                guard line.count > 6, line[0] == 0x20, line[1] == 0x20, line[2] == 0x2D, line[3] == 0x20,
                    let review = Self.review(UnsafeRawBufferPointer(rebasing: line[4...])),
                    ids.insert(review.id).inserted
                else { return nil }
                reviews.append(review)
                continue
            }
            guard let (key, value) = Self.pair(line, separatorRequired: false) else { return nil }
            let keyText = Substring(key)
            guard seen.insert(keyText).inserted else { return nil }
            switch keyText {
            case "entry": guard let text = Self.plain(value) else { return nil }; entry = text
            case "status": guard let text = Self.plain(value), let known = ProgressFile.Status(rawValue: text) else { return nil }; status = known
            case "status_at": guard let date = Self.date(value) else { return nil }; statusAt = date
            case "state": guard let read = Self.state(value) else { return nil }; state = read
            case "reviews": guard value.isEmpty else { return nil }; inReviews = true
            default: return nil
            }
        }
        guard let entry else { return nil }
        reviews.sort(by: ReviewEvent.replayOrder)
        file = ProgressFile(entry: entry, status: status ?? .active, statusAt: statusAt, state: state, reviews: reviews)
    }

    /// Splits `key: value` (or `key:` with nothing after) at the first colon.
    static func pair(_ text: UnsafeRawBufferPointer, separatorRequired: Bool) -> (String, UnsafeRawBufferPointer)? {
        guard let colon = text.firstIndex(of: 0x3A), colon > 0 else { return nil }
        let key = UnsafeRawBufferPointer(rebasing: text[..<colon])
        guard key.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }) else { return nil }
        if colon + 1 == text.count { return separatorRequired ? nil : (String(decoding: key, as: UTF8.self), UnsafeRawBufferPointer(rebasing: text[text.count...])) }
        guard text[colon + 1] == 0x20, colon + 2 < text.count else { return nil }
        return (String(decoding: key, as: UTF8.self), UnsafeRawBufferPointer(rebasing: text[(colon + 2)...]))
    }

    /// The pairs of `{a: 1, b: 2}`. Canonical plain scalars never hold `,`, `{` or `}`.
    static func flowPairs(_ text: UnsafeRawBufferPointer, _ body: (String, UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard text.count >= 2, text[0] == 0x7B, text[text.count - 1] == 0x7D else { return false }
        var start = 1
        let end = text.count - 1
        while start < end {
            var stop = start
            while stop < end, text[stop] != 0x2C { stop += 1 }
            guard let (key, value) = pair(UnsafeRawBufferPointer(rebasing: text[start..<stop]), separatorRequired: true),
                body(key, value)
            else { return false }
            if stop == end { break }
            guard stop + 2 < end, text[stop + 1] == 0x20 else { return false }
            start = stop + 2
        }
        return true
    }

    static func review(_ text: UnsafeRawBufferPointer) -> ReviewEvent? {
        var id: String?, at: Date?, grade: Grade?, ms: Int?, device: String?
        var seen: UInt8 = 0
        let ok = flowPairs(text) { key, value in
            let bit: UInt8
            switch key {
            case "id": bit = 1; id = plain(value)
            case "at": bit = 2; at = date(value)
            case "grade": bit = 4; grade = plain(value).flatMap(Grade.init(name:))
            case "ms": bit = 8; ms = integer(value)
            case "device": bit = 16; device = plain(value)
            default: return false
            }
            guard seen & bit == 0 else { return false }
            seen |= bit
            switch bit {
            case 1: return id != nil
            case 2: return at != nil
            case 4: return grade != nil
            case 8: return ms != nil
            default: return device != nil
            }
        }
        guard ok, let id, let at, let grade else { return nil }
        return ReviewEvent(id: id, at: at, grade: grade, ms: ms, device: device)
    }

    static func state(_ text: UnsafeRawBufferPointer) -> MemoryState? {
        var phase: MemoryState.Phase?, due: Date?, lastReview: Date?
        var step: Int?, reps: Int?, lapses: Int?
        var stability: Double?, difficulty: Double?, ease: Double?, interval: Double?
        var seen = Set<String>()
        let ok = flowPairs(text) { key, value in
            guard seen.insert(key).inserted else { return false }
            switch key {
            case "phase": phase = plain(value).flatMap(MemoryState.Phase.init(rawValue:)); return phase != nil
            case "due": due = date(value); return due != nil
            case "last_review": lastReview = date(value); return lastReview != nil
            case "step": step = integer(value); return step != nil
            case "reps": reps = integer(value); return reps != nil
            case "lapses": lapses = integer(value); return lapses != nil
            case "stability": stability = decimal(value); return stability != nil
            case "difficulty": difficulty = decimal(value); return difficulty != nil
            case "ease": ease = decimal(value); return ease != nil
            case "interval": interval = decimal(value); return interval != nil
            default: return false
            }
        }
        guard ok, let phase, let due else { return nil }
        return MemoryState(
            phase: phase, step: step, stability: stability, difficulty: difficulty, ease: ease, interval: interval,
            due: due, reps: reps ?? 0, lapses: lapses ?? 0, lastReview: lastReview)
    }

    /// A plain scalar of letters, digits and `_ . / -`, not starting with `-` or `.` and not a
    /// word YAML reads as null or a boolean — text every YAML reader returns unchanged.
    static func plain(_ text: UnsafeRawBufferPointer) -> String? {
        guard let first = text.first, first != 0x2D, first != 0x2E else { return nil }
        for byte in text {
            let safe = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x5F || byte == 0x2E || byte == 0x2F || byte == 0x2D
            guard safe else { return nil }
        }
        let string = String(decoding: text, as: UTF8.self)
        if text.count <= 5, ["null", "true", "false", "yes", "no", "on", "off", "y", "n"].contains(string.lowercased()) { return nil }
        return string
    }

    static func date(_ text: UnsafeRawBufferPointer) -> Date? {
        guard text.count >= 20, text.count <= 40, text.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return Timestamp.parse(utf8: text)
    }

    /// `0` or `-?[1-9][0-9]*`: YAML 1.1 reads a leading zero as octal, so that is left to Yams.
    static func integer(_ text: UnsafeRawBufferPointer) -> Int? {
        var digits = text[...]
        let negative = digits.first == 0x2D
        if negative { digits = digits.dropFirst() }
        guard let first = digits.first, first >= 0x30, first <= 0x39, digits.count <= 18, first != 0x30 || digits.count == 1 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return negative ? -value : value
    }

    /// `-?[0-9]+\.[0-9]+`, the form `YAMLValue.format` writes for ordinary values.
    static func decimal(_ text: UnsafeRawBufferPointer) -> Double? {
        var body = text[...]
        if body.first == 0x2D { body = body.dropFirst() }
        guard let dot = body.firstIndex(of: 0x2E), dot > body.startIndex, dot + 1 < body.endIndex, body.count <= 32 else { return nil }
        for index in body.indices where index != dot {
            guard body[index] >= 0x30, body[index] <= 0x39 else { return nil }
        }
        return Double(String(decoding: text, as: UTF8.self))
    }
}
