import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel

struct InterestsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interests",
        abstract: "Show or set your interests: topics whose words come sooner among new words.",
        discussion: """
            Seed 002's interest vector: topic → weight from 0 to 1 in your profile. A topic is \
            a vocabulary example's `context:` (food, travel, school…); a word's interest is the \
            largest weight among its examples' topics. Once you have a lexical rank (rote \
            calibrate), a new word's distance from your rank is scaled by 1 − interest/2, so a \
            word you care about comes up to twice as near (docs/scheduling.md, "New-word \
            selection"). Without arguments it lists your interests and the topics the decks \
            have. `rote interests food=1 travel=0.5` sets weights, `food=0` removes one; one \
            commit.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("Weights to set, as topic=weight (0 removes the topic).", valueName: "topic=weight"))
    var weights: [String] = []

    func run() throws {
        let parsed = try weights.map { text -> (topic: String, weight: Double) in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let weight = Double(parts[1]) else {
                throw ValidationError("'\(text)' is not topic=weight (e.g. food=1 or travel=0.5)")
            }
            return (parts[0], weight)
        }
        let library = try CommandContext.library(rote.global)
        var shown = library.profile?.interests ?? []
        if !parsed.isEmpty {
            shown = try library.setInterests(parsed)
            let known = Set(try library.topicCounts().map(\.topic))
            for (topic, weight) in parsed where weight > 0 && !known.contains(topic.lowercased()) {
                print(
                    "note: no example in the decks has the topic '\(topic)' yet; it is kept, and weighs nothing until one has."
                )
            }
        }
        print(
            shown.isEmpty
                ? "Interests: none yet."
                : "Interests: " + shown.map { "\($0.0) \(Library.weightText($0.1))" }.joined(separator: ", "))
        if parsed.isEmpty {
            let topics = try library.topicCounts()
            if topics.isEmpty {
                print("The decks' examples name no topics (`context:`).")
            } else {
                print("Topics in the decks (words):")
                print("  " + topics.map { "\($0.topic) \($0.words)" }.joined(separator: ", "))
            }
        }
    }
}
