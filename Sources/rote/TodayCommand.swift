import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import Study

struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "The daily matrix: today's word family (root) and six words around it, chosen for your rank.",
        discussion: """
            The root is the same on every device for a date, offline: roots in name order, \
            number (days since 1970-01-01) mod (how many roots). Roots come from the \
            vocabulary entries' `root:` field. The six satellites are the family's words \
            nearest your lexical rank, then other words near it: your rank after rank \
            promotion, which raises it when easy answers come fast (docs/scheduling.md, "Rank \
            promotion"). Today only reads; your next study session saves the promotion \
            (easy_rating_velocity, cycle_count, lexical_rank) to your profile.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(help: ArgumentHelp("Show the matrix of this date (YYYY-MM-DD) instead of today's.", valueName: "date"))
    var date: String?

    @Flag(help: "Use the lexical rank your profile holds, without rank promotion.")
    var noPromotion = false

    func run() throws {
        var when = Date()
        var zone = TimeZone.current
        if let date {
            guard let parsed = Timestamp.parse(date + "T12:00:00Z") else {
                throw ValidationError("--date takes a date as YYYY-MM-DD, not '\(date)'")
            }
            when = parsed
            zone = TimeZone(identifier: "UTC")!
        }
        let library = try CommandContext.library(rote.global)
        // Derived, never written here: a command that only looks leaves the library as it was.
        var rank: Int?
        if !noPromotion, date == nil {
            let (outcome, before) = try library.rankPromotion()
            if outcome.promoted, let promoted = outcome.lexicalRank {
                print(
                    "Your easy answers come fast (\(Int(((outcome.easyRatingVelocity ?? 0) * 100).rounded()))% easy): lexical rank \(before.map(String.init) ?? "none") → \(promoted); your next study session saves it."
                )
                rank = promoted
            }
        }
        guard let matrix = try library.today(date: when, timeZone: zone, lexicalRank: rank) else {
            throw CLIError(
                "no word has a root yet: the daily matrix needs vocabulary entries with a `root:` field (docs/format.md)"
            )
        }
        let day = matrix.day
        let family = ((day.epochDay % day.rootCount) + day.rootCount) % day.rootCount + 1
        print("Root of the day: \(day.root)  (word family \(family) of \(day.rootCount); tomorrow brings the next)")
        if let root = matrix.root { print("  " + Self.line(root)) }
        let relatives = day.family.filter { $0.id != day.rootWord?.id }.map(\.word)
        if !relatives.isEmpty { print("  family: " + relatives.joined(separator: ", ")) }
        print("Words near your level:")
        for word in matrix.satellites { print("  " + Self.line(word)) }
    }

    static func line(_ word: MatrixWord) -> String {
        var parts = [word.word.word]
        if let rank = word.word.rank { parts.append("rank \(rank)") }
        if !word.translation.isEmpty { parts.append(word.translation) }
        parts.append(word.status.rawValue)
        if word.word.root != word.word.word.lowercased() { parts.append("root \(word.word.root)") }
        parts.append(word.word.id)
        return parts.joined(separator: " · ")
    }
}
