import Foundation

/// Just enough of the protobuf wire format to read the few small messages in an Anki package:
/// the package's `meta` (`PackageMetadata`), its media index (`MediaEntries`) and a note
/// type's `config` (`Notetype.Config`). Fields are read by number; unknown ones are skipped.
struct ProtobufMessage {
    enum Value {
        case varint(UInt64)
        case bytes(Data)
    }

    /// (field number, value) in the order they appear; a repeated field appears many times.
    private(set) var fields: [(number: Int, value: Value)] = []

    struct Malformed: Error {}

    /// Parses `data`; throws `Malformed` on a truncated or impossible encoding.
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var position = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < bytes.count, shift < 64 else { throw Malformed() }
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        func skip(_ count: Int) throws {
            guard count >= 0, count <= bytes.count - position else { throw Malformed() }
            position += count
        }
        while position < bytes.count {
            let key = try varint()
            let number = Int(key >> 3)
            guard number > 0 else { throw Malformed() }
            switch key & 7 {
            case 0: fields.append((number, .varint(try varint())))
            case 1: try skip(8)
            case 2:
                let length = try varint()
                guard length <= UInt64(bytes.count - position) else { throw Malformed() }
                let start = position
                try skip(Int(length))
                fields.append((number, .bytes(Data(bytes[start..<position]))))
            case 5: try skip(4)
            default: throw Malformed()
            }
        }
    }

    /// The last value of a varint field (protobuf's rule for a repeated scalar), or nil.
    func integer(_ number: Int) -> UInt64? {
        guard let field = fields.last(where: { $0.number == number }), case let .varint(value) = field.value else {
            return nil
        }
        return value
    }

    /// Every length-delimited value of field `number`, in order.
    func bytes(_ number: Int) -> [Data] {
        fields.compactMap { field in
            guard field.number == number, case let .bytes(data) = field.value else { return nil }
            return data
        }
    }

    /// The last string value of field `number`, or nil.
    func string(_ number: Int) -> String? {
        bytes(number).last.flatMap { String(data: $0, encoding: .utf8) }
    }
}
