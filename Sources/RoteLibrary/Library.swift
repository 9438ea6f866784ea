public import Foundation
public import Launch
public import RoteModel
public import RoteStore
import Scheduling
public import Study
import StudyData

/// One learner's library, the way every command, an embedding app and `rote serve` open it.
///
/// An operation reads only what it needs. One that names its entry by id (`show`, `review`,
/// `suspend`, `history`) reads that entry's file and the learner's progress file for it, and
/// nothing else. One that needs to know about every entry (a word form's lemma, a list, a
/// plan, stats) opens the launch index (`.git/rote/launch-<user>.index`), checked against the
/// files by their stamps the way git checks its own index, on first use. Reading every file
/// is left to the few operations that must (the full validator, content upgrades), whose
/// names say so.
public final class Library: @unchecked Sendable {
    /// `rote.yaml`, the deck manifests and the learner's profile, read when the library opens.
    public let settings: LibrarySettings
    public var root: URL { settings.root }
    public var user: String { settings.user }
    public var manifest: LibraryManifest? { settings.manifest }
    /// Every deck's manifest (`corpus/<deck>/deck.yaml`) that reads, by deck name.
    public var decks: [String: DeckManifest] { settings.decks }
    /// The learner's profile; nil when there is none or it does not read.
    public var profile: Profile? { settings.profile }
    /// Deck names in study order, as `rote.yaml` lists them and then the rest by name.
    public var deckOrder: [String] { settings.deckOrder }
    let announce: @Sendable (String) -> Void
    let indexLock = NSLock()
    var opened: LibraryLaunch?
    /// Where writes take their git from, for a process that writes often (`rote serve`).
    package var commits: LibraryCommits?

    /// Opens the library at `root` for `user`: its manifest, deck manifests and the learner's
    /// profile, a handful of files. The index is opened when an operation first needs it; a
    /// first open (or one after the index was lost) reads every file once, and `announce`
    /// hears about it when that takes more than a second.
    public init(root: URL, user: String, announce: @escaping @Sendable (String) -> Void = { _ in }) throws {
        settings = try LibraryError.surfacing { try LibrarySettings(root: root, user: user) }
        self.announce = announce
    }

    /// The launch index for showing a plan and a first card at once: the cache as it lies,
    /// with its check running on another thread, unless the check is done within `patience`
    /// (a small library's is; then the checked launch and no pending check). Without a usable
    /// cache the index is built, checked, first. Wait for a pending check with `settle(_:)`.
    package func launchCheckingAlongside(patience: TimeInterval) throws -> (
        launch: LibraryLaunch, pending: LibraryLaunch.PendingCheck?
    ) {
        indexLock.lock()
        if let opened {
            indexLock.unlock()
            return (opened, nil)
        }
        guard case let .success(cached) = LibraryLaunch.cached(root: root, user: user) else {
            indexLock.unlock()
            return (try launch(), nil)
        }
        indexLock.unlock()
        let pending = cached.verifyInBackground()
        if patience > 0, let checked = try LibraryError.surfacing({ try pending.wait(atMost: patience) }) {
            return (adopt(checked), nil)
        }
        return (cached, pending)
    }

    /// Waits for a check `launchCheckingAlongside` left running; its launch becomes this
    /// library's.
    package func settle(_ pending: LibraryLaunch.PendingCheck) throws -> LibraryLaunch {
        adopt(try LibraryError.surfacing { try pending.wait() })
    }

    private func adopt(_ launch: LibraryLaunch) -> LibraryLaunch {
        indexLock.lock()
        defer { indexLock.unlock() }
        opened = launch
        return launch
    }

    /// The launch index, checked against the files, opened on first use.
    package func launch() throws -> LibraryLaunch {
        try LibraryError.surfacing {
            indexLock.lock()
            defer { indexLock.unlock() }
            if let opened { return opened }
            let launch = try LibraryLaunch.openVerified(root: root, user: user, patience: 1, progress: announce)
            opened = launch
            return launch
        }
    }

    public var paths: LibraryPaths { LibraryPaths(user: user) }

