public import Foundation
import Launch
public import RoteModel
public import RoteStore
public import Study
import StudyData

/// How much a session takes on; nil leaves each to the learner's profile.
public struct StudyLimits: Sendable {
    /// New entries in this session (`--new N`), however many were started today; nil for
    /// what is left of the profile's `new_per_day` today.
    public var new: Int?
    public var reviewsPerDay: Int?
    public var minutes: Int?
    public var drafts: Bool

    public init(new: Int? = nil, reviewsPerDay: Int? = nil, minutes: Int? = nil, drafts: Bool = false) {
        self.new = new
        self.reviewsPerDay = reviewsPerDay
        self.minutes = minutes
        self.drafts = drafts
    }
}

/// A study session about to start, for `rote study` and `rote serve` alike: the library held
/// for it (its lock, until `close()` or the end of the object), an interrupted session
/// committed, content upgrades run, and today's plan; a plan alone (`planOnly`) holds nothing
/// and has no session.
public final class StudyStart {
    public let user: String
    public let plan: SessionPlan
    /// The decks the plan was made from, in study order.
    public let studyableDecks: [String]
    /// True when an interrupted session's answers were committed first.
    public let recoveredInterruptedSession: Bool
    /// True when a session a kill stopped goes on where it was (`session(typed:)` restores it)
    /// instead: its answers are in their files, and it ends in its one commit as any session.
    public var resumesInterruptedSession: Bool { resumeState != nil }
    private var resumeState: Data?
    /// Content upgrades that ran first (`ContentUpgrade.describe` tells them).
    public let upgrades: [DeckUpgrade]
    /// Files that did not read, when the upgrade read every file; they are left out.
    public let loadProblems: [Diagnostic]
    public let profile: Profile?
    private let root: URL
    private let source: any StudySource
    private var writer: LibraryTransaction?
    /// When the plan came from the index as the cache held it: the library, its check still
    /// running, and how to plan again from the checked index.
    private let unchecked:
        (library: Library, pending: LibraryLaunch.PendingCheck, replan: (LibraryLaunch) -> SessionPlan)?
    /// The library whose index records the session's writes when it closes.
    private let library: Library?
    /// The skill the session is about, when it studies exactly one (recorded on the session).
    public internal(set) var skill: String?
    /// A practice session's start (`CustomStudy.practice`): its answers do not reschedule.
    public internal(set) var practice = false

    init(
        user: String, plan: SessionPlan, studyableDecks: [String], recovered: Bool, upgrades: [DeckUpgrade],
        loadProblems: [Diagnostic],
        profile: Profile?, root: URL, source: any StudySource, writer: LibraryTransaction?,
        library: Library? = nil,
        unchecked: (library: Library, pending: LibraryLaunch.PendingCheck, replan: (LibraryLaunch) -> SessionPlan)? =
            nil,
        resuming: Data? = nil
    ) {
        self.resumeState = resuming
        self.library = library
        self.unchecked = unchecked
        self.user = user
        self.plan = plan
        self.studyableDecks = studyableDecks
        self.recoveredInterruptedSession = recovered
        self.upgrades = upgrades
        self.loadProblems = loadProblems
        self.profile = profile
        self.root = root
        self.source = source
        self.writer = writer
    }

    /// The session for the plan, its first screen on show; vocabulary answers are typed when
    /// `typed` says so, else when the profile's `typed_answers` does. Whoever shows it — a
    /// terminal, a script, a browser, an app — draws its screens and applies the learner's
    /// actions.
    public func session(
        typed: Bool?, seed: UInt64 = UInt64.random(in: 0...UInt64.max), now: Date = Date()
    ) throws -> StudySession {
        guard profile != nil else {
            throw LibraryError(
                .notFound, "no learner '\(user)' in this library (\(LibraryPaths(user: user).profile)); use --user NAME"
            )
        }
        guard let writer else { throw LibraryError(.notFound, "this study session was closed") }
        var revisedPlan: (() throws -> SessionPlan?)?
        if let unchecked, let source = source as? LaunchStudySource {
            // Once the check is done: if it found the library changed since the index was
            // saved, the rest of the session follows a plan from the checked index.
            var revised = false
            revisedPlan = {
                guard !revised, let checked = try unchecked.pending.wait(atMost: 0) else { return nil }
                revised = true
                guard checked.source != .verified else { return nil }
                source.adopt(checked)
                return unchecked.replan(checked)
            }
        }
        let session: StudySession
        if let saved = resumeState {
            // The session as it was, its own skill and answers kind with it.
            resumeState = nil
            session = try StudySession(restoring: saved, root: root, user: user, source: source, git: writer)
        } else {
            session = try StudySession(
                root: root, user: user, source: source, git: writer, plan: plan, now: now,
                typedAnswers: typed ?? profile?.settings.typedAnswers ?? false, seed: seed, revisedPlan: revisedPlan,
                practice: practice)
            session.skill = skill
        }
        if let library {
            // Rank promotion, which `rote today` only shows, goes in with this session's commit:
            // from the checked index, before this session's own reviews are recorded in it.
            let unchecked = self.unchecked
            session.derivedProfileFields = { profile, end in
                if let unchecked { _ = try unchecked.library.settle(unchecked.pending) }
                return try library.promoted(profile, now: end)
            }
        }
        return session
    }

    /// Lets other writers at the library again.
    /// Records the session's writes in the launch index (so the next launch reads none of them
    /// again), once the check the plan did not wait for is done.
    public func close() {
        guard let writer else { return }
        if let unchecked { _ = try? unchecked.library.settle(unchecked.pending) }
        library?.recordWrites(writer.committedChanges)
        self.writer = nil
    }
}

