/// Where everything lies in a launch index and its delta: the header, the sections, and each
/// field of each kind of row, which the reader (`LaunchIndex`), the builder
/// (`LaunchIndexBuilder.swift`) and the delta (`Overlay`) all go by. No other file names a
/// field by its number.
///
/// All integers are little-endian. A string in a row is a `Layout.Text`: its offset in the
/// strings section, then its length. Padding is zero (`RowWriter` starts every row zeroed).
extension LaunchIndex {
    static let magic: [UInt8] = Array("ROTEIDXD".utf8)

    enum Section: Int, CaseIterable {
        case settings, strings, entries, entryForms, progress, slots, lemmaLists, files, marks

        /// The bytes of one of its rows (the settings and strings count bytes).
        var stride: Int {
            switch self {
            case .settings, .strings: 1
            case .entries: Layout.Entry.stride
            case .entryForms: Layout.EntryForm.stride
            case .progress: Layout.Progress.stride
            case .slots: Layout.Slot.stride
            case .lemmaLists: Layout.Lemma.stride
            case .files: Layout.File.stride
            case .marks: Layout.Mark.stride
            }
        }
    }

    enum Layout {
        /// The magic, a checksum of everything from `length` on, the file's length, then each
        /// section's offset and count (u64 each).
        enum Header {
            static let checksum = 8, length = 16, sections = 24
            static let size = sections + Section.allCases.count * 16
            /// Each section starts at a multiple of this, after zero padding.
            static let sectionAlignment = 16
            static func offset(of section: Section) -> Int { sections + section.rawValue * 16 }
            static func count(of section: Section) -> Int { offset(of: section) + 8 }
        }

        /// A string a row points to: its offset in the strings section (u32), then its length
        /// (u16).
        enum Text {
            static let offset = 0, length = 4
        }

        /// An entry, in study order.
        enum Entry {
            static let stride = 72
            /// Texts.
            static let id = 0, path = 8, headword = 32, gloss = 48, root = 56, topics = 64
            /// u16: its deck's number in the settings' `decks`.
            static let deck = 6
            /// u8: `EntryRow.Kind`.
            static let kind = 14
            /// u8: `EntryFlags`.
            static let flags = 15
            /// u8: `LaunchIndex.code(of:)` of its status.
            static let status = 16
            /// i32; `Int32.min` for none.
            static let rank = 20
            /// i64.
            static let sortKey = 24
            /// u16: how many forms, and u32: the number of its first in the entry forms.
            static let formCount = 38, firstForm = 40
            /// u32: its progress row; `UInt32.max` for none.
            static let progressRow = 44
        }

        /// What an entry row has (`Entry.flags`).
        struct EntryFlags: OptionSet {
            let rawValue: UInt8
            static let published = EntryFlags(rawValue: 1), locked = EntryFlags(rawValue: 2)
            static let headword = EntryFlags(rawValue: 4), root = EntryFlags(rawValue: 8)
            static let topics = EntryFlags(rawValue: 16)
        }

        /// One of an entry's forms: its offset in the strings (u32), then its length (u32).
        enum EntryForm {
            static let stride = 8
            static let offset = 0, length = 4
        }

        /// A progress file's summary. In the index its digest's marks are in the marks section;
        /// in a delta they follow the row.
        enum Progress {
            static let stride = 248
            /// Text: the entry's id.
            static let id = 0
            /// u8: the status's place in `ProgressFile.Status.allCases`.
            static let status = 6
            /// u8: `ProgressFlags`.
            static let flags = 7
            /// u32.
            static let reviewCount = 8
            /// u8: how many review times and answer times are kept.
            static let recentCount = 13, millisecondsCount = 14
            /// f64 seconds since the reference date; NaN for none.
            static let firstReview = 80
            /// f64 × `ProgressSummary.recentLimit`, oldest first.
            static let recentTimes = 88
            /// i32 × `ProgressSummary.millisecondsLimit`; `Int32.min` for an answer not timed.
            static let milliseconds = 152
            /// u8: `DigestFlags`.
            static let digestFlags = 176
            /// u32: the digest's marks, and the number of the first in the marks section.
            static let markCount = 180, firstMark = 184

            @inline(__always) static func recentTime(_ slot: Int) -> Int { recentTimes + slot * 8 }
            @inline(__always) static func milliseconds(_ slot: Int) -> Int { milliseconds + slot * 4 }
        }

        /// What a progress row has (`Progress.flags`).
        struct ProgressFlags: OptionSet {
            let rawValue: UInt8
            static let state = ProgressFlags(rawValue: 1), ladderStarted = ProgressFlags(rawValue: 2)
            static let scheduledReviews = ProgressFlags(rawValue: 4)
        }

        /// Whether a progress row has a digest, and the digest a replayed state
        /// (`Progress.digestFlags`).
        struct DigestFlags: OptionSet {
            let rawValue: UInt8
            static let digest = DigestFlags(rawValue: 1), replayed = DigestFlags(rawValue: 2)
        }

