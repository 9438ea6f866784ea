import Foundation
import RoteModel
import RoteStore
import Scheduling
import TestSupport
import Testing
import ZIPFoundation

@testable import AnkiImport

/// `rote import FILE.apkg|.colpkg`: decks made by genanki and by Anki itself, then the rules
/// and the bad input, on packages made by hand.
@Suite struct AnkiImportTests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    func rote(_ arguments: [String], in directory: URL) async -> Shell.Output {
        await Shell.run(Self.binary, arguments, in: directory)
    }

    func head(_ directory: TemporaryDirectory) async -> String {
        await Shell.run("git", ["rev-parse", "HEAD"], in: directory.url).stdout
    }

    func isClean(_ directory: TemporaryDirectory) async -> Bool {
        await Shell.run("git", ["status", "--porcelain", "--untracked-files=all"], in: directory.url).stdout.isEmpty
    }

    // MARK: - Decks made by real tools

    @Test
    func genankiBasicAndClozeBecomeTwoDecksWithMedia() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let output = await rote(["import", AnkiFixtures.file("genanki.apkg").path], in: library.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Created deck french-basics (vocabulary): 3 entries added."), "\(output.stdout)")
        #expect(
            output.stdout.contains("Created deck french-basics-cloze (passages): 1 entry added."), "\(output.stdout)")
        #expect(
            output.stdout.contains(
                "1 note had several cards (a reversed card, several cloze deletions): each became one entry whose history holds all its cards' answers (0 answers in all)."
            ), "Paris has c1 and c2: \(output.stdout)")
        #expect(await isClean(library), "one commit holds everything")
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: library.url).stdout.hasPrefix(
                "Import Anki deck 'French::Basics' from genanki.apkg"))

        let loaded = try LibraryLoader().load(library.url)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let entries = Dictionary(uniqueKeysWithValues: loaded.entries.map { ($0.id, $0.content) })
        guard case let .vocabulary(bonjour) = entries["french-basics/bonjour"] else {
            Issue.record("no french-basics/bonjour among \(entries.keys.sorted())")
            return
        }
        #expect(bonjour.translation == "hello")
        #expect(bonjour.audio == "bonjour.mp3", "[sound:…] becomes the audio file")
        #expect(library.read("corpus/french-basics/bonjour.mp3") == "ID3 not really an mp3, but bytes to copy")
        guard case let .vocabulary(merci) = entries["french-basics/merci"] else {
            Issue.record("HTML is stripped from the slug and the word")
            return
        }
        #expect(merci.word == "merci")
        #expect(merci.translation == "thank you")
        guard case let .vocabulary(goodbye) = entries["french-basics/au-revoir"] else {
            Issue.record("no french-basics/au-revoir")
            return
        }
        #expect(goodbye.translation == "goodbye bye")
        let passages = loaded.entries.filter { $0.deck == "french-basics-cloze" }
        #expect(passages.count == 1)
        let content = try #require(passages.first?.content)
        let paris = try #require(
            { () -> PassageEntry? in if case let .passage(paris) = content { paris } else { nil } }(),
            "a cloze note becomes a passage, not \(content)")
        #expect(paris.text == "Paris is the capital of France.")
        #expect(paris.mnemonic == "geography")
        #expect(
            loaded.decks["french-basics"]?.anki
                == DeckManifest.AnkiOrigin(deckID: 2_059_400_110, deckName: "French::Basics"))
    }

    @Test
    func ankiHistoryBecomesReviewEventsAndShowShowsTheReplayedState() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let output = await rote(
            ["--user", "ana", "import", AnkiFixtures.file("history.apkg").path, "--deck", "spanish"], in: library.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("History for ana: 6 reviews added in 2 progress files"), "\(output.stdout)")
        #expect(!output.stdout.contains("several cards"), "every note has one card: \(output.stdout)")

        let expected = try AnkiFixtures.expected()
        for front in ["hola", "gracias"] {
            let path = "profiles/ana/progress/spanish/\(front).yaml"
            let file = try #require(ProgressFile.decode(Data((library.read(path) ?? "").utf8), path: path).0)
            let answers = expected.revlog.filter { $0.front == front }
            #expect(file.reviews.map(\.id) == answers.map { "anki-\($0.id)" })
            #expect(file.reviews.map(\.grade.rawValue) == answers.map(\.ease))
            #expect(file.reviews.map(\.ms) == answers.map { $0.time })
            #expect(file.reviews.map { Int64($0.at.timeIntervalSince1970) } == answers.map { $0.id / 1000 })
            let replayed = Scheduler.replay(file.reviews, entryID: "spanish/\(front)", settings: .default)
            #expect(file.state == replayed, "the state is FSRS replayed over the history")
        }
        #expect(library.read("profiles/ana/progress/spanish/adios.yaml") == nil, "a card never answered has no history")

        let shown = await Shell.run(
            Self.binary, ["--user", "ana", "show", "spanish/hola"], in: library.url, environment: ["TZ": "UTC"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("progress (ana): review, 3 reviews"), "\(shown.stdout)")
        #expect(shown.stdout.contains("phase review · stability"), "\(shown.stdout)")
        #expect(shown.stdout.contains("2026-01-05 10:00 +00:00  easy"), "\(shown.stdout)")

        // Importing again adds nothing and makes no commit.
        let before = await head(library)
        let again = await rote(
            ["--user", "ana", "import", AnkiFixtures.file("history.apkg").path, "--deck", "spanish"], in: library.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Nothing new"), "\(again.stdout)")
        #expect(await head(library) == before)
    }

    @Test
    func aCollectionPackageImportsWithItsHistory() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let output = await rote(["--user", "ana", "import", AnkiFixtures.file("history.colpkg").path], in: library.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Created deck spanish (vocabulary): 3 entries added."), "\(output.stdout)")
        #expect(output.stdout.contains("Created deck spanish-cloze (passages): 1 entry added."), "\(output.stdout)")
        #expect(output.stdout.contains("6 reviews added"), "\(output.stdout)")
        #expect(
            library.read("corpus/spanish/adios.yaml")?.contains("word: adiós") == true,
            "accents are folded in the file name only")
    }

    /// Every file under `folder` (relative path → bytes), for comparing two imports.
    func files(under folder: URL) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath {
                found[String(url.path.dropFirst(folder.path.count))] = data
            }
        }
        return found
    }

    @Test
    func theDefaultFormatOfCurrentAnkiImportsLikeTheLegacyOne() async throws {
        for (modern, legacy) in [("modern.apkg", "history.apkg"), ("modern.colpkg", "history.colpkg")] {
            let fromModern = TemporaryDirectory()
            let fromLegacy = TemporaryDirectory()
            for (library, package) in [(fromModern, modern), (fromLegacy, legacy)] {
                await FixtureLibrary.write(into: library)
                let output = await rote(
                    ["--user", "ana", "import", AnkiFixtures.file(package).path, "--deck", "spanish"], in: library.url)
                #expect(output.status == 0, "\(package): \(output.stderr)")
                #expect(
                    output.stdout.contains("6 reviews added in 2 progress files; 1 media file copied."),
                    "\(package): \(output.stdout)")
                #expect(await isClean(library))
            }
            #expect(
                fromModern.read("corpus/spanish/hola.mp3") == String(repeating: "ID3 hola, bytes to copy ", count: 40),
                "\(modern): zstd-compressed media, named by the protobuf index")
            #expect(fromModern.read("corpus/spanish/hola.yaml")?.contains("audio: hola.mp3") == true)
            #expect(
                fromModern.read("corpus/spanish-cloze/madrid-is-in-spain.yaml") != nil,
                "\(modern): the cloze note type is known from its protobuf config")
            #expect(
                fromModern.read("corpus/spanish/deck.yaml")?.contains("deck: Spanish") == true,
                "\(modern): deck names come from the decks table")
            // The same files, but for the package's name in the decks' descriptions.
            let corpus = files(under: fromModern.url.appending(path: "corpus"))
                .mapValues {
                    Data(String(decoding: $0, as: UTF8.self).replacingOccurrences(of: modern, with: legacy).utf8)
                }
            #expect(
                corpus == files(under: fromLegacy.url.appending(path: "corpus")),
                "\(modern) and \(legacy) make the same entries")
            let modernProfile = files(under: fromModern.url.appending(path: "profiles/ana/progress"))
            #expect(!modernProfile.isEmpty)
            #expect(
                modernProfile == files(under: fromLegacy.url.appending(path: "profiles/ana/progress")),
                "\(modern) and \(legacy) give the same history")
        }
    }

    @Test func zstdAndProtobufReadersRefuseDamagedInput() throws {
        // `printf 'hello, zstd' | zstd -c --no-check | base64`
        let data = try #require(Data(base64Encoded: "KLUv/QBYWQAAaGVsbG8sIHpzdGQ="))
        #expect(try Zstd.decompress(data, label: "x", limit: 100) == Data("hello, zstd".utf8))
        #expect(
            try Zstd.decompress(data + data, label: "x", limit: 100) == Data("hello, zstdhello, zstd".utf8),
            "one frame after another")
        #expect(throws: AnkiImportError.self) {
            try Zstd.decompress(data.prefix(data.count - 4), label: "x", limit: 100)
        }
        #expect(throws: AnkiImportError.self) { try Zstd.decompress(data, label: "x", limit: 5) }
        #expect(throws: AnkiImportError.self) { try Zstd.decompress(Data("not zstd".utf8), label: "x", limit: 100) }
        #expect(throws: AnkiImportError.self) { try Zstd.decompress(Data(), label: "x", limit: 100) }

        // MediaEntry { name: "a.mp3", size: 3 }, then one with legacy_zip_filename 7.
        let first: [UInt8] = [0x0a, 5] + Array("a.mp3".utf8) + [0x10, 3]
        let second: [UInt8] = [0x0a, 5] + Array("b.png".utf8) + [0x20, 7]
        let message = try ProtobufMessage(
            Data([0x0a, UInt8(first.count)] + first + [0x0a, UInt8(second.count)] + second))
        let entries = try message.bytes(1).map(ProtobufMessage.init)
        #expect(entries.map { $0.string(1) } == ["a.mp3", "b.png"])
        #expect(entries.map { $0.integer(2) } == [3, nil])
        #expect(entries.map { $0.integer(4) } == [nil, 7])
        #expect(throws: ProtobufMessage.Malformed.self) { try ProtobufMessage(Data([0x0a, 9, 0x41])) }
        #expect(throws: ProtobufMessage.Malformed.self) { try ProtobufMessage(Data([0x08, 0x80])) }
    }

    // MARK: - Rules, on hand-made packages

    /// Seed 004 §6: a passage's Anki history is practice, kept only with the learner's consent;
    /// without it the passage comes in as content and the history stays out, with a warning.
    @Test func aPassagesAnkiHistoryComesInOnlyWithConsent() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let packages = TemporaryDirectory()
        let package = packages.url.appending(path: "verses.apkg")
        try HandMadePackage.zip(
            [
                (
                    "collection.anki2",
                    try HandMadePackage.collection(
                        notes: [(100, "{{c1::Jesus}} wept.", "John 11:35")], reviews: [(1_767_261_600_000, 100, 3)],
                        deckName: "Memory", cloze: true)
                )
            ], to: package)
        let importer = AnkiImporter(root: library.url)
        let without = try importer.importPackage(at: package, options: .init(user: "ana"))
        #expect(without.reviewsAdded == 0 && without.progressFiles == 0)
        #expect(
            without.warnings.contains {
                $0.contains("left out the Anki history of 1 passage") && $0.contains("rote consent grant")
            }, "\(without.warnings)")
        #expect(
            !FileManager.default.fileExists(atPath: library.url.appending(path: "profiles/ana/progress/memory").path))
        let deck = try FileManager.default.contentsOfDirectory(
            atPath: library.url.appending(path: "corpus/memory").path)
        #expect(deck.contains { $0 != "deck.yaml" && $0.hasSuffix(".yaml") }, "the passage itself came in: \(deck)")

        let profile = try #require(library.read("profiles/ana/profile.yaml"))
        library.write(
            "profiles/ana/profile.yaml",
            profile + "consent:\n  passages: {granted: true, at: 2026-11-02T09:00:00Z, version: \"1\"}\n")
        await Shell.run("git", ["commit", "-qam", "consent"], in: library.url)
        let with = try importer.importPackage(at: package, options: .init(user: "ana"))
        #expect(with.reviewsAdded == 1 && with.progressFiles == 1)
        #expect(with.warnings.allSatisfy { !$0.contains("left out the Anki history") })
    }

    @Test func reImportingALaterExportAddsOnlyNewReviewsAndKeepsLocalEdits() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let packages = TemporaryDirectory()
        let first = packages.url.appending(path: "first.apkg")
        try HandMadePackage.zip(
            [
                (
                    "collection.anki2",
                    try HandMadePackage.collection(notes: [(100, "one", "uno")], reviews: [(1_767_261_600_000, 100, 3)])
                ),
                ("media", Data("{}".utf8)),
            ], to: first)
        let importer = AnkiImporter(root: library.url)
        let report = try importer.importPackage(at: first, options: .init(user: "ana"))
        #expect(report.reviewsAdded == 1)
        #expect(report.commit != nil)

        // The learner edits the entry; a later export has one more review and one more note.
        let edited = try #require(library.read("corpus/tiny/one.yaml")).replacingOccurrences(
            of: "translation: uno", with: "translation: uno (one)")
        library.write("corpus/tiny/one.yaml", edited)
        await Shell.run("git", ["commit", "-qam", "my edit"], in: library.url)
        let second = packages.url.appending(path: "second.apkg")
        try HandMadePackage.zip(
            [
                (
                    "collection.anki2",
                    try HandMadePackage.collection(
                        notes: [(100, "one", "uno"), (101, "two", "dos")],
                        reviews: [
                            (1_767_261_600_000, 100, 3), (1_767_434_400_000, 100, 1), (1_767_434_460_000, 101, 4),
                        ])
                )
            ], to: second)
        let later = try importer.importPackage(at: second, options: .init(user: "ana"))
        #expect(later.reviewsAdded == 2)
        #expect(
            later.decks == [.init(name: "tiny", kind: .vocabulary, created: false, entriesAdded: 1, entriesKept: 1)])
        #expect(library.read("corpus/tiny/one.yaml") == edited, "local edits survive a re-import")
        let progress = try #require(
            ProgressFile.decode(Data((library.read("profiles/ana/progress/tiny/one.yaml") ?? "").utf8), path: "p").0)
        #expect(progress.reviews.map(\.grade) == [.good, .again])
        #expect(await isClean(library))
    }

    @Test func reImportFindsEntriesByTheirAnkiNoteNotByName() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let packages = TemporaryDirectory()
        let first = packages.url.appending(path: "first.apkg")
        try HandMadePackage.zip(
            [
                (
                    "collection.anki2",
                    try HandMadePackage.collection(
                        notes: [(100, "banco", "bank"), (101, "banco", "bench")],
                        reviews: [(1_767_261_600_000, 100, 3), (1_767_261_660_000, 101, 1)])
                )
            ], to: first)
        let importer = AnkiImporter(root: library.url)
        _ = try importer.importPackage(at: first, options: .init(user: "ana"))
        #expect(library.read("corpus/tiny/banco.yaml")?.contains("anki_note: 100") == true)
        #expect(library.read("corpus/tiny/banco-2.yaml")?.contains("anki_note: 101") == true)
        let before = await head(library)
        let existing = [
            "corpus/tiny/banco.yaml", "corpus/tiny/banco-2.yaml", "profiles/ana/progress/tiny/banco.yaml",
            "profiles/ana/progress/tiny/banco-2.yaml",
        ]
        let contents = existing.map { library.read($0) }

        // A later export holds a third "banco" whose note id is smaller, so it now comes first.
        let second = packages.url.appending(path: "second.apkg")
        try HandMadePackage.zip(
            [
                (
                    "collection.anki2",
                    try HandMadePackage.collection(
                        notes: [(50, "banco", "shoal"), (100, "banco", "bank"), (101, "banco", "bench")],
                        reviews: [(1_767_261_600_000, 100, 3), (1_767_261_660_000, 101, 1), (1_767_348_000_000, 50, 4)])
                )
            ], to: second)
        let report = try importer.importPackage(at: second, options: .init(user: "ana"))
        #expect(
            report.decks == [.init(name: "tiny", kind: .vocabulary, created: false, entriesAdded: 1, entriesKept: 2)])
        #expect(existing.map { library.read($0) } == contents, "nothing already imported changes")
        let changed = await Shell.run(
            "git", ["diff", "--name-status", before.trimmingCharacters(in: .whitespacesAndNewlines), "HEAD"],
            in: library.url
        ).stdout
        #expect(changed == "A\tcorpus/tiny/banco-3.yaml\nA\tprofiles/ana/progress/tiny/banco-3.yaml\n", "\(changed)")
        #expect(library.read("corpus/tiny/banco-3.yaml")?.contains("translation: shoal") == true)
        #expect(library.read("corpus/tiny/banco-3.yaml")?.contains("anki_note: 50") == true)

        // Renaming an entry's file keeps it tied to its note.
        await Shell.run("git", ["mv", "corpus/tiny/banco-2.yaml", "corpus/tiny/banco-bench.yaml"], in: library.url)
        await Shell.run("git", ["commit", "-qm", "rename"], in: library.url)
        let renamed = try importer.importPackage(at: second, options: .init(user: "ana"))
        #expect(renamed.decks.first?.entriesAdded == 0, "the renamed entry is found by its note id")
    }

    @Test func aNoteWithSeveralCardsIsOneEntryHoldingEveryCardsAnswersAndTheImportSaysSo() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let package = library.url.appending(path: "reversed.apkg")
        try HandMadePackage.zip(
            [
                (
                    "collection.anki2",
                    try HandMadePackage.collection(
                        notes: [(100, "perro", "dog"), (101, "gato", "cat")],
                        reviews: [(1_767_261_600_000, 100, 3), (1_767_261_660_000, 101, 3)],
                        reversed: [100],
                        reversedReviews: [(1_767_261_720_000, 100, 1), (1_767_434_400_000, 100, 3)])
                )
            ], to: package)
        let output = await rote(["--user", "ana", "import", package.path, "--deck", "pets"], in: library.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.contains(
                "1 note had several cards (a reversed card, several cloze deletions): each became one entry whose history holds all its cards' answers (3 answers in all)."
            ), "\(output.stdout)")
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%b"], in: library.url).stdout.contains(
                "- 1 note had several cards"))
        let path = "profiles/ana/progress/pets/perro.yaml"
        let progress = try #require(ProgressFile.decode(Data((library.read(path) ?? "").utf8), path: path).0)
        #expect(progress.reviews.map(\.grade) == [.good, .again, .good], "both directions' answers, in time order")
        #expect(
            library.read("corpus/pets/perro.yaml") != nil && library.read("corpus/pets/perro-2.yaml") == nil,
            "one entry for the note")
    }

    @Test func fieldsAreMappedByFlagOrFile() async throws {
        let flag = try AnkiFieldMapping.parse(flag: "Back=word,Front=translation")
        #expect(flag.fields == ["back": "word", "front": "translation"])
        #expect(throws: AnkiImportError.self) { try AnkiFieldMapping.parse(flag: "Front") }
        #expect(throws: AnkiImportError.self) { try AnkiFieldMapping.parse(flag: "Front=nonsense") }

        let file = try AnkiFieldMapping.read(
            Data(
                """
                fields: {Front: word}
                note_types:
                  Basic: {Back: translation, Extra: usage_notes}

                """.utf8), path: "mapping.yaml")
        #expect(file.noteTypes["basic"] == ["back": "translation", "extra": "usage_notes"])
        do {
            _ = try AnkiFieldMapping.read(Data("fields: {Front: wrod}\n".utf8), path: "mapping.yaml")
            Issue.record("an unknown Rote field is refused")
        } catch let error as AnkiImportError {
            #expect(
                error.message.contains("mapping.yaml:1: error: 'Front: wrod': wrod is not a Rote field"),
                "\(error.message)")
        }

        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let package = library.url.appending(path: "swapped.apkg")
        try HandMadePackage.zip(
            [("collection.anki2", try HandMadePackage.collection(notes: [(100, "uno", "one")]))], to: package)
        let output = await rote(
            ["import", package.path, "--fields", "Back=word,Front=translation", "--deck", "swapped"], in: library.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(library.read("corpus/swapped/one.yaml")?.contains("translation: uno") == true)
        let wrongKind = await rote(
            ["import", package.path, "--fields", "Front=text", "--deck", "other"], in: library.url)
        #expect(wrongKind.status == 1)
        #expect(
            wrongKind.stderr.contains("field 'Front' is mapped to 'text', which a vocabulary entry does not have"),
            "\(wrongKind.stderr)")
    }

    @Test func htmlAndClozeMarkupBecomePlainText() {
        let field = AnkiText.field("<div>thank&nbsp;you</div><br>[sound:a b.mp3]<img src=\"pic.png\">&#x41;&amp;")
        #expect(field.text == "thank you A&")
        #expect(field.sounds == ["a b.mp3"])
        #expect(field.images == ["pic.png"])
        #expect(
            AnkiText.clozeAnswers("{{c1::Paris}} is in {{c12::France::country}}; {{not cloze}}")
                == "Paris is in France; {{not cloze}}")
    }

}
