public import Foundation
public import RoteModel

/// What a learner has achieved with one letter, derived from its attempts (seed 003's
/// `LetterMastery`, computed rather than stored, so it never disagrees with the attempts).
public struct LetterMastery: Sendable, Equatable {
    /// The highest score; nil before any attempt.
    public var bestScore: Int?
    /// The mode of the best score; among equal best scores the hardest mode (memory over ghost
    /// over trace).
    public var bestMode: LetterAttempt.Mode?
    public var attemptCount: Int
    /// When the latest attempt was completed.
    public var lastPracticedAt: Date?
    /// Attempts in the rule's mode (memory) scoring at least its `min_score` (seed 003's
    /// `memoryPassCount`).
    public var passes: Int

    public init(attempts: some Collection<LetterAttempt>, rule: DeckManifest.UnlockRule = .init()) {
        attemptCount = attempts.count
        let best = attempts.max { ($0.score, $0.mode) < ($1.score, $1.mode) }
        bestScore = best?.score
        bestMode = best?.mode
        lastPracticedAt = attempts.map(\.completedAt).max()
        passes = attempts.count { $0.mode.rawValue == rule.mode && $0.score >= rule.minScore }
    }

    /// Whether these passes unlock the next letter under `rule`.
    public func unlocksNext(_ rule: DeckManifest.UnlockRule = .init()) -> Bool { passes >= rule.passes }
}

/// Which letters a learner may practise (seed 003's unlock rule, with the deck's numbers).
///
/// Letters go by `order` (then id). The first — order 1 — is always unlocked; each later
/// letter unlocks when the letter just before it has `passes` attempts in the rule's mode
/// scoring at least `min_score` (`DeckManifest.unlock`; default memory mode, 2 passes of 80).
/// Only the letter just before counts, as the seed says.
package enum LetterUnlock {
    /// The unlocked letter ids among `letters`, given each letter's attempts by id.
    package static func unlocked(
        letters: [(id: String, order: Int)], attempts: [String: [LetterAttempt]],
        rule: DeckManifest.UnlockRule = .init()
    ) -> Set<String> {
        let ordered = letters.sorted { $0.order != $1.order ? $0.order < $1.order : $0.id < $1.id }
        var result = Set<String>()
        for (index, letter) in ordered.enumerated() {
            if index == 0 {
                result.insert(letter.id)
                continue
            }
            let previous = ordered[index - 1].id
            if LetterMastery(attempts: attempts[previous] ?? [], rule: rule).unlocksNext(rule) {
                result.insert(letter.id)
            }
        }
        return result
    }

    /// The unlocked letters of a letters deck's entries (other entries are ignored).
    package static func unlocked(
        entries: [Entry], attempts: [String: [LetterAttempt]], rule: DeckManifest.UnlockRule = .init()
    ) -> Set<String> {
        let letters: [(id: String, order: Int)] = entries.compactMap { entry in
            guard case let .letter(letter) = entry.content else { return nil }
            return (entry.id, letter.order)
        }
        return unlocked(letters: letters, attempts: attempts, rule: rule)
    }
}
