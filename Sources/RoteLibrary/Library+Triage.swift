public import Foundation
public import RoteModel
import RoteStore
import Scheduling
import Study

/// Seed 002's notification triage — Reveal, Add to Deck, Ignore — and "I know this word",
/// each one commit.
extension Library {
    /// `rote ignore WORD` for words in no deck (`the`): stored, lower-cased, in the profile's
    /// `ignored_words`, which sync merges as a set. Any entry whose word is one of them counts
    /// as ignored from then on, in every deck. Returns the words newly added.
    public func ignoreWords(_ words: [String], now: Date = Date()) throws -> [String] {
        try requireProfile()
        return try write(purpose: "ignore") { git in
            guard var updated = try ReadBeforeRewrite.read(Profile.self, at: paths.profile, in: root) else { return [] }
            let had = LibraryIndex.ignoredWords(of: updated)
            var added: [String] = []
            for word in words.map(LibraryIndex.normalize) where !had.contains(word) && !added.contains(word) {
                added.append(word)
            }
            guard !added.isEmpty else { return [] }
            updated.ignoredWords += added
            updated.updatedAt = Timestamp.wholeSeconds(now)
            let subject = "Ignore: " + (added.count <= 3 ? added.joined(separator: ", ") : "\(added.count) words")
            try git.apply(
                changes: [paths.profile: Data(updated.render().utf8)],
                message: CommitMessage(subject: subject))
            return added
        }
    }

    /// `rote add`: puts words into study at once. Each entry is made active (and its word
    /// taken out of `ignored_words`), and gets a first review graded `again` — "I met it and
    /// do not know it yet" — so it is in learning, due within minutes, and the next session
    /// shows it before any new word. All in one commit.
    public func add(_ entries: [Entry], now: Date = Date()) throws -> [(entry: Entry, file: ProgressFile)] {
        try requireProfile()
        return try write(purpose: "add") { git in
            let recorder = ReviewRecorder(root: root, user: user, device: git.device, decks: decks, profile: profile)
            let now = Timestamp.wholeSeconds(now)
            try Timestamp.checkNotInFuture(now, what: "the review's time")
            var changes: [String: Data?] = [:]
            var results: [(entry: Entry, file: ProgressFile)] = []
            var unignored = Set<String>()
            for entry in entries where !results.contains(where: { $0.entry.id == entry.id }) {
                let result = try recorder.updated(entry: entry.id) { file in
                    file.status = .active
                    file.statusAt = now
                    file.reviews.append(
                        ReviewEvent(id: UUID().uuidString.lowercased(), at: now, grade: .again, device: git.device))
                    file.reviews.sort(by: ReviewEvent.replayOrder)
                }
                changes[result.path] = result.data
                results.append((entry, result.file))
                if case let .vocabulary(word) = entry.content { unignored.insert(LibraryIndex.normalize(word.word)) }
            }
            if var updated = try ReadBeforeRewrite.read(Profile.self, at: paths.profile, in: root),
                updated.ignoredWords.contains(where: { unignored.contains(LibraryIndex.normalize($0)) })
            {
                updated.ignoredWords.removeAll { unignored.contains(LibraryIndex.normalize($0)) }
                updated.updatedAt = now
                changes[paths.profile] = Data(updated.render().utf8)
            }
            try git.apply(
                changes: changes, message: Self.subject("Add", results.map(\.entry.id)))
            return results
        }
    }

    /// `rote known`: the learner says they know these words. Each never-studied entry gets the
    /// warm start's two synthetic reviews, marked `synthetic: known`, so it schedules as a
    /// known word far ahead; an entry with reviews already keeps its history as it is. One
    /// commit; returns each entry with whether it changed.
    public func markKnown(_ entries: [Entry], now: Date = Date()) throws -> [(entry: Entry, changed: Bool)] {
        try requireProfile()
        return try write(purpose: "known") { git in
            let recorder = ReviewRecorder(root: root, user: user, device: git.device, decks: decks, profile: profile)
            var changes: [String: Data?] = [:]
            var results: [(entry: Entry, changed: Bool)] = []
            for entry in entries where !results.contains(where: { $0.entry.id == entry.id }) {
                let before = try recorder.current(entry.id)
                guard before.reviews.isEmpty else {
                    results.append((entry, false))
                    continue
                }
                let result = try recorder.updated(entry: entry.id) { file in
                    file.status = .active
                    file.reviews += WarmStart.reviews(
                        entry: entry.id, calibration: "known", now: now, device: git.device, mark: ReviewEvent.known)
                    file.reviews.sort(by: ReviewEvent.replayOrder)
                }
                changes[result.path] = result.data
                results.append((entry, true))
            }
            if !changes.isEmpty {
                try git.apply(
                    changes: changes,
                    message: Self.subject("Known", results.filter(\.changed).map(\.entry.id)))
            }
            return results
        }
    }

    static func subject(_ verb: String, _ names: [String]) -> CommitMessage {
        CommitMessage(
            subject: "\(verb): " + (names.count <= 3 ? names.joined(separator: ", ") : "\(names.count) entries"))
    }
}