        /// Where a memory state's fields lie in a progress row: the file's stored state, or the
        /// digest's replayed one. The phase is a u8 (its place in `MemoryState.Phase.allCases`),
        /// reps and lapses u32, the step i32 (`Int32.min` for none), and the rest f64 (NaN for
        /// none).
        struct State {
            let phase, reps, lapses, step, due, stability, difficulty, ease, interval, lastReview: Int
            static let stored = State(
                phase: 12, reps: 16, lapses: 20, step: 24, due: 32, stability: 40, difficulty: 48, ease: 56,
                interval: 64, lastReview: 72)
            static let replayed = State(
                phase: 177, reps: 188, lapses: 192, step: 196, due: 200, stability: 208, difficulty: 216, ease: 224,
                interval: 232, lastReview: 240)
        }

        /// A slot of the forms table: a distinct form and its lemmas.
        enum Slot {
            static let stride = 32
            /// u32: the top half of the form's hash.
            static let tag = 0
            /// u32: its one lemma's entry number, or where its lemma list starts.
            static let lemmas = 4
            /// i32 and u8: the first lemma's rank (`Int32.min` for none) and status code.
            static let rank = 8, status = 13
            /// u8: the form's length in bytes, 255 for any longer.
            static let formLength = 12
            /// u16: how many lemmas; 0 for a free slot.
            static let lemmaCount = 14
            /// The form's first `inlineFormSize` bytes, zero-padded: two u64 words.
            static let inlineForm = 16, inlineFormTail = 24, inlineFormSize = 16
        }

        /// An entry number in a lemma list (u32).
        enum Lemma {
            static let stride = 4
        }

        /// A digest's mark (u64, `ReviewDigest.Mark.raw`: grade and flags in bits 0–4, the
        /// time from bit 5 since `ROTEIDXD`, which added the practice bit).
        enum Mark {
            static let stride = 8
        }

        /// A file's record.
        enum File {
            static let stride = 64
            /// Text: its path. In the builder's file records, counted from the files' own strings.
            static let path = 0
            /// u8: `FileRecord.Role`; u8: 1 when it has a blob id.
            static let role = 6, hasBlob = 7
            /// The stamp: u64 size, i64 modified and changed times, u64 inode.
            static let size = 8, modified = 16, changed = 24, inode = 32
            /// The blob id's `blobSize` bytes.
            static let blob = 40, blobSize = 20
        }

        // MARK: The delta (`Overlay`)

        /// The delta's header, then its progress items, file items, removed entries (i32 each)
        /// and added entries.
        enum DeltaHeader {
            static let magic: [UInt8] = Array("ROTEDLT8".utf8)
            /// As in the index: a checksum of everything from `length` on, and the length.
            static let checksum = Header.checksum, length = Header.length
            /// u64: the checksum of the base it applies to.
            static let base = 24
            /// u32 counts.
            static let progressCount = 32, fileCount = 36, removedCount = 40, addedCount = 44
            static let size = 48
            /// A removed entry: its base number (i32).
            static let removedEntry = 4
        }

        /// A progress or file item: its base number (i32, -1 for none), the length of the text
        /// naming it otherwise (u16), whether it is present (u8), the text, then its row when
        /// present (a progress row with its marks, or a file record).
        enum DeltaItem {
            static let number = 0, textLength = 4, present = 6, text = 8
        }

        /// An added entry: its id, deck, path and gloss as texts (a u16 length, then the bytes),
        /// these fixed fields, its headword, root and topics when its flags say so, a u16 count
        /// of forms and the forms as texts, then its progress row and marks when it has one.
        enum DeltaEntry {
            /// Before a text's bytes.
            static let textLength = 2
            /// u8 `EntryRow.Kind`, u8 `DeltaEntryFlags`, i32 rank, i64 sort key.
            static let kind = 0, flags = 1, rank = 2, sortKey = 6, size = 14
            /// Before the forms.
            static let formCount = 2
        }

        /// What an added entry has (`DeltaEntry.flags`).
        struct DeltaEntryFlags: OptionSet {
            let rawValue: UInt8
            static let published = DeltaEntryFlags(rawValue: 1), locked = DeltaEntryFlags(rawValue: 2)
            static let headword = DeltaEntryFlags(rawValue: 4), progress = DeltaEntryFlags(rawValue: 8)
            static let root = DeltaEntryFlags(rawValue: 16), topics = DeltaEntryFlags(rawValue: 32)
        }
    }
}

extension ByteReader {
    /// The offset and length of the `Layout.Text` at `field`.
    @inline(__always) func text(_ field: Int) -> (offset: Int, length: Int) {
        (Int(u32(field + LaunchIndex.Layout.Text.offset)), Int(u16(field + LaunchIndex.Layout.Text.length)))
    }
}
