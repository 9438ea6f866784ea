public import Foundation

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
        var reviews = AllReviews()
        guard var file = data.withUnsafeBytes({ CanonicalProgressReader.read($0, into: &reviews) }) else { return nil }
        reviews.list.sort(by: ReviewEvent.replayOrder)
        file.reviews = reviews.list
        return file
    }

    /// A review as the canonical scan meets it: its id's bytes are valid only during the call.
    public struct ScannedReview {
        public let id: UnsafeRawBufferPointer
        public let at: Date
        public let grade: Grade
        public let ms: Int?
        /// `synthetic:`'s bytes (a warm start's, `rote known`'s), valid only during the call.
        public let synthetic: UnsafeRawBufferPointer?
        /// When `rote undo` took the review back (`undone:`).
        public let undone: Date?
        /// `practice: true`: an answer of a practice session, which does not schedule.
        public let practice: Bool
        /// `balanced_interval:`, the workload balancer's choice of interval (`ReviewEvent`).
        public let balancedInterval: Int?

        /// The review as an event (without its device, which nothing that scans needs).
        public var event: ReviewEvent {
            ReviewEvent(
                id: String(decoding: id, as: UTF8.self), at: at, grade: grade, ms: ms,
                synthetic: synthetic.map { String(decoding: $0, as: UTF8.self) }, undone: undone, practice: practice,
                balancedInterval: balancedInterval)
        }
    }

    /// A canonical progress file read without building its reviews, for what only needs a
    /// summary of them: the file with an empty review list, each review
    /// handed to `review` in replay order. It gives up (nil) wherever `decodeCanonical`
    /// does, and also when the reviews are not already in replay order or two ids hash alike;
    /// the caller then reads the file in full, so it must throw away what `review` was told.
    public static func scanCanonical(bytes: UnsafeRawBufferPointer, review: (ScannedReview) -> Void) -> ProgressFile? {
        withoutActuallyEscaping(review) { review in
            var reviews = ReviewsInOrder(review: review)
            return CanonicalProgressReader.read(bytes, into: &reviews)
        }
    }
}

/// Hashes seen so far, in an open-addressed table kept at most half full: cheaper than a
/// `Set`, which hashes its hashes again.
private struct HashesSeen {
    private var slots = [UInt64](repeating: 0, count: 128)
    private var count = 0
    /// Zero marks a free slot, so a hash of zero is kept apart.
    private var sawZero = false

    /// False when `hash` was there already.
    mutating func insert(_ hash: UInt64) -> Bool {
        if hash == 0 {
            defer { sawZero = true }
            return !sawZero
        }
        if (count + 1) * 2 > slots.count {
            let old = slots
            slots = [UInt64](repeating: 0, count: old.count * 2)
            count = 0
            for hash in old where hash != 0 { _ = insert(hash) }
        }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> 7) & mask
        while slots[slot] != 0 {
            if slots[slot] == hash { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = hash
        count += 1
        return true
    }
}

/// Where the canonical reader puts each review it reads; false gives the file up.
protocol CanonicalReviews {
    mutating func add(
        id: UnsafeRawBufferPointer, at: Date, grade: Grade, ms: Int?, device: UnsafeRawBufferPointer?,
        synthetic: UnsafeRawBufferPointer?, undone: Date?, practice: Bool, balancedInterval: Int?
    ) -> Bool
}

/// Every review as an event, an id seen twice refused.
private struct AllReviews: CanonicalReviews {
    var list: [ReviewEvent] = []
    var ids = Set<String>()

    mutating func add(
        id: UnsafeRawBufferPointer, at: Date, grade: Grade, ms: Int?, device: UnsafeRawBufferPointer?,
        synthetic: UnsafeRawBufferPointer?, undone: Date?, practice: Bool, balancedInterval: Int?
    ) -> Bool {
        let id = String(decoding: id, as: UTF8.self)
        guard ids.insert(id).inserted else { return false }
        list.append(
            ReviewEvent(
                id: id, at: at, grade: grade, ms: ms, device: device.map { String(decoding: $0, as: UTF8.self) },
                synthetic: synthetic.map { String(decoding: $0, as: UTF8.self) }, undone: undone, practice: practice,
                balancedInterval: balancedInterval))
        return true
    }
}

/// Reviews passed on as they come, which must be in replay order already (time, then id:
/// ids are ASCII, so byte order is `String` order). Ids are told apart by hash: two that
/// hash alike give the file up rather than risk calling two different ids one.
private struct ReviewsInOrder: CanonicalReviews {
    let review: (ProgressFile.ScannedReview) -> Void
    var hashes = HashesSeen()
    var previous: (at: Date, id: UnsafeRawBufferPointer)?

