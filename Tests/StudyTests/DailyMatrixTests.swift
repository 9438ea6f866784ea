import Foundation
import RoteModel
import Testing

@testable import Study

@Suite struct DailyMatrixTests {
    /// Three families: act (7 words), run (3), go (1); in name order act, go, run.
    static let words: [DailyMatrix.Word] = [
        .init(id: "en/act", word: "act", rank: 900, root: "act"),
        .init(id: "en/action", word: "action", rank: 400, root: "act"),
        .init(id: "en/actor", word: "actor", rank: 2600, root: "act"),
        .init(id: "en/active", word: "active", rank: 1200, root: "act"),
        .init(id: "en/activity", word: "activity", rank: 700, root: "act"),
        .init(id: "en/react", word: "react", rank: 3000, root: "act"),
        .init(id: "en/actual", word: "actual", rank: 800, root: "act"),
        .init(id: "en/run", word: "run", rank: 157, root: "run"),
        .init(id: "en/runner", word: "runner", rank: 3100, root: "run"),
        .init(id: "en/running", word: "running", rank: 1500, root: "run"),
        .init(id: "en/go", word: "go", rank: 30, root: "go"),
    ]

    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        ("1970-01-01", 0, "act"), ("2026-11-25", 20_782, "go"), ("2026-11-26", 20_783, "run"),
        ("2026-11-27", 20_784, "act"),
        ("1969-12-31", -1, "run"),
    ])
    func theRootOfADateIsEpochDayModRootCount(date: String, epochDay: Int, root: String) throws {
        let day = DailyMatrix.epochDay(of: Timestamp.parse(date + "T23:59:59Z")!, timeZone: Self.utc)
        #expect(day == epochDay)
        #expect(DailyMatrix.day(day, words: Self.words, lexicalRank: nil)?.root == root)
    }

    /// A profile's `lexical_rank` is any Int it says, Int.max included: `Int(Double(Int.max))`
    /// traps, so the centre is kept as the Int it was read as (issue #31, item 2).
    @Test func aLexicalRankOfIntMaxPicksTheDayWithoutATrap() throws {
        let words = Self.words + [.init(id: "en/stop", word: "stop", rank: nil, root: "act")]
        let day = try #require(DailyMatrix.day(0, words: words, lexicalRank: Int.max))
        #expect(day.root == "act")
    }

    @Test func theDateIsTheLearnersCalendarDate() {
        let instant = Timestamp.parse("2026-11-25T23:30:00Z")!
        #expect(DailyMatrix.epochDay(of: instant, timeZone: Self.utc) == 20_782)
        #expect(
            DailyMatrix.epochDay(of: instant, timeZone: TimeZone(identifier: "Asia/Riyadh")!) == 20_783,
            "already the 26th in Riyadh")
    }

    @Test func satellitesAreTheFamilyNearestTheRankThenOthers() throws {
        let act = try #require(DailyMatrix.day(0, words: Self.words, lexicalRank: 1000))
        #expect(act.rootWord?.id == "en/act")
        #expect(act.satellites.map(\.word) == ["active", "actual", "activity", "action", "actor", "react"])
        let beginner = try #require(DailyMatrix.day(0, words: Self.words, lexicalRank: 300))
        #expect(beginner.satellites.first?.word == "action")
        // A small family is filled with other families' words nearest the rank.
        let run = try #require(DailyMatrix.day(2, words: Self.words, lexicalRank: 1000))
        #expect(run.satellites.count == 6)
        #expect(run.satellites.prefix(2).map(\.word) == ["running", "runner"])
        #expect(!run.satellites.contains { $0.id == "en/run" })
    }

    @Test func theSameOnEveryDeviceWhateverTheOrderOfTheWords() {
        var shuffled = Self.words
        var random = SeededGenerator(seed: 7)
        for day in 0..<30 {
            shuffled = StudyRandom.shuffled(shuffled, using: &random)
            #expect(
                DailyMatrix.day(day, words: shuffled, lexicalRank: 800)
                    == DailyMatrix.day(day, words: Self.words, lexicalRank: 800))
        }
        #expect(DailyMatrix.day(0, words: [], lexicalRank: nil) == nil)
    }
}

@Suite struct RankPromotionTests {
    static let now = Timestamp.parse("2026-11-25T12:00:00Z")!

    static func reviews(days: Int, perDay: Int, easyShare: Double, ranks: ClosedRange<Int>) -> [RankPromotion.Review] {
        var list: [RankPromotion.Review] = []
        for day in 0..<days {
            for n in 0..<perDay {
                let easy = Double(n) < Double(perDay) * easyShare
                let rank = ranks.lowerBound + (ranks.upperBound - ranks.lowerBound) * n / max(1, perDay - 1)
                list.append(
                    .init(
                        rank: rank, grade: easy ? .easy : .good,
                        at: now.addingTimeInterval(-Double(day) * 86_400 - Double(n) * 60)))
            }
        }
        return list
    }

