public import Foundation
import Launch
public import RoteModel
import RoteStore

extension Library {
    /// Changes the learner's profile in one commit: the file is read again in full under the
    /// lock (a profile that does not read is never rewritten), `change` edits it, and
    /// `updated_at` moves so a sync merges the edit key by key. Returns the profile written;
    /// nothing is committed when `change` leaves it as it was.
    @discardableResult
    public func updateProfile(subject: String, now: Date = Date(), _ change: (inout Profile) throws -> Void) throws
        -> Profile
    {
        try write(purpose: "profile") { git in
            let path = paths.profile
            guard var profile = try ReadBeforeRewrite.read(Profile.self, at: path, in: root) else {
                throw LibraryError(.notFound, "no learner '\(user)' in this library (\(path)); use --user NAME")
            }
            let before = profile.render()
            try change(&profile)
            guard profile.render() != before else { return profile }
            profile.updatedAt = Timestamp.wholeSeconds(now)
            try git.apply(
                changes: [path: Data(profile.render().utf8)],
                message: CommitMessage(subject: subject))
            return profile
        }
    }
}

/// Seed 002's interest vector: topic → weight in the profile, which new-word selection uses
/// (`docs/scheduling.md`, "New-word selection").
extension Library {
    /// The topics the vocabulary decks' examples name (`context:`), with how many words have
    /// each, most first: what a learner can be interested in.
    public func topicCounts() throws -> [(topic: String, words: Int)] {
        let index = try launch().index
        var counts: [String: Int] = [:]
        for number in 0..<index.entryCount {
            for topic in index.topics(ofEntry: number) { counts[topic, default: 0] += 1 }
        }
        return counts.map { ($0.key, $0.value) }.sorted {
            $0.words != $1.words ? $0.words > $1.words : $0.topic < $1.topic
        }
    }

    /// Sets interests' weights (0…1; 0 removes the topic) in one commit; topics are kept
    /// sorted, as a sync's merge writes them. Returns the interests after.
    @discardableResult
    public func setInterests(_ weights: [(topic: String, weight: Double)], now: Date = Date()) throws -> [(
        String, Double
    )] {
        for (topic, weight) in weights {
            guard !topic.isEmpty, !topic.contains(where: { $0.isWhitespace || $0 == ":" }) else {
                throw LibraryError(
                    .invalidName,
                    "'\(topic)' is no topic name: use a deck's context name such as food or travel (rote interests lists them)"
                )
            }
            guard weight.isFinite, (0...1).contains(weight) else {
                throw LibraryError(.invalidValue, "the weight of '\(topic)' must be between 0 and 1, not \(weight)")
            }
        }
        try requireProfile()
        let described = weights.map { "\($0.topic) \($0.weight == 0 ? "removed" : Self.weightText($0.weight))" }
        let subject =
            "Interests: " + (described.count <= 3 ? described.joined(separator: ", ") : "\(described.count) topics")
        let profile = try updateProfile(subject: subject, now: now) { profile in
            var current = Dictionary(profile.interests, uniquingKeysWith: { _, last in last })
            for (topic, weight) in weights { current[topic.lowercased()] = weight == 0 ? nil : weight }
            profile.interests = current.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        return profile.interests
    }

    /// A weight as the profile and messages show it: no trailing zeros.
    public static func weightText(_ weight: Double) -> String {
        // Bounded before `Int(_:)`, which traps past Int's range: a profile may say `1e300`.
        weight == weight.rounded() && abs(weight) < 1e15 ? String(Int(weight)) : String(weight)
    }
}
