import Foundation
import RoteModel
import Scheduling
import StudyData
import Testing

@testable import Study

/// A launch summarises 50 000 progress files straight from their bytes
/// (`ProgressSummary.canonical`), so that must agree with summarising the file `decode`
/// gives — or give up and leave the file to `decode`.
@Suite struct ProgressSummaryTests {
    static func randomFile(_ random: inout SeededGenerator, reviews count: Int) -> ProgressFile {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let base = 1_700_000_000.0 + Double(random.next() % 100_000_000)
        var reviews: [ReviewEvent] = []
        for number in 0..<count {
            // Some reviews share a second, so ids decide their order.
            let second = random.next() % 4 == 0 ? Double(number / 2) : Double(number)
            reviews.append(
                ReviewEvent(
                    id: "r\(random.next() % 1_000_000)-\(number)",
                    at: Date(timeIntervalSince1970: base + second * 86_400),
                    grade: pick(Grade.allCases), ms: random.next() % 4 == 0 ? nil : Int(random.next() % 20_000),
                    device: random.next() % 3 == 0 ? nil : pick(["laptop", "phone", "desk_top"]),
                    synthetic: random.next() % 5 == 0 ? pick(["calibration", "known"]) : nil,
                    undone: random.next() % 6 == 0 ? Date(timeIntervalSince1970: base + 500 * 86_400) : nil,
                    practice: random.next() % 5 == 0))
        }
        reviews.sort(by: ReviewEvent.replayOrder)
        let state =
            count == 0
            ? nil
            : MemoryState(
                phase: .review, step: nil, stability: 3.5, difficulty: 5.25, ease: nil, interval: nil,
                due: Date(timeIntervalSince1970: base + 400 * 86_400), reps: count, lapses: 1,
                lastReview: reviews.last?.at)
        return ProgressFile(
            entry: "english-a1/run", status: pick(ProgressFile.Status.allCases), state: state, reviews: reviews)
    }

    /// Reviews `rote undo` marked count nowhere: the summary and its digest are those of the
    /// file without them, by either reader.
    @Test func undoneReviewsCountNowhere() throws {
        var random = SeededGenerator(seed: 47)
        let schedulers = DeckSchedulers(decks: [:], profile: nil)
        var sawUndone = 0
        for _ in 0..<300 {
            let file = Self.randomFile(&random, reviews: Int(random.next() % 12))
            var without = file
            without.reviews.removeAll { $0.undone != nil }
            sawUndone += file.reviews.count - without.reviews.count
            let data = Data(file.render().utf8)
            let fast = try #require(ProgressSummary.canonical(data, schedulers: schedulers))
            #expect(fast.summary == ProgressSummary(without, schedulers: schedulers))
            #expect(fast.summary == Self.reference(data, schedulers: schedulers)?.1)
            #expect(fast.summary.digest?.marks.count == without.reviews.count)
        }
        #expect(sawUndone > 50)
    }

    /// The summary of the file as `decode` reads it, with the entry it names.
    static func reference(_ data: Data, schedulers: DeckSchedulers? = nil) -> (String, ProgressSummary)? {
        ProgressFile.decode(data, path: "profiles/u/progress/english-a1/run.yaml").0.map {
            ($0.entry, ProgressSummary($0, schedulers: schedulers))
        }
    }

    /// With schedulers the summary carries the review digest: its marks, synthetic ones
    /// flagged (what stats and rank promotion leave out), must be the full reader's.
    @Test func digestsEveryCanonicalFileAsDecodingDoes() throws {
        var random = SeededGenerator(seed: 43)
        let schedulers = DeckSchedulers(decks: [:], profile: nil)
        var synthetic = 0
        var practice = 0
        for round in 0..<200 {
            let file = Self.randomFile(&random, reviews: round % 12)
            let data = Data(file.render().utf8)
            let read = try #require(ProgressSummary.canonical(data, schedulers: schedulers))
            let expected = try #require(Self.reference(data, schedulers: schedulers))
            #expect(read.summary.digest == expected.1.digest, "\(file.render())")
            synthetic += read.summary.digest?.marks.filter(\.synthetic).count ?? 0
            practice += read.summary.digest?.marks.filter(\.practice).count ?? 0
            #expect(read.summary == expected.1, "\(file.render())")
        }
        #expect(synthetic > 0, "the files hold synthetic reviews")
        #expect(practice > 0, "the files hold practice reviews")
    }

