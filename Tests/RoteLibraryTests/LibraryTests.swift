import Foundation
import Launch
import RoteLibrary
import RoteModel
import RoteStore
import Scheduling
import Study
import StudyData
import TestSupport
import Testing

/// `Library` answers from the launch index and the few files an operation needs; every answer
/// must be the one the full load (every file parsed) gives.
/// Stamps are trusted at once (`.settledFileStamps`), as they would be two seconds later.
@Suite(.settledFileStamps) struct LibraryTests {
    /// Every id, every word form and every deck prefix resolves to the entry the full load
    /// has, with its status and progress file.
    static func expectSameAnswers(root: URL, user: String) throws {
        let library = try Library(root: root, user: user)
        let loaded = try LibraryLoader(users: .only(user), includeSessions: false).load(root)
        let full = LibraryIndex(library: loaded, user: user)
        #expect(try library.ids() == full.orderedIDs, "study order")
        #expect(library.deckOrder == loaded.deckOrder)
        for deck in loaded.deckOrder {
            #expect(try library.ids(inDeck: deck) == full.ids(inDeck: deck), "deck \(deck)")
        }
        let listed = full.orderedIDs.map {
            ListedEntry(id: $0, gloss: full.entries[$0]!.gloss, status: full.status(of: $0))
        }
        #expect(try library.list(deck: nil) == listed, "rote list")
        for deck in loaded.deckOrder {
            #expect(try library.list(deck: deck) == listed.filter { $0.id.hasPrefix(deck + "/") }, "rote list \(deck)")
        }
        for id in full.orderedIDs {
            let entry = try library.entry(named: id)
            #expect(entry == full.entries[id], "entry \(id)")
            #expect(library.status(of: entry) == full.status(of: id), "status of \(id)")
            #expect(library.progress(of: id) == full.progress[id], "progress of \(id)")
        }
        for (form, lemmas) in full.lemmasByForm {
            #expect(try library.entry(named: form).id == lemmas.first?.id, "form \(form)")
        }
        #expect(library.profile == loaded.profiles[user])
    }

    /// An interest weight a profile may say, 1e300 included, is shown without a trap in
    /// `Int(_:)` (issue #31, item 2).
    @Test func anInterestWeightPastIntsRangeIsShownAsItIs() {
        #expect(Library.weightText(3) == "3")
        #expect(Library.weightText(0.5) == "0.5")
        #expect(Library.weightText(1e300) == "1e+300")
    }

    @Test func answersAsTheFullLoadOnTheStarterLibrary() async throws {
        let directory = await StarterLibrary.copy()
        try LibraryTests.expectSameAnswers(root: directory.url, user: "demo")
    }

