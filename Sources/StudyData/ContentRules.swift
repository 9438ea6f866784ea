import Foundation
package import RoteModel
package import RoteStore

/// The content rules that decide what may be studied at all, which the planner and the
/// launch index both read from the parsed library.
extension LoadedLibrary {
    /// Skills content counts as published when the question, its skill and its domain all are;
    /// unpublished content is studied only with drafts.
    package func isPublished(_ entry: Entry) -> Bool {
        guard case let .question(question) = entry.content else { return true }
        let parts = entry.id.split(separator: "/")
        let skill = skills[parts.prefix(3).joined(separator: "/")]
        let domain = domains[parts.prefix(2).joined(separator: "/")]
        return question.published && skill?.published == true && domain?.published == true
    }

    /// Seed 003's rule over the learner's tracing attempts from `rote letters record`.
    package func lockedLetters(user: String) -> Set<String> {
        var locked = Set<String>()
        let attempts = (letterAttempts[user] ?? [:]).mapValues(\.attempts)
        for (deck, manifest) in decks where manifest.kind == .letters {
            let entries = self.entries.filter { $0.deck == deck }
            let unlocked = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: manifest.unlock ?? .init())
            locked.formUnion(entries.map(\.id).filter { !unlocked.contains($0) })
        }
        return locked
    }
}
