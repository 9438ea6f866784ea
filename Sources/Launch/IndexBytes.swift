import Foundation

/// Appends little-endian fixed-width values; the launch index is written with it.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }

    mutating func append(contentsOf raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Overwrites a value written earlier (a header field filled in last).
    mutating func set<Value: FixedWidthInteger>(_ value: Value, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }

    /// Appends a row of `stride` zero bytes, whose fields `fill` sets at their places in the
    /// row's layout (`LaunchIndex.Layout`); what it leaves is zero padding.
    mutating func appendRow(_ stride: Int, _ fill: (RowWriter) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: stride))
        bytes.withUnsafeMutableBytes { fill(RowWriter(bytes: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))) }
    }
}

/// Sets a row's fields, little-endian, at their offsets in the row.
struct RowWriter {
    let bytes: UnsafeMutableRawBufferPointer

    @inline(__always) func set<Value: FixedWidthInteger>(_ value: Value, at field: Int) {
        assert(field >= 0 && field + MemoryLayout<Value>.size <= bytes.count, "a field past its row")
        bytes.storeBytes(of: value.littleEndian, toByteOffset: field, as: Value.self)
    }

    @inline(__always) func set(_ value: Double, at field: Int) { set(value.bitPattern, at: field) }

    /// A string's place in the strings (`LaunchIndex.Layout.Text`).
    @inline(__always) func set(text: (offset: UInt32, length: Int), at field: Int) {
        set(text.offset, at: field + LaunchIndex.Layout.Text.offset)
        set(UInt16(min(text.length, Int(UInt16.max))), at: field + LaunchIndex.Layout.Text.length)
    }

    func set(bytes raw: some Collection<UInt8>, at field: Int) {
        assert(field >= 0 && field + raw.count <= bytes.count, "a field past its row")
        UnsafeMutableRawBufferPointer(rebasing: bytes[field..<(field + raw.count)]).copyBytes(from: raw)
    }
}

/// Little-endian reads at byte offsets of a buffer that may be a memory-mapped file, so
/// nothing is copied until a value is asked for.
struct ByteReader: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int

    @inline(__always) func u8(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
    @inline(__always) func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) func i32(_ offset: Int) -> Int32 {
        Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }
    @inline(__always) func u64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inline(__always) func i64(_ offset: Int) -> Int64 {
        Int64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }
    @inline(__always) func f64(_ offset: Int) -> Double { Double(bitPattern: u64(offset)) }

    func bytes(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: length)
    }

    func string(_ offset: Int, _ length: Int) -> String {
        String(decoding: bytes(offset, length), as: UTF8.self)
    }
}

enum IndexHash {
    /// A form's hash: its first 16 bytes as two words (zero-padded, as a slot keeps them),
    /// any further bytes one at a time, the length, then a full avalanche — a few multiplies
    /// for a word, where hashing byte by byte would chain one per letter.
    @inline(__always) static func form(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) {
            $0.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: min(bytes.count, 16))
        }
        return form(words, bytes)
    }

    /// The same hash when the first 16 bytes are already in `words`.
    @inline(__always) static func form(_ words: (UInt64, UInt64), _ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = (words.0 ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        hash ^= (words.1 ^ UInt64(bytes.count)) &* 0x94D0_49BB_1331_11EB
        if bytes.count > 16 {
            for byte in bytes[16...] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 33)
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
            lanes.2 = ((lanes.2 ^ base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime).rotated(
                31)
            lanes.3 = ((lanes.3 ^ base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime).rotated(
                31)
        }
        var hash = lanes.0 ^ lanes.1.rotated(7) ^ lanes.2.rotated(13) ^ lanes.3.rotated(19) ^ UInt64(bytes.count)
        for offset in (words * 32)..<bytes.count { hash = ((hash ^ UInt64(bytes[offset])) &* prime).rotated(29) }
        return (hash ^ (hash >> 32)) &* prime
    }
}

extension UInt64 {
    @inline(__always) func rotated(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
