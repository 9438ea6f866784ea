import Foundation
import StudyData

/// A launch index is checked through and through before anything is read from it: a torn,
/// damaged or foreign file is refused with the reason, never read astray (the fuzz targets
/// in Fuzz/ hold it to that).
extension LaunchIndex {
    /// Why bytes are not a usable index: a reason to build it again from the files.
    package typealias Invalid = LibraryLaunch.RebuildReason

    /// Writes the length and checksum fields of a whole index in memory, last, once every
    /// other byte is in place — the builder's final step, and how the fuzz harness and its
    /// regression tests make damaged bytes reach the sections behind the checksum.
    static func seal(_ bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= Layout.Header.size else { return }
        let header = RowWriter(bytes: bytes)
        header.set(UInt64(bytes.count), at: Layout.Header.length)
        header.set(
            IndexHash.checksum(UnsafeRawBufferPointer(rebasing: bytes[Layout.Header.length...])),
            at: Layout.Header.checksum)
    }

    /// The offset and count of each section, once the magic, the length and the checksum are
    /// right and every section lies inside the file.
    static func checkedSections(_ reader: ByteReader) throws -> [(Int, Int)] {
        typealias Header = Layout.Header
        guard reader.count >= Header.size, Array(reader.bytes(0, magic.count)) == magic else {
            throw Invalid(description: "not a launch index of this version")
        }
        guard reader.u64(Header.length) == UInt64(reader.count) else {
            throw Invalid(description: "truncated: \(reader.count) bytes, header says \(reader.u64(Header.length))")
        }
        let sum = IndexHash.checksum(reader.bytes(Header.length, reader.count - Header.length))
        guard sum == reader.u64(Header.checksum) else {
            throw Invalid(description: "checksum mismatch (a torn or damaged write)")
        }
        var sections: [(Int, Int)] = []
        for section in Section.allCases {
            // Checked as the unsigned words they are before any arithmetic: a damaged length
            // near 2^64 must be refused, not overflow (found by fuzzing).
            let rawOffset = reader.u64(Header.offset(of: section))
            let rawCount = reader.u64(Header.count(of: section))
            let stride = section.stride
            guard rawOffset >= UInt64(Header.size), rawOffset <= UInt64(reader.count),
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
        func inStrings(_ field: Int) -> Bool {
            let (offset, length) = reader.text(field)
            return offset + length <= stringsEnd
        }
        for entry in 0..<entryCount {
            typealias Field = Layout.Entry
            let at = entryOffset(entry)
            let progressRow = reader.u32(at + Field.progressRow)
            guard inStrings(at + Field.id), inStrings(at + Field.path), inStrings(at + Field.headword),
                inStrings(at + Field.gloss), inStrings(at + Field.root), inStrings(at + Field.topics),
                Int(reader.u16(at + Field.deck)) < settings.decks.count,
                Int(reader.u32(at + Field.firstForm)) + Int(reader.u16(at + Field.formCount)) <= formsCount,
                progressRow == UInt32.max || Int(progressRow) < progressCount,
                reader.u8(at + Field.status) <= LaunchIndex.lastStatusCode
            else { throw Invalid(description: "entry \(entry) points outside the file") }
        }
        // Each inflected form names its text in the strings (found by fuzzing: unchecked, a
        // damaged one sent a read past the end of the file).
        let formsBase = sections[Section.entryForms.rawValue].0
        for form in 0..<formsCount {
            let at = formsBase + form * Layout.EntryForm.stride
            guard
                Int(reader.u32(at + Layout.EntryForm.offset)) + Int(reader.u32(at + Layout.EntryForm.length))
                    <= stringsEnd
            else {
                throw Invalid(description: "inflected form \(form) points outside the file")
            }
        }
        // A look-up probes until it meets a free slot: a table without one would never end
        // (found by fuzzing).
        var freeSlots = 0
        for slot in 0..<slotCount {
            let at = slotsBase + slot * Layout.Slot.stride
            let count = Int(reader.u16(at + Layout.Slot.lemmaCount))
            let lemmas = Int(reader.u32(at + Layout.Slot.lemmas))
            if count == 0 { freeSlots += 1 }
            guard
                count == 0
                    || (reader.u8(at + Layout.Slot.status) <= LaunchIndex.lastStatusCode
                        && (count == 1 ? lemmas < entryCount : lemmas + count <= lemmaCount))
            else { throw Invalid(description: "form slot \(slot) points outside the file") }
        }
        guard freeSlots > 0 else { throw Invalid(description: "the forms table has no free slot") }
        for lemma in 0..<lemmaCount where Int(reader.u32(lemmasBase + lemma * Layout.Lemma.stride)) >= entryCount {
            throw Invalid(description: "lemma list \(lemma) points outside the file")
        }
        for record in 0..<fileCount {
            guard inStrings(sections[Section.files.rawValue].0 + record * Layout.File.stride + Layout.File.path) else {
                throw Invalid(description: "file record \(record) points outside the file")
            }
        }
        for row in 0..<progressCount {
            typealias Field = Layout.Progress
            let at = progressOffset(row)
            guard inStrings(at + Field.id), reader.u8(at + Field.recentCount) <= ProgressSummary.recentLimit,
                reader.u8(at + Field.millisecondsCount) <= ProgressSummary.millisecondsLimit,
                Int(reader.u32(at + Field.firstMark)) + Int(reader.u32(at + Field.markCount))
                    <= sections[Section.marks.rawValue].1
            else { throw Invalid(description: "progress row \(row) points outside the file") }
        }
    }
}
