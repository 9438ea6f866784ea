import Foundation

/// Appends little-endian fixed-width values; the launch index is written with it.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }

    mutating func append(contentsOf raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Zero bytes up to the next multiple of `alignment`.
    mutating func align(_ alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Overwrites a value written earlier (a header field filled in last).
    mutating func set<Value: FixedWidthInteger>(_ value: Value, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }
}

/// Little-endian reads at byte offsets of a buffer that may be a memory-mapped file, so
/// nothing is copied until a value is asked for.
struct ByteReader: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int

    @inline(__always) func u8(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
    @inline(__always) func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
    @inline(__always) func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    @inline(__always) func i32(_ offset: Int) -> Int32 { Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self)) }
    @inline(__always) func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    @inline(__always) func i64(_ offset: Int) -> Int64 { Int64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int64.self)) }
    @inline(__always) func f64(_ offset: Int) -> Double { Double(bitPattern: u64(offset)) }

    func bytes(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: length)
    }

    func string(_ offset: Int, _ length: Int) -> String {
        String(decoding: bytes(offset, length), as: UTF8.self)
    }
}

enum IndexHash {
    /// FNV-1a over a form's UTF-8 bytes: the forms table's hash. Short words dominate, where
    /// it is as fast as anything and needs no state.
    @inline(__always) static func form(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// A checksum of the whole file that catches a torn write or a flipped byte: four
    /// independent multiply–rotate lanes over 8-byte words, so it runs at memory speed.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x9E37_79B1_85EB_CA87
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
        let words = bytes.count / 32
        let base = bytes.baseAddress!
        for block in 0..<words {
            let offset = block * 32
            lanes.0 = ((lanes.0 ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime).rotated(31)
            lanes.1 = ((lanes.1 ^ base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* prime).rotated(31)
            lanes.2 = ((lanes.2 ^ base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime).rotated(31)
            lanes.3 = ((lanes.3 ^ base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime).rotated(31)
        }
        var hash = lanes.0 ^ lanes.1.rotated(7) ^ lanes.2.rotated(13) ^ lanes.3.rotated(19) ^ UInt64(bytes.count)
        for offset in (words * 32)..<bytes.count { hash = ((hash ^ UInt64(bytes[offset])) &* prime).rotated(29) }
        return (hash ^ (hash >> 32)) &* prime
    }
}

extension UInt64 {
    @inline(__always) func rotated(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}

/// A file mapped read-only into memory; unmapped when the last index using it goes.
final class MappedFile: @unchecked Sendable {
    let reader: ByteReader
    private let length: Int

    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return nil }
        length = Int(info.st_size)
        guard let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else { return nil }
        reader = ByteReader(base: UnsafeRawPointer(address), count: length)
    }

    /// Bytes built in memory (a fresh build), owned the same way.
    init(bytes: [UInt8]) {
        length = bytes.count
        let address = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { address.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        reader = ByteReader(base: UnsafeRawPointer(address), count: length)
        owned = true
    }

    private var owned = false

    deinit {
        if owned {
            UnsafeMutableRawPointer(mutating: reader.base).deallocate()
        } else {
            munmap(UnsafeMutableRawPointer(mutating: reader.base), length)
        }
    }
}
