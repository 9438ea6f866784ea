import RoteModel
import Testing

@Suite struct DiagnosticLogTests {
    @Test func linesAndLocationsPrintAsCompilersDo() {
        var log = DiagnosticLog(path: "corpus/deck/run.yaml")
        log.error(12, "examples[1].en has no {marker}")
        log.warning(nil, "no examples")
        log.skipped("line 4", "no word in column 'word'")
        log.error("", "not a JSON object")
        #expect(
            log.items.map(\.description) == [
                "corpus/deck/run.yaml:12: error: examples[1].en has no {marker}",
                "corpus/deck/run.yaml:1: warning: no examples",
                "corpus/deck/run.yaml: line 4: skipped: no word in column 'word'",
                "corpus/deck/run.yaml: error: not a JSON object",
            ])
        #expect(log.hasErrors)
    }

    @Test func errorsUnderALocationIncludeItsFieldsAndItemsOnly() {
        var log = DiagnosticLog(path: "seed.json")
        log.warning("skills[1]", "unknown key 'x' (ignored)")
        #expect(!log.hasErrors)
        #expect(!log.hasErrors(under: "skills[1]"))
        log.error("skills[0].questions[2].answer", "must be a string")
        #expect(log.hasErrors(under: "skills[0]"))
        #expect(log.hasErrors(under: "skills[0].questions"))
        #expect(log.hasErrors(under: "skills[0].questions[2].answer"))
        #expect(!log.hasErrors(under: "skills[1]"))
        // A longer name that merely starts the same is another field.
        #expect(!log.hasErrors(under: "skills[0].question"))
    }
}
