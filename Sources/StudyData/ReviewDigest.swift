public import Foundation
public import RoteModel
import RoteStore
public import Scheduling

/// What statistics read from one progress file, small enough for the launch index to keep
/// for every file: each review's time and grade, whether it was made in the review phase,
/// and the state the whole history replays to. With it `rote stats` adds up a learner's
/// reviews per day, streaks, retention, due counts and mastery without reading a progress
/// file or replaying a review.
public struct ReviewDigest: Sendable, Equatable {
    /// One review, packed in eight bytes: its time in whole milliseconds since 1970, then a
    /// bit for "the state before it was in the review phase", then its grade (two bits).
    public struct Mark: Sendable, Equatable {
        public let raw: UInt64

        public init(raw: UInt64) { self.raw = raw }

        /// Bits 0–1 the grade, bit 2 `followsReviewPhase`, bit 3 `synthetic`, bit 4
        /// `practice`, the rest the time in milliseconds.
        public init(at: Date, grade: Grade, followsReviewPhase: Bool, synthetic: Bool = false, practice: Bool = false) {
            let milliseconds = Int64((at.timeIntervalSince1970 * 1000).rounded(.down))
            raw =
                UInt64(bitPattern: milliseconds << 5) | (practice ? 16 : 0) | (synthetic ? 8 : 0)
                | (followsReviewPhase ? 4 : 0) | UInt64(grade.rawValue - 1)
        }

        /// The review's time, to the millisecond.
        public var at: Date { Date(timeIntervalSince1970: Double(Int64(bitPattern: raw) >> 5) / 1000) }
        public var grade: Grade { Grade(rawValue: Int(raw & 3) + 1)! }
        /// The review was answered in the review phase (not a learning or relearning step):
        /// the reviews retention counts.
        public var followsReviewPhase: Bool { raw & 4 != 0 }
        /// A review no one answered: a warm start's or `rote known`'s (`synthetic:`). It
        /// schedules like any other, but is no day of study and no test of memory.
        public var synthetic: Bool { raw & 8 != 0 }
        /// An answer of a practice session (`practice:`): a day of study, counted as practice,
        /// but no part of the replay, so no test of the schedule's memory either.
        public var practice: Bool { raw & 16 != 0 }
    }

    /// Every review of the file, in replay order.
    public var marks: [Mark]
    /// The state replaying every review gives, with the deck's scheduler.
    public var replayed: MemoryState?

    public init(marks: [Mark], replayed: MemoryState?) {
        self.marks = marks
        self.replayed = replayed
    }

    /// The digest of `reviews` (in replay order) replayed with `scheduler`; practice reviews
    /// are marked and left out of the replay, each following the state the reviews before it
    /// gave, and reviews `rote undo` marked `undone` are left out altogether: they count
    /// nowhere. When the history does not give a state per review (a review repeated with the
    /// same id and time is replayed once), no review counts as made in the review phase, as
    /// `StudyStats` has it.
    public init(reviews: [ReviewEvent], entryID: String, scheduler: Scheduler) {
        let reviews = reviews.contains { $0.undone != nil } ? reviews.filter { $0.undone == nil } : reviews
        let replayed = reviews.contains(where: \.practice) ? reviews.filter { !$0.practice } : reviews
        let states = scheduler.history(replayed, entryID: entryID)
        let phased = states.count == replayed.count
        var marks: [Mark] = []
        marks.reserveCapacity(reviews.count)
        // How many replayed reviews came before this one.
        var before = 0
        for review in reviews {
            marks.append(
                Mark(
                    at: review.at, grade: review.grade,
                    followsReviewPhase: phased && before > 0 && states[before - 1].phase == .review,
                    synthetic: review.synthetic != nil, practice: review.practice))
            if !review.practice { before += 1 }
        }
        self.init(marks: marks, replayed: states.last)
    }

    /// The latest review's time; nil without reviews.
    public var lastReviewAt: Date? { marks.last?.at }
}

/// A digest's marks, wherever they lie: in an array, or in place in bytes laid out as
/// `ReviewDigest.Mark.raw` values, eight bytes little-endian each (the launch index's
/// mapped file, which must outlive the value). One concrete type, so adding up millions of
/// them runs specialised code.
public struct ReviewMarks: RandomAccessCollection, @unchecked Sendable {
    private let kept: [ReviewDigest.Mark]
    private let bytes: UnsafeRawPointer?
    public let count: Int

    public init(_ marks: [ReviewDigest.Mark]) {
        kept = marks
        bytes = nil
        count = marks.count
    }

    public init(unsafeBytes: UnsafeRawPointer, count: Int) {
        kept = []
        bytes = unsafeBytes
        self.count = count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inline(__always) public subscript(position: Int) -> ReviewDigest.Mark {
        guard let bytes else { return kept[position] }
        return ReviewDigest.Mark(
            raw: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position * 8, as: UInt64.self)))
    }
}

/// Each deck's scheduler as the learner's profile and the deck's manifest set it — the
/// schedulers statistics replay with, wherever the replay happens (a full read, or the launch
/// index as it is built). Progress of a deck that no longer exists replays with the defaults.
public struct DeckSchedulers: Sendable {
    private let byDeck: [String: Scheduler]
    private let fallback = Scheduler(settings: .default)

    public init(decks: [String: DeckManifest], profile: Profile?) {
        byDeck = Dictionary(
            uniqueKeysWithValues: decks.map { name, manifest in
                (name, Scheduler(settings: .forDeck(manifest, profile: profile, deckName: name)))
            })
    }

    /// Every deck's settings as text, by deck name: equal exactly when every replay would be.
    public var fingerprint: String {
        byDeck.keys.sorted().map { "\($0): \(String(describing: byDeck[$0]!.settings))" }.joined(separator: "\n")
    }

    public func scheduler(forDeck deck: String) -> Scheduler { byDeck[deck] ?? fallback }

    /// The scheduler of the deck an entry id names (its first segment).
    public func scheduler(forEntry id: String) -> Scheduler {
        scheduler(forDeck: id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? id)
    }
}
