public import Foundation
public import RoteModel
public import RoteStore
import Scheduling
public import StudyData

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
    /// Entries due later today, not yet now (a learning step's next minutes).
    public var dueLaterToday: Int
    /// Reviews and new entries already done today.
    public var reviewedToday: Int
    public var introducedToday: Int
    /// The learner's daily budget of new entries (`new_per_day`), which `introducedToday`
    /// counts against; a session's `--new N` is beside it, not taken from it.
    public var newPerDay: Int

    /// Due today: now, overdue included, or later today (`docs/scheduling.md`, "Due today").
    /// `rote stats`, the Stats page, the plan and Today all count it so.
    public var dueToday: Int { dueTotal + dueLaterToday }

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
        /// New entries in this session (`rote study --new N`), however many were started
        /// today; nil for what is left of `newPerDay` today.
        public var newInSession: Int?
        /// Entries in acquisition at once (profile `working_set`); nil = no cap.
        public var workingSet: Int?
        /// Minutes the learner has; nil = no cap.
        public var minutes: Int?
        /// Include unpublished skills content.
        public var drafts: Bool

        public init(
            reviewsPerDay: Int = 200, newPerDay: Int = 10, newInSession: Int? = nil, workingSet: Int? = nil,
            minutes: Int? = nil, drafts: Bool = false
        ) {
            self.reviewsPerDay = reviewsPerDay
            self.newPerDay = newPerDay
            self.newInSession = newInSession
            self.workingSet = workingSet
            self.minutes = minutes
            self.drafts = drafts
        }

        /// The profile's limits, each overridable; `newInSession` is the session's own count
        /// of new entries, beside the profile's daily one.
        public static func from(
            _ profile: Profile?, newInSession: Int? = nil, reviewsPerDay: Int? = nil, minutes: Int? = nil,
            drafts: Bool = false
        ) -> Limits {
            Limits(
                reviewsPerDay: reviewsPerDay ?? profile?.settings.reviewsPerDay ?? 200,
                newPerDay: profile?.settings.newPerDay ?? 10, newInSession: newInSession,
                workingSet: profile?.settings.workingSet, minutes: minutes, drafts: drafts)
        }
    }

    /// Seconds an answer takes when the learner has no history yet.
    public static let defaultSecondsPerItem = 12.0

    /// One entry as the planner sees it: what its files say, worked out before planning.
    public struct Candidate: Sendable, Equatable {
        public var id: String
        public var deck: String
        /// A skills question whose question, skill and domain are all published; true for
        /// every other kind of entry.
        public var published: Bool
        /// A letter the learner has not unlocked yet.
        public var locked: Bool
        public var status: LibraryIndex.Status
        public var progress: ProgressSummary?
        /// A vocabulary entry's frequency rank.
        public var rank: Int?
        /// A vocabulary entry's word.
        public var headword: String?
        /// A vocabulary entry's topics (its examples' `context`s).
        public var topics: [String]

        public init(
            id: String, deck: String, published: Bool, locked: Bool, status: LibraryIndex.Status,
            progress: ProgressSummary?, rank: Int? = nil,
            headword: String? = nil, topics: [String] = []
        ) {
            self.rank = rank
            self.headword = headword
            self.topics = topics
            self.id = id
            self.deck = deck
            self.published = published
            self.locked = locked
            self.status = status
            self.progress = progress
        }
    }

    public let decks: [String: DeckManifest]
    public let deckOrder: [String]
    public let profile: Profile?
    public let source: any PlanningSource

    public init(decks: [String: DeckManifest], deckOrder: [String], profile: Profile?, source: any PlanningSource) {
        self.decks = decks
        self.deckOrder = deckOrder
        self.profile = profile
        self.source = source
    }

    /// Plans from the parsed library and its index.
    public init(library: LoadedLibrary, index: LibraryIndex) {
        let locked = library.lockedLetters(user: index.user)
        let candidates = index.orderedIDs.compactMap { id -> Candidate? in
            guard let entry = index.entries[id] else { return nil }
            return Candidate(
                id: id, deck: entry.deck, published: library.isPublished(entry), locked: locked.contains(id),
                status: index.status(of: id), progress: index.progress[id].map { ProgressSummary($0) },
                rank: { if case let .vocabulary(word) = entry.content { word.rank } else { nil } }(),
                headword: { if case let .vocabulary(word) = entry.content { word.word } else { nil } }(),
                topics: {
                    if case let .vocabulary(word) = entry.content { VocabularyEntry.Headline(word).topics } else { [] }
                }())
        }
        let progress = index.progress
        self.init(
            decks: library.decks, deckOrder: library.deckOrder, profile: index.profile,
            source: CandidateList(candidates) { id, time in
                progress[id]?.reviews.filter { $0.at >= time && $0.undone == nil && !$0.practice }.count ?? 0
            })
    }

    /// Decks a session studies: the requested ones that exist (all by default).
    public func studyableDecks(_ requested: [String]) -> [String] {
        let chosen = requested.isEmpty ? deckOrder : requested
        return chosen.filter { decks[$0] != nil }
    }

    /// Letters the learner has not unlocked yet; they never enter a session.
    public func lockedLetters() -> Set<String> {
        Set((0..<source.count).filter { source.facts($0).locked }.map(source.id))
    }

    /// Today's plan over `requested` decks (all by default); with `only`, just the entries it
    /// admits (a domain or skill of a skills deck, passages with a tag).
    public func plan(
        decks requested: [String] = [], limits: Limits, now: Date, timeZone: TimeZone = .current,
        only: (@Sendable (String) -> Bool)? = nil
    ) -> SessionPlan {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let startOfDay = calendar.startOfDay(for: now)
        let startOfTomorrow = calendar.date(byAdding: .day, value: 1, to: startOfDay) ?? startOfDay
        let chosen = Set(studyableDecks(requested))
        let deckNames = source.deckNames
        let studied = deckNames.map(chosen.contains)
        // One closure per deck: calling it does not copy the scheduler as reading it out of
        // an array would, once per due entry.
        let retrievability = deckNames.map { name -> @Sendable (MemoryState, Date) -> Double in
            let scheduler = Scheduler(settings: .forDeck(decks[name], profile: profile, deckName: name))
            return { scheduler.retrievability(of: $0, at: $1) }
        }

        var reviewedToday = 0
        var introducedToday = 0
        var inAcquisition = 0
        var dueLaterToday = 0
        var answerTimes: [Int] = []
        // Entry numbers, made into items only for what the plan keeps.
        var due: [(entry: Int, retrievability: Double, due: Date)] = []
        var new: [Int] = []
        var resumed: [Int] = []
        for entry in 0..<source.count {
            let facts = source.facts(entry)
            let deck = facts.deck
            guard deck < studied.count, studied[deck], limits.drafts || facts.published, !facts.locked else { continue }
            let progress = facts.progress
            if let progress, progress.reviewCount > 0 {
                reviewedToday += source.reviews(entry, since: startOfDay)
                if let first = progress.firstReviewAt, first >= startOfDay { introducedToday += 1 }
                if limits.minutes != nil { answerTimes += source.recentMilliseconds(entry) }
            }
            // Entries out of scope still count against today's limits and the working set.
            let admitted = only?(source.id(entry)) ?? true
            switch facts.status {
            case .ignored, .suspended:
                continue
            case .new:
                // A passage stopped part-way up the acquisition ladder is in acquisition
                // already: it takes a place in the working set and comes before fresh ones.
                if progress?.ladderStarted == true {
                    inAcquisition += 1
                    if admitted { resumed.append(entry) }
                } else if admitted {
                    new.append(entry)
                }
            case .learning, .review, .relearning:
                guard let state = progress?.state else { continue }
                if state.phase != .review { inAcquisition += 1 }
                guard admitted else { continue }
                if state.due <= now {
                    due.append((entry, retrievability[deck](state, now), state.due))
                } else if state.due < startOfTomorrow {
                    // A learning step ten minutes on: due today, not yet now.
                    dueLaterToday += 1
                }
            }
        }
        due.sort {
            $0.retrievability != $1.retrievability
                ? $0.retrievability < $1.retrievability : source.id($0.entry) < source.id($1.entry)
        }
        let dueTotal = due.count
        var reviewRoom = max(0, limits.reviewsPerDay - reviewedToday)
        let newLeftToday = max(0, limits.newPerDay - introducedToday)
        var newRoom = limits.newInSession.map { max(0, $0) } ?? newLeftToday
        if let workingSet = limits.workingSet { newRoom = min(newRoom, max(0, workingSet - inAcquisition)) }
        if let minutes = limits.minutes {
            let perItem = SessionPlanner.secondsPerItem(answerTimes)
            // Answer times come from files: a median of -4 s makes `perItem` 0 and the room
            // infinite, which `Int(_:)` traps on, so the room is bounded first.
            let fitting = (Double(minutes) * 60 / perItem).rounded(.down)
            let room = fitting.isNaN ? 0 : Int(min(max(fitting, 0), 1_000_000_000))
            reviewRoom = min(reviewRoom, room)
            newRoom = min(newRoom, max(0, room - min(reviewRoom, due.count)))
        }
        let keptDue = due.prefix(reviewRoom).map {
            SessionPlan.Item(
                id: source.id($0.entry), deck: deckNames[source.facts($0.entry).deck],
                retrievability: $0.retrievability, due: $0.due)
        }
        let ignored = Set((profile?.ignoredWords ?? []).map { $0.lowercased() })
        let interests = SessionPlanner.interestWeights(profile?.interests ?? [])
        new = SessionPlanner.ordered(
            new, lexicalRank: profile?.lexicalRank, rank: source.rank, room: newRoom,
            interest: interests.isEmpty
                ? nil : { entry in SessionPlanner.interest(in: self.source.topics(entry), weights: interests) },
            similar: { entry in
                guard self.decks[deckNames[self.source.facts(entry).deck]]?.kind == .vocabulary else { return false }
                return SessionPlanner.isInFamily(self.source.headword(entry)) {
                    ignored.contains($0) || self.source.isFamiliar($0)
                }
            })
        // A deck the learner names is studied even when its share keeps it out of the rest.
        let shares = deckNames.map { name -> Double in
            let share = profile?.newShare(of: name) ?? 1
            return share == 0 && !requested.isEmpty ? 1 : share
        }
        let picked = SessionPlanner.shared(
            new, room: newRoom, deck: { self.source.facts($0).deck }, share: { shares[$0] })
        let kept = (resumed + picked).map {
            SessionPlan.Item(id: source.id($0), deck: deckNames[source.facts($0).deck])
        }
        return SessionPlan(
            due: keptDue, new: kept, dueDeferred: dueTotal - keptDue.count, dueTotal: dueTotal,
            dueLaterToday: dueLaterToday, reviewedToday: reviewedToday, introducedToday: introducedToday,
            newPerDay: limits.newPerDay)
    }

    /// Seed 002's new-word selection (`docs/scheduling.md`, "Calibration, warm start and rank
    /// promotion").
    ///
    /// With a lexical rank, ranked words nearest it come first (distance in log rank, a word
    /// below the rank counting 1.25× its distance: those were likely warm-started), unranked
    /// entries keep their study order after them. A word in the family of one the learner
    /// ignores or knows (`similar`) weighs half: its distance counts double, plus 0.25; without
    /// a rank, such words go after the others. A word on a topic the learner is interested in
    /// (`interest`, 0…1) comes nearer: its distance is scaled by 1 − interest/2. Stable, so ties
    /// keep study order.
    ///
    /// `similar` and `interest` look words up, so they are asked only of the entries that can
    /// still make the first `room`: taken in order of distance, until `room` of them are not
    /// similar and half the next one's distance (the nearest interest can bring it) is beyond
    /// every kept one's weighed distance.
    static func ordered(
        _ entries: [Int], lexicalRank: Int?, rank: (Int) -> Int?, room: Int, interest: ((Int) -> Double)? = nil,
        similar: (Int) -> Bool
    ) -> [Int] {
        guard room > 0, !entries.isEmpty else { return entries }
        var base = entries
        if let lexicalRank {
            let centre = log(Double(max(1, lexicalRank)))
            func distance(_ entry: Int) -> Double {
                guard let rank = rank(entry) else { return .infinity }
                let offset = log(Double(max(1, rank))) - centre
                return offset >= 0 ? offset : -offset * 1.25
            }
            base = entries.map { ($0, distance($0)) }.enumerated().sorted { lhs, rhs in
                lhs.element.1 != rhs.element.1 ? lhs.element.1 < rhs.element.1 : lhs.offset < rhs.offset
            }.map(\.element.0)
            var weighed: [(entry: Int, key: Double, position: Int)] = []
            var plain = 0
            // How near interest can bring a word: half its distance.
            let reach = interest == nil ? 1.0 : 0.5
            for (position, entry) in base.enumerated() {
                let d = distance(entry)
                // Every later entry is at least this far: once `room` plain ones are nearer, stop.
                if plain >= room,
                    let worst = weighed.filter({ $0.key.isFinite }).map(\.key).sorted().dropFirst(room - 1).first,
                    d * reach > worst
                {
                    break
                }
                let isSimilar = d.isFinite && similar(entry)
                if !isSimilar { plain += 1 }
                let near = d.isFinite ? d * (1 - min(1, max(0, interest?(entry) ?? 0)) / 2) : d
                weighed.append((entry, isSimilar ? near * 2 + 0.25 : near, position))
            }
            let head = weighed.sorted { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }.map(\.entry)
            let seen = Set(head)
            return head + base.filter { !seen.contains($0) }
        }
        // No rank: study order, words of a familiar family after the first `room` others.
        var kept: [Int] = []
        var later: [Int] = []
        for (position, entry) in entries.enumerated() {
            if kept.count >= room { return kept + later + entries[position...] }
            if similar(entry) { later.append(entry) } else { kept.append(entry) }
        }
        return kept + later
    }

    /// The first `room` of `entries` taken deck by deck in turn, each deck as often as its
    /// share (`new_shares`, 1 unless set; 0 never): a smooth weighted round robin over the
    /// decks that still have entries, in study order on ties, so every deck of a session of
    /// all decks gets its part and two devices pick the same. Each deck's entries keep their
    /// order in `entries`.
    static func shared(_ entries: [Int], room: Int, deck: (Int) -> Int, share: (Int) -> Double) -> [Int] {
        guard room > 0 else { return [] }
        var queues: [Int: ArraySlice<Int>] = [:]
        for entry in entries { queues[deck(entry), default: []].append(entry) }
        var live = queues.keys.filter { share($0) > 0 }.sorted()
        var credit: [Int: Double] = [:]
        var picked: [Int] = []
        while picked.count < room, !live.isEmpty {
            let total = live.reduce(0) { $0 + share($1) }
            var best = live[0]
            for deck in live {
                credit[deck, default: 0] += share(deck)
                if credit[deck, default: 0] > credit[best, default: 0] { best = deck }
            }
            credit[best, default: 0] -= total
            picked.append(queues[best]!.removeFirst())
            if queues[best]!.isEmpty { live.removeAll { $0 == best } }
        }
        return picked
    }

    /// The profile's interests as topic → weight, weights clamped to 0…1 (the seed's interest
    /// vector); topics compared in lower case.
    static func interestWeights(_ interests: [(String, Double)]) -> [String: Double] {
        var weights: [String: Double] = [:]
        for (topic, weight) in interests where weight > 0 { weights[topic.lowercased()] = min(1, weight) }
        return weights
    }

    /// How much a word with these topics interests the learner: the largest weight among them
    /// (0 when none is of interest).
    static func interest(in topics: [String], weights: [String: Double]) -> Double {
        topics.reduce(0) { max($0, weights[$1.lowercased()] ?? 0) }
    }

    /// Whether `word` is in the family of a word `familiar` says the learner ignores or
    /// knows: it begins with that word (three letters or more) and is longer (act → action,
    /// actor; run → runner). A cheap stand-in for shared roots, read from the index.
    static func isInFamily(_ word: String?, familiar: (String) -> Bool) -> Bool {
        guard let word = word?.lowercased(), word.count > 3 else { return false }
        var prefix = ""
        for character in word.dropLast() {
            prefix.append(character)
            if prefix.count >= 3, familiar(prefix) { return true }
        }
        return false
    }

    /// Median answer time plus a few seconds of reading, from the learner's recent answers.
    static func secondsPerItem(_ milliseconds: [Int]) -> Double {
        guard !milliseconds.isEmpty else { return defaultSecondsPerItem }
        let sorted = milliseconds.sorted()
        return Double(sorted[sorted.count / 2]) / 1000 + 4
    }

}

