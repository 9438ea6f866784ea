import Foundation
import RoteModel
import TestSupport
import Testing

@testable import RoteStore

/// `rote check` reads again only what changed since the last check; its answer must be the
/// full load's, whatever changed, and it must read only the changed files.
/// Stamps are trusted at once (`.settledFileStamps`), as they would be two seconds later.
@Suite(.settledFileStamps) struct LibraryCheckTests {
    /// The full load's verdict: what `rote check` printed when it read every file.
    static func fullCheck(_ root: URL) throws -> [Diagnostic] {
        try LibraryLoader(users: .all, includeSessions: true).load(root).diagnostics
    }

    @Test func aCheckAfterChangesReadsOnlyThemAndAnswersAsTheFullLoad() async throws {
        let directory = await StarterLibrary.copy(git: .initialised)
        let first = try LibraryCheck.run(root: directory.url)
        #expect(first.diagnostics == (try Self.fullCheck(directory.url)))
        #expect(
            first.filesRead == first.fileCount - 1, "a first check reads every file (rote.yaml is counted, not cached)")
        let again = try LibraryCheck.run(root: directory.url)
        #expect(again.filesRead == 0, "nothing changed, nothing read")
        #expect(again.diagnostics == first.diagnostics)
        #expect(again.entryCount == first.entryCount && again.fileCount == first.fileCount)

        // Each change, one at a time, settled first so the rest of the cache is used.
        let run = try #require(directory.read("corpus/english-a1/run.yaml"))
        let changes: [(String, () -> Void)] = [
            (
                "a file that no longer reads",
                { directory.write("corpus/english-a1/run.yaml", "word: run\npos: [verb\n") }
            ),
            ("it reads again", { directory.write("corpus/english-a1/run.yaml", run) }),
            ("a word twice in a deck", { directory.write("corpus/english-a1/run-again.yaml", run) }),
            (
                "a progress file for no entry",
                {
                    directory.write(
                        "profiles/demo/progress/english-a1/nothing.yaml",
                        "entry: english-a1/nothing\nstatus: active\nreviews: []\n")
                }
            ),
            (
                "a review dated years ahead",
                {
                    directory.write(
                        "profiles/demo/progress/english-a1/nothing.yaml",
                        "entry: english-a1/nothing\nstatus: active\nreviews:\n  - {id: far, at: 2099-01-01T00:00:00Z, grade: good}\n"
                    )
                }
            ),
            (
                "fitted parameters out of bounds, and for a deck that does not exist",
                {
                    let profile = directory.read("profiles/demo/profile.yaml") ?? ""
                    directory.write(
                        "profiles/demo/profile.yaml",
                        profile.replacingOccurrences(
                            of: "  desired_retention: 0.9\n",
                            with:
                                "  desired_retention: 0.9\n  fsrs_parameters: [-5, 1.2, 3.1, 9.5, 6.2, 0.8, 2.9, 0.01, 1.7, 0.15, 0.8, 1.5, 0.06, 0.27, 1.6, 0.55, 1.9, 0.5, 0.1, 0.06, 0.2]\n"
                        )
                            + "deck_fsrs_parameters:\n  nowhere: [0.4012, 1.2, 3.1, 9.5, 6.2, 0.8, 2.9, 0.01, 1.7, 0.15, 0.8, 1.5, 0.06, 0.27, 1.6, 0.55, 1.9, 0.5, 0.1, 0.06, 0.2]\n"
                    )
                }
            ),
            ("a deck's manifest gone", { directory.remove("corpus/kjv/deck.yaml") }),
            ("a learner's profile gone", { directory.remove("profiles/demo/profile.yaml") }),
            ("a file that is not a library file", { directory.write("corpus/english-a1/Bad Name.yaml", "word: x\n") }),
        ]
        for (name, change) in changes {
            change()
            let checked = try LibraryCheck.run(root: directory.url)
            #expect(checked.diagnostics == (try Self.fullCheck(directory.url)), "after: \(name)")
            if name.hasPrefix("fitted") {
                #expect(
                    checked.diagnostics.contains { $0.message.contains("settings.fsrs_parameters") },
                    "\(checked.diagnostics)")
                #expect(
                    checked.diagnostics.contains { $0.message.contains("deck_fsrs_parameters names deck 'nowhere'") })
            }
        }
        let quiet = try LibraryCheck.run(root: directory.url)
        #expect(quiet.filesRead == 0)
        #expect(quiet.diagnostics == (try Self.fullCheck(directory.url)))
        // A deck's manifest coming back makes its entries read again: they read by its kind.
        try FileManager.default.copyItem(
            at: Checkout.root.appending(path: "corpus/kjv/deck.yaml"),
            to: directory.url.appending(path: "corpus/kjv/deck.yaml"))
        let restored = try LibraryCheck.run(root: directory.url)
        #expect(restored.diagnostics == (try Self.fullCheck(directory.url)))
        #expect(restored.filesRead > 1)
    }

    @Test func everythingReadsEveryFileAndAgrees() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        _ = try LibraryCheck.run(root: directory.url)
        #expect(try LibraryCheck.run(root: directory.url).filesRead == 0)
        let all = try LibraryCheck.run(root: directory.url, everything: true)
        #expect(all.filesRead == all.fileCount - 1)
        #expect(all.diagnostics == (try Self.fullCheck(directory.url)))
    }

    @Test func aDamagedCacheIsReadAsNoCache() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let first = try LibraryCheck.run(root: directory.url)
        let cache = LibraryCheck.cacheURL(directory.url)
        let text = try String(contentsOf: cache, encoding: .utf8)
        for damaged in [
            String(text.prefix(text.count / 2)), text.replacingOccurrences(of: "\t", with: " "), "not a cache",
        ] {
            try Data(damaged.utf8).write(to: cache)
            #expect(try LibraryCheck.run(root: directory.url).diagnostics == first.diagnostics)
        }
    }

    @Test func textWithSeparatorsSurvivesTheCache() {
        let problems = [
            Diagnostic(
                path: "corpus/a\tb.yaml", line: 3, severity: .warning, message: "two\nlines \\ and a \u{1F} tab\t")
        ]
        let record = LibraryCheck.Record(
            path: "corpus/a\tb.yaml", stamp: FileStamp(size: 1, modified: 2, changed: 3, inode: 4),
            deckKind: "vocabulary", problems: problems,
            facts: .entry(
                .init(
                    id: "d/x", deck: "d", path: "corpus/d/x.yaml", sortKey: -1,
                    content: .question(uuid: nil, published: true))))
        let progress = LibraryCheck.Record(
            path: "p", stamp: FileStamp(size: 0, modified: 0, changed: 0, inode: 0), deckKind: "", problems: [],
            facts: .progress(
                user: "ana", entry: "d/x", ahead: [.init(id: "r1", at: Date(timeIntervalSince1970: 4_102_444_800.5))]))
        let crossFile = [
            Diagnostic(path: "corpus/d/x.yaml", line: nil, severity: .error, message: "duplicate\tid \u{1}cross-file")
        ]
        let decoded = LibraryCheck.decode(
            Array(LibraryCheck.encode([record, progress], crossFile: crossFile, writtenAt: 42).utf8))
        #expect(decoded?.writtenAt == 42)
        #expect(decoded?.crossFile == crossFile, "the cross-file problems come back after the records")
        #expect(decoded?.records.count == 2)
        #expect(decoded?.records["corpus/a\tb.yaml"]?.problems == problems)
        #expect(decoded?.records["corpus/a\tb.yaml"]?.facts == record.facts)
        #expect(decoded?.records["p"]?.facts == progress.facts)
    }
}
