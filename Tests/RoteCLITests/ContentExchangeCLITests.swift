import Foundation
import TestSupport
import Testing

/// `rote import`, `rote export` and `rote forget` as a person runs them.
@Suite struct ContentExchangeCLITests {
    static var rote: String { Checkout.productsDirectory.appending(path: "rote").path }
    static let seed = Checkout.root.appending(path: "Tests/ExchangeTests/Fixtures/seed-001-samples.json").path

    func library() async -> TemporaryDirectory {
        let directory = TemporaryDirectory("rote-cli-exchange")
        await FixtureLibrary.write(into: directory)
        return directory
    }

    func head(_ directory: TemporaryDirectory) async -> String {
        await Shell.run("git", ["rev-parse", "HEAD"], in: directory.url).stdout
    }
    func status(_ directory: TemporaryDirectory) async -> String {
        await Shell.run("git", ["status", "--porcelain"], in: directory.url).stdout
    }

    @Test func aBlockedSeedImportChangesNothingAndFixSlugsLandsAsOneCommit() async {
        let directory = await library()
        let before = await head(directory)
        let blocked = await Shell.run(Self.rote, ["-C", directory.url.path, "import", Self.seed, "--deck", "algebra"])
        #expect(blocked.status == 1)
        #expect(blocked.stdout.contains("skills[0].slug: error: slug 'linear-equations'"), "\(blocked.stdout)")
        #expect(blocked.stdout.contains("questions[0].slug: error: slug 'x-solve-basic'"))
        #expect(await head(directory) == before, "nothing in the library changed")
        #expect(await status(directory).isEmpty, "nothing in the library changed")

        let dry = await Shell.run(
            Self.rote, ["-C", directory.url.path, "import", Self.seed, "--deck", "algebra", "--fix-slugs", "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("Would import"))
        #expect(await head(directory) == before)

        let done = await Shell.run(
            Self.rote, ["-C", directory.url.path, "import", Self.seed, "--deck", "algebra", "--fix-slugs"])
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        #expect(
            await Shell.run(
                "git", ["rev-list", "--count", "\(before.trimmingCharacters(in: .whitespacesAndNewlines))..HEAD"],
                in: directory.url
            ).stdout == "1\n")
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: directory.url).stdout.hasPrefix(
                "Import: seed-001-samples.json into algebra"))
        #expect(await status(directory).isEmpty)
        let show = await Shell.run(
            Self.rote, ["-C", directory.url.path, "show", "algebra/algebra/linear_equations/x_solve_basic"])
        #expect(
            show.status == 0 && show.stdout.contains("What is the value of x in 2x = 10?"),
            "\(show.stdout)\(show.stderr)")
    }

    @Test func badTablesAndCollisionsAreRefusedWithoutChangingTheLibrary() async {
        let directory = await library()
        let before = await head(directory)
        directory.write("bad.csv", "word,translation\nrun,يجري,extra\n")
        let bad = await Shell.run(
            Self.rote,
            ["-C", directory.url.path, "import", directory.url.appending(path: "bad.csv").path, "--deck", "new"])
        #expect(bad.status == 1 && bad.stdout.contains("line 2: error: 3 fields but the header has 2"), "\(bad.stdout)")
        directory.write("words.csv", "word,translation\nrun,يجري\n")
        let collision = await Shell.run(
            Self.rote,
            ["-C", directory.url.path, "import", directory.url.appending(path: "words.csv").path, "--deck", "maths"])
        #expect(collision.status == 1 && collision.stdout.contains("skills deck"))
        let notSeed = await Shell.run(
            Self.rote,
            [
                "-C", directory.url.path, "import",
                directory.url.appending(path: "words.csv").path.replacingOccurrences(of: ".csv", with: ".json"),
            ])
        #expect(notSeed.status == 1 && notSeed.stderr.contains("cannot read"))
        directory.write("broken.json", "{\n  \"domains\": [\n    {\"slug\": \"a\" \"name\": \"A\"}\n  ]\n}\n")
        let broken = await Shell.run(
            Self.rote, ["-C", directory.url.path, "import", directory.url.appending(path: "broken.json").path])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("broken.json: line 3, column 18: error: not valid JSON:"), "\(broken.stdout)")
        #expect(await head(directory) == before)
        #expect(await status(directory) == "?? bad.csv\n?? broken.json\n?? words.csv\n")
    }

    /// An import that would rewrite a file someone is still editing refuses, and changes nothing.
    @Test func anImportDoesNotOverwriteUncommittedEdits() async {
        let directory = await library()
        let out = directory.url.appending(path: "verses.tsv").path
        #expect(
            await Shell.run(
                Self.rote, ["-C", directory.url.path, "export", "--deck", "verses", "--format", "tsv", "--out", out]
            ).status == 0)
        let edited = (directory.read("corpus/verses/joh-11-35.yaml") ?? "") + "notes: being edited\n"
        directory.write("corpus/verses/joh-11-35.yaml", edited)
        let before = await head(directory)
        let refused = await Shell.run(
            Self.rote, ["-C", directory.url.path, "import", out, "--deck", "verses", "--mode", "override"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("corpus/verses/joh-11-35.yaml has uncommitted changes that this would overwrite"),
            "\(refused.stdout)\(refused.stderr)")
        #expect(await head(directory) == before)
        #expect(directory.read("corpus/verses/joh-11-35.yaml") == edited)
    }

    @Test func aTableRoundTripsThroughExportAndImport() async {
        let directory = await library()
        let out = directory.url.appending(path: "verses.tsv").path
        let export = await Shell.run(
            Self.rote, ["-C", directory.url.path, "export", "--deck", "verses", "--format", "tsv", "--out", out])
        #expect(export.status == 0, "\(export.stderr)")
        let imported = await Shell.run(Self.rote, ["-C", directory.url.path, "import", out, "--deck", "verses-copy"])
        #expect(imported.status == 0 && imported.stdout.contains("1 new"), "\(imported.stdout)")
        #expect(
            await Shell.run(Self.rote, ["-C", directory.url.path, "show", "verses-copy/joh-11-35"]).stdout.contains(
                "Jesus wept."))
    }

    @Test func exportWritesTheLearnersData() async throws {
        let directory = await library()
        let out = directory.url.appending(path: "out").path
        let json = await Shell.run(
            Self.rote, ["-C", directory.url.path, "--user", "ana", "export", "--format", "json", "--out", out])
        #expect(json.status == 0, "\(json.stderr)")
        let text = try String(contentsOfFile: out + "/ana.json", encoding: .utf8)
        #expect(text.contains("\"format\": \"rote-learner-export\"") && text.contains("\"id\": \"a2\""))
        let csv = await Shell.run(Self.rote, ["-C", directory.url.path, "export", "--format", "csv", "--out", out])
        #expect(csv.status == 0 && FileManager.default.fileExists(atPath: out + "/reviews.csv"))
        let nobody = await Shell.run(Self.rote, ["-C", directory.url.path, "--user", "zed", "export", "--out", out])
        #expect(nobody.status == 1 && nobody.stderr.contains("no learner 'zed'"))
    }

    /// Issue #31, item 8: a word too long for a file name printed "Imported … 20 words", then
    /// failed with "File name too long" and wrote nothing; `--dry-run` promised 20 words.
    @Test func aWordTooLongForAFileNameIsASkippedRowAndTheSummarySaysWhatWasWritten() async throws {
        let directory = await library()
        let long = String(repeating: "a", count: 300)
        let rows = (1...20).map { $0 == 7 ? "\(long),long" : "word\($0),translation \($0)" }
        directory.write("hostile.csv", "word,translation\n" + rows.joined(separator: "\n") + "\n")
        let csv = directory.url.appending(path: "hostile.csv").path
        let before = await head(directory)
        let skipped =
            "hostile.csv: line 8: skipped: the word makes a file name of 300 bytes; the limit is 200"
        for dryRun in [true, false] {
            let run = await Shell.run(
                Self.rote, ["-C", directory.url.path, "import", csv] + (dryRun ? ["--dry-run"] : []))
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains(skipped), "\(run.stdout)")
            let verb = dryRun ? "Would import" : "Imported"
            #expect(
                run.stdout.contains(
                    "\(verb) into corpus/hostile/: 19 words (19 new, 0 replaced, 0 unchanged, 1 row skipped)"),
                "\(run.stdout)")
            #expect(!run.stderr.contains("too long"), "\(run.stderr)")
            if dryRun { #expect(await head(directory) == before) }
        }
        let files = try FileManager.default.contentsOfDirectory(
            atPath: directory.url.appending(path: "corpus/hostile").path)
        #expect(files.count == 20, "19 words and deck.yaml: \(files.sorted())")
        #expect(await status(directory) == "?? hostile.csv\n")
    }

    @Test func forgetAsksUnlessYesAndWritesAnErasureCommit() async {
        let directory = await library()
        let before = await head(directory)
        let refused = await Shell.run(Self.rote, ["-C", directory.url.path, "forget", "ana"])
        #expect(
            refused.status == 1 && refused.stderr.contains("stdin is not a terminal; run again with --yes"),
            "\(refused.stderr)")
        #expect(await head(directory) == before)
        let purgeRefused = await Shell.run(Self.rote, ["-C", directory.url.path, "forget", "ana", "--purge-history"])
        #expect(
            purgeRefused.status == 1 && purgeRefused.stdout.contains("rewrites every commit"),
            "the explanation comes before anything happens")
        #expect(await head(directory) == before)
        let done = await Shell.run(Self.rote, ["-C", directory.url.path, "forget", "ana", "--yes"])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%B"], in: directory.url).stdout.contains("Rote-Erasure: ana")
        )
        let purge = await Shell.run(Self.rote, ["-C", directory.url.path, "forget", "ana", "--purge-history", "--yes"])
        #expect(purge.status == 0 && purge.stdout.contains("Rewrote"), "\(purge.stdout)\(purge.stderr)")
        #expect(
            await Shell.run("git", ["log", "--all", "--format=%H", "--", "profiles/ana"], in: directory.url).stdout
                .isEmpty)
        let unknown = await Shell.run(Self.rote, ["-C", directory.url.path, "forget", "zed", "--yes"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no learner 'zed'"))
    }
}
