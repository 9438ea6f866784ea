import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import RoteSync
import Scheduling
import Study

struct OptimizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract:
            "Fit FSRS-6's 21 parameters to your own reviews, record them in your profile, and reschedule with them.",
        discussion: """
            Reads your progress files (entries of FSRS decks; with --deck, that deck's alone), \
            fits the parameters as fsrs-rs — the optimizer inside Anki — does, writes them to \
            your profile (settings.fsrs_parameters, or deck_fsrs_parameters for --deck) and \
            replays every progress file they change, all in one commit whose message gives the \
            log loss and RMSE(bins) before and after. The same reviews give the same parameters \
            on every device. A review counts when it comes a day or more after the one before; \
            with fewer than \(FSRSOptimizer.minimumReviews) of them Rote says so, keeps the \
            defaults and writes nothing. Parameters that predict your reviews no better (in \
            log loss) than the ones in use are not written either.

            With --histories FILE (JSON lines in `rote replay`'s format; - for stdin) it fits \
            those histories instead, prints the result and writes nothing; bad lines are \
            reported as `rote replay` reports them, and then nothing is fitted.

            Examples: rote optimize; rote optimize --deck kjv --dry-run; \
            rote optimize --histories reviews.jsonl --format json
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(
        help: ArgumentHelp(
            "Fit this deck's reviews alone, and record the parameters for this deck only.", valueName: "deck"))
    var deck: String?

    @Option(
        help: ArgumentHelp(
            "Fit the histories in FILE (rote replay's JSON lines; - for stdin) and write nothing.", valueName: "file"))
    var histories: String?

    @Option(
        help: ArgumentHelp(
            "text (default) or json: {\"parameters\", \"log_loss\", \"rmse_bins\", \"reviews\"}.", valueName: "format"))
    var format: String = "text"

    @Flag(help: "Fit and show the result, but change nothing.")
    var dryRun = false

    @Option(
        help: ArgumentHelp(
            "Fit even with fewer reviews than the \(FSRSOptimizer.minimumReviews) Rote asks for (with few, a fit often predicts worse than the defaults).",
            valueName: "n"))
    var minimumReviews: Int = FSRSOptimizer.minimumReviews

    @Option(
        help: ArgumentHelp(
            "Threads to fit with, at most one per core (default: every core). The result is the same with any number.",
            valueName: "n"))
    var threads: Int?

    func validate() throws {
        try FittingOutput.validate(format: format, threads: threads)
        if minimumReviews < 0 { throw ValidationError("--minimum-reviews must be 0 or more") }
        if histories != nil, deck != nil {
            throw ValidationError(
                "--deck picks reviews from the library and --histories brings its own; use one of them")
        }
    }

    func run() throws {
        var configuration = FSRSOptimizer.Configuration()
        configuration.threads = threads
        configuration.minimumReviews = minimumReviews
        if let histories {
            let data = FSRSDataset(histories: try FittingOutput.readHistories(histories, action: "fitted"))
            let outcome = FSRSOptimizer.fit(data, configuration: configuration)
            try report(
                outcome, data: data, current: FSRSParameters.defaultValues, who: "these histories", result: .notWritten)
            return
        }
        let library = try CommandContext.library(rote.global)
        let optimization = try library.optimize(deck: deck, configuration: configuration, dryRun: dryRun)
        let who = deck.map { "\(library.user)'s \($0) reviews" } ?? "\(library.user)'s reviews"
        try report(
            optimization.outcome, data: optimization.data, current: optimization.current, who: who,
            result: optimization.result, scores: optimization.scores)
        if format == "text" { recommend(library, optimization) }
    }

    /// The desired retention these parameters make cheapest per memorised entry, on the
    /// learner's limits and answer times (`rote simulate --recommend`); shown, never applied.
    private func recommend(_ library: Library, _ optimization: Optimization) {
        var question = WorkloadQuestion()
        question.deck = deck
        if case .fitted(let fit) = optimization.outcome { question.parameters = fit.parameters }
        question.recommend = true
        do {
            let forecast = try library.simulateWorkload(question)
            print("")
            for line in WorkloadOutput.recommendation(forecast, profile: library.paths.profile) { print(line) }
            print("  (rote simulate --recommend shows the year day by day.)")
        } catch {
            Terminal.note("rote optimize: no recommended retention: \(error)")
        }
    }

    /// Prints the outcome in the chosen format; `scores` are the current and fitted
    /// parameters' evaluations when already computed.
    private func report(
        _ outcome: FSRSOptimizer.Outcome, data: FSRSDataset, current: [Double], who: String,
        result: Optimization.Result,
        scores: (before: FSRSOptimizer.Evaluation?, after: FSRSOptimizer.Evaluation?)? = nil
    ) throws {
        let fitted: FSRSOptimizer.Fit?
        if case .fitted(let fit) = outcome { fitted = fit } else { fitted = nil }
        let parameters = fitted?.parameters ?? current
        let before = scores?.before ?? FSRSOptimizer.evaluate(data, parameters: current, threads: threads)
        let after =
            fitted == nil
            ? before : (scores?.after ?? FSRSOptimizer.evaluate(data, parameters: parameters, threads: threads))
        if format == "json" {
            Terminal.data(
                FittingOutput.json(
                    parameters: parameters, evaluation: after, reviews: data.itemCount,
                    extra: [("fitted", fitted != nil ? "true" : "false")]) + "\n")
            if case .notEnoughData(let reason) = outcome { Terminal.note("rote optimize: \(reason)") }
            if case .notBetter = result {
                Terminal.note(
                    "rote optimize: the fit predicts these reviews no better than the parameters in use (log loss \(FSRSFitting.fixed(before?.logLoss, 4))); nothing was written"
                )
            }
            return
        }
        guard let fitted else {
            if case .notEnoughData(let reason) = outcome {
                print("Not fitted: \(reason). Nothing was written.")
                if data.itemCount < minimumReviews, data.itemCount >= 64 {
                    print(
                        "To fit anyway: --minimum-reviews \(data.itemCount) (docs/scheduling.md says what to expect).")
                }
            }
            return
        }
        print(
            "Fitted FSRS-6 to \(who): \(data.itemCount) reviews a day or more apart, from \(data.cardCount) entr\(data.cardCount == 1 ? "y" : "ies")\(fitted.initialStabilityOnly ? " (too few beyond each entry's first interval: only w0–w3 fitted)" : "")."
        )
        print("  log loss    \(FSRSFitting.fixed(before?.logLoss, 4)) → \(FSRSFitting.fixed(after?.logLoss, 4))")
        print("  RMSE(bins)  \(FSRSFitting.fixed(before?.rmseBins, 4)) → \(FSRSFitting.fixed(after?.rmseBins, 4))")
        print("  parameters  \(FSRSFitting.list(parameters))")
        switch result {
        case .committed(let commit, let replayed):
            print(
                "Recorded in your profile and replayed \(replayed) progress file\(replayed == 1 ? "" : "s") with them: commit \(commit)."
            )
        case .unchanged:
            print("These are the parameters already recorded; nothing changed.")
        case .notBetter:
            print("They predict these reviews no better than the parameters in use, so nothing was written.")
        case .notWritten:
            if dryRun { print("Dry run: nothing was written.") }
        }
    }
}

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "How well FSRS parameters predict your reviews: log loss and RMSE(bins), as fsrs-rs defines them.",
        discussion: """
            Scores the parameters that schedule you now (your fitted ones, or the defaults; with \
            --deck, that deck's) on your reviews, or on --histories FILE (rote replay's JSON \
            lines; - for stdin). With --parameters, scores that set too, beside the current one. \
            Lower is better for both. Log loss is the recency-weighted mean binary cross-entropy \
            of the predicted recall; RMSE(bins) the weighted root mean square gap between \
            predicted and actual recall over fsrs-rs's bins of interval, review count and lapses.

            Examples: rote evaluate; rote evaluate --parameters "0.4,1.2,…" (21 numbers); \
            rote evaluate --histories reviews.jsonl --format json
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(
        help: ArgumentHelp(
            "Score on this deck's reviews alone, with the parameters that schedule it.", valueName: "deck"))
    var deck: String?

    @Option(
        help: ArgumentHelp("Score on the histories in FILE (rote replay's JSON lines; - for stdin).", valueName: "file")
    )
    var histories: String?

    @Option(help: ArgumentHelp("21 numbers (commas or spaces) to score as well.", valueName: "w0,…,w20"))
    var parameters: String?

    @Option(
        help: ArgumentHelp(
            "text (default) or json: {\"parameters\", \"log_loss\", \"rmse_bins\", \"reviews\"} for --parameters' set, else the current one.",
            valueName: "format"))
    var format: String = "text"

    @Option(
        help: ArgumentHelp(
            "1 to score on one thread (default: every core). The result is the same with any number.", valueName: "n"))
    var threads: Int?

    func validate() throws {
        try FittingOutput.validate(format: format, threads: threads)
        if histories != nil, deck != nil {
            throw ValidationError(
                "--deck picks reviews from the library and --histories brings its own; use one of them")
        }
        if let parameters { _ = try FittingOutput.parameters(parameters) }
    }

    func run() throws {
        let given = try parameters.map(FittingOutput.parameters)
        let data: FSRSDataset
        let current: [Double]
        let currentName: String
        if let histories {
            data = FSRSDataset(histories: try FittingOutput.readHistories(histories, action: "scored"))
            current = FSRSParameters.defaultValues
            currentName = "default parameters"
        } else {
            let root = try CommandContext.locate(rote.global)
            let user = try CommandContext.user(at: root, rote.global)
            let library = try Library(root: root, user: user).learnerForFitting(deck: deck)
            // Reviews in a file that does not read are not scored; say which.
            for problem in library.errors.prefix(5) { Terminal.error(problem.description) }
            if library.errors.count > 5 {
                Terminal.error("… and \(library.errors.count - 5) more; run `rote check` for all")
            }
            let profile = library.profiles[user]
            data = FSRSDataset(histories: FSRSFitting.histories(library: library, user: user, deck: deck))
            current = FSRSFitting.currentParameters(profile: profile, deck: deck)
            let fitted = profile?.fsrsParameters(for: deck) != nil && current != FSRSParameters.defaultValues
            currentName = fitted ? "your fitted parameters" : "default parameters"
        }
        guard data.itemCount > 0 else {
            throw CLIError(
                "nothing to score: no review comes a day or more after the one before it (\(data.reviewCount) review\(data.reviewCount == 1 ? "" : "s") read)"
            )
        }
        let scoreCurrent = FSRSOptimizer.evaluate(data, parameters: current, threads: threads)!
        let scoreGiven = given.map { FSRSOptimizer.evaluate(data, parameters: $0, threads: threads)! }
        if format == "json" {
            Terminal.data(
                FittingOutput.json(
                    parameters: given ?? current, evaluation: scoreGiven ?? scoreCurrent, reviews: data.itemCount)
                    + "\n")
            return
        }
        print(
            "\(data.itemCount) reviews a day or more after the one before, from \(data.cardCount) entr\(data.cardCount == 1 ? "y" : "ies"):"
        )
        let width = max(currentName.count, given == nil ? 0 : "given parameters".count)
        func line(_ name: String, _ score: FSRSOptimizer.Evaluation) {
            print(
                "  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  log loss \(FSRSFitting.fixed(score.logLoss, 4))  RMSE(bins) \(FSRSFitting.fixed(score.rmseBins, 4))"
            )
        }
        line(currentName, scoreCurrent)
        if let scoreGiven { line("given parameters", scoreGiven) }
    }
}

