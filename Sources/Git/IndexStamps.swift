package import Foundation

/// What git's index records for each staged file (stage 0): its blob and the stat data git
/// last saw it with. A file whose stat data still matches its stamp holds the stamped blob:
/// `git status` trusts exactly this.
///
/// Read straight from the index file, versions 2 to 4: loading the index through libgit2
/// (an allocation per entry, a hash map of paths, a checksum of the whole file) took 0.2 s of
/// a 100k library's cold launch, and a `[String: Stamp]` of it another 0.06 s. Anything not
/// read here — a split index, another version, a file that does not add up — gives no
/// stamps, which only means files are read again that could have been skipped.
package struct IndexStamps: Sendable {
    /// Every path, end to end.
    private var paths: [UInt8] = []
    private var records: [(path: Range<Int>, stamp: Index.Stamp)] = []
    /// Record numbers by the hash of their path, -1 for empty slots.
    private var table: [Int32] = []

    package init() {}

    /// The stamps in the index of the repository whose git folder is `gitDirectory`.
    package init(gitDirectory: URL) {
        self.init(indexFile: FileManager.default.contents(atPath: gitDirectory.appending(path: "index").path) ?? Data())
    }

    /// The stamps in the bytes of an index file.
    package init(indexFile data: Data) {
        guard let (paths, records) = data.withUnsafeBytes({ IndexStamps.parse($0) }) else { return }
        self.paths = paths
        self.records = records
        // A power of two at least twice the records: probes stay short.
        var table = [Int32](repeating: -1, count: 1 << max(4, Int.bitWidth - (records.count * 2).leadingZeroBitCount))
        let mask = table.count - 1
        paths.withUnsafeBytes { bytes in
            for (number, record) in records.enumerated() {
                var slot =
                    Int(truncatingIfNeeded: IndexStamps.hash(UnsafeRawBufferPointer(rebasing: bytes[record.path])))
                    & mask
                while table[slot] >= 0 { slot = (slot + 1) & mask }
                table[slot] = Int32(number)
            }
        }
        self.table = table
    }

    package var count: Int { records.count }

    /// The stamp of the file at `path` (relative to the work tree), if it is staged.
    package func stamp(forPath path: String) -> Index.Stamp? {
        guard !table.isEmpty else { return nil }
        var path = path
        return path.withUTF8 { wanted in
            paths.withUnsafeBytes { bytes -> Index.Stamp? in
                let wanted = UnsafeRawBufferPointer(wanted)
                let mask = table.count - 1
                var slot = Int(truncatingIfNeeded: IndexStamps.hash(wanted)) & mask
                while table[slot] >= 0 {
                    let record = records[Int(table[slot])]
                    if record.path.count == wanted.count,
                        memcmp(bytes.baseAddress! + record.path.lowerBound, wanted.baseAddress!, wanted.count) == 0
                    {
                        return record.stamp
                    }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
    }

    /// FNV-1a: paths are short, and this runs once per file.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The entries of an index file (Documentation/gitformat-index.txt): a header, then per
    /// entry its ctime, mtime, dev, ino, mode, uid, gid, size (32 bits each, big-endian), the
    /// 20-byte object id, 16 bits of flags (16 more in version 3 and up when the extended bit
    /// is set) and the path — NUL-ended and padded to eight bytes in versions 2 and 3, or in
    /// version 4 a count of bytes to drop from the previous path and the NUL-ended rest.
    /// Then extensions, each a signature and a size; `link` is a split index, whose entries
    /// live in another file.
    private static func parse(_ bytes: UnsafeRawBufferPointer) -> ([UInt8], [(path: Range<Int>, stamp: Index.Stamp)])? {
        func u32(_ at: Int) -> UInt32 { UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        func u16(_ at: Int) -> UInt16 { UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)) }
        let checksumSize = 20
        guard bytes.count >= 12 + checksumSize, bytes.prefix(4).elementsEqual("DIRC".utf8) else { return nil }
        let version = u32(4)
        let entryCount = Int(u32(8))
        guard (2...4).contains(version) else { return nil }
        let end = bytes.count - checksumSize
        var paths: [UInt8] = []
        var records: [(path: Range<Int>, stamp: Index.Stamp)] = []
        records.reserveCapacity(min(entryCount, bytes.count / 62))
        var previous: Range<Int> = 0..<0  // the last path, in `paths` or just past it
        var scratch: [UInt8] = []
        var at = 12
        for _ in 0..<entryCount {
            let start = at
            guard at + 62 <= end else { return nil }
            let mode = u32(at + 24)
            let flags = u16(at + 60)
            let stamp = Index.Stamp(
                id: ObjectID(bytes: UnsafeRawBufferPointer(rebasing: bytes[(at + 40)..<(at + 60)]))!,
                size: u32(at + 36),
                modifiedSeconds: Int32(bitPattern: u32(at + 8)), modifiedNanoseconds: u32(at + 12), inode: u32(at + 20))
            let extended = flags & 0x4000 != 0
            guard !extended || version >= 3 else { return nil }
            at += extended ? 64 : 62
            if version == 4 {
                // The count is git's varint: seven bits a byte, high bit for more, plus one
                // for each byte after the first.
                var dropped = 0
                var byte = 0x80
                var first = true
                while byte & 0x80 != 0 {
                    guard at < end else { return nil }
                    byte = Int(bytes[at])
                    at += 1
                    dropped = first ? byte & 0x7F : ((dropped + 1) << 7) | (byte & 0x7F)
                    first = false
                    guard dropped <= 4096 else { return nil }
                }
                guard dropped <= previous.count, let nul = bytes[at..<end].firstIndex(of: 0) else { return nil }
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: paths[previous.lowerBound..<(previous.upperBound - dropped)])
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[at..<nul]))
                at = nul + 1
            } else {
                guard let nul = bytes[at..<end].firstIndex(of: 0) else { return nil }
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[at..<nul]))
                // Padded with one to eight NULs to a multiple of eight bytes from the entry's start.
                at = start + ((at - start + (nul - at) + 8) & ~7)
                guard at <= end else { return nil }
            }
            let path = paths.count..<(paths.count + scratch.count)
            paths += scratch
            previous = path
            // Stage 0 only (a conflict's sides have no single blob), and files or links only:
            // not submodules or a sparse index's folders.
            let type = mode & 0o170000
            if (flags >> 12) & 0x3 == 0, type == 0o100000 || type == 0o120000 {
                records.append((path, stamp))
            }
        }
        while at + 8 <= end {
            if bytes[at..<(at + 4)].elementsEqual("link".utf8) { return nil }
            at += 8 + Int(u32(at + 4))
        }
        return (paths, records)
    }
}
