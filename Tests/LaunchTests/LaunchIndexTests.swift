import Foundation
import Testing
import TestSupport
@testable import Launch
import Git
import RoteModel
import RoteStore
import RoteLibrary
import Study
import StudyData

/// The launch index must answer exactly what the full load answers, notice every change to
/// the files behind it, and never trust a damaged cache.
/// Stamps are trusted at once (`.settledFileStamps`): a cache built just after the files
/// were written is settled, as it would be two seconds later.
@Suite(.settledFileStamps) struct LaunchIndexTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// The starter library with its launch index built and settled, the cache file and its
    /// bytes as built.
    static func settledLibrary() throws -> (directory: TemporaryDirectory, cache: URL, base: Data) {
        let directory = StarterLibrary.copy()
        _ = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        let cache = try #require(LibraryLaunch.cacheURL(root: directory.url, user: "demo"))
        return (directory, cache, try Data(contentsOf: cache))
    }

    static func fullPlan(_ root: URL, user: String, now: Date, limits: SessionPlanner.Limits, decks: [String] = []) throws -> SessionPlan {
        let library = try LibraryLoader(users: .only(user), includeSessions: false).load(root)
        return SessionPlanner(library: library, index: LibraryIndex(library: library, user: user)).plan(decks: decks, limits: limits, now: now, timeZone: utc)
    }

    @Test func plansLooksUpAndReportsStatusesExactlyAsTheFullLoad() throws {
        let directory = StarterLibrary.copy()
        let launch = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        try LaunchIndexTests.expectSameAnswers(launch, asTheFullLoadOf: directory.url)
    }

    /// Every answer the index gives — study order, each form's lemmas and lookup, each
    /// entry's status, plans over two months of the demo learner's history with and without
    /// limits — must be the full load's.
    static func expectSameAnswers(_ launch: LibraryLaunch, asTheFullLoadOf root: URL, days: StrideThrough<Int> = stride(from: 0, through: 60, by: 3)) throws {
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let full = LibraryIndex(library: library, user: "demo")
        #expect(launch.index.entryCount == library.entries.count)
        #expect((0..<launch.index.entryCount).map(launch.index.id(ofEntry:)) == library.entries.map(\.id), "study order")

        // Every form of every word: the same lemmas, most frequent first, and the same status.
        #expect(!full.lemmasByForm.isEmpty)
        for form in full.lemmasByForm.keys {
            let numbers = launch.index.lemmas(of: form)
            #expect(numbers.map(launch.index.id(ofEntry:)) == full.lemmas(of: form).map(\.id), "form \(form)")
            let lookup = try #require(launch.index.lookUp(form))
            let expected = try #require(full.lookUp(form))
            #expect(launch.index.id(ofEntry: lookup.entry) == expected.lemma.id && lookup.rank == expected.lemma.rank && lookup.status == expected.status, "form \(form)")
        }
        #expect(launch.index.lookUp("Ran,") != nil, "tokens from running text are normalised")
        #expect(launch.index.lookUp("no-such-word") == nil)
        for number in 0..<launch.index.entryCount {
            let id = launch.index.id(ofEntry: number)
            #expect(launch.index.status(ofEntry: number) == full.status(of: id), "\(id)")
            if case let .vocabulary(word) = library.entries[number].content { #expect(launch.index.rank(ofEntry: number) == word.rank, "\(id)") }
        }
        // Summaries and digests as the parsed files give them, replayed with the decks' schedulers.
        let schedulers = DeckSchedulers(decks: library.decks, profile: full.profile)
        #expect(launch.index.progressSummaries() == full.progress.mapValues { ProgressSummary($0, schedulers: schedulers) })

        let start = Timestamp.parse("2026-11-01T08:00:00Z")!
        for day in days {
            let now = start.addingTimeInterval(Double(day) * 86_400 + 3_600 * Double(day % 7))
            for limits in [SessionPlanner.Limits.from(full.profile), .init(reviewsPerDay: 3, newPerDay: 2, workingSet: 4, minutes: 5), .init(drafts: true)] {
                let expected = SessionPlanner(library: library, index: full).plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc)
                let planned = launch.planner().plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc)
                #expect(planned.due == expected.due && planned.new == expected.new, "day \(day)")
                #expect(planned.dueTotal == expected.dueTotal && planned.reviewedToday == expected.reviewedToday && planned.introducedToday == expected.introducedToday)
            }
        }
    }

    /// A launch that takes a while says so, and says when it is done; a quick one is quiet.
    @Test func aSlowLaunchIsAnnouncedAndAQuickOneIsQuiet() throws {
        let directory = StarterLibrary.copy()
        final class Lines: @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
            func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        }
        let cold = Lines()
        // No patience at all: even the starter library's first launch is announced.
        let launch = try LibraryLaunch.openVerified(root: directory.url, user: "demo", patience: 0, progress: cold.add)
        guard case .rebuilt = launch.source else { Issue.record("first launch: \(launch.source)"); return }
        #expect(cold.lines.count == 2)
        #expect(cold.lines.first?.hasPrefix("Indexing the library for demo") == true)
        #expect(cold.lines.last?.hasPrefix("Indexed \(launch.index.entryCount) entries from \(launch.index.fileCount) files in ") == true)
        let warm = Lines()
        _ = try LibraryLaunch.openVerified(root: directory.url, user: "demo", patience: 60, progress: warm.add)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(warm.lines.isEmpty)
    }

    @Test func aWarmLaunchMapsTheCacheAndTheStatCheckConfirmsIt() throws {
        let directory = StarterLibrary.copy()
        let first = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        guard case .rebuilt = first.source else { Issue.record("first launch: \(first.source)"); return }
        let cache = try #require(LibraryLaunch.cacheURL(root: directory.url, user: "demo"))
        #expect(FileManager.default.fileExists(atPath: cache.path))
        #expect(cache.path.hasSuffix(".git/rote/launch-demo.index"))

        let warm = try LibraryLaunch.open(root: directory.url, user: "demo")
        #expect(warm.source == .cache)
        #expect(try warm.verifyInBackground().wait().source == .verified)
        // Another learner, or the same files at another path, get their own index.
        #expect(try LibraryLaunch.open(root: directory.url, user: "someone-else").source != .cache)
    }

    /// The encoder lays the file records out beside the rest, with their own strings moved
    /// after the others: every row must come back as it went in.
    @Test func rowsComeBackOutOfTheIndexAsTheyWentIn() throws {
        let directory = StarterLibrary.copy()
        let (rows, _) = try LaunchRows.read(root: directory.url, user: "demo")
        #expect(rows.files.count > 100 && rows.entries.count > 100)
        let back = try LaunchIndex(rows: rows).rows()
        #expect(back.files == rows.files)
        #expect(back.entries == rows.entries)
        #expect(back.progress == rows.progress)
        #expect(back.settings == rows.settings)
    }

    /// Entries are laid out in runs on every core, each writing final offsets: however they
    /// are split, the index is the same to the byte.
    @Test func theIndexIsTheSameHoweverTheEntriesAreSplitIntoRuns() throws {
        let directory = StarterLibrary.copy()
        let (rows, _) = try LaunchRows.read(root: directory.url, user: "demo")
        #expect(rows.entries.count > 100 && !rows.progress.isEmpty)
        func bytes(_ runs: Int) -> [UInt8] {
            let file = LaunchIndex.encode(rows, runs: runs)
            return Array(file.reader.bytes(0, file.reader.count))
        }
        let whole = bytes(1)
        for runs in [2, 7, 16, rows.entries.count + 3] {
            let split = bytes(runs)
            let difference = zip(split, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(split.count == whole.count && difference == nil, "\(runs) runs: \(split.count) bytes against \(whole.count), first difference at \(String(describing: difference))")
        }
        #expect(try LaunchIndex(storage: LaunchIndex.encode(rows, runs: 7)).rows().entries == rows.entries)
    }

    /// One listing serves the scope and the loader, so a link is followed by the loader's
    /// rule in both: to a file inside the library, never out of it or into a folder.
    @Test func theScopeFollowsLinksAsTheLoaderDoes() throws {
        let directory = StarterLibrary.copy()
        let outside = TemporaryDirectory()
        outside.write("secret.yaml", "word: secret\npos: noun\ntranslation: سر\nforms: {singular: secret}\n")
        let files = FileManager.default, words = directory.url.appending(path: "corpus/english-a1")
        let word = try #require(try files.contentsOfDirectory(atPath: words.path).sorted().first { $0.hasSuffix(".yaml") && $0 != "deck.yaml" })
        try files.createSymbolicLink(at: words.appending(path: "leak.yaml"), withDestinationURL: outside.url.appending(path: "secret.yaml"))
        try files.createSymbolicLink(at: words.appending(path: "linked"), withDestinationURL: outside.url)
        try files.createSymbolicLink(at: words.appending(path: "zz-alias.yaml"), withDestinationURL: words.appending(path: word))

        let scope = FileCheck.scope(root: directory.url.path, user: "demo")
        #expect(scope.paths == scope.paths.sorted())
        #expect(scope.paths.first == "corpus/" && scope.paths.last == "rote.yaml" && scope.paths.contains("profiles/demo/"))
        #expect(scope.paths.contains("corpus/english-a1/zz-alias.yaml"))
        #expect(!scope.paths.contains { $0.hasPrefix("corpus/english-a1/leak") || $0.hasPrefix("corpus/english-a1/linked") })
        let (rows, _) = try LaunchRows.read(root: directory.url, user: "demo")
        let full = try LibraryLoader(users: .only("demo"), includeSessions: false).load(directory.url)
        #expect(Set(rows.entries.map(\.id)) == Set(full.entries.map(\.id)))
        #expect(rows.entries.contains { $0.id == "english-a1/zz-alias" })
        #expect(full.errors.contains { $0.path == "corpus/english-a1/leak.yaml" && $0.message.contains("outside the library") })
    }

    /// A cold launch lists the scope before the loader lists and reads; what only one of them
    /// saw must not be recorded as read. An entry the loader never listed (it appeared in
    /// between) is recorded as unknown, so the next launch reads it; a folder and the
    /// manifests keep the stamps taken before anything was read; a file the loader does not
    /// read is stat'ed.
    @Test func aFileTheLoaderDidNotListIsReadAtTheNextLaunch() throws {
        let directory = StarterLibrary.copy()
        let root = directory.url.path
        var scope = FileCheck.scope(root: root, user: "demo")
        let word = try #require(scope.paths.first { $0.hasPrefix("corpus/english-a1/") && $0.hasSuffix(".yaml") && !$0.hasSuffix("/deck.yaml") })
        let folder = "corpus/english-a1/", oddName = "corpus/english-a1/Odd Name.yaml"
        try Data("word: odd\n".utf8).write(to: directory.url.appending(path: oddName))
        scope.paths = (scope.paths + [oddName]).sorted()
        let early = try #require(scope.stamps[folder])
        // The folder, the odd file and the word, as if the loader had read nothing; stamps
        // counted as settled (none racy).
        let asked = [folder, oddName, word]
        let records = LaunchRows.records(
            root: root, scope: (asked, scope.stamps), read: Array(repeating: nil, count: asked.count), since: FileCheck.now() + 10_000_000_000, gitStamps: IndexStamps())
        let byPath = Dictionary(uniqueKeysWithValues: records.map { ($0.path, $0) })
        #expect(byPath[folder]?.stamp == early)
        #expect(byPath[word]?.stamp == .unknown)
        #expect(byPath[oddName]?.role == .configuration)
        #expect(byPath[oddName]?.stamp != .unknown)
        #expect(scope.stamps["rote.yaml"] != nil && scope.stamps["corpus/english-a1/deck.yaml"] != nil)
    }

    @Test func uncommittedEditsAddedAndRemovedFilesAreSeenAndGoIntoTheDelta() throws {
        let directory = StarterLibrary.copy()
        let root = directory.url
        let progressPath = "profiles/demo/progress/english-a1/" + (try #require(FileManager.default.subpathsOfDirectory(atPath: root.appending(path: "profiles/demo/progress/english-a1").path)
            .sorted().first { $0.hasSuffix(".yaml") }))
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")

        // Suspend an entry by hand (not committed), remove another's history, start a new one.
        let text = try #require(directory.read(progressPath))
        directory.write(progressPath, text.replacingOccurrences(of: "status: active", with: "status: suspended"))
        let removed = "profiles/demo/progress/kjv/" + (try #require(FileManager.default.subpathsOfDirectory(atPath: root.appending(path: "profiles/demo/progress/kjv").path)
            .sorted().first { $0.hasSuffix(".yaml") }))
        directory.remove(removed)
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let before = LibraryIndex(library: library, user: "demo")
        // A new entry: no progress file, and not a word the learner ignores (`ignored_words`).
        let fresh = try #require(library.entries.first { $0.deck == "english-a1" && before.progress[$0.id] == nil && before.status(of: $0.id) == .new })
        directory.write("profiles/demo/progress/\(fresh.id).yaml", """
            entry: \(fresh.id)
            status: active
            state: {phase: learning, step: 0, stability: 2.3, difficulty: 6.4, due: 2026-11-02T09:10:00Z, reps: 1, lapses: 0, last_review: 2026-11-02T09:00:00Z}
            reviews:
              - {id: fresh-1, at: 2026-11-02T09:00:00Z, grade: good, ms: 3100, device: laptop}

            """)

        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = launch.source else { Issue.record("after edits: \(launch.source)"); return }
        let cache = try #require(LibraryLaunch.cacheURL(root: root, user: "demo"))
        #expect(FileManager.default.fileExists(atPath: LibraryLaunch.deltaURL(cache).path), "progress changes go into the delta")
        let full = LibraryIndex(library: try LibraryLoader(users: .only("demo"), includeSessions: false).load(root), user: "demo")
        for number in 0..<launch.index.entryCount {
            let id = launch.index.id(ofEntry: number)
            #expect(launch.index.status(ofEntry: number) == full.status(of: id), "\(id)")
        }
        #expect(full.status(of: fresh.id) == .learning)
        // The delta carries each changed file's digest, which stats read, from the delta file too.
        let schedulers = DeckSchedulers(decks: launch.decks, profile: launch.profile)
        let digests = full.progress.mapValues { ProgressSummary($0, schedulers: schedulers) }
        #expect(launch.index.progressSummaries() == digests)
        #expect(try LibraryLaunch.open(root: root, user: "demo").index.progressSummaries() == digests)
        #expect(digests[fresh.id]?.digest?.marks.map(\.grade) == [.good])
        let now = Timestamp.parse("2026-11-02T12:00:00Z")!
        let limits = SessionPlanner.Limits(minutes: 30)
        let expected = try LaunchIndexTests.fullPlan(root, user: "demo", now: now, limits: limits)
        let reopened = try LibraryLaunch.open(root: root, user: "demo")
        #expect(reopened.source == .cache, "the delta applies to the base it names")
        for planned in [launch.planner().plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc),
                        reopened.planner().plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc)] {
            #expect(planned.due == expected.due && planned.new == expected.new && planned.reviewedToday == expected.reviewedToday)
        }
    }

    /// Digests are replays with the decks' schedulers: a profile that changes them (here the
    /// desired retention) makes every digest stale, so the index is built again, and the
    /// digests are the new settings' replays.
    @Test func newSchedulerSettingsRebuildTheDigests() throws {
        let directory = StarterLibrary.copy()
        let root = directory.url
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        let profilePath = LibraryPaths(user: "demo").profile
        let text = try #require(directory.read(profilePath))
        let changed = text.contains("desired_retention:")
            ? text.replacingOccurrences(of: #"desired_retention: [0-9.]+"#, with: "desired_retention: 0.8", options: .regularExpression)
            : text.replacingOccurrences(of: "settings:\n", with: "settings:\n  desired_retention: 0.8\n")
        #expect(changed != text, "the demo profile has settings to change")
        directory.write(profilePath, changed)
        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .rebuilt = launch.source else { Issue.record("after new scheduler settings: \(launch.source)"); return }
        #expect(launch.profile?.settings.desiredRetention == 0.8)
        let full = LibraryIndex(library: try LibraryLoader(users: .only("demo"), includeSessions: false).load(root), user: "demo")
        let schedulers = DeckSchedulers(decks: launch.decks, profile: launch.profile)
        #expect(launch.index.progressSummaries() == full.progress.mapValues { ProgressSummary($0, schedulers: schedulers) })
        // Another edit of the profile that leaves the schedulers alone stays in the delta.
        directory.write(profilePath, changed + "# a note\n")
        let noted = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = noted.source else { Issue.record("after a note in the profile: \(noted.source)"); return }
    }

    @Test func anEditedEntryIsReadAgainAndItsFormsFollow() throws {
        let directory = StarterLibrary.copy()
        let root = directory.url
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let word = try #require(library.entries.first { if case .vocabulary = $0.content { return true } else { return false } })
        #expect(try LibraryLaunch.openVerified(root: root, user: "demo").index.lookUp("zorblinglyextraordinary") == nil)
        let text = try #require(directory.read(word.path))
        // An edit where the index does not look (the translation) only moves the stamp: the
        // base stays as it is, the delta takes the new stamp.
        let cache = try #require(LibraryLaunch.cacheURL(root: root, user: "demo"))
        let base = try Data(contentsOf: cache)
        directory.write(word.path, text.replacingOccurrences(of: "translation: ", with: "translation: (edited) "))
        #expect(directory.read(word.path) != text, "the fixture entry has a translation")
        let afterTranslation = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = afterTranslation.source else { Issue.record("after a translation edit: \(afterTranslation.source)"); return }
        #expect(try Data(contentsOf: cache) == base && FileManager.default.fileExists(atPath: LibraryLaunch.deltaURL(cache).path))
        guard case let .vocabulary(edited)? = afterTranslation.entry(id: word.id)?.content else { Issue.record("entry unreadable"); return }
        #expect(edited.translation.hasPrefix("(edited) "), "a card reads its file, not the index")
        directory.write(word.path, text.replacingOccurrences(of: "forms: {", with: "forms: {adverb: zorblinglyextraordinary, "))
        #expect(directory.read(word.path) != text, "the fixture entry has a forms mapping")

        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        // Longer than a slot keeps inline: matched through the lemma's own forms.
        let found = try #require(launch.index.lookUp("zorblinglyextraordinary"))
        #expect(launch.index.id(ofEntry: found.entry) == word.id)
        #expect(launch.index.lookUp("zorblinglyextraordinarx") == nil && launch.index.lookUp("zorblinglyextraordinar") == nil)
        #expect(try LibraryLaunch.open(root: root, user: "demo").index.lookUp("Zorblinglyextraordinary!") != nil, "saved as a new base")
    }

    /// Entries re-ranked, given new forms, added and removed go into the delta — the base
    /// file stays as it is — and the index still answers exactly as the full load, from the
    /// delta just written, from the delta read back, and after more changes on top.
    @Test func reRankedAddedAndRemovedEntriesGoIntoTheDelta() throws {
        let (directory, cache, base) = try LaunchIndexTests.settledLibrary()
        let root = directory.url
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let full = LibraryIndex(library: library, user: "demo")
        let words = library.entries.filter { if case .vocabulary = $0.content { return true } else { return false } }
        let studied = words.filter { full.progress[$0.id] != nil }, unstudied = words.filter { full.progress[$0.id] == nil }
        try #require(studied.count >= 3 && unstudied.count >= 4)

        // A studied word moves to the front, an unstudied one to the back, one gets a form
        // another word has, a studied word's file goes, and a new word arrives with progress.
        func edit(_ entry: Entry, _ change: (String) -> String) throws {
            let text = try #require(directory.read(entry.path))
            let changed = change(text)
            #expect(changed != text, "\(entry.path)")
            directory.write(entry.path, changed)
        }
        func rank(_ value: Int) -> (String) -> String {
            { $0.replacingOccurrences(of: #"(?m)^rank: \d+$"#, with: "rank: \(value)", options: .regularExpression) }
        }
        try edit(studied[0], rank(1))
        try edit(unstudied[0], rank(999_999))
        let sharedForm = try #require(full.lemmasByForm.first { $0.value.count == 1 && $0.value.first?.id != unstudied[1].id && $0.key.allSatisfy { $0 >= "a" && $0 <= "z" } }?.key)
        try edit(unstudied[1], { $0.replacingOccurrences(of: "forms: {", with: "forms: {other: \(sharedForm), ") })
        directory.remove(studied[1].path)
        let newWord = try #require(directory.read(unstudied[2].path))
            .replacingOccurrences(of: #"(?m)^word: .*$"#, with: "word: zorbling", options: .regularExpression)
            .replacingOccurrences(of: #"(?m)^rank: \d+$"#, with: "rank: 2", options: .regularExpression)
        directory.write("corpus/english-a1/zorbling.yaml", newWord)
        directory.write("profiles/demo/progress/english-a1/zorbling.yaml", """
            entry: english-a1/zorbling
            status: active
            state: {phase: review, stability: 12.5, difficulty: 4.2, due: 2026-11-20T09:00:00Z, reps: 3, lapses: 0, last_review: 2026-11-08T09:00:00Z}
            reviews:
              - {id: z-1, at: 2026-11-08T09:00:00Z, grade: good, ms: 2100, device: laptop}

            """)

        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = launch.source else { Issue.record("after entry edits: \(launch.source)"); return }
        #expect(try Data(contentsOf: cache) == base, "the base is left as it is")
        #expect(launch.index.overlay.removedEntries.count == 4 && launch.index.overlay.addedEntries.count == 4)
        let days = stride(from: 0, through: 30, by: 10)
        try LaunchIndexTests.expectSameAnswers(launch, asTheFullLoadOf: root, days: days)
        #expect(launch.index.lookUp("zorbling").map { launch.index.status(ofEntry: $0.entry) } == .review)
        let reopened = try LibraryLaunch.open(root: root, user: "demo")
        #expect(reopened.source == .cache, "the delta applies to the base it names")
        try LaunchIndexTests.expectSameAnswers(reopened, asTheFullLoadOf: root, days: days)

        // On top of the delta: the removed word comes back, the new one is studied again and
        // re-ranked, the moved one moves back.
        Shell.run("git", ["checkout", "--", studied[1].path, studied[0].path], in: root)
        directory.write("corpus/english-a1/zorbling.yaml", newWord.replacingOccurrences(of: "rank: 2\n", with: "rank: 3\n"))
        directory.remove("profiles/demo/progress/english-a1/zorbling.yaml")
        let again = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = again.source else { Issue.record("after more edits: \(again.source)"); return }
        #expect(try Data(contentsOf: cache) == base)
        #expect(again.index.overlay.removedEntries.count == 2 && again.index.overlay.addedEntries.count == 3, "undone edits are the base's entries again")
        try LaunchIndexTests.expectSameAnswers(again, asTheFullLoadOf: root, days: days)
        #expect(again.index.lookUp("zorbling").map { again.index.status(ofEntry: $0.entry) } == .new)
        try LaunchIndexTests.expectSameAnswers(try LibraryLaunch.open(root: root, user: "demo"), asTheFullLoadOf: root, days: days)

        // An edit written by rename moves its folder's stamp without adding a file: the
        // folder's names are counted, not looked through.
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        let renamed = try #require(directory.read(unstudied[3].path))
        try Data(renamed.replacingOccurrences(of: #"(?m)^rank: \d+$"#, with: "rank: 4", options: .regularExpression).utf8)
            .write(to: root.appending(path: unstudied[3].path), options: .atomic)
        let afterRename = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = afterRename.source else { Issue.record("after a rename: \(afterRename.source)"); return }
        try LaunchIndexTests.expectSameAnswers(afterRename, asTheFullLoadOf: root, days: days)

        // Folded into a new base, the answers stay the same.
        let folded = try LibraryLaunch(root: root, user: "demo", index: LaunchIndex(rows: afterRename.index.rows()), decks: afterRename.decks, profile: afterRename.profile, source: .verified)
        try LaunchIndexTests.expectSameAnswers(folded, asTheFullLoadOf: root, days: days)
    }

    /// Settings files: a change the index does not see (a deck's version, a profile's
    /// limits) goes into the delta; new ignored words or a new deck order fold into a new
    /// base from the index's own rows; a change only a full load settles (letters or skills
    /// configuration, a deck of another kind) rebuilds it. Every answer stays the full load's.
    @Test func settingsChangesArePatchedWhereTheIndexCanAndRebuiltWhereItCannot() throws {
        let (directory, cache, base) = try LaunchIndexTests.settledLibrary()
        let root = directory.url
        let days = stride(from: 0, through: 30, by: 15)
        func edit(_ path: String, _ old: String, _ new: String) throws {
            let text = try #require(directory.read(path))
            #expect(text.contains(old), "\(path) has \(old)")
            directory.write(path, text.replacingOccurrences(of: old, with: new))
        }

        try edit("profiles/demo/profile.yaml", "new_per_day: 8", "new_per_day: 9")
        try edit("corpus/english-a1/deck.yaml", "version: 1.0.0", "version: 1.0.1")
        let unseen = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = unseen.source else { Issue.record("after a limit and a version: \(unseen.source)"); return }
        #expect(try Data(contentsOf: cache) == base, "nothing the index keeps changed")
        #expect(unseen.profile?.settings.newPerDay == 9)
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        #expect(try LibraryLaunch.open(root: root, user: "demo").verify().source == .verified, "the new stamps are in the delta")

        try edit("profiles/demo/profile.yaml", "ignored_words: [the]", "ignored_words: [the, Go]")
        try edit("rote.yaml", "decks: [english-a1, kjv, red-letter, alphabet, math]", "decks: [math, kjv, english-a1]")
        let changed = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = changed.source else { Issue.record("after ignored words and deck order: \(changed.source)"); return }
        #expect(try Data(contentsOf: cache) != base, "a new base")
        #expect(changed.index.lookUp("went")?.status == .ignored)
        #expect(changed.index.settings.decks == ["math", "kjv", "english-a1", "alphabet", "red-letter"])
        try LaunchIndexTests.expectSameAnswers(changed, asTheFullLoadOf: root, days: days)
        try LaunchIndexTests.expectSameAnswers(try LibraryLaunch.openVerified(root: root, user: "demo"), asTheFullLoadOf: root, days: days)

        for (path, old, new) in [("corpus/alphabet/deck.yaml", "version: 1.1.0", "version: 1.1.1"), ("corpus/kjv/deck.yaml", "kind: passages", "kind: vocabulary")] {
            _ = try LibraryLaunch.openVerified(root: root, user: "demo")
            try edit(path, old, new)
            let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
            guard case let .rebuilt(reason) = launch.source else { Issue.record("after \(path): \(launch.source)"); continue }
            #expect(reason.contains(path))
            try LaunchIndexTests.expectSameAnswers(launch, asTheFullLoadOf: root, days: days)
        }
    }

    @Test(arguments: ["flip", "truncate", "garbage", "empty"])
    func aDamagedCacheIsRebuiltNeverTrusted(_ damage: String) throws {
        let directory = StarterLibrary.copy()
        let root = directory.url
        let good = try LibraryLaunch.openVerified(root: root, user: "demo")
        let cache = try #require(LibraryLaunch.cacheURL(root: root, user: "demo"))
        var bytes = try Data(contentsOf: cache)
        switch damage {
        case "flip": bytes[bytes.count / 2] ^= 0x40
        case "truncate": bytes = bytes.prefix(bytes.count - 100)
        case "garbage": bytes = Data((0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
        default: bytes = Data()
        }
        try bytes.write(to: cache)
        let launch = try LibraryLaunch.open(root: root, user: "demo")
        guard case let .rebuilt(reason) = launch.source else { Issue.record("\(damage): \(launch.source)"); return }
        #expect(reason.contains("cache"), "\(reason)")
        #expect(launch.index.entryCount == good.index.entryCount)
        #expect(try LibraryLaunch.open(root: root, user: "demo").source == .cache, "rebuilt and saved")
    }

    @Test func aDeltaForAnotherBaseIsIgnored() throws {
        let directory = StarterLibrary.copy()
        let root = directory.url
        let base = try LibraryLaunch.openVerified(root: root, user: "demo")
        var overlay = Overlay()
        overlay.progress[0] = .some(nil)
        overlay.settle(base: base.index)
        let cache = try #require(LibraryLaunch.cacheURL(root: root, user: "demo"))
        var delta = overlay.encode(base: base.index)
        #expect(Overlay.decode(Data(delta), base: base.index) != nil)
        // A well-formed delta naming another base.
        delta[24] ^= 1
        let sum = delta.withUnsafeBytes { IndexHash.checksum(UnsafeRawBufferPointer(rebasing: $0[16...])) }
        withUnsafeBytes(of: sum.littleEndian) { for (offset, byte) in $0.enumerated() { delta[8 + offset] = byte } }
        try Data(delta).write(to: LibraryLaunch.deltaURL(cache))
        #expect(Overlay.decode(Data(delta), base: base.index) == nil)
        let launch = try LibraryLaunch.open(root: root, user: "demo")
        #expect(launch.source == .cache && launch.index.overlay.count == 0)
    }
}
