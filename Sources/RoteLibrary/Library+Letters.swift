public import Foundation
public import RoteModel
import RoteStore
import Scheduling
import Study
public import StudyData

/// What recording a tracing attempt did.
public struct RecordedLetterAttempt: Sendable {
    public let entry: Entry
    public let attempt: LetterAttempt
    /// The letter's mastery counting this attempt.
    public let mastery: LetterMastery
    public let rule: DeckManifest.UnlockRule
    /// Letters this attempt unlocked, by id.
    public let newlyUnlocked: [String]
    /// The review a memory-mode attempt counted as, with the letter's next due date.
    public let review: (grade: Grade, due: Date?)?
}

extension Library {
    /// The letters deck a request means: `name`, else the library's only letters deck.
    public func lettersDeck(_ name: String?) throws -> String {
        let letterDecks = deckOrder.filter { decks[$0]?.kind == .letters }
        if let name {
            guard letterDecks.contains(name) else {
                throw LibraryError(
                    .notFound, "no letters deck '\(name)'; letters decks are: \(letterDecks.joined(separator: ", "))")
            }
            return name
        }
        guard letterDecks.count == 1 else {
            throw LibraryError(
                .notFound,
                letterDecks.isEmpty
                    ? "this library has no letters deck"
                    : "choose a deck with --deck: \(letterDecks.joined(separator: ", "))")
        }
        return letterDecks[0]
    }

    /// The letter `wanted` names in `deck`: its entry id (`alphabet/a`), its name in the deck
    /// (`a`), its glyph id (`latin-small-a`) or its character.
    public func letterEntry(_ wanted: String, inDeck deck: String) throws -> Entry {
        let entries = entries(inDeck: deck)
        guard
            let entry = entries.first(where: { entry in
                guard case let .letter(letter) = entry.content else { return false }
                return [entry.id, String(entry.id.dropFirst(deck.count + 1)), letter.glyph, letter.character].contains(
                    wanted)
            })
        else {
            throw LibraryError(
                .notFound,
                "letter: no letter '\(wanted)' in \(deck); use its id (\(entries.first?.id ?? "\(deck)/a")), glyph id or character"
            )
        }
        return entry
    }

    /// The letters of a deck the learner has unlocked (the deck's `unlock` rule over their attempts).
    public func unlockedLetters(inDeck deck: String) -> Set<String> {
        LetterUnlock.unlocked(
            entries: entries(inDeck: deck), attempts: letterAttempts().mapValues(\.attempts),
            rule: decks[deck]?.unlock ?? .init())
    }

    /// Stores one tracing attempt in `profiles/<user>/letters/<deck>/<letter>.yaml` and commits
    /// it, with the profile's last letter; a memory-mode attempt also counts as a review of
    /// the letter (`LetterReview`), once — the review takes the attempt's id, so recording the
    /// same attempt again adds nothing. All or nothing.
    /// `source` names where the attempt came from in an error (a file, `<stdin>`, a request).
    public func recordLetterAttempt(_ attempt: LetterAttempt, of entry: Entry, inDeck deck: String, source: String)
        throws -> RecordedLetterAttempt
    {
        try requireProfile()
        guard var profile else { throw LibraryError(.notFound, "no learner '\(user)'") }
        var attempt = attempt
        if attempt.id == nil { attempt.id = UUID().uuidString.lowercased() }
        try Timestamp.checkNotInFuture(attempt.completedAt, what: "\(source): the attempt's completed_at")
        let entries = entries(inDeck: deck)
        let rule = decks[deck]?.unlock ?? .init()
        var attempts = letterAttempts().mapValues(\.attempts)
        let unlockedBefore = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: rule)
        return try write(purpose: "letters record") { git in
            let path = paths.letterAttempts(entry.id)
            // Read under the lock: another process may have added an attempt since loading.
            let existing =
                try ReadBeforeRewrite.read(LetterAttemptsFile.self, at: path, in: root)
                ?? LetterAttemptsFile(letter: entry.id)
            let updated = existing.adding(attempt)
            var changes: [String: Data?] = [path: Data(updated.render().utf8)]
            if profile.settings.lastLetter != entry.id {
                // Read again under the lock, in full: the loaded copy may have left out what it did not understand.
                profile = try ReadBeforeRewrite.read(Profile.self, at: paths.profile, in: root) ?? profile
                profile.settings.lastLetter = entry.id
                profile.updatedAt = Timestamp.wholeSeconds(Date())
                changes[paths.profile] = Data(profile.render().utf8)
            }
            var review: (grade: Grade, due: Date?)?
            let recorder = try answerRecorder(device: git.device)
            if let grade = LetterReview.grade(for: attempt, rule: rule), let id = attempt.id,
                !(try recorder.current(entry.id)).reviews.contains(where: { $0.id == id })
            {
                let written = try recorder.recorded(
                    entry: entry.id, grade: grade, at: attempt.completedAt, ms: attempt.durationMs, id: id)
                changes[written.path] = written.data
                review = (grade, written.file.state?.due)
            }
            attempts[entry.id] = updated.attempts
            let newlyUnlocked = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: rule).subtracting(
                unlockedBefore
            ).sorted()
            var subject = "Letters: \(entry.id) \(attempt.mode.rawValue) \(attempt.score)"
            if !newlyUnlocked.isEmpty {
                subject += " — " + newlyUnlocked.map { "unlocked \($0)" }.joined(separator: ", ")
            }
            if let review { subject += " · review \(review.grade.name)" }
            try git.apply(changes: changes, message: CommitMessage(subject: subject))
            return RecordedLetterAttempt(
                entry: entry, attempt: attempt, mastery: LetterMastery(attempts: updated.attempts, rule: rule),
                rule: rule, newlyUnlocked: newlyUnlocked,
                review: review)
        }
    }
}