    mutating func add(
        id: UnsafeRawBufferPointer, at: Date, grade: Grade, ms: Int?, device: UnsafeRawBufferPointer?,
        synthetic: UnsafeRawBufferPointer?, undone: Date?, practice: Bool, balancedInterval: Int?
    ) -> Bool {
        if let previous {
            guard previous.at <= at else { return false }
            if previous.at == at {
                let common = min(previous.id.count, id.count)
                let order = memcmp(previous.id.baseAddress!, id.baseAddress!, common)
                guard order < 0 || (order == 0 && previous.id.count < id.count) else { return false }
            }
        }
        guard hashes.insert(Self.hash(id)) else { return false }
        previous = (at, id)
        review(
            ProgressFile.ScannedReview(
                id: id, at: at, grade: grade, ms: ms, synthetic: synthetic, undone: undone, practice: practice,
                balancedInterval: balancedInterval))
        return true
    }

    /// Eight bytes at a time, multiplied and folded: a collision only sends the file the slow
    /// way, so any fair spread will do.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x100_0000_01B3
            offset += 1
        }
        return hash ^ (hash >> 32)
    }
}

enum CanonicalProgressReader {
    /// The file's fields (reviews left empty), its reviews put into `reviews`; nil when the
    /// text is not canonical or `reviews` refused one.
    static func read<Reviews: CanonicalReviews>(_ bytes: UnsafeRawBufferPointer, into reviews: inout Reviews)
        -> ProgressFile?
    {
        var entry: String?
        var status: ProgressFile.Status?
        var statusAt: Date?
        var state: MemoryState?
        var seen: Set<Substring> = []
        var inReviews = false
        var start = 0
        let count = bytes.count
        while start < count {
            var end = start
            if let newline = memchr(bytes.baseAddress! + start, 0x0A, count - start) {
                end = bytes.baseAddress!.distance(to: UnsafeRawPointer(newline))
            } else {
                end = count
            }
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            if inReviews {
                // `  - {id: …, at: …, grade: …, ms: …, device: …}`
                guard line.count > 6, line[0] == 0x20, line[1] == 0x20, line[2] == 0x2D, line[3] == 0x20,
                    review(UnsafeRawBufferPointer(rebasing: line[4...]), into: &reviews)
                else { return nil }
                continue
            }
            guard let (key, value) = pair(line) else { return nil }
            let keyText = Substring(String(decoding: key, as: UTF8.self))
            guard seen.insert(keyText).inserted else { return nil }
            switch keyText {
            case "entry":
                guard let text = plain(value) else { return nil }
                entry = text
            case "status":
                guard let text = plain(value), let known = ProgressFile.Status(rawValue: text) else { return nil }
                status = known
            case "status_at":
                guard let date = date(value) else { return nil }
                statusAt = date
            case "state":
                guard let read = self.state(value) else { return nil }
                state = read
            case "reviews":
                guard value.isEmpty else { return nil }
                inReviews = true
            default: return nil
            }
        }
        guard let entry else { return nil }
        return ProgressFile(entry: entry, status: status ?? .active, statusAt: statusAt, state: state, reviews: [])
    }

