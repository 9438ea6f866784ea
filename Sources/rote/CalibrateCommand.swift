import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import Study

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract:
            "Estimate how many words you know (your lexical rank) with a short adaptive test, and warm-start the words below it.",
        discussion: """
            Asks at most 40 questions: "do you know this word?", and every fourth one a check — \
            choose its meaning among four. It stops as soon as the estimate is precise enough. \
            The result goes into your profile as lexical_rank, and every word well below it \
            (rank at most half of it) that you never studied gets a known state from two \
            reviews marked `synthetic: calibration`, in one commit. Calibrating again replaces \
            them; --undo removes them. The model and rules: docs/scheduling.md, "Calibration".

            With --json it speaks a line protocol for apps and scripts. Each question is one \
            JSON line on stdout:
              {"question": 1, "entry": "english-a1/run", "word": "run", "ask": "known"}
            answered by a line `known` or `unknown`, or
              {"question": 4, "entry": "…", "word": "…", "ask": "choice", "choices": ["…", "…", "…", "…"]}
            answered by the choice's number (1-4). It ends with
              {"result": {"lexical_rank": 412, "standard_error": 38.5, "questions": 24, "warm_started": 380}}
            Any other answer is an error (exit 1); if input ends before the result, nothing is written.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(
        help: ArgumentHelp(
            "Ask about this vocabulary deck's words only (default: every vocabulary deck).", valueName: "deck"))
    var deck: String?

    @Flag(help: "Speak the JSON line protocol (for apps and tests).")
    var json = false

    @Flag(help: "Remove every synthetic calibration review and lexical_rank, in one commit; real reviews stay.")
    var undo = false

    @Option(
        help: ArgumentHelp("Seed for the choice of distractors (default: random), to replay a test.", valueName: "n"))
    var seed: UInt64?

    func run() throws {
        let library = try CommandContext.library(rote.global)
        if undo {
            let hadRank = library.profile?.lexicalRank != nil
            let words = try library.undoCalibration()
            switch (words, hadRank) {
            case (0, false): print("No calibration to undo.")
            case (0, true): print("Removed your lexical rank; no word had calibration reviews to remove.")
            default:
                print("Removed the synthetic reviews of \(words) word\(words == 1 ? "" : "s") and your lexical rank.")
            }
            return
        }
        try library.requireProfile()
        let items = try library.calibrationItems(deck: deck)
        var test = Calibration(items: items, seed: seed ?? UInt64.random(in: 0...UInt64.max))
        // At a terminal each answer is one key, as in `rote study`; a script answers by lines.
        let keys = !json && TerminalConsole.isAvailable
        if keys { TerminalMode.installSignalRestore() }
        if !json {
            print(
                "How many words do you know? Answer y (I know it) or n (I don't); for a check, the meaning's number. About \(Calibration.maximumQuestions) questions at most."
                    + (keys ? " q stops, and nothing is written." : ""))
        }
        while let question = test.nextQuestion() {
            if json {
                Terminal.data(Self.jsonLine(question) + "\n")
            } else {
                print(Self.prompt(question))
            }
            while true {
                guard let line = keys ? try Self.key(answering: question) : readLine() else {
                    throw CLIError(
                        "input ended at question \(question.number), before the calibration finished; nothing was written"
                    )
                }
                do {
                    try test.answer(try Self.answer(line, to: question, strict: json))
                    break
                } catch let problem as AnswerProblem {
                    if json { throw CLIError("question \(question.number): \(problem.message)") }
                    print(problem.message)
                }
            }
        }
        // Every ranked word below the rank is warm-started, not only the bank the test asked from.
        let outcome = try library.recordCalibration(test.estimate, items: library.calibrationCandidates(deck: deck))
        if json {
            let error = JSONValue.number(outcome.standardError).serialized(pretty: false)
            Terminal.data(
                "{\"result\": {\"lexical_rank\": \(outcome.lexicalRank), \"standard_error\": \(error), \"questions\": \(outcome.questions), \"warm_started\": \(outcome.warmStarted)}}\n"
            )
        } else {
            print(
                "Your lexical rank: about \(outcome.lexicalRank) (± \(Int(outcome.standardError.rounded()))), from \(outcome.questions) questions."
            )
            print(
                "\(outcome.warmStarted) word\(outcome.warmStarted == 1 ? "" : "s") below it start as known"
                    + (outcome.replaced > 0 ? " (the earlier calibration's reviews were replaced)." : "."))
            print("`rote calibrate --undo` takes them out again.")
        }
    }

    /// One key at a terminal: y or n, or a choice's number; any other key rings the bell and
    /// waits, and q stops the test before anything is written. Returns the key as an answer
    /// line (`answer(_:to:strict:)` reads it), nil when input ended.
    static func key(answering question: Calibration.Question) throws -> String? {
        while true {
            guard let key = TerminalMode.readKey() else { return nil }
            if key == "q" {
                print("q")
                throw CLIError("stopped at question \(question.number); nothing was written")
            }
            let fits: Bool
            switch question.ask {
            case .known: fits = key == "y" || key == "n"
            case let .choice(choices, _): fits = key.wholeNumberValue.map { (1...choices.count).contains($0) } ?? false
            }
            if fits {
                print(key)
                return String(key)
            }
            FileHandle.standardOutput.write(Data("\u{07}".utf8))
        }
    }

    struct AnswerProblem: Error {
        let message: String
    }

    /// The answer a line gives: `known`/`unknown` (and, at a terminal, y/n), or a choice's
    /// number 1–4.
    static func answer(_ line: String, to question: Calibration.Question, strict: Bool) throws -> Calibration.Answer {
        let text = line.trimmingCharacters(in: .whitespaces).lowercased()
        switch question.ask {
        case .known:
            switch (text, strict) {
            case ("known", _), ("y", false), ("yes", false): return .known
            case ("unknown", _), ("n", false), ("no", false): return .unknown
            default:
                throw AnswerProblem(
                    message:
                        "'\(line)' is not an answer to \"do you know '\(question.item.word)'?\"; answer \(strict ? "known or unknown" : "y or n (or known, unknown)")"
                )
            }
        case let .choice(choices, _):
            guard let number = Int(text), (1...choices.count).contains(number) else {
                throw AnswerProblem(
                    message:
                        "'\(line)' is not one of the choices for '\(question.item.word)'; answer a number from 1 to \(choices.count)"
                )
            }
            return .choice(number - 1)
        }
    }

    static func prompt(_ question: Calibration.Question) -> String {
        switch question.ask {
        case .known:
            return "\(question.number). Do you know \"\(question.item.word)\"? [y/n]"
        case let .choice(choices, _):
            return "\(question.number). What does \"\(question.item.word)\" mean?\n"
                + choices.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        }
    }

    static func quoted(_ text: String) -> String { JSONValue.string(text).serialized(pretty: false) }

    static func jsonLine(_ question: Calibration.Question) -> String {
        var line =
            "{\"question\": \(question.number), \"entry\": \(Self.quoted(question.item.id)), \"word\": \(Self.quoted(question.item.word))"
        switch question.ask {
        case .known:
            line += ", \"ask\": \"known\"}"
        case let .choice(choices, _):
            line += ", \"ask\": \"choice\", \"choices\": [" + choices.map(Self.quoted).joined(separator: ", ") + "]}"
        }
        return line
    }
}
