package import Foundation
package import RoteModel
import RoteStore
package import StudyData

/// A study session over the launch index: a card's entry and progress files are read when
/// the card comes up (and kept for its next visit), a deck's vocabulary only when a question
/// brings too few wrong options of its own. A session then costs what it studies, not what
/// the library holds.
package final class LaunchStudySource: StudySource, @unchecked Sendable {
    private var current: LibraryLaunch
    private let lock = NSLock()
    private var entries: [String: Entry?] = [:]
    private var vocabularies: [String: [VocabularyEntry]] = [:]
    private var reviews: [String: [ReviewEvent]] = [:]

    package init(_ launch: LibraryLaunch) { current = launch }

    var launch: LibraryLaunch {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Goes on with a launch whose index was checked after this one's: cards not read yet
    /// are found through it. Entries and reviews already read stay as they were read.
    package func adopt(_ launch: LibraryLaunch) {
        lock.lock()
        defer { lock.unlock() }
        current = launch
        vocabularies = [:]
    }

    package var decks: [String: DeckManifest] { launch.decks }
    package var deckOrder: [String] { launch.index.settings.decks.filter { launch.decks[$0] != nil } }
    package var profile: Profile? { launch.profile }

    package func entry(_ id: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        if let known = entries[id] { return known }
        let entry = current.entry(id: id)
        entries[id] = entry
        return entry
    }

    /// Read once, at the card's first visit, so a card shown again in the same session sees
    /// the reviews it had when the session began, as with the parsed library.
    package func scheduledReviews(_ id: String) -> [ReviewEvent] {
        lock.lock()
        defer { lock.unlock() }
        if let known = reviews[id] { return known }
        let found =
            LibraryLaunch.progressFile(root: current.root, user: current.user, entry: id)?.scheduledReviews ?? []
        reviews[id] = found
        return found
    }

    package func vocabulary(inDeck deck: String) -> [VocabularyEntry] {
        lock.lock()
        defer { lock.unlock() }
        if let known = vocabularies[deck] { return known }
        let launch = current
        let index = launch.index
        let words = (0..<index.entryCount).filter { index.deck(ofEntry: $0) == deck }.compactMap {
            number -> VocabularyEntry? in
            guard case let .vocabulary(word)? = launch.entry(number)?.content else { return nil }
            return word
        }
        vocabularies[deck] = words
        return words
    }

    package func recentAnswerTimes() -> [Int] { launch.index.recentAnswerTimes(last: 3) }

    package func dueDates() -> [String: Date] { launch.index.dueDates() }
}
