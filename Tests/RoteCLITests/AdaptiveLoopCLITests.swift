import Foundation
import RoteModel
import TestSupport
import Testing

/// Seed 002's loop through the real binary: `rote calibrate --json`, `ignore`, `add`,
/// `known`, `read`, `today`.
@Suite struct AdaptiveLoopCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    func rote(_ arguments: [String], in directory: URL, input: String? = nil) async -> Shell.Output {
        await Shell.run(Self.binary, arguments, in: directory, input: input, environment: ["ROTE_USER": "tester"])
    }

    /// A library made by `rote init` (the starter decks), in `lib`.
    func library() async -> (TemporaryDirectory, URL) {
        let directory = TemporaryDirectory()
        let made = await rote(["init", "lib"], in: directory.url)
        #expect(made.status == 0, "\(made.stderr)")
        return (directory, directory.url.appending(path: "lib"))
    }

    func commits(_ lib: URL) async -> [String] {
        await Shell.run("git", ["log", "--format=%s"], in: lib).stdout.split(separator: "\n").map(String.init)
    }

    func profile(_ lib: URL) -> String {
        (try? String(contentsOf: lib.appending(path: "profiles/tester/profile.yaml"), encoding: .utf8)) ?? ""
    }

    /// Answers for a learner who knows the first `known` ranks: every question is read from
    /// the output first, so the test drives the protocol line by line through a pipe.
    func calibrate(_ lib: URL, knowing known: Int) throws -> (questions: [[String: Any]], result: [String: Any]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-C", lib.path, "calibrate", "--deck", "english-a1", "--json", "--seed", "7"]
        process.environment = ProcessInfo.processInfo.environment.merging(["ROTE_USER": "tester"]) { $1 }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var questions: [[String: Any]] = []
        var result: [String: Any] = [:]
        var buffer = Data()
        let ranks = try Self.ranks()
        reading: while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += chunk
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                let object = try #require(
                    try JSONSerialization.jsonObject(with: line) as? [String: Any],
                    "\(String(decoding: line, as: UTF8.self))")
                if let done = object["result"] as? [String: Any] {
                    result = done
                    break reading
                }
                questions.append(object)
                let entry = try #require(object["entry"] as? String)
                let knows = (ranks[entry] ?? .max) <= known
                let answer: String
                if object["ask"] as? String == "choice" {
                    let choices = try #require(object["choices"] as? [String])
                    answer = String(knows ? (choices.firstIndex(of: try Self.translation(entry)) ?? 0) + 1 : 1)
                } else {
                    answer = knows ? "known" : "unknown"
                }
                input.fileHandleForWriting.write(Data((answer + "\n").utf8))
            }
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0,
            "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        return (questions, result)
    }

    static func ranks() throws -> [String: Int] {
        var ranks: [String: Int] = [:]
        let folder = Checkout.root.appending(path: "corpus/english-a1")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasSuffix(".yaml") && name != "deck.yaml" {
            let text = try String(contentsOf: folder.appending(path: name), encoding: .utf8)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("rank: ") }),
                let rank = Int(line.dropFirst(6))
            {
                ranks["english-a1/" + name.dropLast(5)] = rank
            }
        }
        return ranks
    }

    static func translation(_ entry: String) throws -> String {
        let text = try String(contentsOf: Checkout.root.appending(path: "corpus/\(entry).yaml"), encoding: .utf8)
        return String(text.split(separator: "\n").first { $0.hasPrefix("translation: ") }!.dropFirst(13))
    }

    @Test func calibrateSpeaksTheLineProtocolAndWarmStarts() async throws {
        let (directory, lib) = await library()
        defer { withExtendedLifetime(directory) {} }
        let (questions, result) = try calibrate(lib, knowing: 200)
        #expect(!questions.isEmpty && questions.count <= 40)
        #expect(questions.first?["question"] as? Int == 1)
        #expect(
            questions.allSatisfy { ($0["entry"] as? String)?.hasPrefix("english-a1/") == true && $0["word"] is String })
        #expect(
            questions.filter { $0["ask"] as? String == "choice" }.allSatisfy {
                ($0["choices"] as? [String])?.count == 4
            })
        let rank = try #require(result["lexical_rank"] as? Int)
        #expect(result["questions"] as? Int == questions.count)
        #expect(result["standard_error"] is Double || result["standard_error"] is Int)
        let warmed = try #require(result["warm_started"] as? Int)
        #expect(warmed > 0)
        #expect(profile(lib).contains("lexical_rank: \(rank)"))
        #expect(await commits(lib).first?.hasPrefix("Calibrate: lexical rank \(rank)") == true)
        let synthetic = await Shell.run("git", ["grep", "-l", "synthetic: calibration", "--", "profiles"], in: lib)
            .stdout
            .split(separator: "\n")
        #expect(synthetic.count == warmed)

        let undo = await rote(["calibrate", "--undo"], in: lib)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("Removed the synthetic reviews of \(warmed) words"))
        #expect(await Shell.run("git", ["grep", "-l", "synthetic", "--", "profiles"], in: lib).stdout.isEmpty)
        #expect(!profile(lib).contains("lexical_rank"))
    }

    /// An undo says what it took out: a lexical rank with no synthetic reviews (every word
    /// below it studied already, or the rank written by hand) is still a calibration to undo,
    /// and a second undo finds none.
    @Test func undoSaysWhatItRemoved() async throws {
        let (directory, lib) = await library()
        defer { withExtendedLifetime(directory) {} }
        let path = lib.appending(path: "profiles/tester/profile.yaml")
        try Data((profile(lib) + "lexical_rank: 300\n").utf8).write(to: path)
        #expect(await Shell.run("git", ["commit", "-qam", "rank by hand"], in: lib).status == 0)
        let undo = await rote(["calibrate", "--undo"], in: lib)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("Removed your lexical rank; no word had calibration reviews to remove."))
        #expect(!profile(lib).contains("lexical_rank"))
        #expect(await rote(["calibrate", "--undo"], in: lib).stdout.contains("No calibration to undo."))
    }

    /// Synthetic reviews sync like any review; an undo on one device, merged with a real review
    /// of the same word on another, leaves the real review and no synthetic one anywhere.
    @Test func syntheticReviewsSyncAndAnUndoMergesWithARealReview() async throws {
        let (directory, desk) = await library()
        let hub = directory.url.appending(path: "hub.git")
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", hub.path])
        await Shell.run("git", ["remote", "add", "origin", hub.path], in: desk)
        #expect(await rote(["sync"], in: desk).status == 0)
        let (_, result) = try calibrate(desk, knowing: 200)
        #expect((result["warm_started"] as? Int ?? 0) > 0)
        #expect(await rote(["sync"], in: desk).status == 0)
        let cloned = await rote(["clone", hub.path, "laptop"], in: directory.url)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        let laptop = directory.url.appending(path: "laptop")
        let warmed = try #require(
            await Shell.run("git", ["grep", "-l", "synthetic: calibration", "--", "profiles"], in: laptop).stdout.split(
                separator: "\n"
            ).first)
        let entry = String(warmed.dropFirst("profiles/tester/progress/".count).dropLast(".yaml".count))

        let reviewed = await rote(["review", entry, "again", "--id", "real-on-laptop"], in: laptop)
        #expect(reviewed.status == 0, "\(reviewed.stderr)")
        #expect(await rote(["calibrate", "--undo"], in: desk).status == 0)
        #expect(await rote(["sync"], in: desk).status == 0)
        let merged = await rote(["sync"], in: laptop)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(await rote(["sync"], in: desk).status == 0)
        for device in [desk, laptop] {
            let file = try String(contentsOf: device.appending(path: String(warmed)), encoding: .utf8)
            #expect(file.contains("{id: real-on-laptop,"), "the real review survives on \(device.lastPathComponent)")
            #expect(!file.contains("synthetic"), "the undo holds on \(device.lastPathComponent)")
            #expect(await Shell.run("git", ["grep", "-l", "synthetic", "--", "profiles"], in: device).stdout.isEmpty)
        }
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: desk).stdout
                == Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: laptop).stdout)
    }

    @Test(arguments: [
        ("maybe\n", "question 1: 'maybe' is not an answer", 1),
        ("known\nunknown\nknown\n7\n", "question 4: '7' is not one of the choices", 1),
        ("known\nknown\n", "input ended at question 3, before the calibration finished; nothing was written", 1),
        ("", "input ended at question 1", 1),
    ])
    func badAnswersAndEndOfInputWriteNothing(input: String, message: String, status: Int32) async throws {
        let (directory, lib) = await library()
        defer { withExtendedLifetime(directory) {} }
        let before = await commits(lib)
        let profileBefore = profile(lib)
        let run = await rote(["calibrate", "--json", "--deck", "english-a1"], in: lib, input: input)
        #expect(run.status == status)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(await commits(lib) == before)
        #expect(profile(lib) == profileBefore)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
    }

    @Test func ignoreAWordInNoDeckAndKnownAddAndRead() async throws {
        let (directory, lib) = await library()
        // "the" is a word of english-a1: its entry is ignored. A word in no deck goes into the
        // profile's ignored words.
        let ignored = await rote(["ignore", "the"], in: lib)
        #expect(ignored.status == 0, "\(ignored.stderr)")
        #expect(await commits(lib).first == "Ignore: english-a1/the")
        let nowhere = await rote(["ignore", "quokka"], in: lib)
        #expect(nowhere.status == 0, "\(nowhere.stderr)")
        #expect(nowhere.stdout.contains("quokka: ignored"), "\(nowhere.stdout)")
        #expect(profile(lib).contains("ignored_words: [quokka]"))
        #expect(await commits(lib).first == "Ignore: quokka")

        let known = await rote(["known", "run", "go"], in: lib)
        #expect(known.status == 0, "\(known.stderr)")
        #expect(known.stdout.contains("english-a1/run: known"))

        directory.write("text.txt", "The child ran, and they go. Zorblax!")
        let read = await rote(["read", "../text.txt"], in: lib)
        #expect(read.status == 0, "\(read.stderr)")
        // Running words: the child ran and they go zorblax = 7; known: ran, go.
        #expect(
            read.stdout.contains("7 running words; you know 2 of them: coverage 28.6% (1 ignored)"), "\(read.stdout)")
        #expect(read.stdout.contains("  child · rank"))
        #expect(read.stdout.contains("zorblax"))

        let captured = await rote(["read", "-", "--capture", "1"], in: lib, input: "child child house")
        #expect(captured.status == 0, "\(captured.stderr)")
        #expect(captured.stdout.contains("Captured 1 word for study: english-a1/child"))
        #expect(await commits(lib).first == "Add: english-a1/child")
        let shown = await rote(["show", "english-a1/child"], in: lib)
        #expect(shown.stdout.contains("again"))
    }

    @Test func helpNamesTheLoopsCommands() async {
        let help = await Shell.run(Self.binary, ["--help"])
        for command in ["calibrate", "add", "known", "read", "today", "article"] {
            #expect(help.stdout.contains("  \(command) "), "\(command) is missing from rote --help")
        }
        #expect(
            await Shell.run(Self.binary, ["calibrate", "--help"]).stdout.contains(
                "{\"question\": 1, \"entry\": \"english-a1/run\""))
    }

    @Test func readRefusesEmptyAndBinaryInput() async {
        let (directory, lib) = await library()
        directory.write("empty.txt", "  \n")
        let empty = await rote(["read", "../empty.txt"], in: lib)
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("empty.txt is empty; give a text with words in it"))
        _ = FileManager.default.createFile(
            atPath: directory.url.appending(path: "blob.bin").path,
            contents: Data([0x50, 0x4B, 0x03, 0x04, 0x00, 0x01]))
        let binary = await rote(["read", "../blob.bin"], in: lib)
        #expect(binary.status == 1)
        #expect(binary.stderr.contains("blob.bin is not text (a zero byte at offset 4)"))
        let punctuation = await rote(["read", "-"], in: lib, input: "… — 42 !")
        #expect(punctuation.status == 1)
        #expect(punctuation.stderr.contains("standard input has no words to read"))
        let missing = await rote(["read", "../nope.txt"], in: lib)
        #expect(missing.status == 1 && missing.stderr.contains("cannot read ../nope.txt"))
    }

    @Test func todayShowsTheSameMatrixForADate() async throws {
        let (directory, lib) = await library()
        let none = await rote(["today", "--date", "2026-11-25"], in: lib)
        let hasRoots =
            await Shell.run("git", ["grep", "-l", "^root:", "--", "corpus"], in: lib).stdout.isEmpty == false
        if !hasRoots {
            #expect(none.status == 1 && none.stderr.contains("no word has a root yet"))
            for (word, root) in [
                ("run", "run"), ("go", "go"), ("come", "come"), ("child", "child"), ("house", "house"),
                ("city", "city"), ("book", "book"), ("car", "car"),
            ] {
                let path = "lib/corpus/english-a1/\(word).yaml"
                directory.write(
                    path,
                    (try String(contentsOf: directory.url.appending(path: path), encoding: .utf8)) + "root: \(root)\n")
            }
            await Shell.run(
                "git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qam", "roots"], in: lib)
        }
        let first = await rote(["today", "--date", "2026-11-25"], in: lib)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Root of the day: "))
        #expect(first.stdout.contains("(word family "))
        #expect(!first.stdout.contains("20782"), "the epoch day is the program's count, not the learner's")
        let satellites = first.stdout.split(separator: "\n").drop { $0 != "Words near your level:" }.dropFirst()
        #expect(satellites.count == 6)
        let again = await rote(["today", "--date", "2026-11-25"], in: lib)
        #expect(again.stdout == first.stdout)
        #expect(await rote(["today", "--date", "2026-13-01"], in: lib).status != 0)
    }

    @Test func interestsListTheDecksTopicsAndSetWeightsInOneCommit() async throws {
        let (directory, lib) = await library()
        defer { withExtendedLifetime(directory) {} }
        let listed = await rote(["interests"], in: lib)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("Interests: none yet."))
        #expect(listed.stdout.contains("school "), "the starter deck's topics with their word counts")
        let set = await rote(["interests", "food=1", "travel=0.5", "spaceships=1"], in: lib)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("note: no example in the decks has the topic 'spaceships'"))
        #expect(set.stdout.contains("Interests: food 1, spaceships 1, travel 0.5"))
        #expect(await commits(lib).first == "Interests: food 1, travel 0.5, spaceships 1")
        let bad = await rote(["interests", "food=2"], in: lib)
        #expect(bad.status != 0 && bad.stderr.contains("between 0 and 1"))
        let malformed = await rote(["interests", "food"], in: lib)
        #expect(malformed.status != 0 && malformed.stderr.contains("is not topic=weight"))
        #expect(
            await commits(lib).first == "Interests: food 1, travel 0.5, spaceships 1",
            "a refused weight commits nothing")
    }
}
