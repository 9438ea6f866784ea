internal import CLibGit2

/// A git object id (SHA-1), as a value.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    var raw: git_oid

    init(_ raw: git_oid) { self.raw = raw }

    /// Parses 40 hex digits; nil for anything else.
    public init?(hex: String) {
        var oid = git_oid()
        guard hex.utf8.count == 40, git_oid_fromstr(&oid, hex) == 0 else { return nil }
        raw = oid
    }

    public var hex: String {
        var copy = raw
        var buffer = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buffer, 41, &copy)
        return String(decoding: buffer.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { hex }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        var l = lhs.raw
        var r = rhs.raw
        return git_oid_equal(&l, &r) != 0
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: raw) { hasher.combine(bytes: $0) }
    }
}

extension ObjectID {
    /// The id git gives a blob holding `bytes` (`git_odb_hash`), without writing anything.
    public static func blob(hashing bytes: UnsafeRawBufferPointer) -> ObjectID {
        var oid = git_oid()
        _ = git_odb_hash(&oid, bytes.baseAddress, bytes.count, GIT_OBJECT_BLOB)
        return ObjectID(oid)
    }

    /// The 20 raw bytes of the id.
    public var bytes: [UInt8] { withUnsafeBytes(of: raw.id) { Array($0) } }

    /// An id from its 20 raw bytes; nil for any other count.
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 20 else { return nil }
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { $0.copyMemory(from: bytes) }
        raw = oid
    }

    /// An id from its 20 raw bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard let id = bytes.withUnsafeBytes({ ObjectID(bytes: $0) }) else { return nil }
        self = id
    }
}
