public import Foundation
public import RoteModel
public import RoteStore

/// What the planner reads about each entry of a library, by number in study order: the
/// parsed library (`CandidateList`) and the launch index answer it alike.
public protocol PlanningSource: Sendable {
    var count: Int { get }
    /// Deck names; `EntryFacts.deck` is a position in them.
    var deckNames: [String] { get }
    /// Everything planning reads for every entry, in one call.
    func facts(_ entry: Int) -> EntryFacts
    func id(_ entry: Int) -> String
    /// Reviews of the entry at or after `time`.
    func reviews(_ entry: Int, since time: Date) -> Int
    /// Answer times recorded in the entry's last five reviews.
    func recentMilliseconds(_ entry: Int) -> [Int]
    /// A vocabulary entry's frequency rank, for new-word selection around the learner's
    /// lexical rank; nil when it has none (or the source does not know).
    func rank(_ entry: Int) -> Int?
    /// A vocabulary entry's word (its gloss up to ` — `), for telling a word's family apart;
    /// nil when the source does not know.
    func headword(_ entry: Int) -> String?
    /// A vocabulary entry's topics (its examples' `context`s), which the learner's interests
    /// weigh; empty when it has none or the source does not know.
    func topics(_ entry: Int) -> [String]
    /// Whether `word` (lower case) is a word the learner ignores or knows: a lemma whose entry
    /// is ignored or in review, or one of the profile's ignored words.
    func isFamiliar(_ word: String) -> Bool
}

extension PlanningSource {
    package func rank(_ entry: Int) -> Int? { nil }
    package func headword(_ entry: Int) -> String? { nil }
    package func topics(_ entry: Int) -> [String] { [] }
    package func isFamiliar(_ word: String) -> Bool { false }
}

public struct EntryFacts: Sendable {
    public var deck: Int
    public var published: Bool
    public var locked: Bool
    public var status: LibraryIndex.Status
    /// Nil when the learner has no progress file for the entry.
    public var progress: PlanningProgress?

    public init(deck: Int, published: Bool, locked: Bool, status: LibraryIndex.Status, progress: PlanningProgress?) {
        self.deck = deck
        self.published = published
        self.locked = locked
        self.status = status
        self.progress = progress
    }
}

/// The scalars of a progress file planning reads for every entry.
public struct PlanningProgress: Sendable {
    public var reviewCount: Int
    public var firstReviewAt: Date?
    public var ladderStarted: Bool
    public var state: MemoryState?

    public init(reviewCount: Int, firstReviewAt: Date?, ladderStarted: Bool, state: MemoryState?) {
        self.reviewCount = reviewCount
        self.firstReviewAt = firstReviewAt
        self.ladderStarted = ladderStarted
        self.state = state
    }

    public init(_ summary: ProgressSummary) {
        self.init(
            reviewCount: summary.reviewCount, firstReviewAt: summary.firstReviewAt,
            ladderStarted: summary.ladderStarted, state: summary.state)
    }
}
