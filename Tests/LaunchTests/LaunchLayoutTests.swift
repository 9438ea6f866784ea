import Foundation
import Git
import RoteModel
import RoteStore
import StudyData
import Testing

@testable import Launch

/// The row layouts the reader, the builder and the delta share (`LaunchIndex.Layout`): each
/// row's fields lie inside it without overlapping, and flags are distinct bits.
@Suite struct LaunchLayoutTests {
    typealias Layout = LaunchIndex.Layout

    /// A field's name, place and width in bytes.
    struct Field: CustomStringConvertible {
        let name: String, at: Int, width: Int
        init(_ name: String, _ at: Int, _ width: Int) {
            self.name = name
            self.at = at
            self.width = width
        }
        var description: String { "\(name) at \(at)..<\(at + width)" }
    }

    /// The problems of a row's layout: fields past its end, or two fields sharing a byte.
    static func problems(_ fields: [Field], size: Int) -> [String] {
        var problems: [String] = []
        var owner = [String?](repeating: nil, count: size)
        for field in fields {
            guard field.at >= 0, field.at + field.width <= size else {
                problems.append("\(field) lies outside the row's \(size) bytes")
                continue
            }
            if let other = owner[field.at..<(field.at + field.width)].lazy.compactMap({ $0 }).first {
                problems.append("\(field) overlaps \(other)")
            }
            for byte in field.at..<(field.at + field.width) { owner[byte] = field.name }
        }
        return problems
    }

    static func text(_ name: String, _ at: Int) -> [Field] {
        [Field("\(name) offset", at + Layout.Text.offset, 4), Field("\(name) length", at + Layout.Text.length, 2)]
    }

    static func state(_ name: String, _ layout: Layout.State) -> [Field] {
        [
            Field("\(name) phase", layout.phase, 1), Field("\(name) reps", layout.reps, 4),
            Field("\(name) lapses", layout.lapses, 4), Field("\(name) step", layout.step, 4),
            Field("\(name) due", layout.due, 8), Field("\(name) stability", layout.stability, 8),
            Field("\(name) difficulty", layout.difficulty, 8), Field("\(name) ease", layout.ease, 8),
            Field("\(name) interval", layout.interval, 8), Field("\(name) last review", layout.lastReview, 8),
        ]
    }

