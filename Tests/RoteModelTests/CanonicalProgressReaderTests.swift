import Foundation
import Testing
import Yams

@testable import RoteModel

/// The canonical progress reader is a shortcut, so it must never disagree with the general
/// reader: on any text it either gives up (nil) or returns exactly what the general reader
/// returns with no diagnostics at all.
@Suite struct CanonicalProgressReaderTests {
    static let devices = [
        "laptop", "phone-2", "desk_top", "my laptop", "true", "Ünï", "a:b", "#1", "0x1F", "007", "1.5", "null",
    ]
    static let ids = ["r1", "review_2", "0133e566-1c43-4e00-be57-622cea74e80f", "12", "no", "a b", "x,y"]

    static func randomFile(_ random: inout SeededGenerator, plainOnly: Bool) -> ProgressFile {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func uuid() -> String {
            let hex = Array("0123456789abcdef")
            return [8, 4, 4, 4, 12].map { count in String((0..<count).map { _ in hex[Int(random.next() % 16)] }) }
                .joined(separator: "-")
        }
        let base = 1_700_000_000.0 + Double(random.next() % 100_000_000)
        var reviews: [ReviewEvent] = []
        for number in 0..<Int(random.next() % 12) {
            reviews.append(
                ReviewEvent(
                    id: plainOnly || random.next() % 3 > 0 ? uuid() : pick(ids) + "\(number)",
                    at: Date(timeIntervalSince1970: base + Double(number) * 86_400 + Double(random.next() % 3_600)),
                    grade: pick(Grade.allCases),
                    ms: random.next() % 4 == 0 ? nil : Int(random.next() % 20_000),
                    device: random.next() % 4 == 0
                        ? nil : (plainOnly ? pick(["laptop", "phone-2", "desk_top"]) : pick(devices)),
                    undone: random.next() % 5 == 0
                        ? Date(timeIntervalSince1970: base + 90 * 86_400 + Double(random.next() % 3_600)) : nil,
                    practice: random.next() % 4 == 0))
        }
        let state =
            random.next() % 5 == 0
            ? nil
            : MemoryState(
                phase: pick(MemoryState.Phase.allCases), step: random.next() % 2 == 0 ? nil : Int(random.next() % 3),
                stability: random.next() % 6 == 0 ? nil : Double(random.next() % 100_000) / 997,
                difficulty: Double(random.next() % 10_000) / 1_000 + 1, ease: random.next() % 3 == 0 ? 2.5 : nil,
                interval: random.next() % 3 == 0 ? Double(random.next() % 400) : nil,
                due: Date(timeIntervalSince1970: base + 400 * 86_400), reps: reviews.count,
                lapses: Int(random.next() % 3),
                lastReview: reviews.last?.at)
        let entries =
            plainOnly
            ? ["english-a1/run", "kjv/joh-8-32", "math/x_solve.2"]
            : ["english-a1/run", "a b/c", "x:y/z", "true", "kjv/#1"]
        return ProgressFile(
            entry: pick(entries), status: pick(ProgressFile.Status.allCases),
            statusAt: random.next() % 2 == 0 ? nil : Date(timeIntervalSince1970: base), state: state, reviews: reviews)
    }

    /// The general reader's answer: the value and every diagnostic.
    static func general(_ text: String) -> (ProgressFile?, [Diagnostic]) {
        let (node, problems) = YAMLSource.parse(text, path: "p.yaml")
        guard let node else { return (nil, problems) }
        return ProgressFile.decode(node, path: "p.yaml")
    }

    @Test func readsEveryCanonicalFileRoteWrites() {
        var random = SeededGenerator(seed: 1)
        for _ in 0..<1_000 {
            let file = Self.randomFile(&random, plainOnly: true)
            let text = file.render()
            #expect(ProgressFile.decodeCanonical(Data(text.utf8)) == file, "\(text)")
        }
    }