    @Test func summarisesEveryCanonicalFileAsDecodingDoes() throws {
        var random = SeededGenerator(seed: 41)
        for round in 0..<600 {
            // Around both ring sizes (8 times, 5 answer times) and well past them.
            let file = Self.randomFile(&random, reviews: round % 30)
            let data = Data(file.render().utf8)
            let read = try #require(
                ProgressSummary.canonical(data), "Rote writes these: the short way takes them\n\(file.render())")
            let expected = try #require(Self.reference(data))
            #expect(read.entry == expected.0)
            #expect(read.summary == expected.1, "\(file.render())")
        }
    }

    @Test func givesUpOnReviewsOutOfOrderOrRepeated() throws {
        var random = SeededGenerator(seed: 42)
        let file = Self.randomFile(&random, reviews: 12)
        var lines = file.render().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("  - ") })
        var swapped = lines
        swapped.swapAt(first + 3, first + 4)
        var repeated = lines
        repeated.insert(lines[first + 5], at: first + 9)
        for text in [swapped, repeated].map({ $0.joined(separator: "\n") }) {
            #expect(ProgressSummary.canonical(Data(text.utf8)) == nil, "\(text)")
        }
        // A file in order with an id that sorts first within its second still reads.
        lines.removeAll { $0.isEmpty }
        #expect(ProgressSummary.canonical(Data((lines.joined(separator: "\n") + "\n").utf8)) != nil)
    }

    @Test func mutatedFilesSummariseAsDecodingDoesOrNotAtAll() {
        var random = SeededGenerator(seed: 43)
        let alphabet = Array(" :#\"'{}[],-.\n0a!~Z").map(String.init)
        var accepted = 0
        for _ in 0..<3_000 {
            var text = Array(Self.randomFile(&random, reviews: Int(random.next() % 14)).render())
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let position = Int(random.next() % UInt64(text.count + 1))
                switch random.next() % 4 {
                case 0: text.insert(contentsOf: alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                case 1: if position < text.count { text.remove(at: position) }
                case 2:
                    // A whole line moved: reviews out of order, or fields in another place.
                    var lines = String(text).split(separator: "\n").map(String.init)
                    if lines.count > 2 {
                        lines.swapAt(Int(random.next() % UInt64(lines.count)), Int(random.next() % UInt64(lines.count)))
                    }
                    text = Array(lines.joined(separator: "\n") + "\n")
                default:
                    if position < text.count {
                        text[position] = Character(alphabet[Int(random.next() % UInt64(alphabet.count))])
                    }
                }
            }
            let data = Data(String(text).utf8)
            guard let read = ProgressSummary.canonical(data) else { continue }
            accepted += 1
            let expected = Self.reference(data)
            #expect(
                expected?.0 == read.entry && expected?.1 == read.summary, "the short way disagrees on:\n\(String(text))"
            )
        }
        // Some mutations keep the file canonical: a changed digit, a line swapped back.
        #expect(accepted > 100, "accepted \(accepted)")
    }

    /// Practice reviews are in the digest, marked, and nowhere else: the replayed state, the
    /// review count, the recent times and the answer times are those of the other reviews.
    @Test func practiceReviewsAreMarkedInTheDigestAndLeftOutOfTheRest() throws {
        let day = 86_400.0
        let real = [
            ReviewEvent(id: "a", at: Date(timeIntervalSince1970: 1_790_000_000), grade: .good, ms: 1_000),
            ReviewEvent(id: "b", at: Date(timeIntervalSince1970: 1_790_000_000 + 3 * day), grade: .good, ms: 1_100),
        ]
        let practice = [
            ReviewEvent(
                id: "p", at: Date(timeIntervalSince1970: 1_790_000_000 + 4 * day), grade: .again, ms: 9_000,
                practice: true)
        ]
        let scheduler = Scheduler(settings: .default)
        let file = ProgressFile(
            entry: "english-a1/run", state: scheduler.replay(real, entryID: "english-a1/run"),
            reviews: real + practice)
        let schedulers = DeckSchedulers(decks: [:], profile: nil)
        let summary = ProgressSummary(file, schedulers: schedulers)
        #expect(summary.reviewCount == 2 && summary.recentMilliseconds == [1_000, 1_100])
        #expect(summary.recentReviewTimes == real.map(\.at))
        let digest = try #require(summary.digest)
        #expect(digest.marks.map(\.practice) == [false, false, true])
        #expect(digest.marks.map(\.at) == (real + practice).map(\.at))
        #expect(digest.marks[2].grade == .again && digest.marks[2].followsReviewPhase)
        #expect(digest.replayed == scheduler.replay(real, entryID: "english-a1/run"))
        let canonical = try #require(ProgressSummary.canonical(Data(file.render().utf8), schedulers: schedulers))
        #expect(canonical.summary == summary)
    }
}
