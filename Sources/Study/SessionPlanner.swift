import Foundation
import RoteStore
import Scheduling

/// What a study session will hold: due entries first, lowest retrievability first, then new
/// entries in deck order — within the learner's daily limits and working-set budget.
public struct SessionPlan: Sendable {
    public struct Item: Sendable, Equatable {
        public var id: String
        public var deck: String
        /// Probability of recall now; nil for a new entry.
        public var retrievability: Double?
        public var due: Date?
    }

    public var due: [Item]
    public var new: [Item]
    /// Due entries left out by the daily review limit or the time budget.
    public var dueDeferred: Int
    /// Entries due now in total, before limits.
    public var dueTotal: Int
    /// Reviews and new entries already done today.
    public var reviewedToday: Int
    public var introducedToday: Int

    public var isEmpty: Bool { due.isEmpty && new.isEmpty }
}

/// Builds session plans from the index. Pure given its inputs: `now` and the time zone that
/// decides where "today" starts are parameters.
public struct SessionPlanner: Sendable {
    public struct Limits: Sendable {
        /// Reviews a day (profile `reviews_per_day`, default 200).
        public var reviewsPerDay: Int
        /// New entries a day (profile `new_per_day`, default 10).
        public var newPerDay: Int
        /// Entries in acquisition at once (profile `working_set`); nil = no cap.
        public var workingSet: Int?
        /// Minutes the learner has; nil = no cap.
        public var minutes: Int?
        /// Include unpublished skills content.
        public var drafts: Bool

        public init(reviewsPerDay: Int = 200, newPerDay: Int = 10, workingSet: Int? = nil, minutes: Int? = nil, drafts: Bool = false) {
            self.reviewsPerDay = reviewsPerDay
            self.newPerDay = newPerDay
            self.workingSet = workingSet
            self.minutes = minutes
            self.drafts = drafts
        }

        /// The profile's limits, each overridable.
        public static func from(_ profile: Profile?, newPerDay: Int? = nil, reviewsPerDay: Int? = nil, minutes: Int? = nil, drafts: Bool = false) -> Limits {
            Limits(
                reviewsPerDay: reviewsPerDay ?? profile?.settings.reviewsPerDay ?? 200,
                newPerDay: newPerDay ?? profile?.settings.newPerDay ?? 10,
                workingSet: profile?.settings.workingSet, minutes: minutes, drafts: drafts)
        }
    }

    /// Seconds an answer takes when the learner has no history yet.
    public static let defaultSecondsPerItem = 12.0

    public let library: LoadedLibrary
    public let index: LibraryIndex

    public init(library: LoadedLibrary, index: LibraryIndex) {
        self.library = library
        self.index = index
    }

    /// Decks a session studies: the requested ones that exist (all by default).
    public func studyableDecks(_ requested: [String]) -> [String] {
        let chosen = requested.isEmpty ? library.deckOrder : requested
        return chosen.filter { library.decks[$0] != nil }
    }

    /// Letters the learner has not unlocked yet (seed 003's rule over their tracing attempts
    /// from `rote letters record`); they never enter a session.
    public func lockedLetters() -> Set<String> {
        var locked = Set<String>()
        let attempts = (library.letterAttempts[index.user] ?? [:]).mapValues(\.attempts)
        for (deck, manifest) in library.decks where manifest.kind == .letters {
            let entries = library.entries.filter { $0.deck == deck }
            let unlocked = LetterUnlock.unlocked(entries: entries, attempts: attempts, rule: manifest.unlock ?? .init())
            locked.formUnion(entries.map(\.id).filter { !unlocked.contains($0) })
        }
        return locked
    }

    public func plan(decks requested: [String] = [], limits: Limits, now: Date, timeZone: TimeZone = .current) -> SessionPlan {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let startOfDay = calendar.startOfDay(for: now)
        let decks = Set(studyableDecks(requested))
        let profile = index.profile
        let locked = lockedLetters()

        var reviewedToday = 0, introducedToday = 0, inAcquisition = 0
        var answerTimes: [Int] = []
        var due: [SessionPlan.Item] = []
        var new: [SessionPlan.Item] = []
        var resumed: [SessionPlan.Item] = []
        var settingsByDeck: [String: Scheduler] = [:]
        for id in index.orderedIDs {
            guard let entry = index.entries[id], decks.contains(entry.deck), isPublished(entry, drafts: limits.drafts), !locked.contains(id) else { continue }
            let file = index.progress[id]
            if let file, !file.reviews.isEmpty {
                let today = file.reviews.filter { $0.at >= startOfDay }
                reviewedToday += today.count
                if file.reviews[0].at >= startOfDay { introducedToday += 1 }
                answerTimes += file.reviews.suffix(5).compactMap(\.ms)
            }
            switch index.status(of: id) {
            case .ignored, .suspended:
                continue
            case .new:
                // A passage stopped part-way up the acquisition ladder is in acquisition
                // already: it takes a place in the working set and comes before fresh ones.
                if let ladder = file?.ladder, ladder.level != "read1" || ladder.attempts > 0 {
                    inAcquisition += 1
                    resumed.append(.init(id: id, deck: entry.deck))
                } else {
                    new.append(.init(id: id, deck: entry.deck))
                }
            case .learning, .review, .relearning:
                let scheduler = settingsByDeck[entry.deck] ?? Scheduler(settings: .forDeck(library.decks[entry.deck], profile: profile))
                settingsByDeck[entry.deck] = scheduler
                guard let state = file?.state else { continue }
                if state.phase != .review { inAcquisition += 1 }
                if state.due <= now {
                    due.append(.init(id: id, deck: entry.deck, retrievability: scheduler.retrievability(of: state, at: now), due: state.due))
                }
            }
        }
        due.sort { ($0.retrievability ?? 0, $0.id) < ($1.retrievability ?? 0, $1.id) }
        let dueTotal = due.count
        var reviewRoom = max(0, limits.reviewsPerDay - reviewedToday)
        var newRoom = max(0, limits.newPerDay - introducedToday)
        if let workingSet = limits.workingSet { newRoom = min(newRoom, max(0, workingSet - inAcquisition)) }
        if let minutes = limits.minutes {
            let perItem = SessionPlanner.secondsPerItem(answerTimes)
            let room = Int((Double(minutes) * 60 / perItem).rounded(.down))
            reviewRoom = min(reviewRoom, room)
            newRoom = min(newRoom, max(0, room - min(reviewRoom, due.count)))
        }
        let keptDue = Array(due.prefix(reviewRoom))
        return SessionPlan(
            due: keptDue, new: resumed + Array(new.prefix(newRoom)), dueDeferred: dueTotal - keptDue.count, dueTotal: dueTotal,
            reviewedToday: reviewedToday, introducedToday: introducedToday)
    }

    /// Median answer time plus a few seconds of reading, from the learner's recent answers.
    static func secondsPerItem(_ milliseconds: [Int]) -> Double {
        guard !milliseconds.isEmpty else { return defaultSecondsPerItem }
        let sorted = milliseconds.sorted()
        return Double(sorted[sorted.count / 2]) / 1000 + 4
    }

    /// Unpublished skills content (the question, its skill or its domain) only with drafts.
    func isPublished(_ entry: Entry, drafts: Bool) -> Bool {
        guard !drafts, case let .question(question) = entry.content else { return true }
        let parts = entry.id.split(separator: "/")
        let skill = library.skills[parts.prefix(3).joined(separator: "/")]
        let domain = library.domains[parts.prefix(2).joined(separator: "/")]
        return question.published && skill?.published == true && domain?.published == true
    }
}
