import Foundation
import RoteModel
import RoteStore
import Scheduling

/// A deck's scheduling settings in words, each with where it came from — one line shared by
/// `rote show` and `rote stats`, so a learner can tell why a deck schedules as it does.
enum ScheduleText {
    static func describe(_ schedule: DeckSchedule) -> String {
        let settings = schedule.settings
        var parts: [String] = []
        if settings.scheduler == .fsrs {
            parts.append(
                "retention \(String(format: "%.2f", settings.desiredRetention)) (\(source(schedule.retention)))")
        } else {
            parts.append("SM-2")
        }
        parts.append("maximum interval \(settings.maximumInterval) days (\(source(schedule.maximumInterval)))")
        parts.append("learning steps \(steps(settings.learningSteps)) (\(source(schedule.learningSteps)))")
        parts.append("relearning steps \(steps(settings.relearningSteps)) (\(source(schedule.relearningSteps)))")
        let leech =
            settings.leechThreshold == 0
            ? "no leeches"
            : "leech at \(settings.leechThreshold) lapses, then \(settings.leechAction == .suspend ? "suspended" : "kept in study")"
        parts.append("\(leech) (\(source(schedule.leech)))")
        if settings.scheduler == .fsrs {
            switch schedule.parameters {
            case .fittedToDeck: parts.append("FSRS parameters fitted to this deck")
            case .fittedToLearner: parts.append("FSRS parameters fitted to your reviews")
            case .standard: parts.append("default FSRS parameters")
            }
        }
        return parts.joined(separator: " · ")
    }

    static func source(_ source: DeckSchedule.Source) -> String {
        switch source {
        case .learnerForDeck: "your setting for this deck"
        case .learner: "your setting"
        case .deck: "the deck's"
        case .standard: "default"
        }
    }

    /// Steps as written in a file, in minutes: `1m 10m`, or `none`.
    static func steps(_ seconds: [TimeInterval]) -> String {
        guard !seconds.isEmpty else { return "none" }
        return seconds.map { step in
            let minutes = step / 60
            return minutes == minutes.rounded() ? "\(Int(minutes))m" : "\(Int(step.rounded()))s"
        }.joined(separator: " ")
    }
}