    static let rows: [(name: String, fields: [Field], size: Int)] = {
        typealias Entry = Layout.Entry
        typealias Progress = Layout.Progress
        typealias Slot = Layout.Slot
        typealias File = Layout.File
        typealias Item = Layout.DeltaItem
        typealias Added = Layout.DeltaEntry
        typealias DeltaHeader = Layout.DeltaHeader
        let entry =
            text("id", Entry.id) + text("path", Entry.path) + text("headword", Entry.headword)
            + text("gloss", Entry.gloss) + text("root", Entry.root) + text("topics", Entry.topics) + [
                Field("deck", Entry.deck, 2), Field("kind", Entry.kind, 1), Field("flags", Entry.flags, 1),
                Field("status", Entry.status, 1), Field("rank", Entry.rank, 4), Field("sort key", Entry.sortKey, 8),
                Field("form count", Entry.formCount, 2), Field("first form", Entry.firstForm, 4),
                Field("progress row", Entry.progressRow, 4),
            ]
        let progress =
            text("id", Progress.id) + state("stored", .stored) + state("replayed", .replayed) + [
                Field("status", Progress.status, 1), Field("flags", Progress.flags, 1),
                Field("review count", Progress.reviewCount, 4), Field("recent count", Progress.recentCount, 1),
                Field("milliseconds count", Progress.millisecondsCount, 1),
                Field("first review", Progress.firstReview, 8),
                Field("recent times", Progress.recentTimes, ProgressSummary.recentLimit * 8),
                Field("milliseconds", Progress.milliseconds, ProgressSummary.millisecondsLimit * 4),
                Field("digest flags", Progress.digestFlags, 1), Field("mark count", Progress.markCount, 4),
                Field("first mark", Progress.firstMark, 4),
            ]
        let slot = [
            Field("tag", Slot.tag, 4), Field("lemmas", Slot.lemmas, 4), Field("rank", Slot.rank, 4),
            Field("form length", Slot.formLength, 1), Field("status", Slot.status, 1),
            Field("lemma count", Slot.lemmaCount, 2), Field("inline form", Slot.inlineForm, Slot.inlineFormSize),
        ]
        let file =
            text("path", File.path) + [
                Field("role", File.role, 1), Field("has blob", File.hasBlob, 1), Field("size", File.size, 8),
                Field("modified", File.modified, 8), Field("changed", File.changed, 8), Field("inode", File.inode, 8),
                Field("blob", File.blob, File.blobSize),
            ]
        let form = [
            Field("offset", Layout.EntryForm.offset, 4), Field("length", Layout.EntryForm.length, 4),
        ]
        let header =
            [
                Field("magic", 0, LaunchIndex.magic.count), Field("checksum", Layout.Header.checksum, 8),
                Field("length", Layout.Header.length, 8),
            ]
            + LaunchIndex.Section.allCases.flatMap {
                [
                    Field("\($0) offset", Layout.Header.offset(of: $0), 8),
                    Field("\($0) count", Layout.Header.count(of: $0), 8),
                ]
            }
        let deltaHeader = [
            Field("magic", 0, DeltaHeader.magic.count), Field("checksum", DeltaHeader.checksum, 8),
            Field("length", DeltaHeader.length, 8), Field("base", DeltaHeader.base, 8),
            Field("progress count", DeltaHeader.progressCount, 4), Field("file count", DeltaHeader.fileCount, 4),
            Field("removed count", DeltaHeader.removedCount, 4), Field("added count", DeltaHeader.addedCount, 4),
        ]
        let item = [
            Field("number", Item.number, 4), Field("text length", Item.textLength, 2),
            Field("present", Item.present, 1),
        ]
        let added = [
            Field("kind", Added.kind, 1), Field("flags", Added.flags, 1), Field("rank", Added.rank, 4),
            Field("sort key", Added.sortKey, 8),
        ]
        return [
            ("entry", entry, Entry.stride), ("progress", progress, Progress.stride), ("slot", slot, Slot.stride),
            ("file", file, File.stride), ("entry form", form, Layout.EntryForm.stride),
            ("header", header, Layout.Header.size), ("delta header", deltaHeader, DeltaHeader.size),
            ("delta item", item, Item.text), ("added entry", added, Added.size),
        ]
    }()

    @Test(arguments: rows.indices) func aRowsFieldsLieInsideItWithoutOverlapping(_ row: Int) {
        let (name, fields, size) = Self.rows[row]
        #expect(Self.problems(fields, size: size) == [], "\(name)")
    }

    @Test func theCheckFindsAnOverlapAndAFieldPastTheEnd() {
        #expect(Self.problems([Field("a", 0, 4), Field("b", 2, 4)], size: 8) == ["b at 2..<6 overlaps a"])
        #expect(Self.problems([Field("a", 6, 4)], size: 8) == ["a at 6..<10 lies outside the row's 8 bytes"])
    }

    @Test func eachSectionsStrideIsItsRowsSize() {
        #expect(LaunchIndex.Section.entries.stride == Layout.Entry.stride)
        #expect(LaunchIndex.Section.progress.stride == Layout.Progress.stride)
        #expect(LaunchIndex.Section.slots.stride == Layout.Slot.stride)
        #expect(LaunchIndex.Section.files.stride == Layout.File.stride)
        #expect(Layout.Slot.inlineFormTail == Layout.Slot.inlineForm + 8)
        #expect(Layout.Header.size == Layout.Header.offset(of: LaunchIndex.Section.allCases.last!) + 16)
    }

    @Test func flagsAreDistinctBits() {
        func distinct(_ raws: [UInt8]) -> Bool {
            raws.allSatisfy { $0.nonzeroBitCount == 1 } && raws.reduce(0, |).nonzeroBitCount == raws.count
        }
        #expect(
            distinct(
                [.published, .locked, .headword, .root, .topics].map { (flag: Layout.EntryFlags) in flag.rawValue }))
        #expect(
            distinct([.state, .ladderStarted, .scheduledReviews].map { (flag: Layout.ProgressFlags) in flag.rawValue }))
        #expect(distinct([.digest, .replayed].map { (flag: Layout.DigestFlags) in flag.rawValue }))
        #expect(
            distinct(
                [.published, .locked, .headword, .progress, .root, .topics].map { (flag: Layout.DeltaEntryFlags) in
                    flag.rawValue
                }))
    }
}