/// What `rote optimize` and `rote evaluate` share: reading histories, parsing parameters,
/// and printing numbers.
enum FittingOutput {
    static func validate(format: String, threads: Int?) throws {
        guard format == "text" || format == "json" else {
            throw ValidationError("unknown format '\(format)'; use text or json")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    /// Histories from a JSON-lines file (or stdin for `-`). Bad lines are reported as
    /// `rote replay` reports them (`FILE:LINE: error: …`), and then nothing is done.
    static func readHistories(_ path: String, action: String) throws -> [[ReviewEvent]] {
        let data: Data
        let shown = path == "-" ? "<stdin>" : path
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw CLIError(
                    "\(path): cannot be read (missing, or not a file); give a JSON-lines file in `rote replay`'s format, or - for stdin"
                )
            }
            data = contents
        }
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        let (histories, diagnostics) = ReplayJSONLines.histories(lines)
        guard diagnostics.isEmpty else {
            for diagnostic in diagnostics { Terminal.error(diagnostic.inFile(shown).description) }
            throw CLIError(
                "\(diagnostics.count) of \(lines.count - (text.hasSuffix("\n") ? 1 : 0)) lines could not be read, so nothing was \(action); fix them (the format is `rote replay --help`'s) and run it again"
            )
        }
        return histories
    }

