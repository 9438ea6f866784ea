import ArgumentParser
import Foundation
import RoteLibrary
import RoteStore
import Scheduling
import Study

#if canImport(Glibc)
import Glibc
#endif

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Your study at a glance: due counts, a 90-day heatmap, streaks, goal, retention, mastery.",
        discussion: "Everything is derived from your progress and session files; nothing is stored twice. Colour is used at a terminal unless NO_COLOR is set."
    )

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let library = try CommandContext.library(global)
        let stats = try library.stats()
        let colour = isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        print("\(library.user): \(stats.dueToday) due today · \(stats.reviewsToday)/\(stats.dailyGoal) reviews toward today's goal (\(Int((stats.goalProgress * 100).rounded()))%)")
        let week = stats.due.dropFirst().prefix(7).reduce(0, +), month = stats.due.dropFirst().reduce(0, +)
        print("due in the next 7 days: \(week) · next 30 days: \(month)")
        print("streak: \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s") · longest: \(stats.longestStreak)")
        let desired = Int((stats.retention.desired * 100).rounded())
        if let achieved = stats.retention.achieved {
            print("retention (last 30 days): \(Int((achieved * 100).rounded()))% of \(stats.retention.reviews) reviews remembered · desired \(desired)%")
        } else {
            print("retention: no reviews of learned entries in the last 30 days · desired \(desired)%")
        }
        print("\nreviews per day, last 90 days:")
        Terminal.styled(stats.heatmap(colour: colour))
        print("\nmastery:")
        for deck in library.deckOrder {
            guard let levels = stats.mastery[deck], !levels.isEmpty else { continue }
            let parts = MasteryLevel.allCases.map { "\($0.rawValue.replacingOccurrences(of: "_", with: " ")) \(levels[$0] ?? 0)" }
            print("  \(deck): " + parts.joined(separator: " · "))
        }
    }
}
