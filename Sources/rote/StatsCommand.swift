import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import Scheduling
import Study

#if canImport(Glibc)
import Glibc
#endif

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Your study at a glance: due counts, a 90-day heatmap, streaks, goal, retention, mastery.",
        discussion: """
            Everything is derived from your progress and session files; nothing is stored twice: \
            per skill of a skills deck, attempts, right answers, accuracy, when last practised and \
            mastery; the leeches (entries forgotten as often as their deck's leech_threshold, 8 unless set); each deck's scheduling settings and where each comes from (your profile, the deck, or the default). With --questions, each \
            question's times used and average success rate over every learner's sessions, worst \
            first. Once a day it reminds you of a sync older than 7 days and of publisher decks \
            with a newer version (nothing is fetched). Colour is used at a terminal unless \
            NO_COLOR is set.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Flag(
        help:
            "List the questions learners get wrong most (times used, average success rate), worst first, for an author."
    )
    var questions = false

    @Option(
        help: ArgumentHelp("With --questions: only this deck (or id prefix, such as math/algebra).", valueName: "deck"))
    var deck: String?

    @Option(help: ArgumentHelp("With --questions: how many to list (default 20).", valueName: "n"))
    var limit = 20

    func run() throws {
        let library = try CommandContext.library(rote.global)
        if questions {
            if let deck, library.decks[String(deck.split(separator: "/").first ?? "")] == nil {
                throw CLIError("no deck \(deck); decks are: \(library.deckOrder.joined(separator: ", "))")
            }
            let worst = QuestionStatistics.worst(library.questionStatistics(under: deck))
            guard !worst.isEmpty else {
                print("No question has been answered yet" + (deck.map { " in \($0)" } ?? "") + ".")
                return
            }
            print("questions answered worst first (every learner's sessions)" + (deck.map { ", \($0)" } ?? "") + ":")
            for statistics in worst.prefix(max(limit, 0)) {
                print("  \(statistics.entry) \(statistics.question)  \(statistics.summary)")
            }
            if worst.count > limit { print("  … \(worst.count - limit) more (--limit N)") }
            return
        }
        ReminderNotes.show(for: library)
        let stats = try library.stats()
        let colour = isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        print(
            "\(library.user): \(stats.dueToday) due today · \(stats.reviewsToday)/\(stats.dailyGoal) reviews toward today's goal (\(Int((stats.goalProgress * 100).rounded()))%)"
        )
        let week = stats.due.dropFirst().prefix(7).reduce(0, +)
        let month = stats.due.dropFirst().reduce(0, +)
        print("due in the next 7 days: \(week) · next 30 days: \(month)")
        print(
            "streak: \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s") · longest: \(stats.longestStreak)"
        )
        let desired = Int((stats.retention.desired * 100).rounded())
        if let achieved = stats.retention.achieved {
            print(
                "retention (last 30 days): \(Int((achieved * 100).rounded()))% of \(stats.retention.reviews) reviews remembered · desired \(desired)%"
            )
        } else {
            print("retention: no reviews of learned entries in the last 30 days · desired \(desired)%")
        }
        if stats.practiceReviews > 0 {
            print(
                "practice (answers that do not reschedule): \(stats.practiceToday) today · \(stats.practiceReviews) in the last 90 days"
            )
        }
        print("\nreviews per day, last 90 days:")
        Terminal.styled(stats.heatmap(colour: colour))
        print("\nmastery:")
        for deck in library.deckOrder {
            guard let levels = stats.mastery[deck], !levels.isEmpty else { continue }
            let parts = MasteryLevel.allCases.map {
                "\($0.rawValue.replacingOccurrences(of: "_", with: " ")) \(levels[$0] ?? 0)"
            }
            print("  \(deck): " + parts.joined(separator: " · "))
        }
        if !stats.leeches.isEmpty {
            print(
                "\nleeches (forgotten as often as their deck's leech threshold; rewrite them or `rote suspend ID`; `rote list --leeches` lists suspended ones too):"
            )
            for id in stats.leeches { print("  \(id)") }
        }
        print("\nscheduling per deck:")
        for deck in library.deckOrder {
            let schedule = DeckSchedule(library.decks[deck], profile: library.profile, deckName: deck)
            print("  \(deck): " + ScheduleText.describe(schedule))
        }
        if !stats.skills.isEmpty {
            print("\nskills:")
            for (skill, progress) in stats.skills.sorted(by: { $0.key < $1.key }) {
                print("  \(skill): " + progress.summary(formatDate: { Timestamp.local($0) }))
            }
        }
    }
}