    @Test func answersAsTheFullLoadOnTheFixtureLibrary() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        try LibraryTests.expectSameAnswers(root: directory.url, user: "ana")
    }

    @Test func namesAFileThatDoesNotReadAndSuggestsNearIDs() async throws {
        let directory = await StarterLibrary.copy()
        let library = try Library(root: directory.url, user: "demo")
        do {
            _ = try library.entry(named: "english-a1/ru")
            Issue.record("a missing id resolved")
        } catch let error as LibraryError {
            #expect(error.code == .notFound)
            #expect(error.message.contains("did you mean english-a1/run"), "\(error.message)")
        }
        let broken = "corpus/english-a1/run.yaml"
        directory.write(broken, "word: run\npos: [verb\n")
        let reopened = try Library(root: directory.url, user: "demo")
        #expect(throws: LibraryError.self) { try reopened.entry(named: "english-a1/run") }
        do {
            _ = try reopened.entry(named: "english-a1/run")
        } catch let error as LibraryError {
            #expect(error.code == .unreadable)
            #expect(error.message.contains(broken), "\(error.message)")
        }
        #expect(try reopened.unreadableEntries().map(\.path) == [broken], "a list names what it leaves out")
        #expect(reopened.settings.read(deck: "english-a1").problems.map(\.path) == [broken], "so does a deck's export")
        #expect(try library.unreadableEntries().isEmpty)
        // A name never reaches a path outside the library.
        #expect(throws: LibraryError.self) { try library.entry(named: "../../rote") }
    }

    /// A list shows each word's translation from the index, so an edited translation must
    /// reach it through the index's delta, as the full load sees it.
    @Test func anEditedTranslationReachesTheList() async throws {
        let directory = await StarterLibrary.copy()
        try LibraryTests.expectSameAnswers(root: directory.url, user: "demo")
        let path = "corpus/english-a1/run.yaml"
        let text = try #require(directory.read(path))
        let translation = try #require(text.split(separator: "\n").first { $0.hasPrefix("translation:") })
        directory.write(path, text.replacingOccurrences(of: String(translation), with: "translation: يركض"))
        let listed = try Library(root: directory.url, user: "demo").list(deck: "english-a1")
        #expect(listed.first { $0.id == "english-a1/run" }?.gloss.contains("يركض") == true)
        try LibraryTests.expectSameAnswers(root: directory.url, user: "demo")
    }

    @Test func suffixFindsTheOneIDEndingWithIt() async throws {
        let directory = await StarterLibrary.copy()
        let library = try Library(root: directory.url, user: "demo")
        // A passage id's last part is no word form, so only the suffix rule finds it.
        let ids = try library.ids()
        let id = try #require(
            ids.first { id in
                id.hasPrefix("kjv/") && ids.filter { $0.hasSuffix("/" + id.split(separator: "/").last!) }.count == 1
            })
        let short = String(id.split(separator: "/").last!)
        #expect(throws: LibraryError.self) { try library.entry(named: short) }
        #expect(try library.entry(named: short, suffixes: true).id == id)
    }

    @Test func recordsAReviewOnceAndCommitsIt() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let library = try Library(root: directory.url, user: "ana")
        let entry = try library.entry(named: "words/run")
        let before = library.progress(of: entry.id)?.reviews.count ?? 0
        let now = Date()
        let first = try library.recordReview(of: entry, grade: .good, ms: 1200, reviewID: "app-1", now: now)
        guard case let .recorded(file) = first.outcome else {
            Issue.record("not recorded")
            return
        }
        #expect(file.reviews.count == before + 1)
        #expect(file.reviews.last?.id == "app-1")
        #expect(library.progress(of: entry.id) == file, "what was returned is what is on disk")
        let again = try library.recordReview(of: entry, grade: .again, ms: nil, reviewID: "app-1", now: now)
        guard case let .alreadyRecorded(earlier) = again.outcome else {
            Issue.record("recorded twice")
            return
        }
        #expect(earlier.grade == .good)
        #expect(
            await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout.isEmpty,
            "committed, nothing left over")
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: directory.url).stdout.hasPrefix("Study: 1 review"))
        // The next open sees the review through the index, as the full load does.
        try LibraryTests.expectSameAnswers(root: directory.url, user: "ana")
    }

    @Test func changesStatusesInOneCommit() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let library = try Library(root: directory.url, user: "ana")
        let entries = try ["words/run", "words/go"].map { try library.entry(named: $0) }
        let changed = try library.change(.status(.suspended), of: entries + entries, verb: "suspend")
        #expect(changed.map(\.entry.id) == ["words/run", "words/go"], "each entry once")
        let reopened = try Library(root: directory.url, user: "ana")
        for entry in entries { #expect(reopened.status(of: entry) == .suspended) }
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: directory.url).stdout
                == "Suspend: words/run, words/go\n"
        )
        let reset = try reopened.change(.reset, of: [entries[0]], verb: "reset")
        #expect(reset[0].file.resetAt != nil)
        try LibraryTests.expectSameAnswers(root: directory.url, user: "ana")
    }

    @Test func refusesToRewriteAProgressFileThatDoesNotRead() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let library = try Library(root: directory.url, user: "ana")
        let entry = try library.entry(named: "words/run")
        let path = library.paths.progress(entry.id)
        directory.write(path, "entry: words/run\nreviews:\n  - {id: a, at: not-a-time, grade: good}\n")
        #expect(throws: (any Error).self) { try library.recordReview(of: entry, grade: .good, ms: nil, reviewID: nil) }
        #expect(
            directory.read(path) == "entry: words/run\nreviews:\n  - {id: a, at: not-a-time, grade: good}\n",
            "left as it was")
    }
}

