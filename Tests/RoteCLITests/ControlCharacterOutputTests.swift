import Foundation
import RoteModel
import TestSupport
import Testing

/// Content with terminal escapes in it (an entry's `word: "x\e]0;…\a"`) never reaches the
/// terminal raw: `list`, `show`, `check` and error messages show each control character as
/// `\u{1B}`, and `check` warns of it with file and line.
@Suite struct ControlCharacterOutputTests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    func rote(_ arguments: [String], in directory: URL) async -> Shell.Output {
        await Shell.run(Self.binary, arguments, in: directory, environment: ["ROTE_USER": "tester"])
    }

    /// Nothing a terminal would obey: no control character but the line feed.
    func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ControlCharacters.isControl($0) }
    }

    static let entry = #"""
        word: "zz\e]0;pwned\a"
        pos: verb
        translation: "x\u001B[31mred"
        forms: {base: zz}

        """#

    @Test func listShowAndCheckShowControlCharactersEscaped() async throws {
        let directory = TemporaryDirectory()
        #expect(await rote(["init", "lib"], in: directory.url).status == 0)
        let library = directory.url.appending(path: "lib")
        directory.write("lib/corpus/english-a1/zz.yaml", Self.entry)

        let listed = await rote(["list", "english-a1"], in: library)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(
            listed.stdout.contains(#"zz\u{1B}]0;pwned\u{7} — x\u{1B}[31mred (verb)"#),
            "\(listed.stdout.debugDescription)")
        #expect(isInert(listed.stdout + listed.stderr), "\(listed.stdout.debugDescription)")

        let shown = await rote(["show", "english-a1/zz"], in: library)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains(#"zz\u{1B}]0;pwned\u{7}    verb"#), "\(shown.stdout.debugDescription)")
        #expect(shown.stdout.contains(#"  x\u{1B}[31mred"#), "\(shown.stdout.debugDescription)")
        #expect(isInert(shown.stdout + shown.stderr))

        let checked = await rote(["check"], in: library)
        #expect(checked.status == 0, "warnings only: \(checked.stdout)")
        #expect(
            checked.stdout.contains(
                #"corpus/english-a1/zz.yaml:1: warning: 'word' holds U+001B (ESC) and U+0007 (BEL), control characters: a terminal would obey them rather than show them (Rote prints them as \u{1B} and \u{7}); remove them unless they are meant"#
            ), "\(checked.stdout)")
        #expect(
            checked.stdout.contains(
                #"corpus/english-a1/zz.yaml:3: warning: 'translation' holds U+001B (ESC), a control character"#),
            "\(checked.stdout)")
        #expect(isInert(checked.stdout + checked.stderr))

        // An error message quoting what was typed or read goes out the same way.
        let missing = await rote(["show", "nope\u{1B}[2J"], in: library)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains(#"no entry 'nope\u{1B}[2J'"#), "\(missing.stderr.debugDescription)")
        #expect(isInert(missing.stdout + missing.stderr))
    }

    @Test func aStudyCardAndAnExportAtATerminalShowThemEscaped() async throws {
        let directory = TemporaryDirectory()
        let go = FixtureLibrary.files["corpus/words/go.yaml"]!.replacingOccurrences(
            of: "translation: يذهب\n", with: "translation: \"يذهب\\e]0;pwned\\a\"\n")
        await FixtureLibrary.write(into: directory, overrides: ["corpus/words/go.yaml": go])
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TERM"] = "xterm-256color"

        let terminal = try PseudoTerminal()
        let study = try terminal.spawn(
            Self.binary, ["-C", directory.url.path, "--user", "ana", "study", "words"], environment: environment)
        defer { _ = terminal.finish(study, seconds: 0) }
        #expect(terminal.waitFor("answer (number or text)"), "\(terminal.screen)")
        #expect(terminal.waitUntil(raw: true))
        terminal.send("1")
        // words/run is learned: its review asks a second question.
        #expect(terminal.waitFor("answer (number or text)"), "\(terminal.screen)")
        #expect(terminal.waitUntil(raw: true))
        terminal.send("1")
        #expect(terminal.waitFor("grade:"))
        #expect(terminal.waitUntil(raw: true))
        terminal.send("\r")
        #expect(
            terminal.waitFor("\u{2068}يذهب\u{2069}" + #"\u{1B}]0;pwned\u{7}"#),
            "go's word card, the Arabic isolated: \(terminal.screen.debugDescription)")
        #expect(!terminal.screen.contains("\u{1B}]"), "no OSC sequence reaches the terminal")

        let export = try PseudoTerminal()
        let exported = try export.spawn(
            Self.binary, ["-C", directory.url.path, "export", "--deck", "words", "--format", "csv"],
            environment: environment)
        #expect(export.finish(exported))
        #expect(export.screen.contains(#"يذهب\u{1B}]0;pwned\u{7}"#), "\(export.screen.debugDescription)")
        #expect(
            isInert(export.screen.replacingOccurrences(of: "\r\n", with: "\n")), "\(export.screen.debugDescription)")
    }

    @Test func aDeckExportedToAPipeKeepsItsBytes() async throws {
        let directory = TemporaryDirectory()
        #expect(await rote(["init", "lib"], in: directory.url).status == 0)
        let library = directory.url.appending(path: "lib")
        directory.write("lib/corpus/english-a1/zz.yaml", Self.entry)
        // A table written to a file or a program is data, read back by `rote import`: only a
        // person at a terminal gets the escaped form.
        let exported = await rote(["export", "--deck", "english-a1", "--format", "csv"], in: library)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("zz\u{1B}]0;pwned\u{7}"))
    }
}
