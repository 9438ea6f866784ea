import Foundation
import StudyData

/// A launch index is checked through and through before anything is read from it: a torn,
/// damaged or foreign file is refused with the reason, never read astray (the fuzz targets
/// in Fuzz/ hold it to that).
extension LaunchIndex {
    /// Why bytes are not a usable index.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the length and checksum fields of a whole index in memory, last, once every
    /// other byte is in place — the builder's final step, and how the fuzz harness and its
    /// regression tests make damaged bytes reach the sections behind the checksum.
    static func seal(_ bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= headerSize else { return }
        bytes.storeBytes(of: UInt64(bytes.count).littleEndian, toByteOffset: 16, as: UInt64.self)
        bytes.storeBytes(
            of: IndexHash.checksum(UnsafeRawBufferPointer(rebasing: bytes[16...])).littleEndian, toByteOffset: 8,
            as: UInt64.self)
    }

    /// The offset and count of each section, once the magic, the length and the checksum are
    /// right and every section lies inside the file.
    static func checkedSections(_ reader: ByteReader) throws -> [(Int, Int)] {
        guard reader.count >= LaunchIndex.headerSize, Array(reader.bytes(0, 8)) == LaunchIndex.magic else {
            throw Invalid(description: "not a launch index of this version")
        }
        guard reader.u64(16) == UInt64(reader.count) else {
            throw Invalid(description: "truncated: \(reader.count) bytes, header says \(reader.u64(16))")
        }
        let sum = IndexHash.checksum(reader.bytes(16, reader.count - 16))
        guard sum == reader.u64(8) else { throw Invalid(description: "checksum mismatch (a torn or damaged write)") }
        var sections: [(Int, Int)] = []
        for section in Section.allCases {
            // Checked as the unsigned words they are before any arithmetic: a damaged length
            // near 2^64 must be refused, not overflow (found by fuzzing).
            let rawOffset = reader.u64(24 + section.rawValue * 16)
            let rawCount = reader.u64(32 + section.rawValue * 16)
            let stride = [
                1, 1, Stride.entry, Stride.entryForm, Stride.progress, Stride.slot, Stride.lemma, Stride.file,
                Stride.mark,
            ][section.rawValue]
            guard rawOffset >= UInt64(LaunchIndex.headerSize), rawOffset <= UInt64(reader.count),
                rawCount <= UInt64(reader.count) / UInt64(stride),
                Int(rawOffset) + Int(rawCount) * stride <= reader.count
            else {
                throw Invalid(description: "section \(section) lies outside the file")
            }
            let offset = Int(rawOffset)
            let count = Int(rawCount)
            sections.append((offset, count))
        }
        return sections
    }

    /// Every reference from a row into the strings, the lists and the other sections lands
    /// inside them.
    func checkReferences() throws {
        // Every reference into the strings and lists must land inside them: a damaged file
        // that passed the checksum by chance still cannot make a read go astray.
        let stringsEnd = sections[Section.strings.rawValue].1
        let formsCount = sections[Section.entryForms.rawValue].1
        let lemmaCount = sections[Section.lemmaLists.rawValue].1
        for entry in 0..<entryCount {
            let at = entriesBase + entry * Stride.entry
            guard Int(reader.u32(at)) + Int(reader.u16(at + 4)) <= stringsEnd,
                Int(reader.u32(at + 8)) + Int(reader.u16(at + 12)) <= stringsEnd,
                Int(reader.u32(at + 32)) + Int(reader.u16(at + 36)) <= stringsEnd,
                Int(reader.u16(at + 6)) < settings.decks.count,
                Int(reader.u32(at + 48)) + Int(reader.u16(at + 52)) <= stringsEnd,
                Int(reader.u32(at + 56)) + Int(reader.u16(at + 60)) <= stringsEnd,
                Int(reader.u32(at + 64)) + Int(reader.u16(at + 68)) <= stringsEnd,
                Int(reader.u32(at + 40)) + Int(reader.u16(at + 38)) <= formsCount,
                reader.u32(at + 44) == UInt32.max || Int(reader.u32(at + 44)) < progressCount, reader.u8(at + 16) <= 5
            else { throw Invalid(description: "entry \(entry) points outside the file") }
        }
        // Each inflected form names its text in the strings (found by fuzzing: unchecked, a
        // damaged one sent a read past the end of the file).
        let formsBase = sections[Section.entryForms.rawValue].0
        for form in 0..<formsCount {
            let at = formsBase + form * Stride.entryForm
            guard Int(reader.u32(at)) + Int(reader.u32(at + 4)) <= stringsEnd else {
                throw Invalid(description: "inflected form \(form) points outside the file")
            }
        }
        // A look-up probes until it meets a free slot: a table without one would never end
        // (found by fuzzing).
        var freeSlots = 0
        for slot in 0..<slotCount {
            let at = slotsBase + slot * Stride.slot
            let count = Int(reader.u16(at + 14))
            if count == 0 { freeSlots += 1 }
            guard
                count == 0
                    || (reader.u8(at + 13) <= 5
                        && (count == 1
                            ? Int(reader.u32(at + 4)) < entryCount : Int(reader.u32(at + 4)) + count <= lemmaCount))
            else { throw Invalid(description: "form slot \(slot) points outside the file") }
        }
        guard freeSlots > 0 else { throw Invalid(description: "the forms table has no free slot") }
        for lemma in 0..<lemmaCount where Int(reader.u32(lemmasBase + lemma * 4)) >= entryCount {
            throw Invalid(description: "lemma list \(lemma) points outside the file")
        }
        for record in 0..<fileCount {
            let at = sections[Section.files.rawValue].0 + record * Stride.file
            guard Int(reader.u32(at)) + Int(reader.u16(at + 4)) <= stringsEnd else {
                throw Invalid(description: "file record \(record) points outside the file")
            }
        }
        for row in 0..<progressCount {
            let at = sections[Section.progress.rawValue].0 + row * Stride.progress
            guard Int(reader.u32(at)) + Int(reader.u16(at + 4)) <= stringsEnd,
                reader.u8(at + 13) <= ProgressSummary.recentLimit,
                reader.u8(at + 14) <= ProgressSummary.millisecondsLimit,
                Int(reader.u32(at + 184)) + Int(reader.u32(at + 180)) <= sections[Section.marks.rawValue].1
            else { throw Invalid(description: "progress row \(row) points outside the file") }
        }
    }
}