extension LibraryTests {
    /// Rote's own writes go into the launch index's delta as they are committed: the next
    /// launch's check finds nothing to read again. An outside edit of the same file after
    /// that is still caught.
    @Test func recordedWritesAreNotReadAgainButAnOutsideEditIs() async throws {
        let directory = await StarterLibrary.copy(git: .committed)
        let library = try Library(root: directory.url, user: "demo")
        _ = try library.launch()
        let entry = try library.entry(named: try #require(try library.ids(inDeck: "english-a1").last))
        for (number, grade) in [Grade.good, .hard].enumerated() {
            _ = try library.recordReview(of: entry, grade: grade, ms: 1500, reviewID: "recorded-\(number)")
        }
        let next = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        #expect(next.source == .verified, "nothing to read again: \(next.source)")
        let path = library.paths.progress(entry.id)
        let schedulers = DeckSchedulers(decks: next.decks, profile: next.profile)
        let onDisk = try #require(library.progress(of: entry.id))
        #expect(next.index.progressSummaries()[entry.id] == ProgressSummary(onDisk, schedulers: schedulers))

        let text = try #require(directory.read(path))
        directory.write(path, text.replacingOccurrences(of: "status: active", with: "status: suspended"))
        let edited = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        guard case .refreshed = edited.source else {
            Issue.record("after an outside edit: \(edited.source)")
            return
        }
        #expect(edited.index.progressSummaries()[entry.id]?.status == .suspended)
    }

    /// A study launch shows a plan from the cache while the check runs, and settles to the
    /// checked index, which has the files changed since the cache was saved.
    @Test func aLaunchCheckingAlongsideSettlesToTheCheckedIndex() async throws {
        let directory = await StarterLibrary.copy(git: .committed)
        let first = try Library(root: directory.url, user: "demo")
        let id = try #require(try first.ids(inDeck: "english-a1").first { first.progress(of: $0) != nil })
        let library = try Library(root: directory.url, user: "demo")
        let path = library.paths.progress(id)
        directory.write(
            path,
            try #require(directory.read(path)).replacingOccurrences(of: "status: active", with: "status: suspended"))
        let (cached, pending) = try library.launchCheckingAlongside(patience: 0)
        #expect(cached.source == .cache)
        let checked = try library.settle(try #require(pending))
        guard case .refreshed = checked.source else {
            Issue.record("after an edit: \(checked.source)")
            return
        }
        #expect(checked.index.progressSummaries()[id]?.status == .suspended)
        #expect(
            try library.launch().index.progressSummaries()[id]?.status == .suspended,
            "the library goes on with the checked index")
    }

    /// A review recorded through the library reaches the next process's stats: the changed
    /// progress file goes into the index's delta with its digest.
    @Test func aRecordedReviewReachesTheNextStats() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let utc = TimeZone(identifier: "UTC")!
        let now = Date()
        let before = try Library(root: directory.url, user: "ana").stats(now: now, timeZone: utc)
        let library = try Library(root: directory.url, user: "ana")
        _ = try library.recordReview(
            of: try library.entry(named: "words/run"), grade: .good, ms: 1200, reviewID: "stats-1", now: now)
        let after = try Library(root: directory.url, user: "ana").stats(now: now.addingTimeInterval(1), timeZone: utc)
        #expect(after.reviewsToday == before.reviewsToday + 1)
        #expect(after.currentStreak >= 1)
    }

    /// Stats read only the learner's files, and must equal what the full load gives.
    @Test func statsFromTheLearnersFilesEqualTheFullLoads() async throws {
        let directory = await StarterLibrary.copy()
        let loaded = try LibraryLoader(users: .only("demo"), includeSessions: true).load(directory.url)
        let profile = loaded.profiles["demo"]
        var settings: [String: SchedulerSettings] = [:]
        for (deck, manifest) in loaded.decks { settings[deck] = .forDeck(manifest, profile: profile, deckName: deck) }
        let utc = TimeZone(identifier: "UTC")!
        let library = try Library(root: directory.url, user: "demo")
        let skillDecks = Set(loaded.decks.filter { $0.value.kind == .skills }.keys)
        let questionIDs = loaded.entries.filter { skillDecks.contains($0.deck) }.map(\.id)
        // Across the demo learner's history, so every part (due, streaks, retention, skills) has something.
        let reviews = (loaded.progress["demo"] ?? [:]).values.flatMap(\.reviews).map(\.at)
        let first = try #require(reviews.min())
        let last = try #require(reviews.max())
        for now in stride(
            from: first.timeIntervalSince1970, through: last.timeIntervalSince1970 + 40 * 86_400, by: 9 * 86_400
        ).map(Date.init(timeIntervalSince1970:)) {
            var full = StudyStats(
                progress: Array((loaded.progress["demo"] ?? [:]).values), sessions: loaded.sessions["demo"] ?? [],
                profile: profile,
                settings: settings, now: now, timeZone: utc, skillDecks: skillDecks)
            full.countQuestions(questionIDs)
            #expect(try library.stats(now: now, timeZone: utc) == full, "at \(now)")
            // Days in a zone with daylight saving: the offset taken at each review.
            let newYork = TimeZone(identifier: "America/New_York")!
            var fullThere = StudyStats(
                progress: Array((loaded.progress["demo"] ?? [:]).values), sessions: loaded.sessions["demo"] ?? [],
                profile: profile,
                settings: settings, now: now, timeZone: newYork, skillDecks: skillDecks)
            fullThere.countQuestions(questionIDs)
            #expect(try library.stats(now: now, timeZone: newYork) == fullThere, "at \(now) in New York")
        }
        #expect(try library.stats(now: last, timeZone: utc).reviewsPerDay.reduce(0, +) > 0, "the history is used")
        #expect(
            try library.stats(now: last, timeZone: utc).skills["math/algebra/linear_equations"]?.attempts ?? 0 > 0,
            "skills are counted")
    }
}

