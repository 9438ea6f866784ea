import Foundation
import RoteModel
import TestSupport
import Testing

@testable import RoteStore

/// One failing case per validation rule: the fixture library with one file broken, the
/// diagnostic expected (path, line, severity, words of the message), and the proof that the
/// rest of the library still loads.
@Suite struct ValidationRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let overrides: [String: String]
        let path: String
        let line: Int?
        let severity: Diagnostic.Severity
        let words: String
        var testDescription: String { name }
    }

    static let runPath = "corpus/words/run.yaml"
    static let run = FixtureLibrary.files[runPath]!
    static let question = "corpus/maths/arithmetic/addition/two_plus_two.yaml"
    static let mcq = FixtureLibrary.files[question]!

    static let cases: [Case] = [
        Case(
            name: "YAML syntax error", overrides: [runPath: "word: run\npos: [verb\n"], path: runPath, line: 3,
            severity: .error, words: "YAML syntax error"),
        Case(
            name: "missing required field",
            overrides: [runPath: run.replacingOccurrences(of: "translation: يجري\n", with: "")], path: runPath, line: 1,
            severity: .error, words: "missing required field 'translation'"),
        Case(
            name: "wrong type", overrides: [runPath: run.replacingOccurrences(of: "rank: 157", with: "rank: high")],
            path: runPath, line: 5, severity: .error, words: "'rank' must be a whole number"),
        Case(
            name: "unknown key",
            overrides: [runPath: run.replacingOccurrences(of: "rank: 157", with: "rank: 157\nrnak: 1")], path: runPath,
            line: 6, severity: .warning, words: "unknown key 'rnak'"),
        Case(
            name: "not UTF-8", overrides: ["corpus/words/bad.yaml": "word: caf\u{E9}"], path: "corpus/words/bad.yaml",
            line: 1, severity: .error, words: "not UTF-8"),
        Case(
            name: "conflict markers",
            overrides: [
                runPath: run.replacingOccurrences(
                    of: "rank: 157\n", with: "<<<<<<< HEAD\nrank: 157\n=======\nrank: 158\n>>>>>>> theirs\n")
            ], path: runPath, line: 5, severity: .error, words: "merge conflict marker"),
        Case(
            name: "alias bomb", overrides: ["corpus/words/bomb.yaml": ValidationRuleTests.aliasBomb],
            path: "corpus/words/bomb.yaml", line: 1, severity: .error, words: "aliases"),
        Case(
            name: "duplicate key",
            overrides: [runPath: run.replacingOccurrences(of: "rank: 157", with: "rank: 157\nrank: 158")],
            path: runPath, line: nil, severity: .error, words: "duplicate key"),
        Case(
            name: "bad file name", overrides: ["corpus/words/Walk.yaml": run], path: "corpus/words/Walk.yaml", line: 1,
            severity: .error, words: "not a valid id segment"),
        Case(
            name: "skills slug",
            overrides: [
                "corpus/maths/arithmetic/addition/x-solve-basic.yaml": mcq.replacingOccurrences(
                    of: "33333333-3333-4333-8333-333333333333", with: "55555555-5555-4555-8555-555555555555")
            ], path: "corpus/maths/arithmetic/addition/x-solve-basic.yaml", line: 1, severity: .error,
            words: "^[a-z0-9_]+$"),
        Case(
            name: "mcq solution_index out of range",
            overrides: [question: mcq.replacingOccurrences(of: "solution_index: 1", with: "solution_index: 3")],
            path: question, line: 6, severity: .error, words: "solution_index 3 is not a choice"),
        Case(
            name: "mcq missing prompt",
            overrides: [question: mcq.replacingOccurrences(of: "  prompt: What is 2 + 2?\n", with: "")], path: question,
            line: 4, severity: .error, words: "missing required field 'payload.prompt'"),
        Case(
            name: "reorder solution not a permutation",
            overrides: [
                "corpus/maths/arithmetic/addition/order_steps.yaml": FixtureLibrary.files[
                    "corpus/maths/arithmetic/addition/order_steps.yaml"]!.replacingOccurrences(
                        of: "solution: [1, 0]", with: "solution: [1, 1]")
            ], path: "corpus/maths/arithmetic/addition/order_steps.yaml", line: 5, severity: .error,
            words: "must list every step index"),
        Case(
            name: "example without marker",
            overrides: [runPath: run.replacingOccurrences(of: "I {run} every day.", with: "I run every day.")],
            path: runPath, line: 7, severity: .error, words: "must mark the word once"),
        Case(
            name: "marked form differs",
            overrides: [runPath: run.replacingOccurrences(of: "They {ran} home.", with: "They {runned} home.")],
            path: runPath, line: 10, severity: .error, words: "marks 'runned' but forms.past is 'ran'"),
        Case(
            name: "example form unknown",
            overrides: [runPath: run.replacingOccurrences(of: "    form: base\n", with: "    form: infinitive\n")],
            path: runPath, line: 7, severity: .error, words: "form 'infinitive' is not one of forms"),
        Case(
            name: "blank position", overrides: [runPath: run.replacingOccurrences(of: "blank: 1", with: "blank: 2")],
            path: runPath, line: 19, severity: .error, words: "blank is 2 but ___ is word 1"),
        Case(
            name: "answer differs from example",
            overrides: [runPath: run.replacingOccurrences(of: "    answer: ran\n", with: "    answer: runs\n")],
            path: runPath, line: 19, severity: .error, words: "differs from example 2"),
        Case(
            name: "duplicate question id",
            overrides: [runPath: run.replacingOccurrences(of: "id: sentence-2", with: "id: translation")],
            path: runPath, line: 19, severity: .error, words: "duplicate question id"),
        Case(
            name: "answer among distractors",
            overrides: [runPath: run.replacingOccurrences(of: "[run, runs, running]", with: "[ran, runs, running]")],
            path: runPath, line: 19, severity: .error, words: "also listed as a distractor"),
        Case(
            name: "publish rule",
            overrides: [
                question: mcq.replacingOccurrences(of: "published: true", with: "published: false"),
                "corpus/maths/arithmetic/addition/order_steps.yaml": FixtureLibrary.files[
                    "corpus/maths/arithmetic/addition/order_steps.yaml"]!.replacingOccurrences(
                        of: "published: true", with: "published: false"),
            ], path: "corpus/maths/arithmetic/addition/skill.yaml", line: 3, severity: .error,
            words: "published but has no published question"),
        Case(
            name: "duplicate uuid", overrides: ["corpus/maths/arithmetic/addition/copy.yaml": mcq],
            path: "corpus/maths/arithmetic/addition/two_plus_two.yaml", line: 1, severity: .error,
            words: "is already used by"),
        Case(
            name: "rote.yaml lists a missing deck", overrides: ["rote.yaml": "format: 1\ndecks: [words, nope]\n"],
            path: "rote.yaml", line: 2, severity: .error, words: "lists deck 'nope'"),
        Case(
            name: "progress for another entry",
            overrides: ["profiles/ana/progress/words/go.yaml": "entry: words/run\n"],
            path: "profiles/ana/progress/words/go.yaml", line: 1, severity: .error, words: "path says 'words/go'"),
        Case(
            name: "progress for an unknown entry",
            overrides: ["profiles/ana/progress/words/fly.yaml": "entry: words/fly\n"],
            path: "profiles/ana/progress/words/fly.yaml", line: 1, severity: .warning, words: "not in the corpus"),
        Case(
            name: "unknown grade",
            overrides: [
                "profiles/ana/progress/words/go.yaml":
                    "entry: words/go\nreviews:\n  - {id: x, at: 2026-11-01T09:00:00Z, grade: great}\n"
            ], path: "profiles/ana/progress/words/go.yaml", line: 3, severity: .error, words: "unknown grade 'great'"),
        Case(
            name: "timestamp without zone",
            overrides: [
                "profiles/ana/progress/words/go.yaml":
                    "entry: words/go\nreviews:\n  - {id: x, at: 2026-11-01T09:00:00, grade: good}\n"
            ], path: "profiles/ana/progress/words/go.yaml", line: 3, severity: .error, words: "UTC timestamp"),
        Case(
            name: "duplicate review id",
            overrides: [
                "profiles/ana/progress/words/go.yaml":
                    "entry: words/go\nreviews:\n  - {id: x, at: 2026-11-01T09:00:00Z, grade: good}\n  - {id: x, at: 2026-11-02T09:00:00Z, grade: good}\n"
            ], path: "profiles/ana/progress/words/go.yaml", line: 4, severity: .warning, words: "appears twice"),
        Case(
            name: "new_per_day zero",
            overrides: ["profiles/ana/profile.yaml": ValidationRuleTests.profile(with: "  new_per_day: 0\n")],
            path: "profiles/ana/profile.yaml", line: 3, severity: .error,
            words: "settings.new_per_day is 0, but it must be at least 1"),
        Case(
            name: "reviews_per_day negative",
            overrides: [
                "profiles/ana/profile.yaml": ValidationRuleTests.profile(
                    with: "  daily_goal: 20\n  reviews_per_day: -5\n")
            ], path: "profiles/ana/profile.yaml", line: 4, severity: .error,
            words: "settings.reviews_per_day is -5, but it must be at least 1"),
        Case(
            name: "working_set zero",
            overrides: ["profiles/ana/profile.yaml": ValidationRuleTests.profile(with: "  working_set: 0\n")],
            path: "profiles/ana/profile.yaml", line: 3, severity: .error,
            words: "settings.working_set is 0, but it must be at least 1"),
        Case(
            name: "maximum_interval negative",
            overrides: [
                "profiles/ana/profile.yaml": ValidationRuleTests.profile(with: "  fuzz: true\n  maximum_interval: -1\n")
            ], path: "profiles/ana/profile.yaml", line: 4, severity: .error,
            words: "settings.maximum_interval is -1, but it must be at least 1"),
        Case(
            name: "profile of another user", overrides: ["profiles/ana/profile.yaml": "user: bo\n"],
            path: "profiles/ana/profile.yaml", line: 1, severity: .error, words: "make them match"),
        Case(
            name: "deck without deck.yaml", overrides: ["corpus/extra/word.yaml": run], path: "corpus/extra/word.yaml",
            line: 1, severity: .error, words: "has no readable corpus/extra/deck.yaml"),
        Case(
            name: "unknown deck kind",
            overrides: ["corpus/verses/deck.yaml": "kind: poems\ntitle: V\nversion: 1.0.0\n"],
            path: "corpus/verses/deck.yaml", line: 1, severity: .error, words: "unknown deck kind 'poems'"),
        Case(
            name: "bad version", overrides: ["corpus/verses/deck.yaml": "kind: passages\ntitle: V\nversion: one\n"],
            path: "corpus/verses/deck.yaml", line: 3, severity: .error, words: "not a semantic version"),
        Case(
            name: "letter point outside the box",
            overrides: [
                "corpus/letters/l.yaml": "glyph: latin-small-l\norder: 1\nstrokes:\n  - [[50, 10], [50, 180]]\n"
            ], path: "corpus/letters/l.yaml", line: 4, severity: .error, words: "outside the 0…100 box"),
        Case(
            name: "letters share an order",
            overrides: [
                "corpus/letters/i.yaml": "glyph: latin-small-i\norder: 1\nstrokes:\n  - [[50, 40], [50, 80]]\n"
            ], path: "corpus/letters/l.yaml", line: 3, severity: .error, words: "order 1 is also used"),
        Case(
            name: "missing optional field is a warning",
            overrides: [question: mcq.replacingOccurrences(of: "explanation: Two and two make four.\n", with: "")],
            path: question, line: 2, severity: .warning, words: "missing optional field 'explanation'"),
        // Content quality (docs/format.md, "Content checks").
        Case(
            name: "example translation not in Arabic script",
            overrides: [
                runPath: run.replacingOccurrences(of: "ar: هم {ركضوا} إلى البيت.", with: "ar: They {ran} home.")
            ], path: runPath, line: 11, severity: .warning, words: "examples[2].ar has no Arabic letter"),
        Case(
            name: "Arabic definition not in Arabic script",
            overrides: [
                runPath: run.replacingOccurrences(
                    of: "rank: 157\n", with: "rank: 157\ndefinition: {en: to move fast, ar: to move fast}\n")
            ], path: runPath, line: 6, severity: .warning, words: "definition.ar has no Arabic letter"),
        Case(
            name: "translation not in Arabic script in an Arabic deck",
            overrides: [
                runPath: run.replacingOccurrences(of: "translation: يجري", with: "translation: yajri"),
                "corpus/words/deck.yaml": ValidationRuleTests.arabicDeck,
            ], path: runPath, line: 3, severity: .warning, words: "translation has no Arabic letter"),
        Case(
            name: "alternative not in Arabic script in an Arabic deck",
            overrides: [
                runPath: run.replacingOccurrences(
                    of: "translation: يجري\n", with: "translation: يجري\nalternatives: [يركض, yarkud]\n"),
                "corpus/words/deck.yaml": ValidationRuleTests.arabicDeck,
            ], path: runPath, line: 4, severity: .warning, words: "alternatives[2] has no Arabic letter"),
        Case(
            name: "distractor twice",
            overrides: [runPath: run.replacingOccurrences(of: "[يمشي, يجلس, يقف]", with: "[يمشي, يجلس, يمشي]")],
            path: runPath, line: 14, severity: .warning, words: "distractor 'يمشي' is listed twice"),
        Case(
            name: "answer among distractors in another case",
            overrides: [runPath: run.replacingOccurrences(of: "[run, runs, running]", with: "[Ran, runs, running]")],
            path: runPath, line: 19, severity: .error, words: "also listed as a distractor"),
        Case(
            name: "reverse distractor of another part of speech",
            overrides: [
                runPath: run.replacingOccurrences(
                    of: "questions:\n",
                    with:
                        "questions:\n  - id: reverse\n    type: reverse_translation\n    prompt: يجري\n    answer: run\n    distractors: [go, he, sit]\n"
                ), "corpus/words/he.yaml": ValidationRuleTests.he,
            ], path: runPath, line: 14, severity: .warning, words: "distractor 'he' is a pronoun in this deck"),
        Case(
            name: "rank twice in a deck",
            overrides: [
                "corpus/words/go.yaml": FixtureLibrary.files["corpus/words/go.yaml"]!.replacingOccurrences(
                    of: "rank: 33", with: "rank: 157")
            ], path: runPath, line: 5, severity: .warning, words: "rank 157 is also the rank of corpus/words/go.yaml"),
        Case(
            name: "lemma twice in a deck",
            overrides: ["corpus/words/run-again.yaml": run.replacingOccurrences(of: "rank: 157", with: "rank: 158")],
            path: "corpus/words/run-again.yaml", line: 1, severity: .warning,
            words: "'run' (verb) is also in corpus/words/run.yaml"),
        Case(
            name: "CEFR above its batch",
            overrides: [runPath: run.replacingOccurrences(of: "rank: 157\n", with: "rank: 157\ncefr: B1\nbatch: 2\n")],
            path: runPath, line: 6, severity: .warning, words: "cefr B1 in batch 2, whose words are A1 (or A2)"),
        Case(
            name: "CEFR below its batch",
            overrides: [runPath: run.replacingOccurrences(of: "rank: 157\n", with: "rank: 157\ncefr: A1\nbatch: 12\n")],
            path: runPath, line: 6, severity: .warning, words: "move the word to an earlier batch (1–9)"),
        Case(
            name: "not a CEFR level",
            overrides: [runPath: run.replacingOccurrences(of: "rank: 157\n", with: "rank: 157\ncefr: A3\n")],
            path: runPath, line: 6, severity: .warning, words: "cefr 'A3' is not a CEFR level"),
        Case(
            name: "passage opening with narration",
            overrides: [
                "corpus/verses/joh-11-35.yaml":
                    "reference: John 11:14\ntext: Then said Jesus unto them plainly, Lazarus is dead.\n"
            ], path: "corpus/verses/joh-11-35.yaml", line: 2, severity: .warning,
            words: "the text holds narration ('said Jesus')"),
        Case(
            name: "passage with a narration clause",
            overrides: [
                "corpus/verses/joh-11-35.yaml":
                    "reference: Mark 4:9\ntext: And he said unto them, He that hath ears to hear, let him hear.\n"
            ], path: "corpus/verses/joh-11-35.yaml", line: 2, severity: .warning,
            words: "the text holds narration ('And he said unto them,')"),
        Case(
            name: "passage ending in narration",
            overrides: [
                "corpus/verses/joh-11-35.yaml":
                    "reference: Luke 15:3\ntext: Ye know this, and he spake this parable unto them, saying,\n"
            ], path: "corpus/verses/joh-11-35.yaml", line: 2, severity: .warning,
            words: "the text holds narration ('saying,')"),
        Case(
            name: "sentence without blank",
            overrides: [
                runPath: run.replacingOccurrences(of: "sentence: They ___ home.", with: "sentence: They ran home.")
            ], path: runPath, line: 19, severity: .error, words: "no ___ blank"),
    ]

    static let arabicDeck =
        "kind: vocabulary\ntitle: Words\nlanguages: {source: en, target: ar}\nversion: 1.0.0\norder: rank\n"
    static let he = "word: he\npos: pronoun\ntranslation: هو\nforms: {base: he}\nrank: 300\n"

    static func profile(with settings: String) -> String {
        "user: ana\nsettings:\n" + settings + "created_at: 2026-11-01T09:00:00Z\n"
    }

    static var aliasBomb: String {
        var lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...20 {
            lines.append(
                "l\(level): &l\(level) ["
                    + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        lines.append("examples: *l20")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The part-of-speech rule stays quiet where a deck cannot tell: a word English uses as
    /// noun and verb (the deck's 'walk' is a verb, a noun answer may take it), and a
    /// translation-match distractor (هو is 'he' and 'it').
    @Test func theDistractorRuleStaysQuietWhereTheDeckCannotTell() async throws {
        let directory = TemporaryDirectory()
        let walk = "word: walk\npos: verb\ntranslation: يمشي\nforms: {base: walk}\nrank: 301\n"
        let it = "word: it\npos: noun\ntranslation: هو\nforms: {base: it}\nrank: 302\n"
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "corpus/words/walk.yaml": walk, "corpus/words/he.yaml": Self.he, "corpus/words/it.yaml": it,
                "corpus/words/go.yaml": FixtureLibrary.files["corpus/words/go.yaml"]!
                    .replacingOccurrences(of: "pos: verb", with: "pos: noun").replacingOccurrences(
                        of: "[يأتي, يأكل, ينام]", with: "[يمشي, هو, ينام]")
                    + "  - id: reverse\n    type: reverse_translation\n    prompt: يذهب\n    answer: go\n    distractors: [walk, sit, stand]\n",
            ])
        let library = try LibraryLoader().load(directory.url)
        #expect(!library.diagnostics.contains { $0.message.contains("distractor") }, "\(library.diagnostics)")
    }

    @Test func theFixtureIsClean() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        let library = try LibraryLoader().load(directory.url)
        #expect(library.diagnostics.isEmpty, "\(library.diagnostics)")
        #expect(library.entries.count == 6)
    }

    @Test(arguments: cases) func reportsTheProblem(_ rule: Case) async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory, overrides: rule.overrides)
        if rule.name == "not UTF-8" {
            directory.write("corpus/words/bad.yaml", Data([0x77, 0x6F, 0x72, 0x64, 0x3A, 0x20, 0x63, 0xE9, 0x0A]))
        }
        let library = try LibraryLoader().load(directory.url)
        let match = library.diagnostics.first {
            $0.path == rule.path && $0.severity == rule.severity && $0.message.contains(rule.words)
        }
        #expect(
            match != nil,
            "expected \(rule.severity) at \(rule.path) containing '\(rule.words)'; got:\n\(library.diagnostics.map(\.description).joined(separator: "\n"))"
        )
        if let match, let line = rule.line { #expect((match.line ?? 1) == line, "\(match)") }
        // One bad file never stops the others: the entries of untouched files all load.
        let ids = Set(library.entries.map(\.id))
        for id in ["verses/joh-11-35", "words/go"]
        where !rule.overrides.keys.contains(where: { $0.contains(id.split(separator: "/").last!) })
            && rule.name != "unknown deck kind" && rule.name != "bad version"
        {
            #expect(ids.contains(id), "\(id) should still load")
        }
    }

    @Test func aFiftyMegabyteFileIsRefusedWithoutReadingIt() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        directory.write("corpus/words/huge.yaml", Data(repeating: 0x61, count: 50 << 20))
        let library = try LibraryLoader().load(directory.url)
        #expect(library.errors.contains { $0.path == "corpus/words/huge.yaml" && $0.message.contains("50 MiB") })
        #expect(library.entries.count == 6)
    }

    @Test func aSymlinkOutOfTheLibraryIsRefused() async throws {
        let directory = TemporaryDirectory()
        let outside = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        outside.write("secret.yaml", "word: x\n")
        try FileManager.default.createSymbolicLink(
            at: directory.url.appending(path: "corpus/words/leak.yaml"),
            withDestinationURL: outside.url.appending(path: "secret.yaml"))
        let library = try LibraryLoader().load(directory.url)
        #expect(
            library.errors.contains {
                $0.path == "corpus/words/leak.yaml" && $0.message.contains("outside the library")
            })
    }

    @Test func aFolderThatIsNotAGitRepositoryStillLoads() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory, git: false)
        let library = try LibraryLoader().load(directory.url)
        #expect(library.errors.contains { $0.message.contains("is not a git repository") })
        #expect(library.entries.count == 6)
    }

    @Test func aMissingManifestIsNotALibrary() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory, overrides: ["rote.yaml": ""])
        #expect(throws: LibraryError.self) { try LibraryLoader().load(directory.url) }
        do {
            _ = try LibraryLoader().load(directory.url)
        } catch let error as LibraryError {
            #expect(error.code == .notALibrary)
            #expect(error.message.contains("rote init"))
        }
    }
}
