import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore

struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract:
            "Run a text through your vocabulary: coverage, the words you don't know yet by rank, and words in no deck.",
        discussion: """
            Every word is looked up as `rote lookup` does (any form → its lemma), with your \
            status and the lemma's rank. Coverage is the share of running words (numbers left \
            out) whose entry you know — in review, studied or warm-started. The web reader \
            (`rote serve`) reads a text with the same function.
            Examples: rote read article.txt    ·    pbpaste | rote read - --capture 5
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("A UTF-8 text file, or - for standard input.", valueName: "file"))
    var file: String

    @Option(
        help: ArgumentHelp(
            "Add the N most useful unknown words to your study (as `rote add` does): those the text uses most, then the most frequent.",
            valueName: "n"))
    var capture: Int?

    @Flag(help: "Also list every word of the text: form → lemma, status, rank.")
    var words = false

    @Option(help: ArgumentHelp("How many unknown words and words in no deck to list.", valueName: "n"))
    var limit = 20

    func validate() throws {
        if let capture, capture < 1 {
            throw ValidationError("--capture takes a positive number of words, not \(capture)")
        }
        if limit < 0 { throw ValidationError("--limit takes a number of words, 0 or more") }
    }

    func run() throws {
        let text = try Self.text(of: file)
        let library = try CommandContext.library(rote.global)
        let reading = try library.read(text)
        guard reading.runningWords > 0 else {
            throw CLIError(
                "\(file == "-" ? "standard input" : file) has no words to read; give a text with words in it")
        }
        if words {
            for token in reading.tokens where token.isWord {
                var parts = [token.text + (token.lemma.map { $0 == token.text ? "" : " → \($0)" } ?? "")]
                parts.append(token.status?.rawValue ?? "not in any deck")
                if let rank = token.rank { parts.append("rank \(rank)") }
                print(parts.joined(separator: " · "))
            }
        }
        let percent = (reading.coverage * 1000).rounded() / 10
        print(
            "\(reading.runningWords) running words; you know \(reading.knownWords) of them: coverage \(percent)%"
                + (reading.ignoredWords > 0 ? " (\(reading.ignoredWords) ignored)" : ""))
        let unknownCount = reading.unknown.reduce(0) { $0 + $1.count }
        print(
            "Not known yet: \(reading.unknown.count) word\(reading.unknown.count == 1 ? "" : "s") (\(unknownCount) running), by rank:"
        )
        for word in reading.unknown.prefix(limit) {
            print(
                "  \(word.word)" + (word.rank.map { " · rank \($0)" } ?? "")
                    + " · \(word.status?.rawValue ?? "new") · ×\(word.count)")
        }
        if reading.unknown.count > limit { print("  … and \(reading.unknown.count - limit) more") }
        print(
            "In no deck: \(reading.notInDeck.count) word\(reading.notInDeck.count == 1 ? "" : "s")"
                + (reading.notInDeck.isEmpty ? "" : ":"))
        if !reading.notInDeck.isEmpty {
            print(
                "  "
                    + reading.notInDeck.prefix(limit).map { $0.count > 1 ? "\($0.word) ×\($0.count)" : $0.word }.joined(
                        separator: ", ") + (reading.notInDeck.count > limit ? ", …" : ""))
        }
        if let capture {
            let chosen = reading.mostUseful(capture)
            guard !chosen.isEmpty else {
                print("Nothing to capture: every word of the text in a deck is known or already in study.")
                return
            }
            let added = try library.add(try chosen.compactMap(\.entry).map { try library.entry(named: $0) })
            print(
                "Captured \(added.count) word\(added.count == 1 ? "" : "s") for study: "
                    + added.map(\.entry.id).joined(separator: ", "))
        }
    }

    /// The text of `path` (`-`: standard input), refused when it is not UTF-8 text.
    static func text(of path: String) throws -> String {
        let data: Data
        let name = path == "-" ? "standard input" : path
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    throw CLIError("\(path) is a folder; give a text file, or - to read standard input")
                }
                throw CLIError(
                    "cannot read \(path): no such file (or no permission); give a text file, or - to read standard input"
                )
            }
            data = contents
        }
        if let zero = data.firstIndex(of: 0) {
            throw CLIError(
                "\(name) is not text (a zero byte at offset \(zero - data.startIndex)); give a UTF-8 text file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError("\(name) is not UTF-8 text; convert it (e.g. iconv -t UTF-8) and try again")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CLIError("\(name) is empty; give a text with words in it")
        }
        return text
    }
}
