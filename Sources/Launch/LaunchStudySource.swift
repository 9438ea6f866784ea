public import Foundation
public import RoteModel
import RoteStore
public import StudyData

/// A study session over the launch index: a card's entry and progress files are read when
/// the card comes up (and kept for its next visit), a deck's vocabulary only when a question
/// brings too few wrong options of its own. A session then costs what it studies, not what
/// the library holds.
public final class LaunchStudySource: StudySource, @unchecked Sendable {
    private var current: LibraryLaunch
    private let lock = NSLock()
    private var entries: [String: Entry?] = [:]
    private var vocabularies: [String: [VocabularyEntry]] = [:]
    private var reviews: [String: [ReviewEvent]] = [:]

    public init(_ launch: LibraryLaunch) { current = launch }

    var launch: LibraryLaunch {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Goes on with a launch whose index was checked after this one's: cards not read yet
    /// are found through it. Entries and reviews already read stay as they were read.
    public func adopt(_ launch: LibraryLaunch) {
        lock.lock()
        defer { lock.unlock() }
        current = launch
        vocabularies = [:]
    }

    public var decks: [String: DeckManifest] { launch.decks }
    public var deckOrder: [String] { launch.index.settings.decks.filter { launch.decks[$0] != nil } }
    public var profile: Profile? { launch.profile }

    public func entry(_ id: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        if let known = entries[id] { return known }
        let entry = current.entry(id: id)
        entries[id] = entry
        return entry
    }

    /// Read once, at the card's first visit, so a card shown again in the same session sees
    /// the reviews it had when the session began, as with the parsed library.
    public func scheduledReviews(_ id: String) -> [ReviewEvent] {
        lock.lock()
        defer { lock.unlock() }
        if let known = reviews[id] { return known }
        let found =
            LibraryLaunch.progressFile(root: current.root, user: current.user, entry: id)?.scheduledReviews ?? []
        reviews[id] = found
        return found
    }

    public func vocabulary(inDeck deck: String) -> [VocabularyEntry] {
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

    public func recentAnswerTimes() -> [Int] { launch.index.recentAnswerTimes(last: 3) }

    public func dueDates() -> [String: Date] { launch.index.dueDates() }
}
