import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import Study
import StudyData

/// `rote letters`: mastery per letter and what is unlocked; `rote letters record`: store a
/// tracing attempt scored by an app.
struct LettersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "letters",
        abstract:
            "Show letter mastery and unlocks, record a tracing attempt (`rote letters record`), set tracing options (`rote letters settings`).",
        discussion: """
            Tracing happens in an app; it sends each attempt to `rote letters record` as JSON. \
            A letter unlocks the next one after two memory-mode scores of 80 or more (the \
            deck's `unlock` rule); locked letters never appear in `rote study`.
            """,
        subcommands: [ShowCommand.self, RecordCommand.self, SettingsCommand.self],
        defaultSubcommand: ShowCommand.self
    )

    /// The letters deck a command means: `--deck`, else the library's only letters deck.
    static func deck(_ name: String?, in library: Library) throws -> String {
        try library.lettersDeck(name)
    }

    /// `rote letters settings`: the tracing options of seed 003, kept in the profile
    /// (`left_handed`, `haptics`) so they follow the learner to every device.
    struct SettingsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Show or set tracing options: --left-handed/--right-handed, --haptics/--no-haptics.",
            discussion: """
                Left-handed puts the letter list on the right of the tracing pad so the hand \
                does not cover it; haptics makes a device vibrate briefly on each scored \
                attempt (a pass, or a miss in a different pattern). Both are kept in your \
                profile and read by the tracing page of `rote serve`.
                """)
        @ParentCommand var rote: RoteCommand
        @Flag(help: "Left-handed (--left-handed) or right-handed (--right-handed) layout.") var hand: Hand?
        @Flag(inversion: .prefixedNo, help: "Vibrate on each scored attempt.") var haptics: Bool?

        enum Hand: String, EnumerableFlag {
            case leftHanded, rightHanded
        }

        func run() throws {
            let library = try CommandContext.library(rote.global)
            var settings = library.profile?.settings
            if hand != nil || haptics != nil {
                let changed = [
                    hand.map { "\($0 == .leftHanded ? "left" : "right")-handed" },
                    haptics.map { "haptics \($0 ? "on" : "off")" },
                ]
                .compactMap { $0 }.joined(separator: ", ")
                let profile = try library.updateProfile(subject: "Settings: \(changed) for \(library.user)") {
                    profile in
                    if let hand { profile.settings.leftHanded = hand == .leftHanded }
                    if let haptics { profile.settings.haptics = haptics }
                }
                settings = profile.settings
            }
            print(
                "tracing for \(library.user): \(settings?.leftHanded == true ? "left" : "right")-handed · haptics \(settings?.haptics == true ? "on" : "off")"
            )
        }
    }

    struct ShowCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Mastery per letter and what is unlocked.")
        @ParentCommand var rote: RoteCommand
        @Option(help: ArgumentHelp("The letters deck (default: the only one).", valueName: "deck")) var deck: String?

        func run() throws {
            let library = try CommandContext.library(rote.global)
            let deck = try LettersCommand.deck(deck, in: library)
            let rule = library.decks[deck]?.unlock ?? .init()
            let entries = library.entries(inDeck: deck)
            let attempts = library.letterAttempts().mapValues(\.attempts)
            let unlocked = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: rule)
            print(
                "\(deck) for \(library.user): \(unlocked.count) of \(entries.count) unlocked (next unlocks after \(rule.passes) \(rule.mode) scores of \(rule.minScore)+)"
            )
            var previous: String?
            for entry in entries {
                guard case let .letter(letter) = entry.content else { continue }
                let mastery = LetterMastery(attempts: attempts[entry.id] ?? [], rule: rule)
                let name = (letter.character ?? letter.glyph) + "  " + (letter.name ?? "")
                var line = "  " + name.padding(toLength: 16, withPad: " ", startingAt: 0)
                if unlocked.contains(entry.id) {
                    line += "unlocked  "
                    if let best = mastery.bestScore, let mode = mastery.bestMode, let last = mastery.lastPracticedAt {
                        line +=
                            "best \(best) (\(mode.rawValue)) · \(mastery.attemptCount) attempt\(mastery.attemptCount == 1 ? "" : "s") · \(min(mastery.passes, rule.passes))/\(rule.passes) passes · last \(Timestamp.localDay(last))"
                    } else {
                        line += "not practised yet"
                    }
                } else {
                    line += "locked    after \(rule.passes) \(rule.mode) passes on \(previous ?? "the letter before")"
                }
                print(line)
                previous = letter.character ?? letter.glyph
            }
        }
    }

    struct RecordCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Store one tracing attempt, given as JSON in FILE or on stdin (-).",
            discussion: """
                {"letter": "a", "mode": "memory", "score": 86, "stroke_order": 90, "direction": 80, "shape": 85, \
                "start": 90, "tips": ["start-top-right"], "hint_used": false, "started_at": "2026-11-21T10:00:00Z", \
                "completed_at": "2026-11-21T10:00:05Z", "duration_ms": 5200, "drawing": [[[10, 20, 0], [12, 24, 16]]]}

                The letter is --letter or the JSON's "letter": an entry id (alphabet/a), its name in \
                the deck (a), a glyph id (latin-small-a) or the character. Errors name the JSON path \
                (drawing[0][2]: …). The attempt is kept in profiles/<you>/letters/<deck>/<letter>.yaml \
                and committed. A memory-mode attempt also counts as a review of the letter for \
                the scheduler: under the pass score (80) again, under 90 hard, else good; a hint \
                makes it hard at best. Trace and ghost attempts count for mastery only.
                """)
        @ParentCommand var rote: RoteCommand
        @Option(help: ArgumentHelp("The letters deck (default: the only one).", valueName: "deck")) var deck: String?
        @Option(help: ArgumentHelp("The letter (default: the JSON's \"letter\").", valueName: "letter")) var letter:
            String?
        @Argument(help: ArgumentHelp("The attempt's JSON file, or - for stdin.", valueName: "file")) var file: String

        func run() throws {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw CLIError("cannot read \(file); give the attempt's JSON file, or - to read it from stdin")
                }
                data = contents
            }
            let source = file == "-" ? "<stdin>" : file
            let attempt: LetterAttempt
            do {
                attempt = try LetterAttempt.parse(json: data)
            } catch {
                throw CLIError("\(source): \(error.description)")
            }
            let library = try CommandContext.library(rote.global)
            try library.requireProfile()
            let deck = try LettersCommand.deck(deck, in: library)
            guard let wanted = letter ?? LetterAttempt.letter(inJSON: data) else {
                throw CLIError("\(source): which letter? give --letter a, or a \"letter\" field in the JSON")
            }
            let entry: Entry
            do {
                entry = try library.letterEntry(wanted, inDeck: deck)
            } catch let error as LibraryError {
                throw CLIError("\(source): \(error.message)")
            }
            let recorded = try library.recordLetterAttempt(attempt, of: entry, inDeck: deck, source: source)
            let mastery = recorded.mastery
            let rule = recorded.rule
            print(
                "Recorded \(attempt.mode.rawValue) \(attempt.score) for \(entry.id): best \(mastery.bestScore ?? attempt.score), \(mastery.attemptCount) attempt\(mastery.attemptCount == 1 ? "" : "s"), \(min(mastery.passes, rule.passes))/\(rule.passes) passes."
            )
            for id in recorded.newlyUnlocked { print("Unlocked \(id).") }
            if let reviewed = recorded.review {
                print(
                    "Counted as a review: \(reviewed.grade.name)"
                        + (reviewed.due.map { ", next due \(StudySummary.relative($0, from: Date()))" } ?? "") + ".")
            }
        }
    }
}
