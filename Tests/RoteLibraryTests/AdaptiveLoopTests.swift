import Foundation
import Launch
import RoteLibrary
import RoteModel
import RoteStore
import Scheduling
import Study
import TestSupport
import Testing

/// Seed 002's loop through `Library`: calibration and warm start, triage, reading, the daily
/// matrix, rank promotion — on a deck of its own (`lex`, 60 words of ranks 10…600).
@Suite struct AdaptiveLoopTests {
    static let count = 60

    /// `lex/w<n>`: word `w<n>`, rank 10·n, translation `t<n>`, root `r<n mod 7>` (and `r<k>`
    /// for k < 7 is the word `r<k>`, rank 5·k, heading its own family).
    static func deck() -> [String: String] {
        var files = [
            "rote.yaml": "format: 1\ndefault_user: ana\ndecks: [words, verses, letters, maths, lex]\n",
            "corpus/lex/deck.yaml": "kind: vocabulary\ntitle: Lex\nversion: 1.0.0\norder: rank\n",
        ]
        for n in 1...count {
            files["corpus/lex/w\(n).yaml"] =
                "word: w\(n)\npos: noun\ntranslation: t\(n)\nforms: {base: w\(n), plural: w\(n)s}\nrank: \(n * 10)\nroot: r\(n % 7)\nexamples:\n  - en: The {w\(n)} is here.\n    ar: ها هو\n    form: base\n    context: \(n % 5 == 0 ? "food" : "school")\n"
        }
        for k in 0..<7 {
            files["corpus/lex/r\(k).yaml"] =
                "word: r\(k)\npos: noun\ntranslation: root \(k)\nforms: {base: r\(k)}\nrank: \(5 * k + 1)\nroot: r\(k)\n"
        }
        return files
    }