    // MARK: Entries

    /// The entry a name gives: an id (`english-a1/run`), a word form (`ran`), or — with
    /// `suffixes` — the one id that ends with it (`run`). The error says why there is none: a
    /// file that does not read is named with its first problem, rather than reported missing.
    public func entry(named name: String, suffixes: Bool = false) throws -> Entry {
        let path = LibraryPaths.entry(name)
        // An id names its file: nothing else is read.
        if let parsed = LibraryLoader().parse(root: root, path: path, decks: decks) {
            if case let .entry(entry)? = parsed.value { return entry }
            if let problem = parsed.problems.filter({ $0.severity == .error }).sorted(by: Diagnostic.fileOrder).first,
                FileManager.default.fileExists(atPath: root.appending(path: path).path)
            {
                throw LibraryError(
                    .unreadable,
                    "\(name) cannot be used: its file does not read.\n\(problem.description)\nFix the file, then run `rote check`."
                )
            }
        }
        let launch = try launch()
        if let number = launch.index.lemmas(of: name).first, let entry = launch.entry(number) { return entry }
        if suffixes {
            let matches = try ids().filter { $0.hasSuffix("/" + name) }
            if matches.count == 1, let entry = launch.entry(id: matches[0]) { return entry }
        }
        let near = try ids().filter { $0.contains(name.lowercased()) }.prefix(5)
        throw LibraryError(
            .notFound,
            "no entry '\(name)'"
                + (near.isEmpty
                    ? "; list them with `rote list` (ids look like english-a1/run, or give a word)"
                    : "; did you mean \(near.joined(separator: ", "))?"))
    }

    /// Every entry id in study order.
    public func ids() throws -> [String] {
        let index = try launch().index
        return (0..<index.entryCount).map(index.id(ofEntry:))
    }

    /// The ids of a deck, or of an id prefix such as `math/algebra`, in study order; all with nil.
    public func ids(inDeck deck: String?) throws -> [String] {
        guard let deck else { return try ids() }
        return try ids().filter { $0 == deck || $0.hasPrefix(deck + "/") }
    }

    /// Where the learner stands with an entry, from its progress file and the profile.
    public func status(of entry: Entry) -> LibraryIndex.Status {
        LibraryIndex.status(
            of: entry, progress: progress(of: entry.id), ignoredWords: LibraryIndex.ignoredWords(of: profile))
    }

    /// The learner's progress file for an entry as it is on disk now; nil when there is none.
    /// Problems that leave it readable are tolerated here, as a full load tolerates them;
    /// writers read it again through `ReadBeforeRewrite`, which tolerates none.
    public func progress(of entry: String) -> ProgressFile? {
        let path = paths.progress(entry)
        return FileManager.default.contents(atPath: root.appending(path: path).path).flatMap {
            ProgressFile.decode($0, path: path).0
        }
    }

    /// Fails unless the learner has a profile that reads; a profile with errors is named with
    /// its first problem rather than reported as a missing learner.
    public func requireProfile() throws {
        guard profile == nil else { return }
        let path = paths.profile
        if let data = FileManager.default.contents(atPath: root.appending(path: path).path),
            let problem = Profile.decode(data, path: path).1.filter({ $0.severity == .error }).sorted(
                by: Diagnostic.fileOrder
            ).first
        {
            throw LibraryError(
                .unreadable,
                "the profile of '\(user)' does not read.\n\(problem.description)\nFix the file, then run `rote check`.")
        }
        throw LibraryError(.notFound, "no learner '\(user)' in this library (\(path)); use --user NAME")
    }
}

/// An entry's line in `rote list`: read from the index, no file opened.
public struct ListedEntry: Sendable, Equatable {
    public let id: String
    public let gloss: String
    public let status: LibraryIndex.Status

    public init(id: String, gloss: String, status: LibraryIndex.Status) {
        self.id = id
        self.gloss = gloss
        self.status = status
    }
}