/// Candidates worked out in full, as from the parsed library.
package struct CandidateList: PlanningSource {
    package let candidates: [SessionPlanner.Candidate]
    package let deckNames: [String]
    private let deckNumbers: [Int]
    /// The reviews since a time for an entry whose summary keeps too few of them to say.
    private let exactReviewsSince: @Sendable (String, Date) -> Int
    /// Headwords of the entries the learner ignores or knows.
    private let familiarWords: Set<String>

    package init(_ candidates: [SessionPlanner.Candidate], exactReviewsSince: @escaping @Sendable (String, Date) -> Int)
    {
        self.candidates = candidates
        var names: [String] = []
        var numbers: [String: Int] = [:]
        deckNumbers = candidates.map { candidate in
            if let number = numbers[candidate.deck] { return number }
            numbers[candidate.deck] = names.count
            names.append(candidate.deck)
            return names.count - 1
        }
        deckNames = names
        self.exactReviewsSince = exactReviewsSince
        familiarWords = Set(
            candidates.filter { $0.status == .ignored || $0.status == .review }.compactMap { $0.headword?.lowercased() }
        )
    }

    package var count: Int { candidates.count }
    package func id(_ entry: Int) -> String { candidates[entry].id }
    package func facts(_ entry: Int) -> EntryFacts {
        let candidate = candidates[entry]
        return EntryFacts(
            deck: deckNumbers[entry], published: candidate.published, locked: candidate.locked,
            status: candidate.status,
            progress: candidate.progress.map(PlanningProgress.init))
    }
    package func reviews(_ entry: Int, since time: Date) -> Int {
        candidates[entry].progress?.reviews(since: time) ?? exactReviewsSince(candidates[entry].id, time)
    }
    package func recentMilliseconds(_ entry: Int) -> [Int] {
        candidates[entry].progress?.recentMilliseconds.compactMap { $0 } ?? []
    }
    package func rank(_ entry: Int) -> Int? { candidates[entry].rank }
    package func headword(_ entry: Int) -> String? { candidates[entry].headword }
    package func topics(_ entry: Int) -> [String] { candidates[entry].topics }
    package func isFamiliar(_ word: String) -> Bool { familiarWords.contains(word) }
}
