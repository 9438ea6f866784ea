import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

@testable import Exchange

@Suite struct DelimitedTextTests {
    @Test func quotesSeparatorsEmbeddedNewlinesAndABOM() throws {
        let text =
            "\u{FEFF}word,translation,usage_notes\r\nrun,يجري,\"fast, on foot\"\r\n\"say \"\"hi\"\"\",يقول,\"two\nlines\"\n\nlast,آخر,\n"
        let table = try DelimitedText.parse(Data(text.utf8), defaultSeparator: ",")
        #expect(table.columns == ["word", "translation", "usage_notes"])
        #expect(
            table.rows.map(\.fields) == [
                ["run", "يجري", "fast, on foot"], ["say \"hi\"", "يقول", "two\nlines"], ["last", "آخر", ""],
            ])
        #expect(table.rows.map(\.line) == [2, 3, 6], "a row's line is where it starts, counting embedded newlines")
    }

    @Test func ankiHeadersNameTheSeparatorColumnsAndHTML() throws {
        let text =
            "#separator:Semicolon\n#html:true\n#columns:Front;Back;Tags\n#tags column:3\nrun;\"<b>يجري</b>&nbsp;\";verb\n"
        let table = try DelimitedText.parse(Data(text.utf8), defaultSeparator: "\t")
        #expect(table.separator == ";")
        #expect(table.columns == ["Front", "Back", "Tags"])
        #expect(table.html && table.ankiHeaders && table.tagsColumn == 3)
        #expect(table.rows.first?.line == 5)
        #expect(DelimitedText.plainText(fromHTML: table.rows[0].fields[1]) == "يجري")
    }

    @Test func anUnclosedQuoteOrAnUnknownSeparatorIsAnError() {
        #expect(throws: DelimitedText.ParseError.unterminatedQuote(line: 2)) {
            try DelimitedText.parse(Data("a,b\n\"x,y\n".utf8), defaultSeparator: ",")
        }
        #expect(throws: DelimitedText.ParseError.badSeparator("colon-ish", line: 1)) {
            try DelimitedText.parse(Data("#separator:colon-ish\n".utf8), defaultSeparator: ",")
        }
    }

    @Test func renderingQuotesWhatNeedsIt() throws {
        let rows = [["a", "b"], ["x,y", "say \"hi\"\nthere"]]
        let text = DelimitedText.render(rows, separator: ",")
        #expect(text == "a,b\n\"x,y\",\"say \"\"hi\"\"\nthere\"\n")
        #expect(try DelimitedText.parse(Data(text.utf8), defaultSeparator: ",").rows.map(\.fields) == [rows[1]])
    }
}

@Suite struct TableImportTests {
    static func library() async throws -> (TemporaryDirectory, LoadedLibrary) {
        let directory = TemporaryDirectory("rote-table")
        await FixtureLibrary.write(into: directory, git: false)
        return (directory, try LibraryLoader().load(directory.url))
    }