/// An entry forgotten as often as its deck's leech threshold (`rote list --leeches`).
public struct ListedLeech: Sendable, Equatable {
    public let id: String
    public let gloss: String
    public let lapses: Int
    /// Suspended, by the deck's `leech_action: suspend` or by hand.
    public let suspended: Bool
}

extension Library {
    /// The problems of entry files that do not read (each file's first error), which leave
    /// their entries out of every answer until they are fixed; none in a healthy library.
    public func unreadableEntries() throws -> [Diagnostic] {
        let launch = try launch()
        return launch.index.entryFilesWithoutEntries().compactMap { path in
            LibraryLoader().parse(root: root, path: path, decks: decks)?.problems.filter { $0.severity == .error }
                .sorted(by: Diagnostic.fileOrder).first
        }
    }

    /// The entries of a deck or id prefix (all with nil), in study order, with their gloss and
    /// the learner's status.
    public func list(deck: String?) throws -> [ListedEntry] {
        let index = try launch().index
        return (0..<index.entryCount).compactMap { number in
            let id = index.id(ofEntry: number)
            if let deck, id != deck, !id.hasPrefix(deck + "/") { return nil }
            return ListedEntry(id: id, gloss: index.gloss(ofEntry: number), status: index.status(ofEntry: number))
        }
    }

    /// The leeches of a deck or id prefix (all with nil), each by its own deck's threshold,
    /// most lapses first; ignored entries are left out. Read from the launch index.
    public func leeches(deck: String?) throws -> [ListedLeech] {
        let index = try launch().index
        var thresholds: [String: Int] = [:]
        var found: [ListedLeech] = []
        for number in 0..<index.entryCount {
            let id = index.id(ofEntry: number)
            if let deck, id != deck, !id.hasPrefix(deck + "/") { continue }
            guard let progress = index.progress(ofEntry: number), let state = progress.state,
                progress.status != .ignored
            else { continue }
            let deckName = index.deck(ofEntry: number)
            let threshold =
                thresholds[deckName]
                ?? SchedulerSettings.forDeck(decks[deckName], profile: profile, deckName: deckName).leechThreshold
            thresholds[deckName] = threshold
            guard state.isLeech(threshold: threshold) else { continue }
            found.append(
                ListedLeech(
                    id: id, gloss: index.gloss(ofEntry: number), lapses: state.lapses,
                    suspended: progress.status == .suspended))
        }
        return found.sorted { $0.lapses != $1.lapses ? $0.lapses > $1.lapses : $0.id < $1.id }
    }
}

extension Library {
    /// The entries of a deck or id prefix (all with nil) whose id or gloss holds `query`
    /// (ignoring ASCII case), in study order: how many there are, and those from `offset`,
    /// `limit` at most, with gloss and status. Read from the index; only the page's entries
    /// are made into answers, so a search stays cheap at 100 000 entries.
    public func search(deck: String?, query: String, offset: Int, limit: Int) throws -> (
        total: Int, page: [ListedEntry]
    ) {
        let index = try launch().index
        let needle = Array(query.trimmingCharacters(in: .whitespaces).lowercased().utf8)
        let prefix = deck.map { $0 + "/" }
        var total = 0
        var page: [ListedEntry] = []
        for number in 0..<index.entryCount {
            let id = index.id(ofEntry: number)
            if let deck, let prefix, id != deck, !id.hasPrefix(prefix) { continue }
            if !needle.isEmpty {
                guard Self.contains(id.utf8, needle) || Self.contains(index.gloss(ofEntry: number).utf8, needle) else {
                    continue
                }
            }
            if total >= offset, page.count < limit {
                page.append(
                    ListedEntry(id: id, gloss: index.gloss(ofEntry: number), status: index.status(ofEntry: number)))
            }
            total += 1
        }
        return (total, page)
    }

    /// Whether `text` holds `needle` (already lower-cased), ignoring the case of ASCII letters.
    static func contains(_ text: String.UTF8View, _ needle: [UInt8]) -> Bool {
        let bytes = Array(text)
        guard bytes.count >= needle.count else { return false }
        outer: for start in 0...(bytes.count - needle.count) {
            for (offset, wanted) in needle.enumerated() {
                var byte = bytes[start + offset]
                if byte >= 65, byte <= 90 { byte += 32 }
                if byte != wanted { continue outer }
            }
            return true
        }
        return false
    }
}

