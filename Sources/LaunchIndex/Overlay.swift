import Foundation
import LibGit
import RoteModel
import RoteStore
import Study

/// What changed since the base index was written: progress files and file stamps, kept in a
/// small delta file (`launch-<user>.delta`) beside the base, so a launch after a session or a
/// sync writes kilobytes instead of the whole index. It names its base by checksum; a delta
/// for another base is ignored, which is safe — the stat check then finds the same changes
/// again. Entry and configuration changes, or a delta grown past `limit`, fold everything
/// into a new base.
struct Overlay: Sendable {
    /// Progress of base entries by entry number; nil: the file was removed.
    var progress: [Int: ProgressSummary?] = [:]
    /// Progress of ids with no base entry; nil: the file was removed.
    var orphanProgress: [String: ProgressSummary?] = [:]
    /// File records by base record number; nil: the file was removed.
    var files: [Int: FileRecord?] = [:]
    /// Records of files the base does not have.
    var addedFiles: [FileRecord] = []
    /// Statuses of base entries whose progress changed, worked out once at load.
    var statuses: [Int: LibraryIndex.Status] = [:]
    /// One bit per base entry: set when the overlay has its progress, so the entries it
    /// does not have (nearly all) skip the dictionaries.
    private(set) var changedEntries: [UInt64] = []

    @inline(__always) func changes(entry: Int) -> Bool {
        let word = entry >> 6
        return word < changedEntries.count && changedEntries[word] & (1 << UInt64(entry & 63)) != 0
    }

    var count: Int { progress.count + orphanProgress.count + files.count + addedFiles.count }

    /// Changes past this many rows fold into a new base.
    static func limit(entries: Int) -> Int { max(2_000, entries / 20) }

    static let magic: [UInt8] = Array("ROTEDLT1".utf8)

    /// Statuses from the overlaid progress, as the base builder works them out.
    mutating func settleStatuses(base: LaunchIndex) {
        statuses = [:]
        changedEntries = [UInt64](repeating: 0, count: (base.entryCount + 63) / 64)
        for entry in progress.keys where entry >= 0 && entry < base.entryCount { changedEntries[entry >> 6] |= 1 << UInt64(entry & 63) }
        let ignored = Set(base.settings.ignoredWords)
        for (entry, summary) in progress {
            if let headword = base.headword(ofEntry: entry), ignored.contains(headword) {
                statuses[entry] = .ignored
            } else {
                statuses[entry] = summary?.indexStatus ?? .new
            }
        }
    }

    // MARK: The delta file

    func encode(base: LaunchIndex) -> [UInt8] {
        var writer = ByteWriter()
        writer.append(contentsOf: Overlay.magic)
        writer.append(UInt64(0))  // checksum
        writer.append(UInt64(0))  // length
        writer.append(base.checksum)
        writer.append(UInt32(progress.count + orphanProgress.count))
        writer.append(UInt32(files.count + addedFiles.count))
        func progressItem(entry: Int, id: String, summary: ProgressSummary?) {
            writer.append(Int32(entry))
            writer.append(UInt16(id.utf8.count))
            writer.append(UInt8(summary == nil ? 0 : 1))
            writer.append(UInt8(0))
            writer.append(contentsOf: id.utf8)
            if let summary { LaunchIndex.encode(summary, entry: (0, 0), into: &writer) }
        }
        for (entry, summary) in progress.sorted(by: { $0.key < $1.key }) { progressItem(entry: entry, id: "", summary: summary) }
        for (id, summary) in orphanProgress.sorted(by: { $0.key < $1.key }) { progressItem(entry: -1, id: id, summary: summary) }
        func fileItem(record number: Int, path: String, record: FileRecord?) {
            writer.append(Int32(number))
            writer.append(UInt16(path.utf8.count))
            writer.append(UInt8(record == nil ? 0 : 1))
            writer.append(UInt8(0))
            writer.append(contentsOf: path.utf8)
            if let record { LaunchIndex.encode(record, path: (0, 0), into: &writer) }
        }
        for (number, record) in files.sorted(by: { $0.key < $1.key }) { fileItem(record: number, path: "", record: record) }
        for record in addedFiles { fileItem(record: -1, path: record.path, record: record) }
        writer.set(UInt64(writer.bytes.count), at: 16)
        writer.set(writer.bytes.withUnsafeBytes { IndexHash.checksum(UnsafeRawBufferPointer(rebasing: $0[16...])) }, at: 8)
        return writer.bytes
    }

    /// Reads a delta for `base`; nil when it is damaged, foreign or for another base.
    static func decode(_ data: Data, base: LaunchIndex) -> Overlay? {
        data.withUnsafeBytes { raw -> Overlay? in
            guard raw.count >= 40, Array(raw.prefix(8)) == magic, let address = raw.baseAddress else { return nil }
            let reader = ByteReader(base: address, count: raw.count)
            guard reader.u64(16) == UInt64(raw.count), IndexHash.checksum(reader.bytes(16, raw.count - 16)) == reader.u64(8),
                reader.u64(24) == base.checksum
            else { return nil }
            var overlay = Overlay()
            var at = 40
            func item() -> (number: Int, text: String, present: Bool, body: Int)? {
                guard at + 8 <= raw.count else { return nil }
                let number = Int(reader.i32(at)), length = Int(reader.u16(at + 4)), present = reader.u8(at + 6) == 1
                guard at + 8 + length <= raw.count else { return nil }
                let text = reader.string(at + 8, length)
                let body = at + 8 + length
                return (number, text, present, body)
            }
            for _ in 0..<Int(reader.u32(32)) {
                guard let (number, id, present, body) = item(), number < base.entryCount,
                    !present || body + LaunchIndex.Stride.progress <= raw.count
                else { return nil }
                let summary = present ? LaunchIndex.summary(reader, at: body) : nil
                if number >= 0 { overlay.progress[number] = .some(summary) } else { overlay.orphanProgress[id] = .some(summary) }
                at = body + (present ? LaunchIndex.Stride.progress : 0)
            }
            for _ in 0..<Int(reader.u32(36)) {
                guard let (number, path, present, body) = item(), number < base.fileCount,
                    !present || body + LaunchIndex.Stride.file <= raw.count, number >= 0 || present
                else { return nil }
                let record = present ? LaunchIndex.fileRecord(reader, at: body, path: number >= 0 ? base.fileRecord(number).path : path) : nil
                if number >= 0 { overlay.files[number] = .some(record) } else if let record { overlay.addedFiles.append(record) }
                at = body + (present ? LaunchIndex.Stride.file : 0)
            }
            guard at == raw.count else { return nil }
            overlay.settleStatuses(base: base)
            return overlay
        }
    }
}