    /// 21 numbers given on the command line, checked against py-fsrs's bounds.
    static func parameters(_ text: String) throws -> [Double] {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "[" || $0 == "]" || $0.isNewline })
        var values: [Double] = []
        for part in parts {
            guard let value = Double(part), value.isFinite else {
                throw ValidationError(
                    "--parameters: '\(part)' is not a number; give 21 numbers separated by commas, e.g. the list `rote optimize` prints"
                )
            }
            values.append(value)
        }
        do {
            return try FSRSParameters(values).values
        } catch {
            throw ValidationError("--parameters: \(error.message)")
        }
    }

    /// `{"parameters": [...], "log_loss": …, "rmse_bins": …, "reviews": …}` with every double
    /// in its shortest round-trip form (null when there was nothing to score).
    static func json(
        parameters: [Double], evaluation: FSRSOptimizer.Evaluation?, reviews: Int, extra: [(String, String)] = []
    ) -> String {
        var out = "{\"parameters\": [\(parameters.map { $0.description }.joined(separator: ", "))]"
        out += ", \"log_loss\": \(evaluation.map { $0.logLoss.description } ?? "null")"
        out += ", \"rmse_bins\": \(evaluation.map { $0.rmseBins.description } ?? "null")"
        out += ", \"reviews\": \(reviews)"
        for (key, value) in extra { out += ", \"\(key)\": \(value)" }
        return out + "}"
    }
}
