import Foundation
import Git
import RoteModel
package import RoteStore
import StudyData

/// Looking a word up: its form's slot in the table, then the form's lemmas, most frequent
/// first, with the overlay's changes.
extension LaunchIndex {
    /// What a reader shows for a word in running text: the entry of its most frequent lemma,
    /// the lemma's rank and the learner's status.
    package struct Lookup: Sendable, Equatable {
        package let entry: Int
        package let rank: Int?
        package let status: LibraryIndex.Status
    }

    package func lookUp(_ token: String) -> Lookup? {
        // A plain lower-case word (what running text mostly holds) is already normal: look
        // its bytes up where they lie, without making a new string.
        if let found = token.utf8.withContiguousStorageIfAvailable({ bytes -> Lookup?? in
            guard let words = LaunchIndex.plainWordPrefix(bytes) else { return .none }
            return .some(lookUp(bytes: UnsafeRawBufferPointer(bytes), prefix: words))
        }), let found {
            return found
        }
        var normal = LibraryIndex.normalize(token)
        return normal.withUTF8 { lookUp(bytes: UnsafeRawBufferPointer($0), prefix: nil) }
    }

    @inline(__always) private func lookUp(bytes: UnsafeRawBufferPointer, prefix: (UInt64, UInt64)?) -> Lookup? {
        let slot = findSlot(bytes, prefix: prefix)
        if order != nil, overlayChangesLemmas(of: bytes, slot: slot) {
            guard let first = lemmaReferences(bytes, prefix: prefix).first else { return nil }
            return Lookup(entry: position(first), rank: rank(reference: first), status: status(reference: first))
        }
        guard let slot else { return nil }
        // The first lemma's rank and status live in the slot: one cache line per lookup.
        let entry = firstLemma(slot)
        let rank = reader.i32(slot + Layout.Slot.rank)
        var status = LaunchIndex.status(code: reader.u8(slot + Layout.Slot.status))
        if overlay.changes(entry: entry), let changed = overlay.statuses[entry] { status = changed }
        return Lookup(entry: position(entry), rank: rank == Int32.min ? nil : Int(rank), status: status)
    }

    /// Whether the overlay removed one of the base's lemmas of a form or added one.
    private func overlayChangesLemmas(of form: UnsafeRawBufferPointer, slot: Int?) -> Bool {
        if let slot {
            let count = Int(reader.u16(slot + Layout.Slot.lemmaCount))
            let reference = Int(reader.u32(slot + Layout.Slot.lemmas))
            if count == 1
                ? overlay.removes(entry: reference)
                : (0..<count).contains(where: { overlay.removes(entry: listedLemma(reference + $0)) })
            {
                return true
            }
        }
        return overlay.addedFormHashes.contains(IndexHash.form(form))
    }

