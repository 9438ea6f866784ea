public import Foundation
import Launch
import Parallelism
import RoteModel
public import RoteStore
public import Study
import StudyData

/// A word of the daily matrix with what a screen shows of it.
public struct MatrixWord: Sendable, Equatable {
    public var word: DailyMatrix.Word
    public var translation: String
    public var status: LibraryIndex.Status
}

/// The daily matrix as `rote today` shows it.
public struct TodayMatrix: Sendable, Equatable {
    public var day: DailyMatrix.Day
    public var root: MatrixWord?
    public var satellites: [MatrixWord]
}

extension Library {
    /// Every vocabulary word with a `root:`, from the launch index, which keeps each word's
    /// root beside its rank: reading them from the files took seconds at 100k entries. The
    /// word is the index's normalised head word; `today` shows the entry's own spelling.
    public func rootWords() throws -> [DailyMatrix.Word] {
        let index = try launch().index
        var words: [DailyMatrix.Word] = []
        for number in 0..<index.entryCount {
            guard let root = index.root(ofEntry: number), let headword = index.headword(ofEntry: number) else {
                continue
            }
            words.append(
                DailyMatrix.Word(
                    id: index.id(ofEntry: number), word: headword, rank: index.rank(ofEntry: number), root: root))
        }
        return words
    }

    /// The day's root and six satellites for the calendar date `date` falls on in
    /// `timeZone` (`DailyMatrix`), centred on `lexicalRank` when given (a promoted rank,
    /// `rankPromotion`), else on the profile's; nil when no word has a root.
    public func today(date: Date = Date(), timeZone: TimeZone = .current, lexicalRank: Int? = nil) throws
        -> TodayMatrix?
    {
        let words = try rootWords()
        guard
            let day = DailyMatrix.day(
                DailyMatrix.epochDay(of: date, timeZone: timeZone), words: words,
                lexicalRank: lexicalRank ?? profile?.lexicalRank)
        else {
            return nil
        }
        func shown(_ word: DailyMatrix.Word) throws -> MatrixWord {
            guard let entry = try? entry(named: word.id), case let .vocabulary(vocabulary) = entry.content else {
                return MatrixWord(word: word, translation: "", status: .new)
            }
            var shownWord = word
            shownWord.word = vocabulary.word
            return MatrixWord(word: shownWord, translation: vocabulary.translation, status: status(of: entry))
        }
        return TodayMatrix(day: day, root: try day.rootWord.map(shown), satellites: try day.satellites.map(shown))
    }

    /// The real reviews (synthetic ones left out) of ranked words in rank promotion's window
    /// before `now`, from the review marks the launch index keeps for every progress file:
    /// reading the files took seconds at 100k entries. Every review in the window counts, as
    /// in `rote stats`, one before a reset too: it was the learner's answer all the same.
    func promotionReviews(now: Date) throws -> [RankPromotion.Review] {
        let index = try launch().index
        let start = now.addingTimeInterval(-Double(RankPromotion.windowDays) * 86_400)
        let recent = index.foldProgressDigests(into: { [(id: String, marks: [ReviewDigest.Mark])]() }) { found, row in
            guard let marks = row.marks, let last = marks.last, last.at > start else { return }
            let inWindow = marks.filter { !$0.synthetic && $0.at > start && $0.at <= now }
            if !inWindow.isEmpty { found.append((row.id, inWindow)) }
        }.flatMap { $0 }
        guard !recent.isEmpty else { return [] }
        // Ranks from the index; only ranked (vocabulary) entries have one.
        let wanted = Set(recent.map(\.id))
        var ranks: [String: Int] = [:]
        for number in 0..<index.entryCount {
            guard let rank = index.rank(ofEntry: number) else { continue }
            let id = index.id(ofEntry: number)
            if wanted.contains(id) { ranks[id] = rank }
        }
        return recent.sorted { $0.id < $1.id }.flatMap { row in
            ranks[row.id].map { rank in row.marks.map { RankPromotion.Review(rank: rank, grade: $0.grade, at: $0.at) } }
                ?? []
        }
    }

    /// Rank promotion (`RankPromotion`) over the learner's reviews before `now`, and the rank
    /// the profile holds. Only derived: a command that only looks (`rote today`) never writes
    /// (issue #32); the next study session's commit writes it (`promoted(_:now:)`, which
    /// `StudyStart` hands its runner).
    public func rankPromotion(now: Date = Date()) throws -> (outcome: RankPromotion.Outcome, before: Int?) {
        try requireProfile()
        let outcome = RankPromotion.apply(
            reviews: try promotionReviews(now: now), lexicalRank: profile?.lexicalRank, now: now)
        return (outcome, profile?.lexicalRank)
    }

    /// `profile` with rank promotion's fields as of `now` (`easy_rating_velocity`,
    /// `cycle_count` and, when easy ratings come fast, `lexical_rank`); nil when none of them
    /// changes. Promotion never lowers the rank and applying it twice changes nothing more, so
    /// a profile that went on without it (another device, an older Rote) loses nothing.
    func promoted(_ profile: Profile, now: Date) throws -> Profile? {
        let outcome = RankPromotion.apply(
            reviews: try promotionReviews(now: now), lexicalRank: profile.lexicalRank, now: now)
        guard
            profile.easyRatingVelocity != outcome.easyRatingVelocity || (profile.cycleCount ?? 0) != outcome.cycleCount
                || profile.lexicalRank != outcome.lexicalRank
        else { return nil }
        var updated = profile
        updated.easyRatingVelocity = outcome.easyRatingVelocity
        // No field for "none yet" written until a day of study gives one.
        updated.cycleCount = outcome.cycleCount == 0 && updated.cycleCount == nil ? nil : outcome.cycleCount
        updated.lexicalRank = outcome.lexicalRank
        updated.updatedAt = Timestamp.wholeSeconds(now)
        return updated
    }
}
