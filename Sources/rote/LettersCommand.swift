import ArgumentParser
import Foundation
import LibGit
import RoteLibrary
import RoteModel
import RoteStore
import Study
import StudyData

/// `rote letters`: mastery per letter and what is unlocked; `rote letters record`: store a
/// tracing attempt scored by an app.
struct Letters: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show letter mastery and unlocks, or record a tracing attempt (`rote letters record`).",
        discussion: """
            Tracing happens in an app; it sends each attempt to `rote letters record` as JSON. \
            A letter unlocks the next one after two memory-mode scores of 80 or more (the \
            deck's `unlock` rule); locked letters never appear in `rote study`.
            """,
        subcommands: [Show.self, Record.self],
        defaultSubcommand: Show.self
    )

    /// The letters deck a command means: `--deck`, else the library's only letters deck.
    static func deck(_ name: String?, in library: Library) throws -> String {
        let letterDecks = library.deckOrder.filter { library.decks[$0]?.kind == .letters }
        if let name {
            guard letterDecks.contains(name) else {
                throw CLIError("no letters deck '\(name)'; letters decks are: \(letterDecks.joined(separator: ", "))")
            }
            return name
        }
        guard letterDecks.count == 1 else {
            throw CLIError(letterDecks.isEmpty ? "this library has no letters deck" : "choose a deck with --deck: \(letterDecks.joined(separator: ", "))")
        }
        return letterDecks[0]
    }

    static func path(user: String, letter: String) -> String { LibraryPaths(user: user).letterAttempts(letter) }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Mastery per letter and what is unlocked.")
        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("The letters deck (default: the only one).", valueName: "deck")) var deck: String?

        func run() throws {
            let library = try CommandContext.library(global)
            let deck = try Letters.deck(deck, in: library)
            let rule = library.decks[deck]?.unlock ?? .init()
            let entries = library.entries(inDeck: deck)
            let attempts = library.letterAttempts().mapValues(\.attempts)
            let unlocked = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: rule)
            print("\(deck) for \(library.user): \(unlocked.count) of \(entries.count) unlocked (next unlocks after \(rule.passes) \(rule.mode) scores of \(rule.minScore)+)")
            var previous: String?
            for entry in entries {
                guard case let .letter(letter) = entry.content else { continue }
                let mastery = LetterMastery(attempts: attempts[entry.id] ?? [], rule: rule)
                let name = (letter.character ?? letter.glyph) + "  " + (letter.name ?? "")
                var line = "  " + name.padding(toLength: 16, withPad: " ", startingAt: 0)
                if unlocked.contains(entry.id) {
                    line += "unlocked  "
                    if let best = mastery.bestScore, let mode = mastery.bestMode, let last = mastery.lastPracticedAt {
                        line += "best \(best) (\(mode.rawValue)) · \(mastery.attemptCount) attempt\(mastery.attemptCount == 1 ? "" : "s") · \(min(mastery.passes, rule.passes))/\(rule.passes) passes · last \(Timestamp.format(last).prefix(10))"
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

    struct Record: ParsableCommand {
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
        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("The letters deck (default: the only one).", valueName: "deck")) var deck: String?
        @Option(help: ArgumentHelp("The letter (default: the JSON's \"letter\").", valueName: "letter")) var letter: String?
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
            var attempt: LetterAttempt
            do {
                attempt = try LetterAttempt.parse(json: data)
            } catch {
                throw CLIError("\(source): \(error.description)")
            }
            let library = try CommandContext.library(global)
            try CLIError.explain { try library.requireProfile() }
            guard var profile = library.profile else { return }
            let deck = try Letters.deck(deck, in: library)
            guard let wanted = letter ?? LetterAttempt.letter(inJSON: data) else {
                throw CLIError("\(source): which letter? give --letter a, or a \"letter\" field in the JSON")
            }
            let entries = library.entries(inDeck: deck)
            guard let entry = entries.first(where: { entry in
                guard case let .letter(letter) = entry.content else { return false }
                return [entry.id, String(entry.id.dropFirst(deck.count + 1)), letter.glyph, letter.character].contains(wanted)
            }) else {
                throw CLIError("\(source): letter: no letter '\(wanted)' in \(deck); use its id (\(entries.first?.id ?? "\(deck)/a")), glyph id or character")
            }
            let rule = library.decks[deck]?.unlock ?? .init()
            var attempts = library.letterAttempts().mapValues(\.attempts)
            let unlockedBefore = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: rule)
            if attempt.id == nil { attempt.id = UUID().uuidString.lowercased() }
            do {
                try Timestamp.checkNotInFuture(attempt.completedAt, what: "\(source): the attempt's completed_at")
            } catch let future as Timestamp.FutureTime {
                throw CLIError(future.description)
            }
            do {
                let writer = try LibraryWriter(root: library.root, user: library.user, purpose: "letters record")
                defer { withExtendedLifetime(writer) {} }
                let git = writer.git
                let path = Letters.path(user: library.user, letter: entry.id)
                // Read under the lock: another process may have added an attempt since loading.
                let existing = try ReadBeforeRewrite.read(LetterAttemptsFile.self, at: path, in: library.root) ?? LetterAttemptsFile(letter: entry.id)
                let updated = existing.adding(attempt)
                let fileData = Data(updated.render().utf8)
                try AtomicFile.write(fileData, at: path, in: library.root)
                var changes: [String: Data?] = [path: fileData]
                if profile.settings.lastLetter != entry.id {
                    // Read again under the lock, in full: the loaded copy may have left out what it did not understand.
                    profile = try ReadBeforeRewrite.read(Profile.self, at: LibraryPaths(user: library.user).profile, in: library.root) ?? profile
                    profile.settings.lastLetter = entry.id
                    profile.updatedAt = Timestamp.wholeSeconds(Date())
                    let profilePath = LibraryPaths(user: library.user).profile
                    let profileData = Data(profile.render().utf8)
                    try AtomicFile.write(profileData, at: profilePath, in: library.root)
                    changes[profilePath] = profileData
                }
                // A memory-mode attempt is also a review of the letter (LetterReview), once:
                // the review takes the attempt's id, so recording the same attempt again adds
                // nothing.
                var reviewed: (grade: Grade, due: Date?)?
                let recorder = ReviewRecorder(root: library.root, user: library.user, device: git.device, decks: library.decks, profile: library.profile)
                if let grade = LetterReview.grade(for: attempt, rule: rule), let id = attempt.id,
                    !(try recorder.current(entry.id)).reviews.contains(where: { $0.id == id })
                {
                    let review = try recorder.record(entry: entry.id, grade: grade, at: attempt.completedAt, ms: attempt.durationMs, id: id)
                    changes[review.path] = review.data
                    reviewed = (grade, review.file.state?.due)
                }
                attempts[entry.id] = updated.attempts
                let mastery = LetterMastery(attempts: updated.attempts, rule: rule)
                let newlyUnlocked = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: rule).subtracting(unlockedBefore)
                let news = newlyUnlocked.sorted().map { "unlocked \($0)" }
                var subject = "Letters: \(entry.id) \(attempt.mode.rawValue) \(attempt.score)"
                if !news.isEmpty { subject += " — " + news.joined(separator: ", ") }
                if let reviewed { subject += " · review \(reviewed.grade.name)" }
                try git.commit(changes: changes, message: "\(subject)\n\n\(SessionCommitMessage.deviceTrailer): \(git.device)\n\(SessionCommitMessage.userTrailer): \(library.user)\n")
                print("Recorded \(attempt.mode.rawValue) \(attempt.score) for \(entry.id): best \(mastery.bestScore ?? attempt.score), \(mastery.attemptCount) attempt\(mastery.attemptCount == 1 ? "" : "s"), \(min(mastery.passes, rule.passes))/\(rule.passes) passes.")
                for id in newlyUnlocked.sorted() { print("Unlocked \(id).") }
                if let reviewed {
                    print("Counted as a review: \(reviewed.grade.name)" + (reviewed.due.map { ", next due \(StudySummary.relative($0, from: Date()))" } ?? "") + ".")
                }
            } catch {
                throw CLIError.explaining(error)
            }
        }
    }
}