extension LibraryTests {
    /// `rote letters` reads the letters deck's folder and the learner's attempts alone; what it
    /// reads must be the full load's.
    @Test func aDecksEntriesAndTheLearnersLetterAttemptsAreTheFullLoads() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        directory.write("profiles/ana/letters/letters/l.yaml", "letter: letters/l\nattempts: []\n")
        let loaded = try LibraryLoader(users: .only("ana"), includeSessions: false).load(directory.url)
        let library = try Library(root: directory.url, user: "ana")
        for deck in loaded.deckOrder {
            #expect(library.entries(inDeck: deck) == loaded.entries.filter { $0.deck == deck }, "deck \(deck)")
        }
        #expect(library.letterAttempts() == loaded.letterAttempts["ana"] ?? [:])
        #expect(!library.letterAttempts().isEmpty)
    }
}

@Suite struct LibrarySearchTests {
    @Test func searchFindsByIdOrGlossIgnoringCaseAndPages() async throws {
        let directory = await StarterLibrary.copy()
        let library = try Library(root: directory.url, user: "demo")
        let everything = try library.list(deck: nil)
        let expected = everything.filter { $0.id.lowercased().contains("run") || $0.gloss.lowercased().contains("run") }
        let found = try library.search(deck: nil, query: "RUN", offset: 0, limit: 1000)
        #expect(found.total == expected.count)
        #expect(found.page == expected)
        #expect(found.page.contains { $0.id == "english-a1/run" })
        let second = try library.search(deck: nil, query: "run", offset: 1, limit: 1)
        #expect(second.total == expected.count)
        #expect(second.page == Array(expected.dropFirst().prefix(1)))
        let deck = try library.search(deck: "kjv", query: "", offset: 0, limit: 1000)
        #expect(deck.page == everything.filter { $0.id.hasPrefix("kjv/") })
        #expect(try library.search(deck: nil, query: "zzqxj", offset: 0, limit: 10).total == 0)
    }
}