extension Library {
    /// Takes the library for a study session of `decks` (all with none): commits the answers
    /// of an interrupted session, runs content upgrades and plans today's session from the
    /// launch index — or, after an upgrade, from every file. With `planOnly` it only plans:
    /// no lock, no commit. Fails for a deck the library does not have, naming those it has.
    ///
    /// A name may be a deck (`math`), a domain or skill of a skills deck (`math/algebra`,
    /// `math/algebra/linear_equations`), and `tags` keeps passages with any of those tags.
    ///
    /// With `custom`, the session is not today's plan but practice or review ahead
    /// (`CustomStudy`), planned from every file (content upgrades wait for the next ordinary
    /// session); `limits.reviewsPerDay`, when given, caps how many entries it takes.
    public func startStudy(
        decks names: [String], tags: [String] = [], limits: StudyLimits, planOnly: Bool = false,
        custom: CustomStudy? = nil, now: Date = Date()
    ) throws -> StudyStart {
        try LibraryError.surfacing {
            let scope = try studyScope(names, tags: tags)
            let requested = scope.decks
            let only = scope.admits
            // A plan alone only reads (issue #32): it takes no writer, so it commits no interrupted
            // session either; that session's answers are in its progress files, which it plans from.
            var writer: LibraryTransaction?
            var recovered = false
            var resuming: Data?
            if !planOnly {
                // An interrupted session takes with it the progress files not yet committed: this
                // server's writes still being committed behind it go in first, as their own commits.
                if FileManager.default.fileExists(atPath: root.appending(path: StudySession.snapshotPath).path) {
                    commits?.waitForCommits()
                }
                let taken = try LibraryTransaction(
                    root: root, user: user, purpose: "study", mode: .session, commits: commits)
                // A session a kill stopped goes on where it was, when its saved state agrees with
                // its files; otherwise it is committed as it is, as every writer would.
                resuming = StudySession.resumableState(root: root)
                if resuming == nil { recovered = try taken.recoverInterruptedSession() }
                writer = taken
            }
            // A recovered session was committed after this library's index was opened: read afresh.
            let opener = recovered ? try Library(root: root, user: user, announce: announce) : self
            if let custom {
                let library = try LibraryLoader(users: .all, includeSessions: false).load(root)
                try Self.check(decks: requested, known: library.deckOrder)
                let index = LibraryIndex(library: library, user: user)
                let start = StudyStart(
                    user: user,
                    plan: custom.plan(
                        library: library, index: index, decks: requested, only: only, limit: limits.reviewsPerDay,
                        drafts: limits.drafts, now: now),
                    studyableDecks: SessionPlanner(library: library, index: index).studyableDecks(requested),
                    recovered: recovered, upgrades: [], loadProblems: library.errors,
                    profile: library.profiles[user], root: root,
                    source: LoadedStudySource(library: library, index: index), writer: writer, library: opener,
                    resuming: resuming)
                start.skill = scope.skill
                start.practice = custom.isPractice
                return start
            }
            // A session plans from the index as the cache holds it and shows its first card while
            // the check of every file runs beside it (at 100 000 entries the check is most of a
            // launch); a plan alone prints counts, which must be the checked ones.
            let (launch, pending) =
                planOnly ? (try opener.launch(), nil) : try opener.launchCheckingAlongside(patience: 0.02)
            func planLimits(_ profile: Profile?) -> SessionPlanner.Limits {
                SessionPlanner.Limits.from(
                    profile, newInSession: limits.new, reviewsPerDay: limits.reviewsPerDay, minutes: limits.minutes,
                    drafts: limits.drafts)
            }
            // A deck whose version changed since the learner last saw it runs its upgrade rule,
            // which lists the entries added and removed: that takes the parsed library.
            if let writer, ContentVersions.hasUpgrade(decks: launch.decks, profile: launch.profile) {
                // Every file is read here anyway; the check has nothing to add to this plan.
                if let pending { _ = try? opener.settle(pending) }
                let library = try LibraryLoader(users: .all, includeSessions: false).load(root)
                try Self.check(decks: requested, known: library.deckOrder)
                let upgrades = try ContentUpgrade.run(library: library, user: user, git: writer)
                let index = LibraryIndex(library: library, user: user)
                let planner = SessionPlanner(library: library, index: index)
                let start = StudyStart(
                    user: user,
                    plan: planner.plan(decks: requested, limits: planLimits(index.profile), now: now, only: only),
                    studyableDecks: planner.studyableDecks(requested),
                    recovered: recovered, upgrades: upgrades, loadProblems: library.errors,
                    profile: library.profiles[user],
                    root: root,
                    source: LoadedStudySource(library: library, index: index), writer: writer, library: opener,
                    resuming: resuming)
                start.skill = scope.skill
                return start
            }
            try Self.check(decks: requested, known: launch.index.settings.decks.filter { launch.decks[$0] != nil })
            let planner = launch.planner()
            let start = StudyStart(
                user: user,
                plan: planner.plan(decks: requested, limits: planLimits(launch.profile), now: now, only: only),
                studyableDecks: planner.studyableDecks(requested),
                recovered: recovered, upgrades: [], loadProblems: [], profile: launch.profile, root: root,
                source: LaunchStudySource(launch), writer: writer,
                library: opener,
                unchecked: pending.map { pending in
                    (
                        opener, pending,
                        { checked in
                            checked.planner().plan(
                                decks: requested, limits: planLimits(checked.profile), now: Date(), only: only)
                        }
                    )
                }, resuming: resuming)
            start.skill = scope.skill
            return start
        }
    }

    static func check(decks requested: [String], known: [String]) throws {
        let unknown = requested.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw LibraryError(
                .notFound, "no deck \(unknown.joined(separator: ", ")); decks are: \(known.joined(separator: ", "))")
        }
    }
}
