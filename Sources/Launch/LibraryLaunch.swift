import Dispatch
package import Foundation
import Git
import Parallelism
package import RoteModel
import RoteStore
package import StudyData

/// Opens a learner's library for study and lookups through the launch index cache in
/// `.git/rote/`: the index from the last launch is used at once, and a stat check of every
/// file (git's own test: size, times, inode; then the blob id when only the stamp moved)
/// decides whether it still holds — nothing changed, some files changed (only those are
/// read again), or something the index cannot patch changed (a full load rebuilds it). A
/// damaged or foreign cache file fails its checksum and is rebuilt, never trusted.
package struct LibraryLaunch: Sendable {
    package let root: URL
    package let user: String
    package let index: LaunchIndex
    /// Deck manifests and the learner's profile, read at every launch (a handful of files).
    package let decks: [String: DeckManifest]
    package let profile: Profile?
    /// How this launch got its index.
    package let source: Source

    package enum Source: Sendable, Equatable {
        /// The cache, not yet checked against the files.
        case cache
        /// The cache, checked: no file changed.
        case verified
        /// The cache with this many changed files read again.
        case refreshed(files: Int)
        /// A full load; the reason the cache could not serve.
        case rebuilt(reason: String)
    }

    /// The cache file for `user` in the library at `root`; nil without a `.git` folder.
    package static func cacheURL(root: URL, user: String) -> URL? {
        var isFolder: ObjCBool = false
        let git = root.appending(path: ".git")
        guard FileManager.default.fileExists(atPath: git.path, isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        return git.appending(path: "rote/launch-\(user).index")
    }

    /// The delta beside a base index file.
    static func deltaURL(_ base: URL) -> URL { base.deletingPathExtension().appendingPathExtension("delta") }

    /// The cached index as it is (check it with `verify()` before writing anything), or a
    /// full load when there is no usable cache.
    package static func open(root: URL, user: String) throws -> LibraryLaunch {
        switch cached(root: root, user: user) {
        case let .success(launch): return launch
        case let .failure(missing):
            return try rebuild(
                root: root.standardizedFileURL.resolvingSymlinksInPath(), user: user, reason: missing.description)
        }
    }

    /// The cached index as it is, unchecked; why there is none usable otherwise (nothing is
    /// rebuilt).
    package static func cached(root: URL, user: String) -> Result<LibraryLaunch, RebuildReason> {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        guard let url = cacheURL(root: root, user: user) else {
            return .failure(RebuildReason(description: "no .git folder to keep a cache in"))
        }
        guard let mapped = MappedFile(path: url.path) else {
            return .failure(RebuildReason(description: "no cache yet"))
        }
        var index: LaunchIndex
        do {
            index = try LaunchIndex(storage: mapped)
        } catch {
            return .failure(RebuildReason(description: "cache unusable: \(error)"))
        }
        guard index.settings.user == user, index.settings.root == root.path else {
            return .failure(RebuildReason(description: "cache made for another library or learner"))
        }
        if let delta = FileManager.default.contents(atPath: deltaURL(url).path),
            let overlay = Overlay.decode(delta, base: index)
        {
            index = index.with(overlay: overlay)
        }
        let (decks, profile) = readSettings(root: root, user: user, decks: index.settings.decks)
        return .success(
            LibraryLaunch(root: root, user: user, index: index, decks: decks, profile: profile, source: .cache))
    }

    /// Opens and checks at once: the index is then known to match the files.
    package static func openVerified(root: URL, user: String) throws -> LibraryLaunch {
        let launch = try open(root: root, user: user)
        return launch.source == .cache ? try launch.verify() : launch
    }

    /// `openVerified`, telling `progress` once it has taken `patience` seconds — a first
    /// launch reads every file, seconds in a big library — and again when it is done, so a
    /// learner is not left looking at nothing. A quick launch says nothing.
    package static func openVerified(
        root: URL, user: String, patience: TimeInterval, progress: @escaping @Sendable (String) -> Void
    ) throws -> LibraryLaunch {
        let started = Date()
        let announcement = Announcement()
        // With an index to check, a slow launch is the check (a slow disk, a debug build, a
        // busy machine), and saying every file is read would be wrong.
        let hasIndex = cacheURL(root: root.standardizedFileURL.resolvingSymlinksInPath(), user: user).map {
            FileManager.default.fileExists(atPath: $0.path)
        }
        let slow = DispatchWorkItem {
            announcement.make {
                progress(
                    hasIndex == true
                        ? "Checking the library's index for \(user) against its files…"
                        : "Indexing the library for \(user): every file is read once; later launches take milliseconds…"
                )
            }
        }
        if patience > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + patience, execute: slow)
        } else {
            slow.perform()
        }
        defer { slow.cancel() }
        let launch: LibraryLaunch
        do {
            launch = try openVerified(root: root, user: user)
        } catch {
            _ = announcement.finish()
            throw error
        }
        if announcement.finish() {
            let seconds = Date().timeIntervalSince(started)
            if case .rebuilt = launch.source {
                progress(
                    String(
                        format: "Indexed %d entries from %d files in %.1f s.", launch.index.entryCount,
                        launch.index.fileCount, seconds))
            } else {
                progress(String(format: "Checked %d files in %.1f s.", launch.index.fileCount, seconds))
            }
        }
        return launch
    }

    /// Whether a slow launch was announced; none is made once the launch is done.
    private final class Announcement: @unchecked Sendable {
        private let lock = NSLock()
        private var made = false, done = false

        func make(_ body: () -> Void) {
            lock.lock()
            defer { lock.unlock() }
            guard !done else { return }
            body()
            made = true
        }

        /// Ends the wait; true when the announcement was made.
        func finish() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            done = true
            return made
        }
    }

    /// Checks the index against the files and returns a launch whose index matches them:
    /// this one when nothing changed, else one refreshed (or rebuilt) and saved.
    package func verify() throws -> LibraryLaunch {
        guard source == .cache else { return self }
        let check = FileCheck.run(root: root, user: user, records: index)
        if check.isEmpty { return with(source: .verified) }
        return try refreshed(with: check)
    }

    /// Runs `verify()` on another thread, so a learner sees the first card meanwhile; `wait()`
    /// before writing anything.
    package func verifyInBackground() -> PendingCheck {
        let pending = PendingCheck()
        DispatchQueue.global(qos: .userInitiated).async { [self] in pending.finish(Result { try verify() }) }
        return pending
    }

    package final class PendingCheck: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: Result<LibraryLaunch, any Error>?

        fileprivate func finish(_ value: Result<LibraryLaunch, any Error>) {
            result = value
            done.signal()
        }

        package func wait() throws -> LibraryLaunch {
            done.wait()
            done.signal()
            return try result!.get()
        }

        /// The checked launch if the check is done within `seconds`; nil while it runs.
        package func wait(atMost seconds: TimeInterval) throws -> LibraryLaunch? {
            guard done.wait(timeout: .now() + seconds) == .success else { return nil }
            done.signal()
            return try result!.get()
        }
    }

    /// Deck names in study order, those with a manifest.
    package var deckOrder: [String] { index.settings.decks.filter { decks[$0] != nil } }

    /// The learner's progress file for an entry, read now; nil when there is none (or it does
    /// not read).
    static func progressFile(root: URL, user: String, entry: String) -> ProgressFile? {
        let path = LibraryPaths(user: user).progress(entry)
        return FileManager.default.contents(atPath: root.appending(path: path).path).flatMap {
            ProgressFile.decode($0, path: path).0
        }
    }

    /// An entry's content, read from its file (the index keeps none).
    package func entry(_ number: Int) -> Entry? { entry(at: index.path(ofEntry: number)) }

    /// The entry with this id, read from its file: `corpus/<id>.yaml`.
    package func entry(id: String) -> Entry? { entry(at: LibraryPaths.entry(id)) }

    private func entry(at path: String) -> Entry? {
        if case let .entry(entry)? = LibraryLoader().parse(root: root, path: path, decks: decks)?.value { return entry }
        return nil
    }

    func with(source: Source) -> LibraryLaunch {
        LibraryLaunch(root: root, user: user, index: index, decks: decks, profile: profile, source: source)
    }

}

