import Foundation
import RoteStore
import TestSupport
import Testing

@testable import Launch

/// Damage the `launch-index` fuzz target found, each with a checksum that matches (as a torn
/// write that happened to pass it would): the reader must refuse the bytes, never crash,
/// overflow or loop.
@Suite struct LaunchIndexDamageTests {
    /// A good index of the fixture library, as bytes.
    static func goodIndex() async throws -> (Data, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        _ = try LibraryLaunch.openVerified(root: directory.url, user: "ana")
        let cache = try #require(LibraryLaunch.cacheURL(root: directory.url, user: "ana"))
        return (try Data(contentsOf: cache), directory)
    }

    static func field(_ bytes: Data, _ offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }

    /// Opens `bytes` after `damage`, sealed with a matching length and checksum.
    static func open(_ bytes: Data, _ damage: (UnsafeMutableRawBufferPointer) -> Void) throws -> LaunchIndex {
        let storage = MappedFile(building: bytes.count) { buffer in
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
            damage(buffer)
            LaunchIndex.seal(buffer)
        }
        return try LaunchIndex(storage: storage)
    }

    @Test func theGoodIndexStillOpensAfterSealing() async throws {
        let (bytes, _) = try await Self.goodIndex()
        let index = try Self.open(bytes) { _ in }
        #expect(index.entryCount > 0 && index.lookUp("run") != nil)
    }

    @Test func aSectionLengthNearTwoToTheSixtyFourIsRefusedNotOverflowed() async throws {
        let (bytes, _) = try await Self.goodIndex()
        let countField = LaunchIndex.Layout.Header.count(of: .entries)
        #expect(throws: LaunchIndex.Invalid.self) {
            _ = try Self.open(bytes) {
                $0.storeBytes(of: (UInt64.max - 3).littleEndian, toByteOffset: countField, as: UInt64.self)
            }
        }
        let offsetField = LaunchIndex.Layout.Header.offset(of: .strings)
        #expect(throws: LaunchIndex.Invalid.self) {
            _ = try Self.open(bytes) {
                $0.storeBytes(of: UInt64(1 << 62).littleEndian, toByteOffset: offsetField, as: UInt64.self)
            }
        }
    }

    @Test func anInflectedFormPointingPastTheStringsIsRefused() async throws {
        let (bytes, _) = try await Self.goodIndex()
        #expect(
            Self.field(bytes, LaunchIndex.Layout.Header.count(of: .entryForms)) > 0, "the fixture has inflected forms")
        let firstForm = Int(Self.field(bytes, LaunchIndex.Layout.Header.offset(of: .entryForms)))
        #expect(throws: LaunchIndex.Invalid.self) {
            _ = try Self.open(bytes) {
                $0.storeBytes(
                    of: UInt32.max.littleEndian, toByteOffset: firstForm + LaunchIndex.Layout.EntryForm.length,
                    as: UInt32.self)
            }
        }
    }

    /// Every slot taken: a look-up of a form that is not there would probe for ever.
    @Test func aFormsTableWithoutAFreeSlotIsRefused() async throws {
        let (bytes, _) = try await Self.goodIndex()
        let start = Int(Self.field(bytes, LaunchIndex.Layout.Header.offset(of: .slots)))
        let slots = Int(Self.field(bytes, LaunchIndex.Layout.Header.count(of: .slots)))
        #expect(throws: LaunchIndex.Invalid.self) {
            _ = try Self.open(bytes) { buffer in
                for slot in 0..<slots {
                    typealias Field = LaunchIndex.Layout.Slot
                    let at = start + slot * Field.stride
                    buffer.storeBytes(of: UInt16(1).littleEndian, toByteOffset: at + Field.lemmaCount, as: UInt16.self)
                    buffer.storeBytes(of: UInt32(0).littleEndian, toByteOffset: at + Field.lemmas, as: UInt32.self)
                    buffer.storeBytes(of: UInt8(0), toByteOffset: at + Field.status, as: UInt8.self)
                }
            }
        }
    }
}
