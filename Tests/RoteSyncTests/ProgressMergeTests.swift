import Foundation
import RoteModel
import RoteSync
import Scheduling
import Testing

/// Hand-written cases of the progress merge, each one rule in a form a reader can check.
@Suite struct ProgressMergeTests {
    let settings = SchedulerSettings.default

    func file(_ status: String = "active", at statusAt: String? = nil, reviews: [String]) -> Data {
        var lines = ["entry: english-a1/run", "status: \(status)"]
        if let statusAt { lines.append("status_at: \(statusAt)") }
        if !reviews.isEmpty { lines.append("reviews:") }
        lines += reviews.map { "  - \($0)" }
        return bytes(lines.joined(separator: "\n") + "\n")
    }

    /// Merges both ways, checks they agree byte for byte, and returns the decoded result.
    func mergeBothWays(
        base: Data? = nil, _ ours: Data, _ theirs: Data, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProgressFile {
        let forward = mergedText(ProgressMerge.merge(base: base, ours: ours, theirs: theirs, settings: settings))
        let backward = mergedText(ProgressMerge.merge(base: base, ours: theirs, theirs: ours, settings: settings))
        #expect(forward == backward, sourceLocation: sourceLocation)
        let text = try #require(forward, sourceLocation: sourceLocation)
        return try #require(ProgressFile.decode(text, path: "merged.yaml").0, sourceLocation: sourceLocation)
    }

    let first =
        "{id: 00000000-0000-4000-8000-000000000001, at: 2026-11-01T09:00:00Z, grade: good, ms: 3200, device: laptop}"
    let second = "{id: 00000000-0000-4000-8000-000000000002, at: 2026-11-03T09:00:00Z, grade: hard, device: desktop}"
    let third = "{id: 00000000-0000-4000-8000-000000000003, at: 2026-11-04T09:00:00Z, grade: again}"

    @Test func laterStatusWins() throws {
        let ours = file("suspended", at: "2026-11-21T10:00:00Z", reviews: [first])
        let theirs = file("ignored", at: "2026-11-20T10:00:00Z", reviews: [first])
        let merged = try mergeBothWays(ours, theirs)
        #expect(merged.status == .suspended)
        #expect(merged.statusAt == Timestamp.parse("2026-11-21T10:00:00Z"))
    }

    @Test func aMissingStatusTimeIsOlderThanAnyTime() throws {
        let merged = try mergeBothWays(
            file("suspended", reviews: []), file("active", at: "2000-01-01T00:00:00Z", reviews: []))
        #expect(merged.status == .active)
        #expect(merged.statusAt == Timestamp.parse("2000-01-01T00:00:00Z"))
    }

    @Test func aStatusTieGoesToTheLaterName() throws {
        let at = "2026-11-21T10:00:00Z"
        #expect(
            try mergeBothWays(file("active", at: at, reviews: []), file("suspended", at: at, reviews: [])).status
                == .suspended)
        #expect(
            try mergeBothWays(file("ignored", at: at, reviews: []), file("active", at: at, reviews: [])).status
                == .ignored)
        #expect(try mergeBothWays(file("ignored", reviews: []), file("suspended", reviews: [])).status == .suspended)
    }

    @Test func aReviewOnOneSideOnlyIsKept() throws {
        let base = file(reviews: [first])
        let merged = try mergeBothWays(base: base, file(reviews: [first, second]), file(reviews: [first]))
        #expect(merged.reviews.map(\.grade) == [.good, .hard])
        #expect(merged.reviews[1].device == "desktop")
    }

    @Test func reviewsFromBothSidesInterleaveByTime() throws {
        let merged = try mergeBothWays(
            base: file(reviews: [first]), file(reviews: [first, third]), file(reviews: [first, second]))
        #expect(merged.reviews.map(\.id.last) == ["1", "2", "3"])
        #expect(merged.state?.reps == 3)
    }

    /// Two reviews in the same second (two devices, same moment) are both kept, ordered by id,
    /// and the state is the replay of that order whichever side they came from.
    @Test func reviewsWithEqualTimestampsAreBothKeptInIDOrder() throws {
        let at = "2026-11-05T12:00:00Z"
        let late = "{id: ffffffff-0000-4000-8000-000000000000, at: \(at), grade: again, device: phone}"
        let early = "{id: 00000000-ffff-4000-8000-000000000000, at: \(at), grade: easy, device: laptop}"
        let merged = try mergeBothWays(
            base: file(reviews: [first]), file(reviews: [first, late]), file(reviews: [first, early]))
        #expect(merged.reviews.map(\.device) == ["laptop", "laptop", "phone"])
        #expect(merged.state == Scheduler(settings: settings).replay(merged.reviews, entryID: "english-a1/run"))
    }

    /// Both devices created the file (git passes no base): the union of both.
    @Test func bothSidesAddingTheFileKeepsBothHistories() throws {
        let merged = try mergeBothWays(
            base: nil, file(reviews: [first]), file("suspended", at: "2026-11-02T00:00:00Z", reviews: [second]))
        #expect(merged.reviews.count == 2)
        #expect(merged.status == .suspended)
    }

    /// The base adds nothing: a review neither side still has is not brought back (neither
    /// Rote nor a merge deletes reviews, so only a person can have removed it on purpose).
    @Test func theBaseAddsNothing() throws {
        let merged = try mergeBothWays(
            base: file(reviews: [first, second]), file(reviews: [first]), file(reviews: [first]))
        #expect(merged.reviews.map(\.grade) == [.good])
    }

    /// A review deleted on one side only survives, because the other side still has it.
    @Test func aReviewDeletedOnOneSideSurvives() throws {
        let merged = try mergeBothWays(
            base: file(reviews: [first, second]), file(reviews: [first]), file(reviews: [first, second]))
        #expect(merged.reviews.count == 2)
    }

    /// A stale or wrong `state` in an input does not leak into the result.
    @Test func stateIsReplayedNotMerged() throws {
        let stale = bytes(
            String(decoding: file(reviews: [first, second]), as: UTF8.self)
                .replacingOccurrences(
                    of: "status: active\n",
                    with:
                        "status: active\nstate: {phase: review, stability: 999.0, difficulty: 1.0, due: 2030-01-01T00:00:00Z, reps: 99, lapses: 9}\n"
                ))
        let merged = try mergeBothWays(stale, file(reviews: [first]))
        #expect(merged.state == Scheduler(settings: settings).replay(merged.reviews, entryID: "english-a1/run"))
        #expect(merged.state?.reps == 2)
    }

    /// One id with two contents (a hand edit) keeps the same copy whichever side is ours.
    @Test func oneIDWithTwoContentsKeepsTheEarlierCopy() throws {
        let edited = first.replacingOccurrences(of: "09:00:00Z", with: "08:00:00Z").replacingOccurrences(
            of: "good", with: "easy")
        let merged = try mergeBothWays(file(reviews: [first]), file(reviews: [edited]))
        #expect(merged.reviews.count == 1)
        #expect(merged.reviews[0].grade == .easy)
    }

    @Test(arguments: [
        "entry: [unclosed\n",
        "- a list, not a mapping\n",
        "status: active\n",  // no entry
        "",
        "entry: english-a1/run\n<<<<<<< ours\nstatus: active\n=======\nstatus: ignored\n>>>>>>> theirs\n",
    ])
    func aSideThatDoesNotParseIsAConflict(broken: String) {
        let good = file(reviews: [first])
        for outcome in [
            ProgressMerge.merge(base: good, ours: bytes(broken), theirs: good, settings: settings),
            ProgressMerge.merge(base: good, ours: good, theirs: bytes(broken), settings: settings),
        ] {
            guard case .conflict(let reason) = outcome else {
                Issue.record("expected a conflict, got \(outcome)")
                continue
            }
            #expect(reason.contains("cannot be merged"))
        }
    }

    /// A review line that cannot be read would be dropped if the rest were merged, so a side
    /// with such a line is a conflict too, and the reason names the line.
    @Test func aSideWithAnUnreadableReviewIsAConflict() {
        let bad = file(reviews: [first, "{id: x-1, at: 2026-11-02T00:00:00Z, grade: excellent}"])
        let outcome = ProgressMerge.merge(base: nil, ours: file(reviews: [first]), theirs: bad, settings: settings)
        guard case .conflict(let reason) = outcome else {
            Issue.record("expected a conflict, got \(outcome)")
            return
        }
        #expect(reason.contains("theirs"))
        #expect(reason.contains("excellent"))
        #expect(reason.contains("progress.yaml:5"))
    }

    @Test func anUnreadableBaseDoesNotMatter() throws {
        let merged = try mergeBothWays(base: bytes("{{{"), file(reviews: [first]), file(reviews: [second]))
        #expect(merged.reviews.count == 2)
    }

    @Test func differentEntriesAreAConflict() {
        let theirs = bytes(
            String(decoding: file(reviews: [second]), as: UTF8.self).replacingOccurrences(
                of: "english-a1/run", with: "english-a1/walk"))
        guard
            case .conflict(let reason) = ProgressMerge.merge(
                base: nil, ours: file(reviews: [first]), theirs: theirs, settings: settings)
        else {
            Issue.record("expected a conflict")
            return
        }
        #expect(reason.contains("english-a1/walk"))
    }

    /// The output is the canonical form: the same bytes `ProgressFile.render()` writes.
    @Test func outputIsCanonical() throws {
        let outcome = ProgressMerge.merge(
            base: nil, ours: file(reviews: [second, first]), theirs: file(reviews: [third]), settings: settings)
        let text = try #require(mergedText(outcome))
        let decoded = try #require(ProgressFile.decode(text, path: "merged.yaml").0)
        #expect(decoded.render() == text)
        #expect(text.hasPrefix("entry: english-a1/run\nstatus: active\nstate: {phase: "))
        #expect(text.components(separatedBy: "\n  - {id: ").count == 4)
    }
}
