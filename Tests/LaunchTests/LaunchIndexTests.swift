import Foundation
import Git
import RoteLibrary
import RoteModel
import RoteStore
import Study
import StudyData
import TestSupport
import Testing

@testable import Launch

/// The launch index must answer exactly what the full load answers, notice every change to
/// the files behind it, and never trust a damaged cache.
/// Stamps are trusted at once (`.settledFileStamps`): a cache built just after the files
/// were written is settled, as it would be two seconds later.
@Suite(.settledFileStamps) struct LaunchIndexTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// The starter library with its launch index built and settled, the cache file and its
    /// bytes as built.
    static func settledLibrary() async throws -> (directory: TemporaryDirectory, cache: URL, base: Data) {
        let directory = await StarterLibrary.copy()
        _ = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        let cache = try #require(LibraryLaunch.cacheURL(root: directory.url, user: "demo"))
        return (directory, cache, try Data(contentsOf: cache))
    }

    static func fullPlan(_ root: URL, user: String, now: Date, limits: SessionPlanner.Limits, decks: [String] = [])
        throws -> SessionPlan
    {
        let library = try LibraryLoader(users: .only(user), includeSessions: false).load(root)
        return SessionPlanner(library: library, index: LibraryIndex(library: library, user: user)).plan(
            decks: decks, limits: limits, now: now, timeZone: utc)
    }

    @Test func plansLooksUpAndReportsStatusesExactlyAsTheFullLoad() async throws {
        let directory = await StarterLibrary.copy()
        let launch = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        try LaunchIndexTests.expectSameAnswers(launch, asTheFullLoadOf: directory.url)
    }

    /// Every answer the index gives — study order, each form's lemmas and lookup, each
    /// entry's status, plans over two months of the demo learner's history with and without
    /// limits — must be the full load's.
    static func expectSameAnswers(
        _ launch: LibraryLaunch, asTheFullLoadOf root: URL,
        days: StrideThrough<Int> = stride(from: 0, through: 60, by: 3)
    ) throws {
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let full = LibraryIndex(library: library, user: "demo")
        #expect(launch.index.entryCount == library.entries.count)
        #expect(
            (0..<launch.index.entryCount).map(launch.index.id(ofEntry:)) == library.entries.map(\.id), "study order")

        // Every form of every word: the same lemmas, most frequent first, and the same status.
        #expect(!full.lemmasByForm.isEmpty)
        for form in full.lemmasByForm.keys {
            let numbers = launch.index.lemmas(of: form)
            #expect(numbers.map(launch.index.id(ofEntry:)) == full.lemmas(of: form).map(\.id), "form \(form)")
            let lookup = try #require(launch.index.lookUp(form))
            let expected = try #require(full.lookUp(form))
            #expect(
                launch.index.id(ofEntry: lookup.entry) == expected.lemma.id && lookup.rank == expected.lemma.rank
                    && lookup.status == expected.status, "form \(form)")
        }
        #expect(launch.index.lookUp("Ran,") != nil, "tokens from running text are normalised")
        #expect(launch.index.lookUp("no-such-word") == nil)
        for number in 0..<launch.index.entryCount {
            let id = launch.index.id(ofEntry: number)
            #expect(launch.index.status(ofEntry: number) == full.status(of: id), "\(id)")
            if case let .vocabulary(word) = library.entries[number].content {
                #expect(launch.index.rank(ofEntry: number) == word.rank, "\(id)")
            }
        }
        // Summaries and digests as the parsed files give them, replayed with the decks' schedulers.
        let schedulers = DeckSchedulers(decks: library.decks, profile: full.profile)
        #expect(
            launch.index.progressSummaries() == full.progress.mapValues { ProgressSummary($0, schedulers: schedulers) })

        let start = Timestamp.parse("2026-11-01T08:00:00Z")!
        for day in days {
            let now = start.addingTimeInterval(Double(day) * 86_400 + 3_600 * Double(day % 7))
            for limits in [
                SessionPlanner.Limits.from(full.profile),
                .init(reviewsPerDay: 3, newPerDay: 2, workingSet: 4, minutes: 5), .init(drafts: true),
            ] {
                let expected = SessionPlanner(library: library, index: full).plan(
                    limits: limits, now: now, timeZone: LaunchIndexTests.utc)
                let planned = launch.planner().plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc)
                #expect(planned.due == expected.due && planned.new == expected.new, "day \(day)")
                #expect(
                    planned.dueTotal == expected.dueTotal && planned.reviewedToday == expected.reviewedToday
                        && planned.introducedToday == expected.introducedToday)
            }
        }
    }

    /// A launch that takes a while says so, and says when it is done; a quick one is quiet.
    @Test func aSlowLaunchIsAnnouncedAndAQuickOneIsQuiet() async throws {
        let directory = await StarterLibrary.copy()
        final class Lines: @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
            func add(_ line: String) {
                lock.lock()
                lines.append(line)
                lock.unlock()
            }
        }
        let cold = Lines()
        // No patience at all: even the starter library's first launch is announced.
        let launch = try LibraryLaunch.openVerified(root: directory.url, user: "demo", patience: 0, progress: cold.add)
        guard case .rebuilt = launch.source else {
            Issue.record("first launch: \(launch.source)")
            return
        }
        #expect(cold.lines.count == 2)
        #expect(cold.lines.first?.hasPrefix("Indexing the library for demo") == true)
        #expect(
            cold.lines.last?.hasPrefix(
                "Indexed \(launch.index.entryCount) entries from \(launch.index.fileCount) files in ") == true)
        let warm = Lines()
        _ = try LibraryLaunch.openVerified(root: directory.url, user: "demo", patience: 60, progress: warm.add)
        try await Task.sleep(for: .milliseconds(100))
        #expect(warm.lines.isEmpty)
        // A slow launch with an index is its check, not a first read of every file.
        let slowCheck = Lines()
        let checked = try LibraryLaunch.openVerified(
            root: directory.url, user: "demo", patience: 0, progress: slowCheck.add)
        if case .rebuilt = checked.source { Issue.record("the second launch rebuilt: \(checked.source)") }
        #expect(slowCheck.lines.count == 2, "\(slowCheck.lines)")
        #expect(slowCheck.lines.last?.hasPrefix("Checked \(checked.index.fileCount) files in ") == true)
        #expect(slowCheck.lines.first == "Checking the library's index for demo against its files…")
    }

    @Test func aWarmLaunchMapsTheCacheAndTheStatCheckConfirmsIt() async throws {
        let directory = await StarterLibrary.copy()
        let first = try LibraryLaunch.openVerified(root: directory.url, user: "demo")
        guard case .rebuilt = first.source else {
            Issue.record("first launch: \(first.source)")
            return
        }
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
    @Test func rowsComeBackOutOfTheIndexAsTheyWentIn() async throws {
        let directory = await StarterLibrary.copy()
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
    @Test func theIndexIsTheSameHoweverTheEntriesAreSplitIntoRuns() async throws {
        let directory = await StarterLibrary.copy()
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
            #expect(
                split.count == whole.count && difference == nil,
                "\(runs) runs: \(split.count) bytes against \(whole.count), first difference at \(String(describing: difference))"
            )
        }
        #expect(try LaunchIndex(storage: LaunchIndex.encode(rows, runs: 7)).rows().entries == rows.entries)
    }

    /// One listing serves the scope and the loader, so a link is followed by the loader's
    /// rule in both: to a file inside the library, never out of it or into a folder.
    @Test func theScopeFollowsLinksAsTheLoaderDoes() async throws {
        let directory = await StarterLibrary.copy()
        let outside = TemporaryDirectory()
        outside.write("secret.yaml", "word: secret\npos: noun\ntranslation: سر\nforms: {singular: secret}\n")
        let files = FileManager.default
        let words = directory.url.appending(path: "corpus/english-a1")
        let word = try #require(
            try files.contentsOfDirectory(atPath: words.path).sorted().first {
                $0.hasSuffix(".yaml") && $0 != "deck.yaml"
            })
        try files.createSymbolicLink(
            at: words.appending(path: "leak.yaml"), withDestinationURL: outside.url.appending(path: "secret.yaml"))
        try files.createSymbolicLink(at: words.appending(path: "linked"), withDestinationURL: outside.url)
        try files.createSymbolicLink(
            at: words.appending(path: "zz-alias.yaml"), withDestinationURL: words.appending(path: word))

        let scope = FileCheck.scope(root: directory.url.path, user: "demo")
        #expect(scope.paths == scope.paths.sorted())
        #expect(
            scope.paths.first == "corpus/" && scope.paths.last == "rote.yaml" && scope.paths.contains("profiles/demo/"))
        #expect(scope.paths.contains("corpus/english-a1/zz-alias.yaml"))
        #expect(
            !scope.paths.contains { $0.hasPrefix("corpus/english-a1/leak") || $0.hasPrefix("corpus/english-a1/linked") }
        )
        let (rows, _) = try LaunchRows.read(root: directory.url, user: "demo")
        let full = try LibraryLoader(users: .only("demo"), includeSessions: false).load(directory.url)
        #expect(Set(rows.entries.map(\.id)) == Set(full.entries.map(\.id)))
        #expect(rows.entries.contains { $0.id == "english-a1/zz-alias" })
        #expect(
            full.errors.contains {
                $0.path == "corpus/english-a1/leak.yaml" && $0.message.contains("outside the library")
            })
    }

    /// A cold launch lists the scope before the loader lists and reads; what only one of them
    /// saw must not be recorded as read. An entry the loader never listed (it appeared in
    /// between) is recorded as unknown, so the next launch reads it; a folder and the
    /// manifests keep the stamps taken before anything was read; a file the loader does not
    /// read is stat'ed.
    @Test func aFileTheLoaderDidNotListIsReadAtTheNextLaunch() async throws {
        let directory = await StarterLibrary.copy()
        let root = directory.url.path
        var scope = FileCheck.scope(root: root, user: "demo")
        let word = try #require(
            scope.paths.first {
                $0.hasPrefix("corpus/english-a1/") && $0.hasSuffix(".yaml") && !$0.hasSuffix("/deck.yaml")
            })
        let folder = "corpus/english-a1/"
        let oddName = "corpus/english-a1/Odd Name.yaml"
        try Data("word: odd\n".utf8).write(to: directory.url.appending(path: oddName))
        scope.paths = (scope.paths + [oddName]).sorted()
        let early = try #require(scope.stamps[folder])
        // The folder, the odd file and the word, as if the loader had read nothing; stamps
        // counted as settled (none racy).
        let asked = [folder, oddName, word]
        let records = LaunchRows.records(
            root: root, scope: (asked, scope.stamps), read: Array(repeating: nil, count: asked.count),
            since: FileCheck.now() + 10_000_000_000, gitStamps: IndexStamps())
        let byPath = Dictionary(uniqueKeysWithValues: records.map { ($0.path, $0) })
        #expect(byPath[folder]?.stamp == early)
        #expect(byPath[word]?.stamp == .unknown)
        #expect(byPath[oddName]?.role == .configuration)
        #expect(byPath[oddName]?.stamp != .unknown)
        #expect(scope.stamps["rote.yaml"] != nil && scope.stamps["corpus/english-a1/deck.yaml"] != nil)
    }

}
