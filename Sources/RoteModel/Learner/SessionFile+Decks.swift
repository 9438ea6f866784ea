import Foundation

extension SessionFile {
    /// The session without its attempts at `decks`: those decks leave its deck list, and the
    /// grades and new entries of their reviews made on its device during it leave its counts,
    /// so what is left describes the rest of the session. `reviews` are the removed decks'
    /// reviews by entry id. A withdrawal of consent and a sync honouring one both need it.
    package func withoutDecks(_ decks: Set<String>, reviews: [String: [ReviewEvent]]) -> SessionFile {
        var cleaned = self
        cleaned.attempts.removeAll { decks.contains(String($0.entry.split(separator: "/").first ?? "")) }
        cleaned.decks.removeAll(where: decks.contains)
        let end = endedAt ?? attempts.last?.at ?? startedAt
        for (_, events) in reviews {
            let inSession = events.filter { $0.at >= startedAt && $0.at <= end && $0.device == device }
            for event in inSession {
                switch event.grade {
                case .again: cleaned.again = max(0, cleaned.again - 1)
                case .hard: cleaned.hard = max(0, cleaned.hard - 1)
                case .good: cleaned.good = max(0, cleaned.good - 1)
                case .easy: cleaned.easy = max(0, cleaned.easy - 1)
                }
            }
            if let first = events.min(by: ReviewEvent.replayOrder), inSession.contains(where: { $0.id == first.id }) {
                cleaned.new = max(0, cleaned.new - 1)
            }
        }
        return cleaned
    }

    /// True when the session studied any of `decks` (by its deck list or an attempt).
    package func studied(anyOf decks: Set<String>) -> Bool {
        self.decks.contains(where: decks.contains)
            || attempts.contains { decks.contains(String($0.entry.split(separator: "/").first ?? "")) }
    }

    /// True when nothing is left once `decks` are taken out.
    package func studiedOnly(_ decks: Set<String>) -> Bool {
        !self.decks.contains(where: { !decks.contains($0) })
            && attempts.allSatisfy { decks.contains(String($0.entry.split(separator: "/").first ?? "")) }
    }
}
