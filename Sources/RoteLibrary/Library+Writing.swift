public import Foundation
import Launch
public import RoteModel
public import RoteStore
import Scheduling
import Study

/// A change of where entries stand for the learner, through the progress file's
/// `status`/`status_at` (the later one wins when devices disagree) or its `reset_at`.
public enum EntryStatusChange: Sendable, Equatable {
    case status(ProgressFile.Status)
    /// Back to new: the reviews stay as history (a merge would bring deleted ones back
    /// anyway); only those after `reset_at` schedule it, and a passage's ladder starts again.
    case reset
}

/// What recording a review did.
public struct RecordedReview: Sendable {
    public enum Outcome: Sendable {
        /// Written and committed; the progress file as it now is.
        case recorded(ProgressFile)
        /// A review with this id was already in the file: nothing changed.
        case alreadyRecorded(ReviewEvent)
    }

    public let entry: Entry
    public let outcome: Outcome
    /// Content upgrades that ran first (a deck's version changed since the learner saw it).
    public let upgrades: [DeckUpgrade]
    /// This review made the entry a leech (`leech_threshold`); the file's status says whether
    /// its deck's `leech_action` suspended it.
    public var becameLeech = false
}

extension Library {
    /// Runs `body` in a transaction of `mode` (all or nothing unless said), the library's one
    /// door to write: it holds the library's lock throughout, has finished whatever a killed
    /// write left before `body` reads anything, and commits now or behind the write as this
    /// library's `commits` say. What it committed is then recorded in the launch index's delta
    /// (`recordWrites`).
    package func write<Result>(
        _ mode: LibraryTransaction.Mode = .atomic, purpose: String, _ body: (LibraryTransaction) throws -> Result
    ) throws -> Result {
        try LibraryTransaction.run(root: root, user: user, purpose: purpose, mode: mode, commits: commits) {
            transaction in
            let result = try body(transaction)
            recordWrites(transaction.committedChanges)
            return result
        }
    }

    /// Records committed writes in the launch index (`LibraryLaunch.recording(writes:)`) — in
    /// the one this library opened, else in the cache as it lies, when there is one: recording
    /// only states what these files now hold, so it needs no check first. A library without
    /// an index gets none made here, and a failure to record only leaves the files for the
    /// next launch's check to read: the writes themselves are committed either way.
    public func recordWrites(_ writes: [String: Data?]) {
        guard !writes.isEmpty else { return }
        indexLock.lock()
        defer { indexLock.unlock() }
        let base: LibraryLaunch
        if let opened {
            base = opened
        } else if case let .success(cached) = LibraryLaunch.cached(root: root, user: user) {
            base = cached
        } else {
            return
        }
        guard let recorded = try? base.recording(writes: writes) else { return }
        if opened != nil { opened = recorded }
    }

    /// Runs the upgrade rules of decks whose version changed since the learner last saw them
    /// (seed 003). They list what each deck added and removed, which takes every file, so the
    /// library is read in full — only when a version did change, which the profile says.
    func upgradeContentReadingEveryFile(git: LibraryTransaction) throws -> [DeckUpgrade] {
        guard ContentVersions.hasUpgrade(decks: decks, profile: profile) else { return [] }
        let everything = try LibraryLoader(users: .only(user), includeSessions: false).load(root)
        return try ContentUpgrade.run(library: everything, user: user, git: git)
    }

    /// The recorder of this learner's answers, balancing them against the launch index's due
    /// dates when the profile asks for it (`load_balance`).
    func answerRecorder(device: String) throws -> ReviewRecorder {
        var recorder = ReviewRecorder(root: root, user: user, device: device, decks: decks, profile: profile)
        try recorder.balance { Array(try launch().index.dueDates().values) }
        return recorder
    }

    /// Records one review of `entry` from outside a study session (an app, a script, a paper
    /// quiz): appended to the progress file, the schedule replayed, and committed with a
    /// one-review session file, so it shows in `rote log` and syncs like any study. All or
    /// nothing: when this throws, nothing was recorded. With `reviewID`, a review already
    /// recorded under that id changes nothing, so a failed call can be retried.
    public func recordReview(of entry: Entry, grade: Grade, ms: Int?, reviewID: String?, now: Date = Date()) throws
        -> RecordedReview
    {
        try requireProfile()
        return try write(purpose: "review") { git in
            let upgrades = try upgradeContentReadingEveryFile(git: git)
            let recorder = try answerRecorder(device: git.device)
            let before = try recorder.current(entry.id)
            if let reviewID, let earlier = before.reviews.first(where: { $0.id == reviewID }) {
                return RecordedReview(entry: entry, outcome: .alreadyRecorded(earlier), upgrades: upgrades)
            }
            let wasNew = before.reviews.isEmpty
            let written = try recorder.recorded(
                entry: entry.id, grade: grade, at: now, ms: ms, id: reviewID ?? UUID().uuidString.lowercased())
            let at = Timestamp.wholeSeconds(now)
            var session = SessionFile(
                id: UUID().uuidString.lowercased(), user: user, device: git.device, kind: wasNew ? .learning : .review,
                startedAt: at, endedAt: at, decks: [entry.deck], new: wasNew ? 1 : 0,
                attempts: [
                    .init(
                        entry: entry.id, question: "review", answer: grade.name, correct: grade != .again, at: at,
                        ms: ms ?? 0)
                ])
            session.count(grade)
            try git.applySession(session, progress: [written.path: written.data])
            var recorded = RecordedReview(entry: entry, outcome: .recorded(written.file), upgrades: upgrades)
            recorded.becameLeech = written.becameLeech
            return recorded
        }
    }

    /// Applies `change` to each entry's progress file and commits them together (subject
    /// "`Verb`: ids"); returns each entry with its file as written. All or nothing.
    public func change(_ change: EntryStatusChange, of entries: [Entry], verb: String, now: Date = Date()) throws -> [(
        entry: Entry, file: ProgressFile
    )] {
        try requireProfile()
        return try write(purpose: verb) { git in
            let recorder = ReviewRecorder(root: root, user: user, device: git.device, decks: decks, profile: profile)
            let now = Timestamp.wholeSeconds(now)
            var changes: [String: Data?] = [:]
            var results: [(entry: Entry, file: ProgressFile)] = []
            for entry in entries where !results.contains(where: { $0.entry.id == entry.id }) {
                let result = try recorder.updated(entry: entry.id) { file in
                    switch change {
                    case let .status(status):
                        file.status = status
                    case .reset:
                        file.status = .active
                        file.resetAt = file.reviews.map(\.at).max().map { max($0, now) } ?? now
                        file.ladder = nil
                    }
                    file.statusAt = now
                }
                changes[result.path] = result.data
                results.append((entry, result.file))
            }
            try git.apply(
                changes: changes,
                message: Self.subject(verb.prefix(1).uppercased() + verb.dropFirst(), results.map(\.entry.id)))
            return results
        }
    }
}