    static func library(_ overrides: [String: String] = [:]) async throws -> (TemporaryDirectory, Library) {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory, overrides: deck().merging(overrides) { $1 })
        return (directory, try Library(root: directory.url, user: "ana"))
    }

    static func reopen(_ directory: TemporaryDirectory) throws -> Library {
        try Library(root: directory.url, user: "ana")
    }

    static func estimate(_ rank: Int) -> Calibration.Estimate {
        Calibration.Estimate(lexicalRank: rank, standardError: 20, logStandardError: 0.1, questions: 12)
    }

    static func progress(_ directory: TemporaryDirectory, _ entry: String) -> ProgressFile? {
        let path = "profiles/ana/progress/\(entry).yaml"
        return FileManager.default.contents(atPath: directory.url.appending(path: path).path).flatMap {
            ProgressFile.decode($0, path: path).0
        }
    }

    static func commits(_ directory: TemporaryDirectory) async -> [String] {
        await Shell.run("git", ["log", "--format=%s"], in: directory.url).stdout.split(separator: "\n").map(String.init)
    }

    @Test func calibrationItemsAreTheDecksRankedWords() async throws {
        let (directory, library) = try await Self.library()
        defer { withExtendedLifetime(directory) {} }
        let items = try library.calibrationItems(deck: "lex")
        #expect(items.count == Self.count + 7)
        #expect(items.contains(Calibration.Item(id: "lex/w3", word: "w3", rank: 30, translation: "t3")))
        #expect(throws: LibraryError.self) { try library.calibrationItems(deck: "verses") }
        #expect(throws: LibraryError.self) { try library.calibrationItems(deck: "nope") }
    }

    @Test func warmStartWritesSyntheticReviewsBelowHalfTheRankAndLeavesRealHistoryAlone() async throws {
        let real = """
            entry: lex/w5
            status: active
            reviews:
              - {id: real-1, at: 2026-11-01T09:00:00Z, grade: again}

            """
        let (directory, library) = try await Self.library(["profiles/ana/progress/lex/w5.yaml": real])
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        let outcome = try library.recordCalibration(
            Self.estimate(400), items: library.calibrationItems(deck: "lex"), now: now)
        // Ranks ≤ 200: w1…w20 and r0…r6, less w5 (real history).
        #expect(outcome.warmStarted == 20 - 1 + 7)
        #expect(outcome.lexicalRank == 400)
        let warmed = try #require(Self.progress(directory, "lex/w7"))
        #expect(
            warmed.reviews.count == 2
                && warmed.reviews.allSatisfy { $0.synthetic == "calibration" && $0.grade == .easy })
        let state = try #require(warmed.state)
        #expect(state.phase == .review)
        #expect(
            state.due > now.addingTimeInterval(20 * 86_400), "a warm-started word is known for weeks: due \(state.due)")
        #expect(Self.progress(directory, "lex/w21") == nil, "rank 210 is above half the rank")
        #expect(Self.progress(directory, "lex/w5")?.reviews.map(\.id) == ["real-1"])
        let reopened = try Self.reopen(directory)
        #expect(reopened.profile?.lexicalRank == 400)
        #expect(try reopened.status(of: reopened.entry(named: "lex/w7")) == .review)
        #expect(await Self.commits(directory).first == "Calibrate: lexical rank 400 ± 20, 26 words warm-started")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty)

        // A real review later takes over: replayed after the synthetic ones.
        let lapse = try reopened.recordReview(
            of: reopened.entry(named: "lex/w7"), grade: .again, ms: 900, reviewID: "r-lapse",
            now: now.addingTimeInterval(3600))
        guard case let .recorded(file) = lapse.outcome else {
            Issue.record("not recorded")
            return
        }
        #expect(file.reviews.count == 3)
        #expect(file.state?.phase == .relearning)
    }

    @Test func recalibratingReplacesAndUndoRemovesOnlySyntheticReviews() async throws {
        let (directory, library) = try await Self.library()
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        let items = try library.calibrationItems(deck: "lex")
        _ = try library.recordCalibration(Self.estimate(600), items: items, now: now)
        let first = try #require(Self.progress(directory, "lex/w2")).reviews.map(\.id)
        #expect(Self.progress(directory, "lex/w30") != nil)

        let again = try Self.reopen(directory)
        _ = try again.recordReview(
            of: again.entry(named: "lex/w2"), grade: .good, ms: 1000, reviewID: "real-w2",
            now: now.addingTimeInterval(60))
        let outcome = try again.recordCalibration(Self.estimate(200), items: items, now: now.addingTimeInterval(120))
        #expect(outcome.replaced == 2 * (30 + 7))
        #expect(
            Self.progress(directory, "lex/w30")?.reviews == [],
            "above the new limit: the old synthetic reviews are gone (the file stays, so a merge keeps the change)")
        #expect(try Self.reopen(directory).status(of: library.entry(named: "lex/w30")) == .new)
        let w2 = try #require(Self.progress(directory, "lex/w2"))
        #expect(
            w2.reviews.map(\.id) == ["real-w2"],
            "a word with a real review is not warm-started again; the old synthetic reviews are gone")
        #expect(Set(try #require(Self.progress(directory, "lex/w3")).reviews.map(\.id)).isDisjoint(with: first))

        let undone = try Self.reopen(directory).undoCalibration(now: now.addingTimeInterval(180))
        #expect(undone == 10 - 1 + 7)
        #expect(Self.progress(directory, "lex/w3")?.reviews == [])
        #expect(Self.progress(directory, "lex/w3")?.state == nil)
        #expect(Self.progress(directory, "lex/w2")?.reviews.map(\.id) == ["real-w2"])
        let after = try Self.reopen(directory)
        #expect(after.profile?.lexicalRank == nil)
        #expect(try after.status(of: after.entry(named: "lex/w3")) == .new)
        #expect(await Self.commits(directory).first == "Calibrate --undo: synthetic reviews of 16 words removed")
        #expect(try Self.reopen(directory).undoCalibration() == 0, "nothing left to undo")
    }

    @Test func newWordsCentreOnTheLexicalRank() async throws {
        let (directory, library) = try await Self.library()
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        let before = try library.launch().planner().plan(decks: ["lex"], limits: .init(newPerDay: 3), now: now)
        #expect(before.new.map(\.id) == ["lex/r0", "lex/r1", "lex/w1"], "without a rank: deck order (by rank)")
        _ = try library.recordCalibration(Self.estimate(400), items: library.calibrationItems(deck: "lex"), now: now)
        let after = try Self.reopen(directory).launch().planner().plan(
            decks: ["lex"], limits: .init(newPerDay: 3), now: now)
        #expect(after.new.map(\.id) == ["lex/w40", "lex/w41", "lex/w39"])
    }

    @Test func rankPromotionFollowsFastEasyAnswersAndLeavesSyntheticReviewsOut() async throws {
        let (directory, library) = try await Self.library()
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        // Warm-start reviews 11 days back are in the window, and must not count.
        _ = try library.recordCalibration(
            Self.estimate(200), items: library.calibrationItems(deck: "lex"), now: now.addingTimeInterval(-10 * 86_400))
        let studying = try Self.reopen(directory)
        for n in 21...44 {
            let at = now.addingTimeInterval(-Double(n % 4) * 86_400 - Double(n) * 60)
            _ = try studying.recordReview(
                of: studying.entry(named: "lex/w\(n)"), grade: n % 5 == 0 ? .good : .easy, ms: 1000, reviewID: "r\(n)",
                now: at)
        }
        let commits = await Self.commits(directory)
        let (outcome, before) = try Self.reopen(directory).rankPromotion(now: now)
        #expect(before == 200)
        #expect(outcome.easyRatingVelocity == 0.833, "20 easy of 24 real reviews")
        #expect(outcome.cycleCount == 4)
        #expect(outcome.lexicalRank == 430, "the 90th percentile of the easy words' ranks")
        #expect(await Self.commits(directory) == commits, "deriving it writes nothing")
        #expect(try Self.reopen(directory).profile?.lexicalRank == 200)

        // The next study session's commit writes it, from the reviews before the session.
        let start = try Self.reopen(directory).startStudy(
            decks: ["lex"], limits: StudyLimits(new: 30, reviewsPerDay: 0), now: now)
        try #require(!start.plan.isEmpty)
        let session = try start.session(typed: false, now: now)
        #expect(try StudyConsoleDriver(console: FirstChoiceConsole(answers: 4), now: { now }).run(session) != nil)
        start.close()
        let promoted = try Self.reopen(directory)
        #expect(
            promoted.profile?.lexicalRank == 430 && promoted.profile?.cycleCount == 4
                && promoted.profile?.easyRatingVelocity == 0.833)
        #expect(await Self.commits(directory).count == commits.count + 1)
        #expect(await Self.commits(directory).first?.hasPrefix("Study: ") == true)
    }

    /// Ignored and known words push their families (words beginning with them) back among
    /// new words: here `runner` behind the fixture learner's known `run`, then `action` and
    /// `actor` once `act` is ignored.
    @Test func ignoredAndKnownWordsPushTheirFamiliesBack() async throws {
        func word(_ word: String, _ rank: Int) -> String {
            "word: \(word)\npos: noun\ntranslation: x\(rank)\nforms: {base: \(word)}\nrank: \(rank)\n"
        }
        let (directory, library) = try await Self.library([
            "corpus/lex/act.yaml": word("act", 2), "corpus/lex/action.yaml": word("action", 3),
            "corpus/lex/actor.yaml": word("actor", 4),
            "corpus/lex/runner.yaml": word("runner", 5),
        ])
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        #expect(try library.status(of: library.entry(named: "words/run")) == .review)
        let first5 = try library.launch().planner().plan(decks: ["lex"], limits: .init(newPerDay: 5), now: now)
        #expect(
            first5.new.map(\.id) == ["lex/r0", "lex/act", "lex/action", "lex/actor", "lex/r1"],
            "runner (rank 5) waits behind the known run")
        _ = try library.ignoreWords(["act"])
        let after = try Self.reopen(directory).launch().planner().plan(
            decks: ["lex"], limits: .init(newPerDay: 4), now: now)
        #expect(after.new.map(\.id) == ["lex/r0", "lex/r1", "lex/w1", "lex/r2"])
    }

    @Test func ignoreAWordInNoDeckAddAndKnown() async throws {
        let (directory, library) = try await Self.library()
        #expect(try library.ignoreWords(["The", "of"]) == ["the", "of"])
        #expect(try Self.reopen(directory).ignoreWords(["the"]) == [])
        #expect(try Self.reopen(directory).profile?.ignoredWords.sorted() == ["of", "the"])

        // Ignoring a deck word by name, then adding it back.
        #expect(try Self.reopen(directory).ignoreWords(["w4"]) == ["w4"])
        var reopened = try Self.reopen(directory)
        #expect(try reopened.status(of: reopened.entry(named: "lex/w4")) == .ignored)
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        let added = try reopened.add([reopened.entry(named: "lex/w4")], now: now)
        #expect(added.first?.file.reviews.map(\.grade) == [.again])
        reopened = try Self.reopen(directory)
        #expect(reopened.profile?.ignoredWords.contains("w4") == false)
        #expect(try reopened.status(of: reopened.entry(named: "lex/w4")) == .learning)
        let plan = try reopened.launch().planner().plan(
            decks: ["lex"], limits: .init(newPerDay: 3), now: now.addingTimeInterval(3600))
        #expect(plan.due.first?.id == "lex/w4", "an added word comes first in the next session")

        let known = try reopened.markKnown(
            [reopened.entry(named: "lex/w9"), reopened.entry(named: "lex/w4")], now: now)
        #expect(known.map(\.changed) == [true, false])
        #expect(Self.progress(directory, "lex/w9")?.reviews.allSatisfy { $0.synthetic == "known" } == true)
        #expect(try Self.reopen(directory).status(of: reopened.entry(named: "lex/w9")) == .review)
        #expect(await Self.commits(directory).prefix(3) == ["Known: lex/w9", "Add: lex/w4", "Ignore: w4"])
    }

    @Test func readingGivesCoverageUnknownWordsByRankAndWordsInNoDeck() async throws {
        let (directory, library) = try await Self.library()
        let now = Date()
        _ = try library.markKnown([library.entry(named: "lex/w1"), library.entry(named: "lex/w2")], now: now)
        let reopened = try Self.reopen(directory)
        _ = try reopened.ignoreWords(["the"])
        let reading = try Self.reopen(directory).read("The w1 and w2s met w3, w10 — w3 again! 42 zork w1.")
        // Running words: the w1 and w2s met w3 w10 w3 again zork w1 → 11 (42 is a number).
        #expect(reading.runningWords == 11)
        #expect(reading.knownWords == 3, "w1 twice, w2s")
        #expect(abs(reading.coverage - 3.0 / 11) < 1e-9)
        #expect(reading.ignoredWords == 1)
        #expect(reading.unknown.map(\.word) == ["w3", "w10"])
        #expect(reading.unknown.first?.count == 2)
        #expect(reading.notInDeck.map(\.word) == ["again", "and", "met", "zork"])
        let w2s = try #require(reading.tokens.first { $0.text == "w2s" })
        #expect(w2s.lemma == "w2" && w2s.status == .review && w2s.rank == 20 && w2s.entry == "lex/w2")
        #expect(reading.tokens.map(\.text).joined() == "The w1 and w2s met w3, w10 — w3 again! 42 zork w1.")
        #expect(reading.mostUseful(1).map(\.word) == ["w3"])
    }

    @Test func anArticleMixesKnownAndTargetWordsStaysLocalUntilSaved() async throws {
        let (directory, library) = try await Self.library()
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        _ = try library.markKnown((1...5).map { try library.entry(named: "lex/w\($0)") }, now: now)
        _ = try Self.reopen(directory).recordCalibration(Self.estimate(100), items: [], now: now)
        let reopened = try Self.reopen(directory)
        let article = try #require(try reopened.composeArticle(now: now))
        #expect(article.targets == ["lex/w10", "lex/w11", "lex/w9", "lex/w12"])
        // The fixture's learner knows words/run (rank 157) too: known words of the highest rank come first.
        #expect(article.known == ["words/run", "lex/w5", "lex/w4", "lex/w3", "lex/w2"])
        #expect(
            article.body.hasPrefix("I run every day. The w10 is here. The w5 is here.\n\nThe w11 is here."),
            "\(article.body)")
        #expect(article.madeBy.contains("not written by a person or a language model"))
        #expect(article.targetRank == 100)
        #expect(article.id.hasPrefix("20261120-"))
        let local = ".git/rote/generated/\(article.id).yaml"
        #expect(FileManager.default.fileExists(atPath: directory.url.appending(path: local).path))
        #expect(
            await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty,
            "an unsaved article is never committed")
        #expect(reopened.generatedArticles() == [article])

        let saved = try reopened.saveArticle(id: article.id)
        #expect(saved.path == "profiles/ana/saved/\(article.id).yaml")
        #expect(await Self.commits(directory).first == "Save article: \(article.title)")
        let text = try String(contentsOf: directory.url.appending(path: saved.path), encoding: .utf8)
        #expect(GeneratedArticle.decode(text, path: saved.path).0 == article)
        #expect(reopened.generatedArticles().isEmpty)
        #expect(throws: LibraryError.self) { try reopened.saveArticle(id: article.id) }
        #expect(throws: LibraryError.self) { try reopened.saveArticle(id: "../x") }
    }

    @Test func theDailyMatrixIsFixedForADateAndFollowsTheRoots() async throws {
        let (directory, library) = try await Self.library()
        let date = Timestamp.parse("2026-11-25T08:00:00Z")!
        let utc = TimeZone(identifier: "UTC")!
        let matrix = try #require(try library.today(date: date, timeZone: utc))
        // 2026-11-25 is day 20 782; 20 782 mod 7 roots = 6 → r6 (roots in name order).
        #expect(matrix.day.epochDay == 20_782)
        #expect(matrix.day.root == "r6")
        #expect(matrix.root?.word.id == "lex/r6")
        #expect(matrix.satellites.count == 6)
        #expect(matrix.satellites.allSatisfy { $0.word.root == "r6" })
        // No lexical rank yet: centred on the root's own rank (31).
        #expect(matrix.satellites.map(\.word.id) == ["lex/w6", "lex/w13", "lex/w20", "lex/w27", "lex/w34", "lex/w41"])
        // Any time of that date, in that time zone, gives the same matrix; the next day, the next root.
        #expect(try library.today(date: date.addingTimeInterval(15 * 3600), timeZone: utc) == matrix)
        #expect(try library.today(date: date.addingTimeInterval(86_400), timeZone: utc)?.day.root == "r0")
        // A learner far along gets the family's rarer words.
        _ = try library.recordCalibration(Self.estimate(500), items: [], now: date)
        let later = try #require(try Self.reopen(directory).today(date: date, timeZone: utc))
        #expect(later.satellites.map(\.word.id).first == "lex/w48")
    }

    /// The roots come from the launch index, which must follow the files: an edited root, a
    /// new word (the index's delta) and a word whose root is taken away.
    @Test func theMatrixRootsFollowEditsThroughTheIndex() async throws {
        let (directory, library) = try await Self.library()
        let words = try library.rootWords()
        #expect(words.count == Self.count + 7)
        #expect(words.contains(DailyMatrix.Word(id: "lex/w3", word: "w3", rank: 30, root: "r3")))

        let folder = directory.url.appending(path: "corpus/lex")
        try "word: w3\npos: noun\ntranslation: t3\nforms: {base: w3}\nrank: 30\nroot: '  R5 '\n".write(
            to: folder.appending(path: "w3.yaml"), atomically: true, encoding: .utf8)
        try "word: Zeta\npos: noun\ntranslation: z\nforms: {base: Zeta}\nrank: 700\nroot: zeta\n".write(
            to: folder.appending(path: "zeta.yaml"), atomically: true, encoding: .utf8)
        try "word: w4\npos: noun\ntranslation: t4\nforms: {base: w4}\nrank: 40\n".write(
            to: folder.appending(path: "w4.yaml"), atomically: true, encoding: .utf8)
        let edited = try Self.reopen(directory).rootWords()
        #expect(
            edited.first { $0.id == "lex/w3" }?.root == "r5",
            "trimmed and lower-cased, as the daily matrix compares roots")
        #expect(edited.contains(DailyMatrix.Word(id: "lex/zeta", word: "zeta", rank: 700, root: "zeta")))
        #expect(!edited.contains { $0.id == "lex/w4" })
        // The matrix shows the entry's own spelling, not the index's normalised head word.
        let utc = TimeZone(identifier: "UTC")!
        let zetaDay = try #require(
            (0..<9).map { Timestamp.parse("2026-11-25T08:00:00Z")!.addingTimeInterval(Double($0) * 86_400) }
                .first { try Self.reopen(directory).today(date: $0, timeZone: utc)?.day.root == "zeta" })
        #expect(try Self.reopen(directory).today(date: zetaDay, timeZone: utc)?.root?.word.word == "Zeta")
    }

    /// Interests bring a topic's words nearer the rank: w45 (food) overtakes w38 and w43.
    @Test func interestsBringATopicsWordsNearer() async throws {
        let (directory, library) = try await Self.library()
        let now = Timestamp.parse("2026-11-20T10:00:00Z")!
        _ = try library.recordCalibration(Self.estimate(400), items: [], now: now)
        let plain = try Self.reopen(directory).launch().planner().plan(
            decks: ["lex"], limits: .init(newPerDay: 6), now: now)
        #expect(plain.new.map(\.id) == ["lex/w40", "lex/w41", "lex/w39", "lex/w42", "lex/w38", "lex/w43"])
        #expect(try Self.reopen(directory).topicCounts().map(\.topic) == ["school", "food"])

        let interests = try Self.reopen(directory).setInterests([("food", 1), ("travel", 0.5)])
        #expect(interests.map(\.0) == ["food", "travel"] && interests.map(\.1) == [1, 0.5])
        #expect(await Self.commits(directory).first == "Interests: food 1, travel 0.5")
        let keen = try Self.reopen(directory).launch().planner().plan(
            decks: ["lex"], limits: .init(newPerDay: 6), now: now)
        #expect(keen.new.map(\.id) == ["lex/w40", "lex/w41", "lex/w39", "lex/w42", "lex/w45", "lex/w38"])

        _ = try Self.reopen(directory).setInterests([("food", 0)])
        #expect(try Self.reopen(directory).profile?.interests.map(\.0) == ["travel"])
        #expect(throws: LibraryError.self) { try Self.reopen(directory).setInterests([("food", 1.5)]) }
        #expect(throws: LibraryError.self) { try Self.reopen(directory).setInterests([("two words", 1)]) }
    }
}

/// A learner who picks the first choice for `answers` questions, then stops (the end of input).
final class FirstChoiceConsole: StudyConsole {
    var answers: Int
    let isInteractive = false

    init(answers: Int) { self.answers = answers }

    func beginCard(done: Int, planned: Int, title: String) {}
    func show(_ text: String, style: TextStyle) {}
    func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply? {
        guard answers > 0 else { return nil }
        answers -= 1
        return ConsoleReply.parse(line: "1")
    }
}
