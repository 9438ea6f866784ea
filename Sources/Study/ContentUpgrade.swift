package import Foundation
import Git
import RoteModel
package import RoteStore

/// Runs the upgrade rules of decks whose content version changed since a learner last saw
/// them (seed 003), and records the versions seen in the learner's profile (`deck_versions`).
///
/// The rules, by deck kind:
/// - letters: new letters start with default mastery (no attempts, no passes; they unlock by
///   the deck's unlock rule like any letter); removed letters are reported, and the learner's
///   history for them is kept.
/// - every other kind: new entries join study as new; removed ones are reported, their
///   history kept.
///
/// Mastery is derived from attempts and reviews, never stored, so "default mastery" needs no
/// file: the rule's work is the report and the stamp. Decks seen for the first time are only
/// recorded, and only together with a real upgrade, so a learner who never meets a version
/// change never gets an extra commit.
package enum ContentUpgrade {
    /// Upgrades `user`'s view of every deck whose version changed, in one commit; returns the
    /// upgrades that ran (first sightings left out), empty when there were none.
    package static func run(library: LoadedLibrary, user: String, git: LibraryTransaction, now: Date = Date()) throws
        -> [DeckUpgrade]
    {
        let pending = ContentVersions.pending(library, user: user)
        let upgrades = pending.filter(\.isUpgrade)
        guard !upgrades.isEmpty else { return [] }
        let path = LibraryPaths(user: user).profile
        // Bookkeeping only: a profile that does not read in full is never rewritten for it.
        guard let data = FileManager.default.contents(atPath: library.root.appending(path: path).path),
            var profile = try? ReadBeforeRewrite.decode(Profile.self, data, at: path)
        else { return [] }
        for upgrade in pending { profile.setSeenVersion(upgrade.to, of: upgrade.deck) }
        profile.updatedAt = Timestamp.wholeSeconds(now)
        let title = upgrades.map { "\($0.deck) \($0.from ?? "?") → \($0.to)" }.joined(separator: ", ")
        let body = upgrades.flatMap(describe).map { "- " + $0 }.joined(separator: "\n")
        try git.apply(
            changes: [path: Data(profile.render().utf8)],
            message: CommitMessage(subject: "Content: \(title) for \(user)", body: body))
        return upgrades
    }

    /// What an upgrade did, one line per change, for the terminal and the commit message.
    package static func describe(_ upgrade: DeckUpgrade) -> [String] {
        var lines = ["\(upgrade.deck): version \(upgrade.from ?? "?") → \(upgrade.to)"]
        func plural(_ count: Int) -> String {
            upgrade.kind == .letters ? (count == 1 ? "letter" : "letters") : (count == 1 ? "entry" : "entries")
        }
        guard let added = upgrade.added, let removed = upgrade.removed else {
            lines.append(
                "\(upgrade.deck): version \(upgrade.from ?? "?") is not in this library's history, so what changed cannot be listed"
            )
            return lines
        }
        if !added.isEmpty {
            let rule =
                upgrade.kind == .letters ? " with default mastery (not practised, no passes yet)" : ", to study as new"
            lines.append(
                "\(added.count) new \(plural(added.count))\(rule): \(added.map(short).joined(separator: ", "))")
        }
        if !removed.isEmpty {
            let kept =
                upgrade.removedWithHistory.isEmpty
                ? "" : "; your history for \(upgrade.removedWithHistory.map(short).joined(separator: ", ")) is kept"
            lines.append(
                "\(removed.count) \(plural(removed.count)) removed: \(removed.map(short).joined(separator: ", "))\(kept)"
            )
        }
        if added.isEmpty, removed.isEmpty { lines.append("no \(plural(2)) added or removed") }
        return lines
    }

    /// `alphabet/a` → `a`.
    static func short(_ id: String) -> String { String(id.split(separator: "/", maxSplits: 1).last ?? Substring(id)) }
}
