import Foundation
import RoteModel
import RoteStore
import Scheduling
import TestSupport
import Testing
import ZIPFoundation

@testable import AnkiImport

/// Bad input: a clear error, and the library unchanged.
extension AnkiImportTests {
    // MARK: - Bad input: a clear error, and the library unchanged

    @Test func badPackagesAreRefusedAndChangeNothing() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let before = await head(library)
        let work = TemporaryDirectory()

        work.write("notes.apkg", "this is not a zip file\n")
        let valid = work.url.appending(path: "valid.apkg")
        try HandMadePackage.zip(
            [("collection.anki2", try HandMadePackage.collection(notes: [(100, "one", "uno")]))], to: valid)
        let bytes = try Data(contentsOf: valid)
        work.write("truncated.apkg", bytes.prefix(bytes.count / 2))
        try HandMadePackage.zip(
            [("collection.anki2", Data("SQLite format 3\0 but then garbage".utf8))],
            to: work.url.appending(path: "garbage.apkg"))
        try HandMadePackage.zip(
            [("collection.anki2", Data(try HandMadePackage.collection(notes: [(100, "one", "uno")]).prefix(3000)))],
            to: work.url.appending(path: "cut.apkg"))
        try HandMadePackage.zip(
            [("../../escaped.txt", Data("x".utf8)), ("collection.anki2", Data())],
            to: work.url.appending(path: "escape.apkg"))
        try HandMadePackage.zip(
            [
                ("collection.anki2", try HandMadePackage.collection(notes: [(100, "one", "uno")])),
                ("media", Data(#"{"0": "../../outside.mp3"}"#.utf8)), ("0", Data("x".utf8)),
            ], to: work.url.appending(path: "media-escape.apkg"))
        try HandMadePackage.zip(
            [
                ("collection.anki2", try HandMadePackage.collection(notes: [(100, "one", "uno")])),
                ("media", Data(#"{"0": "bell\u0007.mp3"}"#.utf8)), ("0", Data("x".utf8)),
            ], to: work.url.appending(path: "media-control.apkg"))
        // Issue #31, item 8: a name the file system refuses failed half-way through the write.
        try HandMadePackage.zip(
            [
                ("collection.anki2", try HandMadePackage.collection(notes: [(100, "one", "uno")])),
                ("media", Data(#"{"0": "\#(String(repeating: "m", count: 296)).mp3"}"#.utf8)), ("0", Data("x".utf8)),
            ], to: work.url.appending(path: "media-long.apkg"))
        try HandMadePackage.zip([("media", Data("{}".utf8))], to: work.url.appending(path: "empty.apkg"))
        try HandMadePackage.zip(
            [("meta", Data([0x08, 0x03])), ("collection.anki21b", Data("not zstd at all".utf8))],
            to: work.url.appending(path: "modern-garbage.apkg"))
        try HandMadePackage.zip(
            [("meta", Data([0x08, 0x09])), ("collection.anki21b", Data())], to: work.url.appending(path: "future.apkg"))

        let cases: [(String, String)] = [
            ("notes.apkg", "notes.apkg is not a zip archive"),
            ("truncated.apkg", "truncated.apkg is not a zip archive"),
            ("garbage.apkg", "is not a readable SQLite database"),
            ("cut.apkg", "collection.anki2 in cut.apkg"),
            ("escape.apkg", "holds '../../escaped.txt', a path that would land outside"),
            ("media-escape.apkg", "names a media file '../../outside.mp3'"),
            (
                "media-control.apkg",
                #"names a media file 'bell\u{7}.mp3', which holds control characters no file of a library should"#
            ),
            ("media-long.apkg", "holds a media file whose name is 300 bytes ('mmmm"),
            ("empty.apkg", "holds no Anki collection"),
            ("modern-garbage.apkg", "collection.anki21b in modern-garbage.apkg is not valid zstd-compressed data"),
            ("future.apkg", "future.apkg is in a package format newer than Rote knows (version 9)"),
            ("missing.apkg", "missing.apkg: no such file"),
            (
                "words.docx",
                "unknown kind of file; import .json (skills seed), .csv, .tsv or .txt (tables), or .apkg / .colpkg (Anki)"
            ),
        ]
        for (name, message) in cases {
            let output = await rote(["import", work.url.appending(path: name).path], in: library.url)
            #expect(output.status == 1, "\(name)")
            #expect(output.stderr.contains(message), "\(name): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "one clear line for \(name): \(output.stderr)")
        }
        #expect(await head(library) == before)
        #expect(await isClean(library))
        #expect(
            !FileManager.default.fileExists(
                atPath: work.url.deletingLastPathComponent().appending(path: "escaped.txt").path))
    }

    @Test func aZipThatUnderstatesWhatItUnpacksToIsStoppedByTheBytesInflated() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let before = await head(library)
        let work = TemporaryDirectory()
        let package = work.url.appending(path: "bomb.apkg")
        // 4 MiB of zeros deflate to a few KiB; the headers will say 100 bytes.
        try HandMadePackage.zip(
            [
                ("collection.anki2", try HandMadePackage.collection(notes: [(100, "one", "uno")])),
                ("media", Data(#"{"0": "big.mp3"}"#.utf8)),
                ("0", Data(count: 4 << 20)),
            ], deflated: ["0"], to: package)
        try HandMadePackage.understate("0", claiming: 100, in: package)
        let archive = try Archive(url: package, accessMode: .read)
        let declared = archive.reduce(UInt64(0)) { $0 + $1.uncompressedSize }
        let limit: UInt64 = 1 << 20
        #expect(archive["0"]?.uncompressedSize == 100, "the lie is in place")
        #expect(declared < limit, "by the sizes it declares, the package fits the limit")
        #expect(try Data(contentsOf: package).count < 64 << 10, "the package itself is small")

        do {
            _ = try AnkiImporter(root: library.url).importPackage(
                at: package, options: .init(user: "ana", unpackedLimit: limit))
            Issue.record("a package inflating past the limit is refused")
        } catch let error as AnkiImportError {
            #expect(error.code == .notAnArchive)
            #expect(
                error.message
                    == "bomb.apkg unpacks to more than 1 MiB; refusing it (a damaged or hostile package, or not one deck)",
                "\(error.message)")
        }
        #expect(await head(library) == before)
        #expect(await isClean(library))
        #expect(library.read("corpus/tiny/big.mp3") == nil)

        // The same package within a limit it really fits imports: the limit, not the lie, stopped it.
        let report = try AnkiImporter(root: library.url).importPackage(
            at: package, options: .init(user: "ana", unpackedLimit: 8 << 20))
        #expect(report.mediaAdded == 1)
        #expect(
            FileManager.default.contents(atPath: library.url.appending(path: "corpus/tiny/big.mp3").path)?.count == 4
                << 20)
    }

    @Test func aMediaFileThatIsASymbolicLinkIsLeftOutAndTheReportSaysSo() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let work = TemporaryDirectory()
        let package = work.url.appending(path: "linked.apkg")
        try HandMadePackage.zip(
            [
                ("collection.anki2", try HandMadePackage.collection(notes: [(100, "hola", "hello")])),
                ("media", Data(#"{"0": "hola.mp3", "1": "secret.mp3"}"#.utf8)),
                ("0", Data("ID3 bytes".utf8)),
                ("1", Data("/etc/passwd".utf8)),
            ], links: ["1"], to: package)
        #expect(try Archive(url: package, accessMode: .read)["1"]?.type == .symlink)

        let output = await rote(["import", package.path, "--deck", "linked"], in: library.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "linked.apkg: warning: media file 'secret.mp3' (zip entry '1') is a symbolic link, not a file; it was left out"
            ), "\(output.stderr)")
        #expect(output.stdout.contains("1 media file copied."), "\(output.stdout)")
        #expect(library.read("corpus/linked/hola.mp3") == "ID3 bytes")
        #expect(!FileManager.default.fileExists(atPath: library.url.appending(path: "corpus/linked/secret.mp3").path))
        #expect(await isClean(library))
    }

    @Test func controlCharactersInFieldsAndTheDeckNameAreRemovedAndReported() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let work = TemporaryDirectory()
        let package = work.url.appending(path: "escapes.apkg")
        // The deck name is JSON in the collection: \u001b is an ESC once read.
        try HandMadePackage.zip(
            [
                (
                    "collection.anki2",
                    try HandMadePackage.collection(
                        notes: [
                            (100, "hola\u{7}", "hello&#27;"), (101, "adiós", "good\u{1B}]0;pwned\u{7}bye"),
                            (102, "gato", "cat"),
                        ],
                        deckName: "Tiny\\u001b")
                )
            ], to: package)

        let output = await rote(["import", package.path, "--deck", "escapes"], in: library.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "escapes.apkg: warning: removed control characters (ESC, BEL and the like, which a terminal obeys rather than shows) from the Anki deck's name and the fields or tags of 2 notes (note 100, note 101); the rest of the text is imported as it was"
            ), "\(output.stderr.debugDescription)")
        let written = ["corpus/escapes/hola.yaml", "corpus/escapes/adios.yaml", "corpus/escapes/deck.yaml"].map {
            library.read($0) ?? ""
        }
        #expect(
            written.allSatisfy {
                !$0.isEmpty && !ControlCharacters.contains($0) && !$0.contains("\\u001") && !$0.contains("\\e")
            }, "\(written)")
        #expect(written[0].contains("translation: hello\n"), "\(written[0])")
        #expect(
            written[1].contains("translation: \"good]0;pwnedbye\"\n"), "only the control characters go: \(written[1])")
        #expect(written[2].contains("title: Tiny\n"), "\(written[2])")
        let checked = await rote(["check"], in: library.url)
        #expect(!checked.stdout.contains("control character"), "\(checked.stdout)")
    }

    @Test func aDeckNameTakenByAnotherDeckIsRefused() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let before = await head(library)
        let package = library.url.appending(path: "words.apkg")
        try HandMadePackage.zip(
            [("collection.anki2", try HandMadePackage.collection(notes: [(100, "one", "uno")], deckName: "Words"))],
            to: package)
        await Shell.run("git", ["add", "words.apkg"], in: library.url)
        await Shell.run("git", ["commit", "-qm", "package"], in: library.url)
        let committed = await head(library)
        #expect(committed != before)
        let output = await rote(["import", package.path], in: library.url)
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "deck 'words' already exists (corpus/words/deck.yaml, vocabulary deck 'Words', from elsewhere)"),
            "\(output.stderr)")
        #expect(output.stderr.contains("choose another name with --deck NAME"))
        #expect(await head(library) == committed)
        #expect(await isClean(library))
        let renamed = await rote(["import", package.path, "--deck", "anki-words"], in: library.url)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let badName = await rote(["import", package.path, "--deck", "Bad Name"], in: library.url)
        #expect(badName.stderr.contains("is not a valid deck name"))
    }
}