    @Test func agreesWithTheGeneralReaderOrGivesUp() {
        var random = SeededGenerator(seed: 2)
        var accepted = 0
        for _ in 0..<1_000 {
            let file = Self.randomFile(&random, plainOnly: false)
            let text = file.render()
            if let fast = ProgressFile.decodeCanonical(Data(text.utf8)) {
                accepted += 1
                #expect(fast == file, "\(text)")
            }
        }
        // Files with quoted devices or odd ids go the slow way, the rest the fast way.
        #expect(accepted > 0 && accepted < 1_000)
    }

    @Test func mutatedFilesNeverReadDifferently() {
        var random = SeededGenerator(seed: 3)
        let alphabet = Array(" :#\"'{}[],-.\n\t0a!&*|>~Z").map(String.init)
        var mutationsAccepted = 0
        for _ in 0..<3_000 {
            var text = Array(Self.randomFile(&random, plainOnly: true).render())
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let position = Int(random.next() % UInt64(text.count + 1))
                switch random.next() % 3 {
                case 0: text.insert(contentsOf: alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                case 1: if position < text.count { text.remove(at: position) }
                default:
                    if position < text.count {
                        text[position] = Character(alphabet[Int(random.next() % UInt64(alphabet.count))])
                    }
                }
            }
            let mutated = String(text)
            guard let fast = ProgressFile.decodeCanonical(Data(mutated.utf8)) else { continue }
            mutationsAccepted += 1
            let (slow, problems) = Self.general(mutated)
            #expect(
                problems.isEmpty,
                "fast reader accepted a file the general reader complains about:\n\(mutated)\n\(problems)")
            #expect(slow == fast, "readers disagree on:\n\(mutated)")
        }
        // Some mutations keep the file canonical (a changed digit, a changed letter).
        #expect(mutationsAccepted > 50)
    }

    /// `rote undo`'s mark: written after the review's other fields, read back by both
    /// readers and handed to a scan, and never scheduling.
    @Test func undoneMarksRoundTripThroughBothReaders() throws {
        let at = try #require(Timestamp.parse("2026-11-20T20:32:57Z"))
        let undoneAt = try #require(Timestamp.parse("2026-11-21T08:00:00Z"))
        let file = ProgressFile(
            entry: "english-a1/run",
            reviews: [
                ReviewEvent(id: "r1", at: at, grade: .good, ms: 1200, device: "laptop"),
                ReviewEvent(id: "r2", at: at.addingTimeInterval(60), grade: .again, device: "laptop", undone: undoneAt),
            ])
        let text = file.render()
        #expect(
            text.contains(
                "  - {id: r2, at: 2026-11-20T20:33:57Z, grade: again, device: laptop, undone: 2026-11-21T08:00:00Z}\n"))
        #expect(ProgressFile.decodeCanonical(Data(text.utf8)) == file)
        let (slow, problems) = Self.general(text)
        #expect(problems.isEmpty)
        #expect(slow == file)
        var scanned: [Date?] = []
        let data = Data(text.utf8)
        let header = data.withUnsafeBytes { bytes in
            ProgressFile.scanCanonical(bytes: bytes) { scanned.append($0.undone) }
        }
        #expect(header != nil)
        #expect(scanned == [nil, undoneAt])
        #expect(file.scheduledReviews.map(\.id) == ["r1"])
        // A mark that is not a time is no canonical file; the general reader explains it.
        let broken = text.replacingOccurrences(of: "undone: 2026-11-21T08:00:00Z", with: "undone: soon")
        #expect(ProgressFile.decodeCanonical(Data(broken.utf8)) == nil)
        #expect(!Self.general(broken).1.isEmpty)
    }

    /// `practice: true` is written on a practice review and read back by both readers; the
    /// canonical one takes only `true` (the writer never writes `false`) and leaves the rest to
    /// the general reader.
    @Test func practiceReviewsReadTheSameBothWays() throws {
        let file = ProgressFile(
            entry: "english-a1/run",
            reviews: [
                ReviewEvent(id: "r1", at: Date(timeIntervalSince1970: 1_790_000_000), grade: .good),
                ReviewEvent(
                    id: "r2", at: Date(timeIntervalSince1970: 1_790_086_400), grade: .again, ms: 900, practice: true),
            ])
        let text = file.render()
        #expect(text.contains("  - {id: r2, at: 2026-09-22T14:13:20Z, grade: again, ms: 900, practice: true}\n"))
        #expect(!text.contains("practice: false"))
        #expect(ProgressFile.decodeCanonical(Data(text.utf8)) == file)
        let (slow, problems) = Self.general(text)
        #expect(problems.isEmpty && slow == file)
        var scanned: [Bool] = []
        _ = Data(text.utf8).withUnsafeBytes { bytes in
            ProgressFile.scanCanonical(bytes: bytes) { scanned.append($0.event.practice) }
        }
        #expect(scanned == [false, true])
        let spelledFalse = text.replacingOccurrences(of: "practice: true", with: "practice: false")
        #expect(ProgressFile.decodeCanonical(Data(spelledFalse.utf8)) == nil)
        let (read, falseProblems) = Self.general(spelledFalse)
        #expect(falseProblems.isEmpty && read?.reviews.map(\.practice) == [false, false])
    }

    @Test func givesUpOnWhatOnlyYAMLUnderstands() {
        let canonical =
            "entry: kjv/joh-8-32\nstatus: active\nreviews:\n  - {id: r1, at: 2026-11-20T20:32:57Z, grade: easy, ms: 1929}\n"
        #expect(ProgressFile.decodeCanonical(Data(canonical.utf8)) != nil)
        for variant in [
            canonical.replacingOccurrences(of: "kjv/joh-8-32", with: "\"kjv/joh-8-32\""),
            canonical.replacingOccurrences(of: "ms: 1929", with: "ms: 01929"),
            canonical.replacingOccurrences(of: "status: active", with: "status: active # hand edit"),
            canonical.replacingOccurrences(of: "\n", with: "\r\n"),
            canonical + "  - {id: r1, at: 2026-11-21T20:32:57Z, grade: good}\n",
            canonical.replacingOccurrences(of: "status: active\n", with: "status: active\nstatus: suspended\n"),
            canonical.replacingOccurrences(of: "status:", with: "notes: x\nstatus:"),
        ] {
            #expect(ProgressFile.decodeCanonical(Data(variant.utf8)) == nil, "\(variant)")
        }
    }
}