    @Test func fastEasyRatingsMoveTheRankUpToTheEasyWords() {
        let outcome = RankPromotion.apply(
            reviews: Self.reviews(days: 4, perDay: 10, easyShare: 0.8, ranks: 500...900), lexicalRank: 400,
            now: Self.now)
        #expect(outcome.easyRatingVelocity == 0.8)
        #expect(outcome.cycleCount == 4)
        #expect(outcome.promoted)
        #expect(outcome.lexicalRank == 811, "the 90th percentile of the ranks answered easy")
        let twice = RankPromotion.apply(
            reviews: Self.reviews(days: 4, perDay: 10, easyShare: 0.8, ranks: 500...900),
            lexicalRank: outcome.lexicalRank, now: Self.now)
        #expect(twice.lexicalRank == outcome.lexicalRank && !twice.promoted, "applying it again changes nothing")
    }

    @Test func slowOrFewEasyRatingsLeaveTheRank() {
        let slow = RankPromotion.apply(
            reviews: Self.reviews(days: 4, perDay: 10, easyShare: 0.3, ranks: 500...900), lexicalRank: 400,
            now: Self.now)
        #expect(slow.easyRatingVelocity == 0.3 && slow.lexicalRank == 400 && !slow.promoted)
        let few = RankPromotion.apply(
            reviews: Self.reviews(days: 1, perDay: 10, easyShare: 1, ranks: 500...900), lexicalRank: 400, now: Self.now)
        #expect(few.easyRatingVelocity == nil && few.lexicalRank == 400 && few.cycleCount == 1)
        let oneDay = RankPromotion.apply(
            reviews: Self.reviews(days: 1, perDay: 30, easyShare: 1, ranks: 500...900), lexicalRank: 400, now: Self.now)
        #expect(oneDay.easyRatingVelocity == 1 && !oneDay.promoted, "three study days at least")
        let never = RankPromotion.apply(
            reviews: Self.reviews(days: 4, perDay: 10, easyShare: 0.9, ranks: 100...300), lexicalRank: 400,
            now: Self.now)
        #expect(never.lexicalRank == 400, "never lowered")
        let old = RankPromotion.apply(
            reviews: Self.reviews(days: 4, perDay: 10, easyShare: 0.8, ranks: 500...900).map {
                var r = $0
                r.at -= 20 * 86_400
                return r
            }, lexicalRank: 400, now: Self.now)
        #expect(old.cycleCount == 0 && old.lexicalRank == 400, "outside the 14-day window")
    }
}

@Suite struct NewWordOrderTests {
    /// The bounded walk asks `similar` of few entries, yet its first `room` are exactly those
    /// a full sort by weighed distance gives, for any ranks, rank and room.
    @Test func theBoundedWalkKeepsTheFullSortsFirstRoom() {
        var random = SeededGenerator(seed: 99)
        for _ in 0..<300 {
            let count = StudyRandom.index(below: 60, using: &random) + 1
            let ranks = (0..<count).map { _ in
                StudyRandom.index(below: 8, using: &random) == 0
                    ? nil : StudyRandom.index(below: 2000, using: &random) + 1
            }
            let similarSet = Set((0..<count).filter { _ in StudyRandom.index(below: 3, using: &random) == 0 })
            let room = StudyRandom.index(below: 12, using: &random) + 1
            let lexicalRank =
                StudyRandom.index(below: 2, using: &random) == 0
                ? nil : StudyRandom.index(below: 2000, using: &random) + 1
            // Half the rounds with interests: each entry's 0, 0.5 or 1.
            let interests = (0..<count).map { _ in [0.0, 0.5, 1.0][StudyRandom.index(below: 3, using: &random)] }
            let withInterests = StudyRandom.index(below: 2, using: &random) == 0
            var asked = 0
            let ordered = SessionPlanner.ordered(
                Array(0..<count), lexicalRank: lexicalRank, rank: { ranks[$0] }, room: room,
                interest: withInterests ? { interests[$0] } : nil,
                similar: {
                    asked += 1
                    return similarSet.contains($0)
                })
            #expect(Set(ordered) == Set(0..<count) && ordered.count == count, "a permutation")
            // The full sort, by hand.
            func key(_ entry: Int) -> Double {
                var distance = 0.0
                if let lexicalRank {
                    guard let rank = ranks[entry] else { return .infinity }
                    let offset = log(Double(rank)) - log(Double(lexicalRank))
                    distance = (offset >= 0 ? offset : -offset * 1.25) * (withInterests ? 1 - interests[entry] / 2 : 1)
                }
                return similarSet.contains(entry) && distance.isFinite ? distance * 2 + 0.25 : distance
            }
            let full = (0..<count).sorted { key($0) != key($1) ? key($0) < key($1) : $0 < $1 }
            #expect(
                Array(ordered.prefix(room)) == Array(full.prefix(room)),
                "ranks \(ranks), similar \(similarSet.sorted()), room \(room), rank \(String(describing: lexicalRank))")
        }
    }

    @Test func interestIsTheLargestWeightAmongTheWordsTopics() {
        let weights = SessionPlanner.interestWeights([("Food", 1), ("travel", 0.5), ("school", 0), ("home", 3)])
        #expect(weights == ["food": 1, "travel": 0.5, "home": 1], "lower case, clamped to 1, zero left out")
        #expect(SessionPlanner.interest(in: ["school", "travel", "food"], weights: weights) == 1)
        #expect(SessionPlanner.interest(in: ["travel", "work"], weights: weights) == 0.5)
        #expect(SessionPlanner.interest(in: ["work"], weights: weights) == 0)
        #expect(SessionPlanner.interest(in: [], weights: weights) == 0)
    }
}
