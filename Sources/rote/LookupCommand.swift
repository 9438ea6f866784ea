import ArgumentParser
import Foundation
import Launch
import RoteLibrary
import RoteModel
import RoteStore

struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Look words up: any inflected form → its lemma, rank, level, meaning and your status.",
        discussion: "Example: `rote lookup ran went running` answers run, go, run. Exits 1 when a word is in no deck."
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("Words or word forms.", valueName: "word"))
    var words: [String]

    func run() throws {
        let library = try CommandContext.library(rote.global)
        let launch = try library.launch()
        var missing: [String] = []
        for word in words {
            // The index finds the lemmas; their files give what to show.
            let found = launch.index.lemmas(of: word).compactMap { number in launch.entry(number).map { (number, $0) } }
            if found.isEmpty {
                print("\(word): not in any deck")
                missing.append(word)
                continue
            }
            for (number, entry) in found {
                guard case let .vocabulary(lemma) = entry.content else { continue }
                var parts = ["\(word) → \(lemma.word)"]
                if let rank = lemma.rank { parts.append("rank \(rank)") }
                if let cefr = lemma.cefr { parts.append(cefr) }
                parts.append(lemma.pos)
                let meaning = lemma.definition.first { $0.0 == "en" }?.1
                parts.append(lemma.translation + (meaning.map { " — \($0)" } ?? ""))
                parts.append(launch.index.status(ofEntry: number).rawValue)
                parts.append(entry.id)
                print(parts.joined(separator: " · "))
            }
        }
        if !missing.isEmpty { throw ExitCode(1) }
    }
}
