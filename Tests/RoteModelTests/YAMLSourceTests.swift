import Foundation
import Testing

@testable import RoteModel

/// A file's text, named escaped so the test log carries no raw control characters either.
struct YAMLText: Sendable, CustomTestStringConvertible {
    let text: String
    var testDescription: String { ControlCharacters.visible(text).debugDescription }
}

/// What `YAMLSource` says about text YAML refuses: the right line and column, and the
/// offending bytes shown escaped, never raw.
@Suite struct YAMLSourceTests {
    @Test(arguments: [
        // Arabic before the NUL: libyaml counts bytes, so a count of characters lands wrong.
        (
            YAMLText(text: "word: يجري\ntranslation: run\nusage_notes: a\u{0}b\n"), 3,
            "control character U+0000 (NUL) at column 15 is not allowed in YAML (the line reads: usage_notes: a\\u{0}b)"
        ),
        (
            YAMLText(text: "word: run\npos: verb\ntranslation: يجري\u{1B}]0;pwned\u{7}\n"), 3,
            "control character U+001B (ESC) at column 18 is not allowed in YAML (the line reads: translation: يجري\\u{1B}]0;pwned\\u{7})"
        ),
        (
            YAMLText(text: "word: run\n\n# a comment\ntranslation: \"x\u{7F}\"\n"), 4,
            "control character U+007F (DEL) at column 16 is not allowed in YAML"
        ),
        (
            YAMLText(text: "word: run\ntranslation: é\u{80}\n"), 2,
            "control character U+0080 at column 15 is not allowed in YAML"
        ),
    ])
    func aControlCharacterIsReportedOnItsLineAndShownEscaped(file: YAMLText, line: Int, message: String) throws {
        let (node, problems) = YAMLSource.parse(Data(file.text.utf8), path: "w.yaml")
        #expect(node == nil)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.line == line, "\(problem)")
        #expect(problem.message.hasPrefix(message), "\(problem.message)")
        #expect(
            problem.message.hasSuffix("delete it — most editors do not show it, `cat -A` does"), "\(problem.message)")
        #expect(
            !ControlCharacters.contains(problem.description),
            "no raw control character reaches a message: \(problem.description.debugDescription)")
    }

    @Test func controlCharactersAreNamedAndEscaped() {
        #expect(
            ControlCharacters.visible("a\u{1B}]0;title\u{7}b\tc\nd\r\u{9B}\u{7F}")
                == "a\\u{1B}]0;title\\u{7}b\tc\nd\\u{D}\\u{9B}\\u{7F}", "tab and line feed stay")
        #expect(ControlCharacters.visible("يجري — run") == "يجري — run")
        #expect(
            ControlCharacters.visible("\u{200F}\u{2068}x\u{2069}") == "\u{200F}\u{2068}x\u{2069}",
            "format characters are not controls")
        #expect(ControlCharacters.describe("\u{1B}") == "U+001B (ESC)")
        #expect(ControlCharacters.describe("\u{9B}") == "U+009B (CSI)")
        #expect(ControlCharacters.describe("\u{81}") == "U+0081")
        #expect(!ControlCharacters.contains("café ñ é"), "C2 lead bytes of letters are not controls")
        #expect(ControlCharacters.contains("x\u{85}"))
        #expect(
            Diagnostic.warning("corpus/a\u{1B}.yaml", 2, "'word' is x\u{7}").description
                == "corpus/a\\u{1B}.yaml:2: warning: 'word' is x\\u{7}")
    }

    @Test func controlCharactersInContentAreWarnedOfOnTheirLine() {
        let text = #"""
            word: run
            pos: verb
            translation: "x\e]0;title\a"
            forms: {base: run}
            examples:
              - {en: "I {run}.", ar: "أنا {أجري}\u001B.", form: base}
            usage_notes: "a\tb, \\ is fine"

            """#
        let (entry, problems) = VocabularyEntry.decode(Data(text.utf8), path: "corpus/w/run.yaml")
        #expect(entry != nil)
        let warnings = problems.filter { $0.message.contains("control character") }.map(\.description)
        #expect(
            warnings == [
                #"corpus/w/run.yaml:3: warning: 'translation' holds U+001B (ESC) and U+0007 (BEL), control characters: a terminal would obey them rather than show them (Rote prints them as \u{1B} and \u{7}); remove them unless they are meant"#,
                #"corpus/w/run.yaml:6: warning: 'examples[1].ar' holds U+001B (ESC), a control character: a terminal would obey it rather than show it (Rote prints it as \u{1B}); remove it unless it is meant"#,
            ], "\(problems)")
        // Learner files hold what Rote wrote (typed answers too): nothing to act on there.
        let (_, learner) = Profile.decode(Data("user: ana\nname: \"A\\e\"\n".utf8), path: "profiles/ana/profile.yaml")
        #expect(learner.isEmpty, "\(learner)")
    }
}
