package import Foundation
package import RoteModel
package import RoteStore
package import Scheduling

/// Writes answered reviews into progress files the moment they happen — each one atomically,
/// with the replayed state — so a session killed at any point loses no answered review.
///
/// It is also the gate of seed 004's consent: a progress file of a passage deck is neither
/// written nor computed unless the learner agreed that Rote keeps their passage practice.
package struct ReviewRecorder {
    package let root: URL
    package let user: String
    package let device: String
    let decks: [String: DeckManifest]
    let profile: Profile?
    /// True when the learner agreed to Rote keeping their passage practice; set by the study
    /// session when they agree during it.
    package var keepsPassagePractice: Bool
    /// True in a practice session (`rote study --practice`): every review recorded is marked
    /// `practice: true`, which the replay leaves out, so the state and due date stay as they were.
    package var practice = false
    /// The due load answers are balanced against, when the profile turns `load_balance` on:
    /// each answer's fuzz then picks its day by the load, and the review records the pick.
    package var workload: BalancedWorkload?

    package init(root: URL, user: String, device: String, decks: [String: DeckManifest], profile: Profile?) {
        self.root = root
        self.user = user
        self.device = device
        self.decks = decks
        self.profile = profile
        self.keepsPassagePractice = profile?.keepsPassagePractice ?? false
    }

    /// Turns load balancing on when the profile asks for it (`load_balance: true`), against
    /// the due dates `dueDates` gives — read only then.
    package mutating func balance(against dueDates: () throws -> [Date]) rethrows {
        guard let settings = profile?.settings, settings.loadBalance == true else { return }
        workload = BalancedWorkload(dueDates: try dueDates(), easyDays: settings.easyDays)
    }

    /// True when `entry` belongs to a passages deck.
    package func isPassage(_ entry: String) -> Bool {
        decks[String(entry.split(separator: "/")[0])]?.kind == .passages
    }

    /// Refuses any change to a passage's progress without the learner's consent.
    func requireConsent(for entry: String) throws {
        guard isPassage(entry), !keepsPassagePractice else { return }
        throw LibraryError(.consentRequired, Profile.passagesConsentRefusal(entry: entry))
    }

    /// `profiles/<user>/progress/<entry>.yaml`.
    package func progressPath(_ entry: String) -> String { LibraryPaths(user: user).progress(entry) }

    /// The entry's progress as it is on disk now (a new file when there is none). A file that
    /// does not read cleanly is refused (`ReadBeforeRewrite`): every caller goes on to rewrite it.
    package func current(_ entry: String) throws -> ProgressFile {
        try ReadBeforeRewrite.read(ProgressFile.self, at: progressPath(entry), in: root) ?? ProgressFile(entry: entry)
    }

    /// The settings `entry`'s deck schedules with for this learner.
    package func settings(forEntry entry: String) -> SchedulerSettings {
        let deck = String(entry.split(separator: "/")[0])
        return .forDeck(decks[deck], profile: profile, deckName: deck)
    }

    /// A recorded review: the new file's path and bytes (for the session's commit), the file,
    /// and whether this review made the entry a leech (suspended too when its deck's
    /// `leech_action` says so).
    package typealias Recorded = (path: String, data: Data, file: ProgressFile, becameLeech: Bool)

    /// Appends one review, replays the state, and writes the file.
    @discardableResult
    package func record(entry: String, grade: Grade, at: Date, ms: Int?, id: String = UUID().uuidString.lowercased())
        throws -> Recorded
    {
        let result = try recorded(entry: entry, grade: grade, at: at, ms: ms, id: id)
        try AtomicFile.write(result.data, at: result.path, in: root)
        return result
    }

    /// The file `record` would write, without writing it — for callers that write it together
    /// with other files, all or nothing (`LibraryGit.apply`).
    package func recorded(entry: String, grade: Grade, at: Date, ms: Int?, id: String = UUID().uuidString.lowercased())
        throws -> Recorded
    {
        try requireConsent(for: entry)
        try Timestamp.checkNotInFuture(at, what: "the review's time")
        var file = try current(entry)
        let stateBefore = file.state
        let lapsesBefore = file.state?.lapses ?? 0
        var review = ReviewEvent(
            id: id, at: Timestamp.wholeSeconds(at), grade: grade, ms: ms, device: device, practice: practice)
        let settings = settings(forEntry: entry)
        let scheduler = Scheduler(settings: settings)
        if let workload, !practice, file.status == .active {
            review.balancedInterval = Self.balancedInterval(
                for: review, after: file.scheduledReviews, entry: entry, scheduler: scheduler, workload: workload)
        }
        file.reviews.append(review)
        file.reviews.sort(by: ReviewEvent.replayOrder)
        file.state = scheduler.replay(file.scheduledReviews, entryID: entry)
        if review.balancedInterval != nil { workload?.move(from: stateBefore?.due, to: file.state?.due) }
        let becameLeech = MemoryState.becameLeech(
            lapsesBefore: lapsesBefore, after: file.state, threshold: settings.leechThreshold)
        if becameLeech, settings.leechAction == .suspend, file.status == .active {
            file.status = .suspended
            file.statusAt = Timestamp.wholeSeconds(at)
        }
        return (progressPath(entry), Data(file.render().utf8), file, becameLeech)
    }

    /// The interval the workload picks for `review` among the days its fuzz allows, when it is
    /// the newest of the entry's reviews (an answer recorded late, behind later ones, keeps the
    /// plain fuzz) and the window holds more than one day.
    static func balancedInterval(
        for review: ReviewEvent, after earlier: [ReviewEvent], entry: String, scheduler: Scheduler,
        workload: BalancedWorkload
    ) -> Int? {
        guard earlier.allSatisfy({ ReviewEvent.replayOrder($0, review) }) else { return nil }
        let before = scheduler.replay(earlier, entryID: entry)
        guard let window = scheduler.fuzzWindow(after: before, review: review), window.count > 1 else { return nil }
        return workload.interval(
            in: window, reviewedAt: review.at, unit: Fuzz.unit(entryID: entry, reviewID: review.id))
    }

    /// Changes the entry's file without adding a review — status, reset, ladder position or
    /// reflection — replays the state (a reset changes which reviews count) and writes it.
    @discardableResult
    package func update(entry: String, _ change: (inout ProgressFile) -> Void) throws -> (
        path: String, data: Data, file: ProgressFile
    ) {
        let result = try updated(entry: entry, change)
        try AtomicFile.write(result.data, at: result.path, in: root)
        return result
    }

    /// The file `update` would write, without writing it.
    package func updated(entry: String, _ change: (inout ProgressFile) -> Void) throws -> (
        path: String, data: Data, file: ProgressFile
    ) {
        try requireConsent(for: entry)
        var file = try current(entry)
        change(&file)
        file.state =
            file.scheduledReviews.isEmpty
            ? nil : Scheduler.replay(file.scheduledReviews, entryID: entry, settings: settings(forEntry: entry))
        return (progressPath(entry), Data(file.render().utf8), file)
    }

    /// Puts the entry's file back as it was (`nil`: there was none) — the learner's undo of a
    /// whole visit, review and ladder moves together.
    package func restore(entry: String, to data: Data?) throws {
        if let data {
            try AtomicFile.write(data, at: progressPath(entry), in: root)
        } else if FileManager.default.fileExists(atPath: root.appending(path: progressPath(entry)).path) {
            try AtomicFile.remove(at: progressPath(entry), in: root)
        }
    }

    /// The file's bytes on disk now, nil when there is none.
    package func bytes(_ entry: String) -> Data? {
        FileManager.default.contents(atPath: root.appending(path: progressPath(entry)).path)
    }

    /// Removes the review with `id` again (the learner's undo), rewriting the file.
    package func undo(entry: String, reviewID: String) throws -> (path: String, data: Data) {
        var file = try current(entry)
        file.reviews.removeAll { $0.id == reviewID }
        file.state = Scheduler.replay(file.scheduledReviews, entryID: entry, settings: settings(forEntry: entry))
        let data = Data(file.render().utf8)
        try AtomicFile.write(data, at: progressPath(entry), in: root)
        return (progressPath(entry), data)
    }
}
