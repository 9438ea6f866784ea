package import Foundation
import Parallelism

#if canImport(Glibc)
import Glibc
package import RoteModel
#endif

/// `rote check`: every file's own problems and the rules that look across files, with only
/// the files that changed since the last check read again.
///
/// Each check keeps, in `.git/rote/check.cache`, every file's stamp (size, times, inode, as
/// git's index keeps them), its problems and its facts (`FileFacts`, what the cross-file rules
/// look at). The next check lists the library and stats every file, as the full load does; a
/// file whose stamp is the same (and was not written in the two seconds before the cache was,
/// when file times may not yet have moved) keeps its problems and facts without being read.
/// The cross-file rules then run over every file's facts. The answer is the full load's
/// (`LibraryLoader.load`), which `everything` runs instead, and which a test holds this to.
package enum LibraryCheck {
    package struct Result: Sendable {
        /// Every problem, in file order.
        package var diagnostics: [Diagnostic]
        package var fileCount: Int
        package var entryCount: Int
        package var deckCount: Int
        /// Files read and parsed this time (every file the first time, or with `everything`).
        package var filesRead: Int

        package var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
        package var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    }

    static let cacheName = "check.cache"
    /// Version 2: vocabulary facts carry what the content-quality rules compare, and files'
    /// own problems include those rules', so a cache of version 1 is read as empty.
    static let header = "rote-check-cache 2"
    /// Checks the library at `root`. With `everything`, every file is read, on every core.
    package static func run(root: URL, everything: Bool = false) throws -> Result {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        let loader = LibraryLoader(users: .all, includeSessions: true)
        let (listed, files) = try loader.list(root)
        let cached = everything ? Cache() : load(root: root)
        let (records, read) = records(root: root, files: files, decks: listed.decks, reuse: cached)
        var diagnostics = listed.diagnostics
        for record in records { diagnostics += record.problems }
        let entries = records.reduce(0) { $0 + ($1.isEntry ? 1 : 0) }
        // Nothing read and no file come or gone: every file's facts are the ones the cached
        // cross-file problems came from, so the rules need not run (nor the facts be decoded).
        let unchanged = read == 0 && records.count == cached.records.count
        let crossFile: [Diagnostic]
        if unchanged, let cachedCrossFile = cached.crossFile {
            crossFile = cachedCrossFile
        } else {
            let facts = records.concurrentMap { $0.facts }.compactMap { $0 }
            crossFile = LibraryValidator.crossFileProblems(
                root: root, manifest: listed.manifest, decks: listed.decks, facts: facts)
        }
        diagnostics += crossFile
        diagnostics.sort(by: Diagnostic.fileOrder)
        if !unchanged || cached.crossFile == nil { save(records: records, crossFile: crossFile, root: root) }
        return Result(
            diagnostics: diagnostics, fileCount: listed.fileCount, entryCount: entries, deckCount: listed.decks.count,
            filesRead: read)
    }

    /// What the check keeps of one file.
    struct Record: Sendable {
        var path: String
        var stamp: FileStamp
        /// For an entry file, its deck's kind when it was read: an entry reads by its deck's kind.
        var deckKind: String
        var problems: [Diagnostic]
        /// The facts, or their field in the cache, decoded only when the cross-file rules run.
        private var storedFacts: StoredFacts

        enum StoredFacts: Sendable {
            case decoded(FileFacts?)
            case encoded(String)
        }

        init(path: String, stamp: FileStamp, deckKind: String, problems: [Diagnostic], facts: FileFacts?) {
            self.init(path: path, stamp: stamp, deckKind: deckKind, problems: problems, storedFacts: .decoded(facts))
        }

        init(path: String, stamp: FileStamp, deckKind: String, problems: [Diagnostic], storedFacts: StoredFacts) {
            self.path = path
            self.stamp = stamp
            self.deckKind = deckKind
            self.problems = problems
            self.storedFacts = storedFacts
        }

        /// The file's facts; a cached field that no longer reads gives none.
        var facts: FileFacts? {
            switch storedFacts {
            case let .decoded(facts): return facts
            case let .encoded(field): return (try? LibraryCheck.decodeFacts(field)) ?? nil
            }
        }

        /// Whether the file is an entry (which the count of entries needs, without decoding).
        var isEntry: Bool {
            switch storedFacts {
            case let .decoded(facts): if case .entry? = facts { return true } else { return false }
            case let .encoded(field): return "VLQP".contains(field.first ?? "-")
            }
        }

        /// The facts' field in the cache.
        var factsField: String {
            switch storedFacts {
            case let .decoded(facts): return LibraryCheck.encode(facts)
            case let .encoded(field): return field
            }
        }
    }

    /// Each listed file's record: the cached one when its stamp (and its deck's kind) is
    /// unchanged and was settled when cached, else the file read again now. Returns how many
    /// were read.
    static func records(root: URL, files: [(String, LibraryFile)], decks: [String: DeckManifest], reuse cached: Cache)
        -> (records: [Record], read: Int)
    {
        let loader = LibraryLoader(users: .all, includeSessions: true)
        let rootPath = root.path
        // A file changed within the racy window before the cache was written may change again
        // without its stamp moving (coarse file times): it is read again now.
        let settledBefore = cached.writtenAt - FileStamp.racyWindow
        let results = files.concurrentMap { path, kind -> (Record, Bool) in
            var info = stat()
            let stamp = stat(rootPath + "/" + path, &info) == 0 ? FileStamp(info) : FileStamp.unknown
            var deckKind = ""
            if case let .entry(deck, _) = kind { deckKind = decks[deck]?.kind.rawValue ?? "" }
            if let record = cached.records[path], record.stamp == stamp, record.deckKind == deckKind,
                stamp != FileStamp.unknown,
                max(stamp.modified, stamp.changed) < settledBefore
            {
                return (record, false)
            }
            let parsed = loader.parse(root: root, path: path, kind: kind, decks: decks)
            return (
                Record(
                    path: path, stamp: stamp, deckKind: deckKind, problems: parsed.problems,
                    facts: parsed.value.flatMap(FileFacts.init)), true
            )
        }
        return (results.map(\.0), results.filter(\.1).count)
    }

    // MARK: The cache file

    struct Cache {
        var writtenAt: Int64 = 0
        var records: [String: Record] = [:]
        /// The cross-file problems of the check that wrote the cache; nil in a cache without them.
        var crossFile: [Diagnostic]?
    }

    static func cacheURL(_ root: URL) -> URL { root.appending(path: ".git/rote/\(cacheName)") }

    /// The cache as the last check left it; empty when there is none or it does not read.
    static func load(root: URL) -> Cache {
        guard let data = FileManager.default.contents(atPath: cacheURL(root).path) else { return Cache() }
        return decode([UInt8](data)) ?? Cache()
    }

    static func save(records: [Record], crossFile: [Diagnostic], root: URL) {
        guard FileManager.default.fileExists(atPath: root.appending(path: ".git").path) else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let text = encode(
            records, crossFile: crossFile, writtenAt: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
        // A cache: a lost or torn one is only read as empty, so no fsync.
        try? Data(text.utf8).withUnsafeBytes { try AtomicFile.write($0, to: cacheURL(root), durable: false) }
    }

    /// One line per file — path, stamp, deck kind, facts, problem count — then one line per
    /// problem; fields are separated by tabs, and tabs, line breaks and backslashes in text
    /// are escaped. Last, the cross-file problems: a line `crossFileMark` with their count,
    /// then theirs.
    static func encode(_ records: [Record], crossFile: [Diagnostic]? = nil, writtenAt: Int64) -> String {
        var out = "\(header)\t\(writtenAt)\n"
        out.reserveCapacity(records.count * 120)
        func problemLines(_ problems: [Diagnostic]) {
            for problem in problems {
                out +=
                    " "
                    + [
                        escape(problem.path), problem.line.map(String.init) ?? "-", problem.severity.rawValue,
                        escape(problem.message),
                    ].joined(separator: "\t") + "\n"
            }
        }
        for record in records {
            let stamp = record.stamp
            out +=
                [
                    escape(record.path), String(stamp.size), String(stamp.modified), String(stamp.changed),
                    String(stamp.inode), escape(record.deckKind),
                    record.factsField, String(record.problems.count),
                ].joined(separator: "\t") + "\n"
            problemLines(record.problems)
        }
        if let crossFile {
            out += "\(crossFileMark)\t\(crossFile.count)\n"
            problemLines(crossFile)
        }
        return out
    }

    /// The line before the cross-file problems: no path starts with a control character.
    static let crossFileMark = "\u{1}cross-file"

    /// Reads a cache: its records are decoded on every core, in runs that start at record
    /// lines (problem lines start with a space).
    static func decode(_ bytes: [UInt8]) -> Cache? {
        guard let headEnd = bytes.firstIndex(of: 0x0A) else { return nil }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).split(separator: "\t")
        guard head.count == 2, head[0] == header, let writtenAt = Int64(head[1]) else { return nil }
        // The cross-file problems, after the records, read like a record's problems.
        var crossFile: [Diagnostic]?
        var trimmed = bytes
        let mark = Array(("\n" + crossFileMark + "\t").utf8)
        if let start = lastRange(of: mark, in: bytes) {
            guard
                let trailer = try? bytes.withUnsafeBufferPointer({ buffer in
                    try decodeRecords(UnsafeBufferPointer(rebasing: buffer[(start + 1)...]), crossFile: true)
                }), let problems = trailer.first?.problems
            else { return nil }
            crossFile = problems
            trimmed.removeSubrange((start + 1)...)
        }
        let bytes = trimmed
        // Runs of about a megabyte, each starting at a record line.
        var starts = [headEnd + 1]
        var next = headEnd + 1 + (1 << 20)
        while next < bytes.count {
            guard var at = bytes[next...].firstIndex(of: 0x0A) else { break }
            while at + 1 < bytes.count, bytes[at + 1] == 0x20 {
                guard let end = bytes[(at + 1)...].firstIndex(of: 0x0A) else { break }
                at = end
            }
            if at + 1 < bytes.count { starts.append(at + 1) }
            next = at + 1 + (1 << 20)
        }
        let runs = starts.indices.map { starts[$0]..<(starts.indices.contains($0 + 1) ? starts[$0 + 1] : bytes.count) }
        let decoded = runs.concurrentMap { run -> [Record]? in
            bytes.withUnsafeBufferPointer { buffer in try? decodeRecords(UnsafeBufferPointer(rebasing: buffer[run])) }
        }
        var cache = Cache(writtenAt: writtenAt, crossFile: crossFile)
        cache.records.reserveCapacity(decoded.reduce(0) { $0 + ($1?.count ?? 0) })
        for records in decoded {
            guard let records else { return nil }
            for record in records { cache.records[record.path] = record }
        }
        return cache
    }

    /// Where `pattern` last occurs in `bytes`.
    static func lastRange(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        var at = bytes.count - pattern.count
        while at >= 0 {
            if bytes[at] == pattern[0], bytes[at..<(at + pattern.count)].elementsEqual(pattern) { return at }
            at -= 1
        }
        return nil
    }

    /// The records in one run of lines; with `crossFile`, the cross-file problems' line and
    /// its problems, as one record.
    static func decodeRecords(_ bytes: UnsafeBufferPointer<UInt8>, crossFile: Bool = false) throws -> [Record] {
        var records: [Record] = []
        var at = 0
        func fields(of line: Range<Int>) -> [UnsafeBufferPointer<UInt8>] {
            var result: [UnsafeBufferPointer<UInt8>] = []
            var start = line.lowerBound
            for index in line where bytes[index] == 0x09 {
                result.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
            }
            result.append(UnsafeBufferPointer(rebasing: bytes[start..<line.upperBound]))
            return result
        }
        func nextLine() -> Range<Int>? {
            guard at < bytes.count else { return nil }
            var end = at
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            defer { at = end + 1 }
            return at..<end
        }
        func text(_ field: UnsafeBufferPointer<UInt8>) -> String { unescape(String(decoding: field, as: UTF8.self)) }
        func number<Number: FixedWidthInteger>(_ field: UnsafeBufferPointer<UInt8>) -> Number? {
            Number(String(decoding: field, as: UTF8.self))
        }
        func problem(_ fields: [UnsafeBufferPointer<UInt8>]) throws -> Diagnostic {
            guard fields.count == 4,
                let severity = Diagnostic.Severity(rawValue: String(decoding: fields[2], as: UTF8.self))
            else { throw Unreadable() }
            return Diagnostic(
                path: text(fields[0]), line: number(fields[1]), severity: severity, message: text(fields[3]))
        }
        while let line = nextLine() {
            if line.isEmpty { continue }
            let parts = fields(of: line)
            var problems: [Diagnostic] = []
            if crossFile {
                guard parts.count == 2, text(parts[0]) == crossFileMark, let count: Int = number(parts[1]) else {
                    throw Unreadable()
                }
                for _ in 0..<count {
                    guard let problemLine = nextLine(), !problemLine.isEmpty, bytes[problemLine.lowerBound] == 0x20
                    else { throw Unreadable() }
                    problems.append(try problem(fields(of: (problemLine.lowerBound + 1)..<problemLine.upperBound)))
                }
                return [Record(path: "", stamp: .unknown, deckKind: "", problems: problems, facts: nil)]
            }
            guard parts.count == 8, let size: UInt64 = number(parts[1]), let modified: Int64 = number(parts[2]),
                let changed: Int64 = number(parts[3]),
                let inode: UInt64 = number(parts[4]), let count: Int = number(parts[7]), let kind = parts[6].first,
                "VLQPDSUG-".utf8.contains(kind)
            else { throw Unreadable() }
            let facts = String(decoding: parts[6], as: UTF8.self)
            for _ in 0..<count {
                guard let problemLine = nextLine(), !problemLine.isEmpty, bytes[problemLine.lowerBound] == 0x20 else {
                    throw Unreadable()
                }
                problems.append(try problem(fields(of: (problemLine.lowerBound + 1)..<problemLine.upperBound)))
            }
            records.append(
                Record(
                    path: text(parts[0]),
                    stamp: FileStamp(size: size, modified: modified, changed: changed, inode: inode),
                    deckKind: text(parts[5]),
                    problems: problems, storedFacts: .encoded(facts)))
        }
        return records
    }

    /// Facts as one field: a letter for the kind, then its values separated by U+001F.
    static func encode(_ facts: FileFacts?) -> String {
        func join(_ parts: [String]) -> String { parts.map(escape).joined(separator: "\u{1F}") }
        func flag(_ value: Bool) -> String { value ? "1" : "0" }
        guard let facts else { return "-" }
        switch facts {
        case let .entry(entry):
            let head = [entry.id, entry.deck, entry.path, String(entry.sortKey)]
            switch entry.content {
            case let .vocabulary(word, pos, quality): return "V" + join(head + [word, pos, encodeJSON(quality)])
            case let .letter(glyph, order): return "L" + join(head + [glyph, String(order)])
            case let .question(uuid, published): return "Q" + join(head + [uuid ?? "\u{0}", flag(published)])
            case .passage: return "P" + join(head)
            }
        case let .domain(key, uuid, published): return "D" + join([key, uuid ?? "\u{0}", flag(published)])
        case let .skill(key, uuid, published): return "S" + join([key, uuid ?? "\u{0}", flag(published)])
        case let .profile(user, fitted):
            return "U"
                + join([user] + fitted.flatMap { [$0.key, $0.values.map { String($0) }.joined(separator: ",")] })
        case let .progress(user, entry, ahead):
            return "G" + join([user, entry] + ahead.flatMap { [$0.id, String($0.at.timeIntervalSince1970)] })
        }
    }

    /// A vocabulary entry's quality facts as JSON, which holds no tab or line break.
    static func encodeJSON(_ quality: FileFacts.VocabularyFacts) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(quality)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A cache line that does not read: the whole cache is then read as empty.
    struct Unreadable: Error {}

    /// The facts of a field; nil for a file without facts.
    static func decodeFacts(_ field: String) throws -> FileFacts? {
        guard let kind = field.first else { throw Unreadable() }
        if kind == "-" { return nil }
        let parts = field.dropFirst().split(separator: "\u{1F}", omittingEmptySubsequences: false).map(unescape)
        func optional(_ text: String) -> String? { text == "\u{0}" ? nil : text }
        switch kind {
        case "V", "L", "Q", "P":
            guard parts.count >= 4, let sortKey = Int(parts[3]) else { throw Unreadable() }
            let content: FileFacts.EntryFacts.Content
            switch kind {
            case "V":
                guard parts.count == 7,
                    let quality = try? JSONDecoder().decode(FileFacts.VocabularyFacts.self, from: Data(parts[6].utf8))
                else { throw Unreadable() }
                content = .vocabulary(word: parts[4], pos: parts[5], quality: quality)
            case "L":
                guard parts.count == 6, let order = Int(parts[5]) else { throw Unreadable() }
                content = .letter(glyph: parts[4], order: order)
            case "Q":
                guard parts.count == 6 else { throw Unreadable() }
                content = .question(uuid: optional(parts[4]), published: parts[5] == "1")
            default:
                guard parts.count == 4 else { throw Unreadable() }
                content = .passage
            }
            return .entry(.init(id: parts[0], deck: parts[1], path: parts[2], sortKey: sortKey, content: content))
        case "D", "S":
            guard parts.count == 3 else { throw Unreadable() }
            return kind == "D"
                ? .domain(key: parts[0], uuid: optional(parts[1]), published: parts[2] == "1")
                : .skill(key: parts[0], uuid: optional(parts[1]), published: parts[2] == "1")
        case "U":
            guard parts.count % 2 == 1 else { throw Unreadable() }
            var fitted: [FileFacts.FittedParameters] = []
            for index in stride(from: 1, to: parts.count, by: 2) {
                let values =
                    parts[index + 1].isEmpty ? [] : parts[index + 1].split(separator: ",").compactMap { Double($0) }
                fitted.append(.init(key: parts[index], values: values))
            }
            return .profile(user: parts[0], fitted: fitted)
        case "G":
            guard parts.count >= 2, parts.count % 2 == 0 else { throw Unreadable() }
            var ahead: [FileFacts.AheadReview] = []
            for index in stride(from: 2, to: parts.count, by: 2) {
                guard let seconds = Double(parts[index + 1]) else { throw Unreadable() }
                ahead.append(.init(id: parts[index], at: Date(timeIntervalSince1970: seconds)))
            }
            return .progress(user: parts[0], entry: parts[1], ahead: ahead)
        default:
            throw Unreadable()
        }
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x1F }) else {
            return text
        }
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\u{1F}": out += "\\u"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func unescape(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(0x5C) else { return String(text) }
        var out = ""
        var escaped = false
        for character in text.unicodeScalars {
            if escaped {
                switch character {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                case "u": out += "\u{1F}"
                default: out.unicodeScalars.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