    /// For a plain word — lower-case ASCII letters with inner apostrophes or hyphens, which
    /// `LibraryIndex.normalize` returns unchanged — its first 16 bytes as the two zero-padded
    /// words a slot keeps, gathered in the same pass that checks it; nil for anything else.
    @inline(__always) static func plainWordPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard let first = bytes.first, let last = bytes.last, first != 0x27, first != 0x2D, last != 0x27, last != 0x2D
        else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for offset in 0..<bytes.count {
            let byte = bytes[offset]
            guard (byte &- 0x61) < 26 || byte == 0x27 || byte == 0x2D else { return nil }
            if offset < 8 {
                words.0 |= UInt64(byte) << UInt64(offset &* 8)
            } else if offset < 16 {
                words.1 |= UInt64(byte) << UInt64((offset &- 8) &* 8)
            }
        }
        return words
    }

    /// Every entry a form belongs to, most frequent first.
    package func lemmas(of token: String) -> [Int] {
        var token = LibraryIndex.normalize(token)
        return token.withUTF8 { lemmaReferences(UnsafeRawBufferPointer($0), prefix: nil).map(position) }
    }

    /// The references of a form's lemmas, most frequent first: the base's that the overlay
    /// keeps and the overlay's added ones, ordered as the builder orders a lemma list.
    private func lemmaReferences(_ form: UnsafeRawBufferPointer, prefix: (UInt64, UInt64)?) -> [Int] {
        var references: [Int] = []
        if let slot = findSlot(form, prefix: prefix) {
            let count = Int(reader.u16(slot + Layout.Slot.lemmaCount))
            let reference = Int(reader.u32(slot + Layout.Slot.lemmas))
            references = count == 1 ? [reference] : (0..<count).map { listedLemma(reference + $0) }
        }
        guard order != nil else { return references }
        references.removeAll { overlay.removes(entry: $0) }
        if let added = overlay.addedForms[String(decoding: form, as: UTF8.self)] {
            references += added.map { baseEntryCount + $0 }
            references.sort { (sortKey(reference: $0), position($0)) < (sortKey(reference: $1), position($1)) }
        }
        return references
    }

    /// The slot of a form: the hash picks where to start (scaled to the table, not masked,
    /// so the table need not be a power of two) and its top half is a tag that rules out
    /// nearly every other form without comparing bytes.
    @inline(__always) private func firstLemma(_ slot: Int) -> Int {
        let count = Int(reader.u16(slot + Layout.Slot.lemmaCount))
        let reference = Int(reader.u32(slot + Layout.Slot.lemmas))
        return count == 1 ? reference : listedLemma(reference)
    }

    /// The entry number at `number` in the lemma lists.
    @inline(__always) private func listedLemma(_ number: Int) -> Int {
        Int(reader.u32(lemmasBase + number * Layout.Lemma.stride))
    }

    @inline(__always) private func findSlot(_ form: UnsafeRawBufferPointer, prefix: (UInt64, UInt64)?) -> Int? {
        // The form's first 16 bytes, zero-padded as the slot keeps them, as two words.
        var inline: (UInt64, UInt64) = prefix ?? (0, 0)
        if prefix == nil {
            withUnsafeMutableBytes(of: &inline) {
                $0.baseAddress!.copyMemory(
                    from: form.baseAddress!, byteCount: min(form.count, Layout.Slot.inlineFormSize))
            }
        }
        let hash = IndexHash.form(inline, form)
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = LaunchIndex.home(of: hash, in: slotCount)
        let length = UInt8(min(form.count, Int(UInt8.max)))
        while true {
            typealias Field = Layout.Slot
            let at = slotsBase + slot * Field.stride
            if reader.u16(at + Field.lemmaCount) == 0 { return nil }
            if reader.u32(at + Field.tag) == tag, reader.u8(at + Field.formLength) == length,
                reader.u64(at + Field.inlineForm) == inline.0, reader.u64(at + Field.inlineFormTail) == inline.1,
                form.count <= Field.inlineFormSize || lemmaHasForm(firstLemma(at), form)
            {
                return at
            }
            slot += 1
            if slot == slotCount { slot = 0 }
        }
    }

    /// A form longer than a slot keeps, compared in full with the first lemma's forms.
    private func lemmaHasForm(_ entry: Int, _ form: UnsafeRawBufferPointer) -> Bool {
        let at = entryOffset(entry)
        let formsBase = sections[Section.entryForms.rawValue].0
        let start = Int(reader.u32(at + Layout.Entry.firstForm))
        for number in 0..<Int(reader.u16(at + Layout.Entry.formCount)) {
            let formAt = formsBase + (start + number) * Layout.EntryForm.stride
            if Int(reader.u32(formAt + Layout.EntryForm.length)) == form.count,
                memcmp(
                    reader.base + stringsBase + Int(reader.u32(formAt + Layout.EntryForm.offset)), form.baseAddress!,
                    form.count) == 0
            {
                return true
            }
        }
        return false
    }

    @inline(__always) static func home(of hash: UInt64, in slots: Int) -> Int {
        Int((UInt64(UInt32(truncatingIfNeeded: hash)) &* UInt64(slots)) >> 32)
    }
}