    @Test func aVocabularyTableBecomesEntriesAndBadRowsAreSkippedByLine() async throws {
        let (_, library) = try await Self.library()
        let csv = """
            word,pos,translation,forms,rank,example_en,example_ar,example_form
            eat,verb,يأكل,base=eat; past=ate,200,I {eat} bread.,أنا {آكل} الخبز.,base
            ,noun,بيت,,,,,
            eat,verb,يأكل,,,,,
            walk,verb,يمشي,,many,,,
            sleep,verb,ينام,,,I {sleep}.,أنا أنام.,base
            book,noun,كتاب,,,,,

            """
        let plan = TableImporter(deck: "travel", kind: .vocabulary, file: "travel.csv").plan(
            Data(csv.utf8), library: library)
        #expect(!plan.isBlocked, "\(plan.issues)")
        #expect(
            Set(plan.changes.keys) == ["corpus/travel/deck.yaml", "corpus/travel/eat.yaml", "corpus/travel/book.yaml"])
        let skipped = plan.issues.filter { $0.severity == .skipped }.map { "\($0.location ?? ""): \($0.message)" }
        #expect(skipped.count == 4, "\(skipped)")
        #expect(skipped.contains("line 3: no 'word'"))
        #expect(skipped.contains("line 4: id 'eat' is also on line 2; each row needs its own id"))
        #expect(skipped.contains("line 5: rank 'many' is not a whole number"))
        #expect(skipped.contains { $0.hasPrefix("line 6:") && $0.contains("mark the translated word") })
        let eat = VocabularyEntry.decode(plan.changes["corpus/travel/eat.yaml"]!, path: "e").0
        #expect(eat?.forms.map(\.1) == ["eat", "ate"])
        #expect(eat?.rank == 200)
        #expect(eat?.examples.first?.translated == "أنا {آكل} الخبز.")
        #expect(DeckManifest.decode(plan.changes["corpus/travel/deck.yaml"]!, path: "d").0?.order == .rank)
        #expect(plan.report(dryRun: false).contains("4 rows skipped"))
    }

    @Test func theWrongColumnCountRefusesTheWholeFile() async throws {
        let (_, library) = try await Self.library()
        let csv = "reference,text\nJohn 1:1,In the beginning was the Word\nJohn 3:16,For God so loved, the world\n"
        let plan = TableImporter(deck: "john", kind: .passages, file: "john.csv").plan(Data(csv.utf8), library: library)
        #expect(plan.isBlocked && plan.changes.isEmpty)
        #expect(plan.errors.map(\.location) == ["line 3"])
        #expect(plan.errors[0].message.contains("3 fields but the header has 2"))
    }

    @Test func anAnkiTextExportWithoutColumnsReadsFrontAndBack() async throws {
        let (_, library) = try await Self.library()
        let text = "#separator:tab\n#html:true\nJohn 11:35\tJesus <i>wept</i>.\n"
        let plan = TableImporter(deck: "short", kind: .passages, file: "notes.txt").plan(
            Data(text.utf8), library: library)
        #expect(!plan.isBlocked, "\(plan.issues)")
        let passage = PassageEntry.decode(plan.changes["corpus/short/john-11-35.yaml"]!, path: "p").0
        #expect(passage?.reference == "John 11:35")
        #expect(passage?.text == "Jesus wept.")
    }

    @Test func kindsAndDecksMustAgree() async throws {
        let (_, library) = try await Self.library()
        let words = "word,translation\nrun,يجري\n"
        #expect(
            TableImporter(deck: "maths", file: "w.csv").plan(Data(words.utf8), library: library).errors.first?.message
                .contains("skills deck") == true)
        #expect(
            TableImporter(deck: "words", kind: .passages, file: "w.csv").plan(Data(words.utf8), library: library).errors
                .first?.message.contains("--kind says passages") == true)
        #expect(
            TableImporter(deck: "new", file: "w.csv").plan(Data("a,b\n1,2\n".utf8), library: library).errors.first?
                .message.contains("--kind") == true)
        #expect(
            TableImporter(deck: "new", kind: .vocabulary, file: "w.csv").plan(
                Data("word,pos\nrun,verb\n".utf8), library: library
            ).errors.first?.message.contains("no 'translation' column") == true)
    }

    @Test func appendKeepsEntriesOverrideUpdatesOnlyTheTablesFields() async throws {
        let (_, library) = try await Self.library()
        let csv = "id,word,pos,translation\nrun,run,verb,يركض\n"
        let append = TableImporter(deck: "words", file: "w.csv").plan(Data(csv.utf8), library: library)
        #expect(append.changes.isEmpty && append.kept == 1)
        let override = TableImporter(deck: "words", mode: .override, file: "w.csv").plan(
            Data(csv.utf8), library: library)
        #expect(override.replaced == 1)
        let run = VocabularyEntry.decode(override.changes["corpus/words/run.yaml"]!, path: "r").0
        #expect(run?.translation == "يركض")
        #expect(run?.examples.count == 2 && run?.questions.count == 2, "what the table does not have is kept")
    }

    @Test func anExportedDeckImportsBackToTheSameEntries() async throws {
        let (directory, library) = try await Self.library()
        for (deck, separator, kind) in [
            ("words", Character(","), TableKind.vocabulary), ("verses", Character("\t"), .passages),
        ] {
            let table = try DeckExport.table(deck: deck, library: library, separator: separator)
            let plan = TableImporter(deck: "\(deck)-copy", file: separator == "," ? "x.csv" : "x.tsv").plan(
                Data(table.utf8), library: library)
            #expect(!plan.isBlocked, "\(plan.issues)")
            for entry in library.entries where entry.deck == deck {
                let copy = plan.changes["corpus/\(deck)-copy/\(entry.id.dropFirst(deck.count + 1)).yaml"]
                var expected = entry.content
                if case var .vocabulary(word) = expected {
                    // Questions and examples after the first stay in the YAML; the first example is primary.
                    word.questions = []
                    word.examples = Array(word.examples.prefix(1)).map {
                        var example = $0
                        example.primary = true
                        return example
                    }
                    expected = .vocabulary(word)
                }
                #expect(
                    copy.flatMap {
                        EntryContent.decode($0, kind: kind == .vocabulary ? .vocabulary : .passages, path: "c").0
                    } == expected, "\(entry.id)")
            }
        }
        _ = directory
        #expect(throws: LibraryError.self) {
            try DeckExport.table(deck: "maths", library: library, separator: ",")
        }
        #expect(throws: LibraryError.self) {
            try DeckExport.table(deck: "nope", library: library, separator: ",")
        }
    }
}