/// The reader's constants are written out for speed; each must be what it stands for.
@Suite struct CanonicalProgressConstantsTests {
    @Test func writtenOutConstantsMatchWhatTheyStandFor() {
        typealias Keys = CanonicalProgressReader.Keys
        #expect(Keys.id == CanonicalProgressReader.packed("id"))
        #expect(Keys.at == CanonicalProgressReader.packed("at"))
        #expect(Keys.grade == CanonicalProgressReader.packed("grade"))
        #expect(Keys.ms == CanonicalProgressReader.packed("ms"))
        #expect(Keys.device == CanonicalProgressReader.packed("device"))
        #expect(Keys.undone == CanonicalProgressReader.packed("undone"))
        #expect(Keys.practice == CanonicalProgressReader.packed("practice"))
        for word in ["again", "Hard", "GOOD", "easy", "1", "2", "3", "4", "0", "5", "goo", "easier", "againn", "hARd"] {
            var text = word
            #expect(
                text.withUTF8 { CanonicalProgressReader.grade(UnsafeRawBufferPointer($0)) } == Grade(name: word),
                "\(word)")
        }
        for word in [
            "null", "NULL", "True", "false", "yes", "No", "on", "OFF", "y", "N", "nul", "yess", "phone", "good",
        ] {
            var text = word
            let plain = text.withUTF8 { CanonicalProgressReader.isPlain(UnsafeRawBufferPointer($0)) }
            #expect(
                plain == !["null", "true", "false", "yes", "no", "on", "off", "y", "n"].contains(word.lowercased()),
                "\(word)")
        }
    }
}
