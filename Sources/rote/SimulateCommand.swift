import ArgumentParser
import Foundation
import RoteLibrary
import RoteStore
import Scheduling

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a year of study: reviews and minutes a day, and entries memorised over time.",
        discussion: """
            Runs fsrs-rs's workload simulator (the one behind Anki's "optimal retention") on your \
            settings: your fitted FSRS parameters (`rote optimize`), else the defaults; your new \
            entries and reviews a day and desired retention from your profile; and your own \
            answer times where your reviews recorded them, else fsrs-rs's default times. It \
            starts the deck from scratch (--deck-size entries, by default every entry of the \
            deck, or of the library) and prints the mean of several seeded runs, by week or by \
            month. Memorised is the sum of every met entry's chance of recall that day. Nothing \
            is written.

            With --recommend it also searches 0.70…0.95 for the desired retention that costs \
            the least time per memorised entry within your limits, as fsrs-rs's \
            optimal_retention does, and says what that would cost a day. Applying it is up to \
            you: set desired_retention under settings in profiles/NAME/profile.yaml.

            Examples: rote simulate; rote simulate --deck kjv --retention 0.85 --days 180; \
            rote simulate --recommend; rote simulate --format json
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(help: ArgumentHelp("Simulate this deck: its parameters, answer times and size.", valueName: "deck"))
    var deck: String?

    @Option(help: ArgumentHelp("Desired retention to simulate, 0.70…0.99 (default: your profile's).", valueName: "r"))
    var retention: Double?

    @Option(help: ArgumentHelp("Days to simulate (default 365).", valueName: "n"))
    var days: Int?

    @Option(help: ArgumentHelp("New entries a day (default: your profile's new_per_day, else 10).", valueName: "k"))
    var newPerDay: Int?

    @Option(
        help: ArgumentHelp("Reviews a day (default: your profile's reviews_per_day, else 200).", valueName: "n"))
    var reviewsPerDay: Int?

    @Option(
        help: ArgumentHelp("Entries in the simulated deck (default: the deck's, or the library's).", valueName: "n"))
    var deckSize: Int?

    @Option(
        help: ArgumentHelp(
            "Minutes of study a day, after which the day's other entries wait (default: no cap; fsrs-rs's default is 30).",
            valueName: "m"))
    var minutesPerDay: Double?

    @Option(help: ArgumentHelp("21 FSRS-6 parameters to simulate instead of yours.", valueName: "w0,…,w20"))
    var parameters: String?

    @Flag(help: "Also recommend the desired retention with the least time per memorised entry.")
    var recommend = false

    @Option(help: ArgumentHelp("Runs to average (default 8).", valueName: "n"))
    var runs = 8

    @Option(
        help: ArgumentHelp(
            "text (default) or json: every day's reviews, minutes and memorised, and the recommendation.",
            valueName: "format"))
    var format: String = "text"

    func validate() throws {
        guard format == "text" || format == "json" else {
            throw ValidationError("unknown format '\(format)'; use text or json")
        }
        if let retention, !(0.7...0.99).contains(retention) {
            throw ValidationError("--retention must be between 0.70 and 0.99 (as desired_retention in a profile)")
        }
        if let days, !(1...36_500).contains(days) { throw ValidationError("--days must be 1 to 36500") }
        if let newPerDay, newPerDay < 0 { throw ValidationError("--new-per-day must be 0 or more") }
        if let reviewsPerDay, reviewsPerDay < 0 { throw ValidationError("--reviews-per-day must be 0 or more") }
        if let deckSize, !(1...10_000_000).contains(deckSize) {
            throw ValidationError("--deck-size must be 1 to 10000000")
        }
        if let minutesPerDay, !(minutesPerDay > 0) { throw ValidationError("--minutes-per-day must be more than 0") }
        if !(1...1_000).contains(runs) { throw ValidationError("--runs must be 1 to 1000") }
        if let parameters { _ = try FittingOutput.parameters(parameters) }
    }

    func run() throws {
        var question = WorkloadQuestion()
        question.deck = deck
        question.desiredRetention = retention
        question.days = days
        question.newPerDay = newPerDay
        question.reviewsPerDay = reviewsPerDay
        question.deckSize = deckSize
        question.minutesPerDay = minutesPerDay
        question.parameters = try parameters.map(FittingOutput.parameters)
        question.recommend = recommend
        question.seeds = runs
        let library = try CommandContext.library(rote.global)
        let forecast = try library.simulateWorkload(question)
        if format == "json" {
            Terminal.data(WorkloadOutput.json(forecast) + "\n")
            return
        }
        let c = forecast.configuration
        print(
            "Simulated \(c.learnSpan) days of \(deck.map { "deck \($0)" } ?? "your decks") from scratch: \(c.deckSize) entries, \(c.learnLimit) new and at most \(c.reviewLimit) reviews a day, desired retention \(WorkloadOutput.fixed(forecast.desiredRetention, 2)); mean of \(runs) run\(runs == 1 ? "" : "s")."
        )
        print("  parameters    \(WorkloadOutput.describe(forecast.parametersSource))")
        print(
            "  answer times  \(forecast.timedAnswers > 0 ? "your own (\(forecast.timedAnswers) timed answers; fsrs-rs's defaults where none)" : "fsrs-rs's defaults (no timed answers in your reviews)")"
        )
        print("")
        for line in WorkloadOutput.table(forecast.result) { print(line) }
        print("")
        print(WorkloadOutput.summary(forecast.result, retention: forecast.desiredRetention))
        if recommend {
            for line in WorkloadOutput.recommendation(forecast, profile: library.paths.profile) { print(line) }
        }
    }
}

/// The text and JSON shapes of a forecast, shared by `rote simulate` and `rote optimize`.
enum WorkloadOutput {
    static func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

    static func describe(_ source: WorkloadForecast.Source) -> String {
        switch source {
        case .given: "the ones given (--parameters)"
        case .fitted: "your fitted ones (rote optimize)"
        case .defaults: "FSRS-6's defaults (none fitted yet: rote optimize)"
        }
    }

    /// One line per week (per 30 days beyond 120 days): mean reviews and minutes a day over
    /// the period, and memorised on its last day.
    static func table(_ result: WorkloadSimulator.Result) -> [String] {
        let period = result.days.count > 120 ? 30 : 7
        let unit = period == 7 ? "week" : "days"
        var lines = [
            (unit == "week" ? "week" : "days     ").padding(toLength: 9, withPad: " ", startingAt: 0)
                + "  reviews/day  new/day  minutes/day  memorised"
        ]
        for start in stride(from: 0, to: result.days.count, by: period) {
            let slice = result.days[start..<min(start + period, result.days.count)]
            let n = Double(slice.count)
            let label = unit == "week" ? "\(start / 7 + 1)" : "\(start + 1)–\(start + slice.count)"
            let reviews = Double(slice.reduce(0) { $0 + $1.reviews }) / n
            let learned = Double(slice.reduce(0) { $0 + $1.learned }) / n
            let minutes = slice.reduce(0) { $0 + $1.cost } / n / 60
            lines.append(
                label.padding(toLength: 9, withPad: " ", startingAt: 0) + pad(fixed(reviews, 1), 13)
                    + pad(fixed(learned, 1), 9) + pad(fixed(minutes, 1), 13)
                    + pad(fixed(slice.last!.memorized, 0), 11))
        }
        return lines
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    static func summary(_ result: WorkloadSimulator.Result, retention: Double) -> String {
        let days = Double(max(result.days.count, 1))
        let minutes = result.days.reduce(0) { $0 + $1.cost } / days / 60
        let reviews = Double(result.days.reduce(0) { $0 + $1.reviews }) / days
        return
            "At \(fixed(retention, 2)): \(fixed(result.days.last?.memorized ?? 0, 0)) entries memorised by day \(result.days.count), \(fixed(reviews, 0)) reviews and \(fixed(minutes, 1)) minutes a day on average (\(fixed(result.costPerMemorized, 1)) s per memorised entry)."
    }

    static func recommendation(_ forecast: WorkloadForecast, profile: String) -> [String] {
        guard let best = forecast.recommendation else {
            return [
                "No recommended retention: the search did not settle within 0.70…0.95 on these settings (try more --days or a larger --deck-size)."
            ]
        }
        return [
            "Recommended desired retention: \(fixed(best.retention, 2)), the least time per memorised entry within your limits.",
            "  " + summary(best.result, retention: best.retention),
            "  To apply it, set desired_retention: \(fixed(best.retention, 2)) under settings in your profile (\(profile)); nothing was changed.",
        ]
    }

    static func json(_ forecast: WorkloadForecast) -> String {
        func number(_ value: Double) -> String {
            value.isFinite ? String(format: "%.4f", value) : "null"
        }
        func days(_ result: WorkloadSimulator.Result) -> String {
            "["
                + result.days.map {
                    "{\"reviews\":\($0.reviews),\"new\":\($0.learned),\"minutes\":\(number($0.cost / 60)),\"memorized\":\(number($0.memorized))}"
                }.joined(separator: ",") + "]"
        }
        let c = forecast.configuration
        var fields = [
            "\"parameters\":[\(forecast.parameters.map { "\($0)" }.joined(separator: ","))]",
            "\"parameters_source\":\"\(forecast.parametersSource.rawValue)\"",
            "\"desired_retention\":\(number(forecast.desiredRetention))",
            "\"deck_size\":\(c.deckSize)", "\"days\":\(c.learnSpan)", "\"new_per_day\":\(c.learnLimit)",
            "\"reviews_per_day\":\(c.reviewLimit)", "\"timed_answers\":\(forecast.timedAnswers)",
            "\"answer_seconds\":[\(c.stateRatingCosts.map { "[\($0.map(number).joined(separator: ","))]" }.joined(separator: ","))]",
            "\"seconds_per_memorized\":\(number(forecast.result.costPerMemorized))",
            "\"simulation\":\(days(forecast.result))",
        ]
        if let best = forecast.recommendation {
            fields.append(
                "\"recommendation\":{\"desired_retention\":\(number(best.retention)),\"seconds_per_memorized\":\(number(best.result.costPerMemorized)),\"simulation\":\(days(best.result))}"
            )
        } else if forecast.recommendationFailed {
            fields.append("\"recommendation\":null")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
