package import Foundation
package import RoteModel
package import RoteStore

/// What a study session reads from the library: the parsed library (`LoadedStudySource`), or
/// the launch index with each card's files read when the card comes up.
package protocol StudySource: AnyObject, Sendable {
    var decks: [String: DeckManifest] { get }
    /// Deck names in study order.
    var deckOrder: [String] { get }
    /// The learner's profile.
    var profile: Profile? { get }
    func entry(_ id: String) -> Entry?
    /// The reviews that schedule the entry, as the session found them.
    func scheduledReviews(_ id: String) -> [ReviewEvent]
    /// A deck's vocabulary entries: wrong options when a question brings too few of its own.
    func vocabulary(inDeck deck: String) -> [VocabularyEntry]
    /// Answer times of each entry's last three reviews, for the learner's pace.
    func recentAnswerTimes() -> [Int]
    /// When each active entry the learner has a state for is due.
    func dueDates() -> [String: Date]
}

/// The parsed library as a study source.
package final class LoadedStudySource: StudySource {
    let library: LoadedLibrary
    let index: LibraryIndex

    package init(library: LoadedLibrary, index: LibraryIndex) {
        self.library = library
        self.index = index
    }

    package var decks: [String: DeckManifest] { library.decks }
    package var deckOrder: [String] { library.deckOrder }
    package var profile: Profile? { library.profiles[index.user] }
    package func entry(_ id: String) -> Entry? { index.entries[id] }
    package func scheduledReviews(_ id: String) -> [ReviewEvent] { index.progress[id]?.scheduledReviews ?? [] }

    package func vocabulary(inDeck deck: String) -> [VocabularyEntry] {
        library.entries.compactMap { candidate in
            guard candidate.deck == deck, case let .vocabulary(word) = candidate.content else { return nil }
            return word
        }
    }

    package func recentAnswerTimes() -> [Int] {
        index.progress.values.flatMap { $0.reviews.suffix(3).compactMap(\.ms) }
    }

    package func dueDates() -> [String: Date] {
        var dues: [String: Date] = [:]
        for (id, file) in index.progress where file.status == .active {
            if let due = file.state?.due { dues[id] = due }
        }
        return dues
    }
}
