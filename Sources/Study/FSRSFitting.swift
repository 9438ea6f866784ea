package import Foundation
import Parallelism
package import RoteModel
package import RoteStore
import Scheduling

/// `rote optimize` and `rote evaluate` on a library: which of a learner's reviews a fit reads,
/// and the files a new fit rewrites — the profile, and every progress file whose state the new
/// parameters change — so the command only locks, commits and prints.
package enum FSRSFitting {
    /// What a fit reads of a library: the deck manifests, and the learner's profile and
    /// progress files, parsed on every core — not the corpus, which a fit never needs (at 100 000
    /// entries, reading it would take most of the time and memory). Problems in those files are
    /// in `diagnostics`, for `checkReadable`.
    package static func loadLearner(root: URL, user: String) throws -> LoadedLibrary {
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        var (library, files) = try loader.list(root)
        let wanted = files.filter { _, kind in
            switch kind {
            case .profile, .progress: true
            default: false
            }
        }
        let root = library.root
        let decks = library.decks
        for result in wanted.concurrentMap({ loader.parse(root: root, path: $0.0, kind: $0.1, decks: decks) }) {
            LibraryLoader.collect(result, into: &library)
        }
        return library
    }

    /// The learner's review histories for a fit, one per progress file, in entry-id order (so
    /// every device builds the same dataset): entries of decks scheduled by FSRS — `deck`'s
    /// alone when given — with the reviews that schedule them (after any reset).
    package static func histories(library: LoadedLibrary, user: String, deck: String?) -> [[ReviewEvent]] {
        let files = library.progress[user] ?? [:]
        return files.keys.sorted().compactMap { entry in
            let name = deckName(of: entry)
            if let deck, name != deck { return nil }
            guard (library.decks[name]?.scheduler ?? .fsrs) == .fsrs else { return nil }
            let reviews = files[entry]!.scheduledReviews
            return reviews.isEmpty ? nil : reviews
        }
    }

    /// The parameters that schedule `deck` (or, without one, the learner's decks) now.
    package static func currentParameters(profile: Profile?, deck: String?) -> [Double] {
        SchedulerSettings.forDeck(nil, profile: profile, deckName: deck).parameters.values
    }

    /// Refuses when a file the fit would read or rewrite does not read cleanly: the learner's
    /// progress files in the decks concerned, and the profile. Such a file would drop reviews
    /// from the fit and keep a state replayed with old parameters, and rewriting it would lose
    /// what was not understood (`ReadBeforeRewrite`); the error names its first problem.
    ///
    /// Only files with a diagnostic from the load are read again, so this costs nothing on a
    /// clean library.
    package static func checkReadable(library: LoadedLibrary, user: String, deck: String?) throws {
        let prefix = LibraryPaths(user: user).progressFolder + "/" + (deck.map { "\($0)/" } ?? "")
        let profilePath = LibraryPaths(user: user).profile
        let flagged = Set(
            library.diagnostics.map(\.path).filter {
                $0 == profilePath || ($0.hasPrefix(prefix) && $0.hasSuffix(".yaml"))
            })
        for path in flagged.sorted() {
            if path == profilePath {
                _ = try ReadBeforeRewrite.read(Profile.self, at: path, in: library.root)
            } else {
                _ = try ReadBeforeRewrite.read(ProgressFile.self, at: path, in: library.root)
            }
        }
    }

    /// What a fit changes: `profile` with the parameters recorded (for `deck`, or the learner),
    /// `updated_at` set to `now`, and every progress file of the learner whose state the new
    /// parameters change, replayed. Path → new bytes, for `LibraryGit.apply`.
    package static func changes(
        library: LoadedLibrary, user: String, profile: Profile, deck: String?, parameters: [Double], now: Date
    ) -> (changes: [String: Data?], replayed: Int) {
        var updated = profile
        if let deck {
            updated.setFSRSParameters(parameters, for: deck)
        } else {
            updated.settings.fsrsParameters = parameters
        }
        updated.updatedAt = Timestamp.wholeSeconds(now)
        var changes: [String: Data?] = [LibraryPaths(user: user).profile: Data(updated.render().utf8)]
        // One scheduler pair per deck; files whose settings do not change are left alone.
        let files = (library.progress[user] ?? [:]).sorted { $0.key < $1.key }
        var schedulers: [String: Scheduler] = [:]
        for name in Set(files.map { deckName(of: $0.key) }) {
            let old = SchedulerSettings.forDeck(library.decks[name], profile: profile, deckName: name)
            let new = SchedulerSettings.forDeck(library.decks[name], profile: updated, deckName: name)
            if old != new { schedulers[name] = Scheduler(settings: new) }
        }
        // Replayed and rendered on every core: at 50 000 files, rendering is most of the work.
        let changed = schedulers
        let rewritten = files.concurrentMap { entry, file -> (String, Data)? in
            guard let scheduler = changed[deckName(of: entry)] else { return nil }
            let reviews = file.scheduledReviews
            let state = reviews.isEmpty ? nil : scheduler.replay(reviews, entryID: entry)
            guard state != file.state else { return nil }
            var replayed = file
            replayed.state = state
            return (LibraryPaths(user: user).progress(entry), Data(replayed.render().utf8))
        }
        var replayed = 0
        for case let (path, data)? in rewritten {
            changes[path] = data
            replayed += 1
        }
        return (changes, replayed)
    }

    static func deckName(of entry: String) -> String {
        String(entry.prefix { $0 != "/" })
    }

    /// A score for a person: `decimals` places, a dash when there is none.
    package static func fixed(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "—" }
        return String(format: "%.\(decimals)f", value)
    }

    /// Parameters for a person, four places each.
    package static func list(_ values: [Double]) -> String {
        values.map { String(format: "%.4f", $0) }.joined(separator: ", ")
    }
}
