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

/// What changes between launches — edits, added and removed files, new settings, damage — and
/// how the index follows: read again into the delta, patched, or rebuilt.
extension LaunchIndexTests {
    @Test func uncommittedEditsAddedAndRemovedFilesAreSeenAndGoIntoTheDelta() async throws {
        let directory = await StarterLibrary.copy()
        let root = directory.url
        let progressPath =
            "profiles/demo/progress/english-a1/"
            + (try #require(
                FileManager.default.subpathsOfDirectory(
                    atPath: root.appending(path: "profiles/demo/progress/english-a1").path
                )
                .sorted().first { $0.hasSuffix(".yaml") }))
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")

        // Suspend an entry by hand (not committed), remove another's history, start a new one.
        let text = try #require(directory.read(progressPath))
        directory.write(progressPath, text.replacingOccurrences(of: "status: active", with: "status: suspended"))
        let removed =
            "profiles/demo/progress/kjv/"
            + (try #require(
                FileManager.default.subpathsOfDirectory(atPath: root.appending(path: "profiles/demo/progress/kjv").path)
                    .sorted().first { $0.hasSuffix(".yaml") }))
        directory.remove(removed)
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let before = LibraryIndex(library: library, user: "demo")
        // A new entry: no progress file, and not a word the learner ignores (`ignored_words`).
        let fresh = try #require(
            library.entries.first {
                $0.deck == "english-a1" && before.progress[$0.id] == nil && before.status(of: $0.id) == .new
            })
        directory.write(
            "profiles/demo/progress/\(fresh.id).yaml",
            """
            entry: \(fresh.id)
            status: active
            state: {phase: learning, step: 0, stability: 2.3, difficulty: 6.4, due: 2026-11-02T09:10:00Z, reps: 1, lapses: 0, last_review: 2026-11-02T09:00:00Z}
            reviews:
              - {id: fresh-1, at: 2026-11-02T09:00:00Z, grade: good, ms: 3100, device: laptop}

            """)

        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = launch.source else {
            Issue.record("after edits: \(launch.source)")
            return
        }
        let cache = try #require(LibraryLaunch.cacheURL(root: root, user: "demo"))
        #expect(
            FileManager.default.fileExists(atPath: LibraryLaunch.deltaURL(cache).path),
            "progress changes go into the delta")
        let full = LibraryIndex(
            library: try LibraryLoader(users: .only("demo"), includeSessions: false).load(root), user: "demo")
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
        for planned in [
            launch.planner().plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc),
            reopened.planner().plan(limits: limits, now: now, timeZone: LaunchIndexTests.utc),
        ] {
            #expect(
                planned.due == expected.due && planned.new == expected.new
                    && planned.reviewedToday == expected.reviewedToday)
        }
    }

    /// Digests are replays with the decks' schedulers: a profile that changes them (here the
    /// desired retention) makes every digest stale, so the index is built again, and the
    /// digests are the new settings' replays.
    @Test func newSchedulerSettingsRebuildTheDigests() async throws {
        let directory = await StarterLibrary.copy()
        let root = directory.url
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        let profilePath = LibraryPaths(user: "demo").profile
        let text = try #require(directory.read(profilePath))
        let changed =
            text.contains("desired_retention:")
            ? text.replacingOccurrences(
                of: #"desired_retention: [0-9.]+"#, with: "desired_retention: 0.8", options: .regularExpression)
            : text.replacingOccurrences(of: "settings:\n", with: "settings:\n  desired_retention: 0.8\n")
        #expect(changed != text, "the demo profile has settings to change")
        directory.write(profilePath, changed)
        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .rebuilt = launch.source else {
            Issue.record("after new scheduler settings: \(launch.source)")
            return
        }
        #expect(launch.profile?.settings.desiredRetention == 0.8)
        let full = LibraryIndex(
            library: try LibraryLoader(users: .only("demo"), includeSessions: false).load(root), user: "demo")
        let schedulers = DeckSchedulers(decks: launch.decks, profile: launch.profile)
        #expect(
            launch.index.progressSummaries() == full.progress.mapValues { ProgressSummary($0, schedulers: schedulers) })
        // Another edit of the profile that leaves the schedulers alone stays in the delta.
        directory.write(profilePath, changed + "# a note\n")
        let noted = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = noted.source else {
            Issue.record("after a note in the profile: \(noted.source)")
            return
        }
    }

    @Test func anEditedEntryIsReadAgainAndItsFormsFollow() async throws {
        let directory = await StarterLibrary.copy()
        let root = directory.url
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let word = try #require(
            library.entries.first { if case .vocabulary = $0.content { return true } else { return false } })
        #expect(try LibraryLaunch.openVerified(root: root, user: "demo").index.lookUp("zorblinglyextraordinary") == nil)
        let text = try #require(directory.read(word.path))
        // An edit where the index does not look (the translation) only moves the stamp: the
        // base stays as it is, the delta takes the new stamp.
        let cache = try #require(LibraryLaunch.cacheURL(root: root, user: "demo"))
        let base = try Data(contentsOf: cache)
        directory.write(word.path, text.replacingOccurrences(of: "translation: ", with: "translation: (edited) "))
        #expect(directory.read(word.path) != text, "the fixture entry has a translation")
        let afterTranslation = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = afterTranslation.source else {
            Issue.record("after a translation edit: \(afterTranslation.source)")
            return
        }
        #expect(
            try Data(contentsOf: cache) == base
                && FileManager.default.fileExists(atPath: LibraryLaunch.deltaURL(cache).path))
        guard case let .vocabulary(edited)? = afterTranslation.entry(id: word.id)?.content else {
            Issue.record("entry unreadable")
            return
        }
        #expect(edited.translation.hasPrefix("(edited) "), "a card reads its file, not the index")
        directory.write(
            word.path, text.replacingOccurrences(of: "forms: {", with: "forms: {adverb: zorblinglyextraordinary, "))
        #expect(directory.read(word.path) != text, "the fixture entry has a forms mapping")

        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        // Longer than a slot keeps inline: matched through the lemma's own forms.
        let found = try #require(launch.index.lookUp("zorblinglyextraordinary"))
        #expect(launch.index.id(ofEntry: found.entry) == word.id)
        #expect(
            launch.index.lookUp("zorblinglyextraordinarx") == nil
                && launch.index.lookUp("zorblinglyextraordinar") == nil)
        #expect(
            try LibraryLaunch.open(root: root, user: "demo").index.lookUp("Zorblinglyextraordinary!") != nil,
            "saved as a new base")
    }

    /// Entries re-ranked, given new forms, added and removed go into the delta — the base
    /// file stays as it is — and the index still answers exactly as the full load, from the
    /// delta just written, from the delta read back, and after more changes on top.
    @Test func reRankedAddedAndRemovedEntriesGoIntoTheDelta() async throws {
        let (directory, cache, base) = try await LaunchIndexTests.settledLibrary()
        let root = directory.url
        let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)
        let full = LibraryIndex(library: library, user: "demo")
        let words = library.entries.filter { if case .vocabulary = $0.content { return true } else { return false } }
        let studied = words.filter { full.progress[$0.id] != nil }
        let unstudied = words.filter { full.progress[$0.id] == nil }
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
        let sharedForm = try #require(
            full.lemmasByForm.first {
                $0.value.count == 1 && $0.value.first?.id != unstudied[1].id
                    && $0.key.allSatisfy { $0 >= "a" && $0 <= "z" }
            }?.key)
        try edit(unstudied[1], { $0.replacingOccurrences(of: "forms: {", with: "forms: {other: \(sharedForm), ") })
        directory.remove(studied[1].path)
        let newWord = try #require(directory.read(unstudied[2].path))
            .replacingOccurrences(of: #"(?m)^word: .*$"#, with: "word: zorbling", options: .regularExpression)
            .replacingOccurrences(of: #"(?m)^rank: \d+$"#, with: "rank: 2", options: .regularExpression)
        directory.write("corpus/english-a1/zorbling.yaml", newWord)
        directory.write(
            "profiles/demo/progress/english-a1/zorbling.yaml",
            """
            entry: english-a1/zorbling
            status: active
            state: {phase: review, stability: 12.5, difficulty: 4.2, due: 2026-11-20T09:00:00Z, reps: 3, lapses: 0, last_review: 2026-11-08T09:00:00Z}
            reviews:
              - {id: z-1, at: 2026-11-08T09:00:00Z, grade: good, ms: 2100, device: laptop}

            """)

        let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = launch.source else {
            Issue.record("after entry edits: \(launch.source)")
            return
        }
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
        await Shell.run("git", ["checkout", "--", studied[1].path, studied[0].path], in: root)
        directory.write(
            "corpus/english-a1/zorbling.yaml", newWord.replacingOccurrences(of: "rank: 2\n", with: "rank: 3\n"))
        directory.remove("profiles/demo/progress/english-a1/zorbling.yaml")
        let again = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = again.source else {
            Issue.record("after more edits: \(again.source)")
            return
        }
        #expect(try Data(contentsOf: cache) == base)
        #expect(
            again.index.overlay.removedEntries.count == 2 && again.index.overlay.addedEntries.count == 3,
            "undone edits are the base's entries again")
        try LaunchIndexTests.expectSameAnswers(again, asTheFullLoadOf: root, days: days)
        #expect(again.index.lookUp("zorbling").map { again.index.status(ofEntry: $0.entry) } == .new)
        try LaunchIndexTests.expectSameAnswers(
            try LibraryLaunch.open(root: root, user: "demo"), asTheFullLoadOf: root, days: days)

        // An edit written by rename moves its folder's stamp without adding a file: the
        // folder's names are counted, not looked through.
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        let renamed = try #require(directory.read(unstudied[3].path))
        try Data(
            renamed.replacingOccurrences(of: #"(?m)^rank: \d+$"#, with: "rank: 4", options: .regularExpression).utf8
        )
        .write(to: root.appending(path: unstudied[3].path), options: .atomic)
        let afterRename = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = afterRename.source else {
            Issue.record("after a rename: \(afterRename.source)")
            return
        }
        try LaunchIndexTests.expectSameAnswers(afterRename, asTheFullLoadOf: root, days: days)

        // Folded into a new base, the answers stay the same.
        let folded = try LibraryLaunch(
            root: root, user: "demo", index: LaunchIndex(rows: afterRename.index.rows()), decks: afterRename.decks,
            profile: afterRename.profile, source: .verified)
        try LaunchIndexTests.expectSameAnswers(folded, asTheFullLoadOf: root, days: days)
    }

    /// Settings files: a change the index does not see (a deck's version, a profile's
    /// limits) goes into the delta; new ignored words or a new deck order fold into a new
    /// base from the index's own rows; a change only a full load settles (letters or skills
    /// configuration, a deck of another kind) rebuilds it. Every answer stays the full load's.
    @Test func settingsChangesArePatchedWhereTheIndexCanAndRebuiltWhereItCannot() async throws {
        let (directory, cache, base) = try await LaunchIndexTests.settledLibrary()
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
        guard case .refreshed = unseen.source else {
            Issue.record("after a limit and a version: \(unseen.source)")
            return
        }
        #expect(try Data(contentsOf: cache) == base, "nothing the index keeps changed")
        #expect(unseen.profile?.settings.newPerDay == 9)
        _ = try LibraryLaunch.openVerified(root: root, user: "demo")
        #expect(
            try LibraryLaunch.open(root: root, user: "demo").verify().source == .verified,
            "the new stamps are in the delta")

        try edit("profiles/demo/profile.yaml", "ignored_words: [the]", "ignored_words: [the, Go]")
        try edit("rote.yaml", "decks: [english-a1, kjv, red-letter, alphabet, math]", "decks: [math, kjv, english-a1]")
        let changed = try LibraryLaunch.openVerified(root: root, user: "demo")
        guard case .refreshed = changed.source else {
            Issue.record("after ignored words and deck order: \(changed.source)")
            return
        }
        #expect(try Data(contentsOf: cache) != base, "a new base")
        #expect(changed.index.lookUp("went")?.status == .ignored)
        #expect(changed.index.settings.decks == ["math", "kjv", "english-a1", "alphabet", "red-letter"])
        try LaunchIndexTests.expectSameAnswers(changed, asTheFullLoadOf: root, days: days)
        try LaunchIndexTests.expectSameAnswers(
            try LibraryLaunch.openVerified(root: root, user: "demo"), asTheFullLoadOf: root, days: days)

        for (path, old, new) in [
            ("corpus/alphabet/deck.yaml", "version: 1.1.0", "version: 1.1.1"),
            ("corpus/kjv/deck.yaml", "kind: passages", "kind: vocabulary"),
        ] {
            _ = try LibraryLaunch.openVerified(root: root, user: "demo")
            try edit(path, old, new)
            let launch = try LibraryLaunch.openVerified(root: root, user: "demo")
            guard case let .rebuilt(reason) = launch.source else {
                Issue.record("after \(path): \(launch.source)")
                continue
            }
            #expect(reason.contains(path))
            try LaunchIndexTests.expectSameAnswers(launch, asTheFullLoadOf: root, days: days)
        }
    }

    @Test(arguments: ["flip", "truncate", "garbage", "empty"])
    func aDamagedCacheIsRebuiltNeverTrusted(_ damage: String) async throws {
        let directory = await StarterLibrary.copy()
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
        guard case let .rebuilt(reason) = launch.source else {
            Issue.record("\(damage): \(launch.source)")
            return
        }
        #expect(reason.contains("cache"), "\(reason)")
        #expect(launch.index.entryCount == good.index.entryCount)
        #expect(try LibraryLaunch.open(root: root, user: "demo").source == .cache, "rebuilt and saved")
    }

    @Test func aDeltaForAnotherBaseIsIgnored() async throws {
        let directory = await StarterLibrary.copy()
        let root = directory.url
        let base = try LibraryLaunch.openVerified(root: root, user: "demo")
        var overlay = Overlay()
        overlay.progress[0] = .some(nil)
        overlay.settle(base: base.index)
        let cache = try #require(LibraryLaunch.cacheURL(root: root, user: "demo"))
        var delta = overlay.encode(base: base.index)
        #expect(Overlay.decode(Data(delta), base: base.index) != nil)
        // A well-formed delta naming another base.
        typealias Header = LaunchIndex.Layout.DeltaHeader
        delta[Header.base] ^= 1
        let sum = delta.withUnsafeBytes {
            IndexHash.checksum(UnsafeRawBufferPointer(rebasing: $0[Header.length...]))
        }
        withUnsafeBytes(of: sum.littleEndian) {
            for (offset, byte) in $0.enumerated() { delta[Header.checksum + offset] = byte }
        }
        try Data(delta).write(to: LibraryLaunch.deltaURL(cache))
        #expect(Overlay.decode(Data(delta), base: base.index) == nil)
        let launch = try LibraryLaunch.open(root: root, user: "demo")
        #expect(launch.source == .cache && launch.index.overlay.count == 0)
    }
}