    /// Splits `key: value` (or `key:` with nothing after) at the first colon.
    static func pair(_ text: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer)? {
        guard let colon = text.firstIndex(of: 0x3A), colon > 0 else { return nil }
        let key = UnsafeRawBufferPointer(rebasing: text[..<colon])
        guard key.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }) else { return nil }
        if colon + 1 == text.count { return (key, UnsafeRawBufferPointer(rebasing: text[text.count...])) }
        guard text[colon + 1] == 0x20, colon + 2 < text.count else { return nil }
        return (key, UnsafeRawBufferPointer(rebasing: text[(colon + 2)...]))
    }

    /// The pairs of `{a: 1, b: 2}`. Canonical plain scalars never hold `,`, `{` or `}`.
    /// One pass over each pair: its key (`[a-z_]+`), then `: `, then a value running to the
    /// next `,` or the closing brace — what `pair` would split the same text into.
    static func flowPairs(
        _ text: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        guard text.count >= 2, text[0] == 0x7B, text[text.count - 1] == 0x7D else { return false }
        var start = 1
        let end = text.count - 1
        while start < end {
            var colon = start
            while colon < end, (text[colon] >= 0x61 && text[colon] <= 0x7A) || text[colon] == 0x5F { colon += 1 }
            guard colon > start, colon + 2 < end, text[colon] == 0x3A, text[colon + 1] == 0x20 else { return false }
            var stop = colon + 2
            while stop < end, text[stop] != 0x2C { stop += 1 }
            guard stop > colon + 2,
                body(
                    UnsafeRawBufferPointer(rebasing: text[start..<colon]),
                    UnsafeRawBufferPointer(rebasing: text[(colon + 2)..<stop]))
            else { return false }
            if stop == end { break }
            guard stop + 2 < end, text[stop + 1] == 0x20 else { return false }
            start = stop + 2
        }
        return true
    }

    static func review<Reviews: CanonicalReviews>(_ text: UnsafeRawBufferPointer, into reviews: inout Reviews) -> Bool {
        var id: UnsafeRawBufferPointer?
        var at: Date?
        var grade: Grade?
        var ms: Int?
        var device: UnsafeRawBufferPointer?
        var synthetic: UnsafeRawBufferPointer?
        var undone: Date?
        var practice: Bool?
        var balancedInterval: Int?
        var seen: UInt16 = 0
        let ok = flowPairs(text) { key, value in
            let bit: UInt16
            switch packed(key) {
            case Keys.id:
                bit = 1
                id = isPlain(value) ? value : nil
            case Keys.at:
                bit = 2
                at = date(value)
            case Keys.grade:
                bit = 4
                grade = isPlain(value) ? self.grade(value) : nil
            case Keys.ms:
                bit = 8
                ms = integer(value)
            case Keys.device:
                bit = 16
                device = isPlain(value) ? value : nil
            // Only `true`, the one value the writer gives it.
            case Keys.practice:
                bit = 128
                practice = value.elementsEqual("true".utf8) ? true : nil
            // Nine bytes, past what `packed` holds: compared in full.
            case UInt64.max where key.elementsEqual("synthetic".utf8):
                bit = 32
                synthetic = isPlain(value) ? value : nil
            case Keys.undone:
                bit = 64
                undone = date(value)
            // Seventeen bytes, compared in full; the writer gives only whole days from 1 up.
            case UInt64.max where key.elementsEqual("balanced_interval".utf8):
                bit = 256
                balancedInterval = integer(value).flatMap { $0 >= 1 ? $0 : nil }
            default: return false
            }
            guard seen & bit == 0 else { return false }
            seen |= bit
            switch bit {
            case 1: return id != nil
            case 2: return at != nil
            case 4: return grade != nil
            case 8: return ms != nil
            case 16: return device != nil
            case 64: return undone != nil
            case 128: return practice != nil
            case 256: return balancedInterval != nil
            default: return synthetic != nil
            }
        }
        guard ok, let id, let at, let grade else { return false }
        return reviews.add(
            id: id, at: at, grade: grade, ms: ms, device: device, synthetic: synthetic, undone: undone,
            practice: practice ?? false, balancedInterval: balancedInterval)
    }

    static func state(_ text: UnsafeRawBufferPointer) -> MemoryState? {
        var phase: MemoryState.Phase?
        var due: Date?
        var lastReview: Date?
        var step: Int?
        var reps: Int?
        var lapses: Int?
        var stability: Double?
        var difficulty: Double?
        var ease: Double?
        var interval: Double?
        var seen: [String] = []
        let ok = flowPairs(text) { key, value in
            let key = String(decoding: key, as: UTF8.self)
            guard !seen.contains(key) else { return false }
            seen.append(key)
            switch key {
            case "phase":
                phase = plain(value).flatMap(MemoryState.Phase.init(rawValue:))
                return phase != nil
            case "due":
                due = date(value)
                return due != nil
            case "last_review":
                lastReview = date(value)
                return lastReview != nil
            case "step":
                step = integer(value)
                return step != nil
            case "reps":
                reps = integer(value)
                return reps != nil
            case "lapses":
                lapses = integer(value)
                return lapses != nil
            case "stability":
                stability = decimal(value)
                return stability != nil
            case "difficulty":
                difficulty = decimal(value)
                return difficulty != nil
            case "ease":
                ease = decimal(value)
                return ease != nil
            case "interval":
                interval = decimal(value)
                return interval != nil
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
        isPlain(text) ? String(decoding: text, as: UTF8.self) : nil
    }

    static func isPlain(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let first = text.first, first != 0x2D, first != 0x2E else { return false }
        guard ByteSet.plainProgressText.containsAll(of: text) else { return false }
        guard text.count <= 5 else { return true }
        switch packed(text, lowercased: true) {
        // null, true, false, yes, no, on, off, y, n
        case 0x6C6C_756E, 0x6575_7274, 0x65_736C_6166, 0x73_6579, 0x6F6E, 0x6E6F, 0x66_666F, 0x79, 0x6E: return false
        default: return true
        }
    }

    /// Up to eight bytes as one number, to compare short words without making strings; all
    /// longer texts give the same number, which is no word's.
    static func packed(_ text: UnsafeRawBufferPointer, lowercased: Bool = false) -> UInt64 {
        guard text.count <= 8 else { return UInt64.max }
        var value: UInt64 = 0
        for (offset, byte) in text.enumerated() {
            let folded = lowercased && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            value |= UInt64(folded) << (8 * offset)
        }
        return value
    }

    static func packed(_ word: String) -> UInt64 {
        var word = word
        return word.withUTF8 { packed(UnsafeRawBufferPointer($0)) }
    }

    /// Words as `packed` gives them, written out: a `static let` would cost a call to
    /// `swift_once` on every review. A test holds each to `packed` of its word.
    enum Keys {
        static let id: UInt64 = 0x6469, at: UInt64 = 0x7461, grade: UInt64 = 0x65_6461_7267, ms: UInt64 = 0x736D,
            device: UInt64 = 0x6563_6976_6564, undone: UInt64 = 0x656E_6F64_6E75,
            practice: UInt64 = 0x6563_6974_6361_7270
    }

    /// What `Grade(name:)` reads from a plain scalar: its name in any case, or its number.
    /// A test holds this to `Grade(name:)`.
    static func grade(_ text: UnsafeRawBufferPointer) -> Grade? {
        switch packed(text, lowercased: true) {
        case 0x6E_6961_6761, 0x31: .again  // again, 1
        case 0x6472_6168, 0x32: .hard  // hard, 2
        case 0x646F_6F67, 0x33: .good  // good, 3
        case 0x7973_6165, 0x34: .easy  // easy, 4
        default: nil
        }
    }

    static func date(_ text: UnsafeRawBufferPointer) -> Date? {
        guard text.count >= 20, text.count <= 40, text.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return Timestamp.parse(utf8: text)
    }

    /// `0` or `-?[1-9][0-9]*`: YAML 1.1 reads a leading zero as octal, so that is left to Yams,
    /// and so is `-0`, which Yams does not take for a whole number (found by fuzzing).
    static func integer(_ text: UnsafeRawBufferPointer) -> Int? {
        var digits = text[...]
        let negative = digits.first == 0x2D
        if negative { digits = digits.dropFirst() }
        guard let first = digits.first, first >= 0x30, first <= 0x39, digits.count <= 18,
            first != 0x30 || (digits.count == 1 && !negative)
        else { return nil }
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
        guard let dot = body.firstIndex(of: 0x2E), dot > body.startIndex, dot + 1 < body.endIndex, body.count <= 32
        else { return nil }
        for index in body.indices where index != dot {
            guard body[index] >= 0x30, body[index] <= 0x39 else { return nil }
        }
        return Double(String(decoding: text, as: UTF8.self))
    }
}

extension ByteSet {
    /// Letters, digits and `_ . / -`: what the canonical progress reader takes as plain text.
    static let plainProgressText = ByteSet(
        Array(0x61...0x7A) + Array(0x41...0x5A) + Array(0x30...0x39) + [0x5F, 0x2E, 0x2F, 0x2D])
}