/// The launch index as the planner reads it: every fact in place, a string made only for
/// the entries the plan keeps.
package struct IndexPlanningSource: PlanningSource {
    let index: LaunchIndex
    let root: URL
    let user: String

    package init(launch: LibraryLaunch) {
        index = launch.index
        root = launch.root
        user = launch.user
    }

    package var count: Int { index.entryCount }
    package var deckNames: [String] { index.settings.decks }
    package func id(_ entry: Int) -> String { index.id(ofEntry: entry) }
    package func facts(_ entry: Int) -> EntryFacts { index.facts(ofEntry: entry) }
    package func rank(_ entry: Int) -> Int? { index.rank(ofEntry: entry) }
    package func topics(_ entry: Int) -> [String] { index.topics(ofEntry: entry) }
    package func headword(_ entry: Int) -> String? { index.gloss(ofEntry: entry).components(separatedBy: " — ").first }
    /// A headword the learner ignores or knows — the word itself, as the loaded library's
    /// `familiarWords` has it, not any entry one of whose forms it is (`was` is no family head
    /// of `wash` for knowing `be`).
    package func isFamiliar(_ word: String) -> Bool {
        index.lemmas(of: word).contains { entry in
            [.ignored, .review].contains(index.status(ofEntry: entry)) && headword(entry)?.lowercased() == word
        }
    }
    package func recentMilliseconds(_ entry: Int) -> [Int] {
        index.progress(ofEntry: entry)?.recentMilliseconds.compactMap { $0 } ?? []
    }

    package func reviews(_ entry: Int, since time: Date) -> Int {
        if let count = index.reviews(ofEntry: entry, since: time) { return count }
        // More reviews in one day than the index keeps times for: read the file.
        let file = LibraryLaunch.progressFile(root: root, user: user, entry: index.id(ofEntry: entry))
        return file?.reviews.filter { $0.at >= time && $0.undone == nil && !$0.practice }.count ?? 0
    }
}