extension Library {
    /// The learner's study statistics (`StudyStats`) from the launch index: each progress
    /// file's digest (every review's day, grade and phase, the replayed state) is kept there,
    /// current through its delta, so no progress file is read — except one with a review
    /// after `now` (a device clock ahead), whose digest must leave that review out. Today's
    /// sessions come from this month's session files.
    public func stats(now: Date = Date(), timeZone: TimeZone = .current) throws -> StudyStats {
        let launch = try launch()
        let schedulers = DeckSchedulers(decks: launch.decks, profile: launch.profile)
        // Digests replayed with other settings than the profile's now do not count; a
        // verified launch has none (the check rebuilds the index when the settings change).
        let digestsHold = schedulers.fingerprint == launch.index.settings.schedulers
        let days = LocalDays(timeZone: timeZone)
        let skillDecks = Set(launch.decks.filter { $0.value.kind == .skills }.keys)
        var totals = StudyStats.Totals(skillDecks: skillDecks)
        for partial in launch.index.foldProgressDigests(
            into: { StudyStats.Totals(skillDecks: skillDecks) },
            { totals, row in
                let scheduler = schedulers.scheduler(forEntry: row.id)
                if digestsHold, let marks = row.marks, (marks.last?.at ?? .distantPast) <= now {
                    totals.add(
                        entry: row.id, status: row.status, state: row.state, marks: marks, replayed: row.replayed,
                        scheduler: scheduler, now: now, days: days)
                } else if let file = self.progress(of: row.id) {
                    totals.add(
                        entry: row.id, status: file.status, state: file.state,
                        digest: StudyStats.digest(of: file, now: now, scheduler: scheduler),
                        scheduler: scheduler, now: now, days: days)
                }
            })
        {
            totals.add(partial)
        }
        var stats = StudyStats(
            totals: totals, sessions: sessionsAround(now), profile: profile, now: now, timeZone: timeZone)
        if !skillDecks.isEmpty {
            let index = launch.index
            stats.countQuestions(
                (0..<index.entryCount).lazy.map(index.id(ofEntry:)).filter { id in
                    id.split(separator: "/").first.map { skillDecks.contains(String($0)) } ?? false
                })
        }
        return stats
    }

    /// The learner's sessions filed in the UTC months within two days of `now`: today's,
    /// wherever the learner is, are among them.
    func sessionsAround(_ now: Date) -> [SessionFile] {
        let loader = LibraryLoader(users: .only(user), includeSessions: true)
        let months = Set(
            [-2.0, 2.0].map { days in
                let date = Timestamp.format(now.addingTimeInterval(days * 86_400))
                return "\(paths.sessionsFolder)/\(date.prefix(4))/\(date.dropFirst(5).prefix(2))"
            })
        let decks = decks
        let root = root
        var sessions = loader.listFiles(root, under: months.sorted()).0.compactMap { path -> SessionFile? in
            guard case let .session(_, session)? = loader.parse(root: root, path: path, decks: decks)?.value else {
                return nil
            }
            return session
        }
        sessions.sort { $0.startedAt < $1.startedAt }
        return sessions
    }
}

extension Library {
    /// A deck's entries in study order, read from its own folder: for the small decks whose
    /// rules look at every entry (letters unlock in order).
    public func entries(inDeck deck: String) -> [Entry] { settings.entries(inDeck: deck) }

    /// The learner's tracing attempts, by letter id, from `profiles/<user>/letters/`.
    public func letterAttempts() -> [String: LetterAttemptsFile] {
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        var attempts: [String: LetterAttemptsFile] = [:]
        for path in loader.listFiles(root, under: ["\(paths.folder)/letters"]).0 {
            guard case let .letters(_, file)? = loader.parse(root: root, path: path, decks: decks)?.value else {
                continue
            }
            attempts[file.letter] = file
        }
        return attempts
    }
}
