import ArgumentParser
import Foundation
import RoteModel
import Scheduling

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay review histories given as JSON lines and print the scheduler's state after each review.",
        discussion: """
            Reads lines in the format of FSRS's reference vectors — {"id", "parameters", \
            "desired_retention", "learning_steps_s", "relearning_steps_s", "maximum_interval", \
            "reviews": [{"at", "rating"}]} (other keys ignored, missing settings take the \
            defaults) — and writes one line per input line: {"id", "reviews": [{"state", \
            "step", "stability", "difficulty", "due"}]}; with --scheduler sm2, ease and \
            interval in place of stability and difficulty. A bad line is reported on stderr \
            as <stdin>:LINE: error: … and the next line is read; the exit status is then 1.

            Example: rote replay < Tests/SchedulingTests/Fixtures/fsrs/fsrs6-vectors.jsonl
            """
    )

    @Option(help: ArgumentHelp("fsrs (default) or sm2, for lines that do not name one.", valueName: "name"))
    var scheduler: String = "fsrs"

    @Flag(help: "Turn deterministic fuzz on for lines that do not say (off by default, as in the reference vectors).")
    var fuzz = false

    func validate() throws {
        guard SchedulerKind(name: scheduler) != nil else {
            throw ValidationError("unknown scheduler '\(scheduler)'; use fsrs or sm2")
        }
    }

    func run() throws {
        let defaults: SchedulerSettings
        do {
            defaults = try SchedulerSettings(scheduler: SchedulerKind(name: scheduler), enableFuzzing: fuzz)
        } catch {
            throw CLIError(error.message)
        }
        var number = 0
        var failures = 0
        var output = ""
        // Lines are replayed a batch at a time on every core, and printed in input order.
        var batch: [String] = []
        func replayBatch() {
            for result in ReplayJSONLines.replayLines(
                batch, firstLineNumber: number - batch.count + 1, defaults: defaults)
            {
                switch result {
                case .success(let text):
                    output += text + "\n"
                case .failure(let diagnostic):
                    failures += 1
                    flush(&output)
                    Terminal.error(diagnostic.inFile("<stdin>").description)
                case nil:
                    break
                }
                if output.utf8.count > 1 << 16 { flush(&output) }
            }
            batch.removeAll(keepingCapacity: true)
        }
        while let line = readLine(strippingNewline: true) {
            number += 1
            batch.append(line)
            if batch.count == 2_048 { replayBatch() }
        }
        replayBatch()
        flush(&output)
        if failures > 0 {
            Terminal.error("\(failures) of \(number) lines could not be replayed")
            throw ExitCode(1)
        }
    }

    private func flush(_ output: inout String) {
        guard !output.isEmpty else { return }
        Terminal.data(output)
        output = ""
    }
}
