public import Foundation
public import RoteModel
public import RoteStore
import Scheduling
public import StudyData

/// One study session over a plan, as a value that takes the learner's actions and gives the
/// next screen: `screen` is what to show, `apply(_:now:)` records what an action means and
/// moves on. It has no thread, no console and no clock: a terminal, the web server or an app
/// draws its screens and passes `now` with each action.
///
/// What it records is what `rote study` always recorded: each entry is graded from all its
/// answers (`Grading`) and the review written to its progress file the moment it is given; a
/// snapshot of the session is kept in `.git/rote/session.yaml`, so a crash loses no answered
/// review; failed entries come back later in the session (seed 002's "brain boost"); the end is
/// one commit with a session file. At any screen the learner may undo the last answered entry
/// (its progress file goes back to what it was, and the card comes back), suspend or ignore the
/// entry on screen, or quit, which saves.
///
/// `saved()` and `init(restoring:…)` carry a session to another process or device and back;
/// a restored session goes on exactly where the saved one was.
public final class StudySession {
    /// The session so far, for recovery after a kill (`LibraryTransaction.recoverInterruptedSession`).
    public static let snapshotPath = LibraryTransaction.sessionSnapshotPath
    /// The version of the consent question about reflections; a new wording asks again.
    public static let reflectionConsentVersion = "1"
    public static let reflectionConsentTopic = "reflections"

    /// An action that does not answer the screen on show.
    public struct ActionError: RoteError {
        public enum Code: String, RoteErrorCode {
            public typealias Failure = ActionError
            /// The action answers another kind of screen (a choice where text is typed), or a
            /// choice that is not on the screen.
            case actionDoesNotFit = "action_does_not_fit"
            /// The session has ended.
            case finished
        }
        public var code: Code
        public var message: String
    }

    /// One showing of an entry in the queue.
    struct Visit: Equatable, Codable {
        var id: String
        var tries: Int
        var isNew: Bool
    }

    /// How far the session file had come: it only grows (answers appended, grades counted),
    /// so this is all an undo needs to put it back, however long the session.
    struct SessionMark: Codable {
        var attempts: Int
        var again: Int, hard: Int, good: Int, easy: Int, new: Int
        var decks: [String]

        init(_ session: SessionFile) {
            attempts = session.attempts.count
            (again, hard, good, easy, new) = (session.again, session.hard, session.good, session.easy, session.new)
            decks = session.decks
        }

        func rewind(_ session: inout SessionFile) {
            session.attempts.removeLast(max(0, session.attempts.count - attempts))
            (session.again, session.hard, session.good, session.easy, session.new) = (again, hard, good, easy, new)
            session.decks = decks
        }
    }

    /// Everything a visit (or a suspend/ignore) changed, as it was before, so undo puts it back.
    struct UndoPoint: Codable {
        var entry: String
        var progress: Data?
        var written: Data?
        var session: SessionMark
        var queue: [Visit]
        var seenNew: Set<String>
        var learningIDs: Set<String>
        var reviewIDs: Set<String>
        var done: Set<String>
    }

    /// One answer of a visit, for its grade.
    struct GivenAnswer: Codable, Equatable {
        var correct: Bool
        var similarity: Double?
        var milliseconds: Int
        var median: Int

        var answer: Answer {
            Answer(correct: correct, similarity: similarity, milliseconds: milliseconds, medianMilliseconds: median)
        }
    }

    /// Where a visit is.
    enum Phase: Codable, Equatable {
        case card
        case wordQuestion(VocabularyExercise, typed: Bool)
        case skillQuestion(SkillExercise)
        case feedback(StudyScreen.Feedback)
        case gradeChoice(proposed: Grade?)
        case letter
        case rung
        case recall
        case reflectionConsent
        case reflection
        /// `suspended`: the deck's `leech_action: suspend` took it out of study.
        case leech(lapses: Int, suspended: Bool)
    }

    /// The entry on screen and how far its visit has gone.
    struct VisitState: Codable {
        var visit: Visit
        var number: Int
        var before: UndoPoint
        var phase: Phase
        var shownAt: Date
        var answers: [GivenAnswer] = []
        /// Vocabulary: the visit's steps (nil is the card, else a question's id) and the one on show.
        var steps: [String?] = []
        var step = 0
        /// Passages: the ladder as it stands, how many rungs did not pass, whether this visit
        /// climbs (rather than reviews), and the recitation's hints so far.
        var ladder: PassageLadder?
        var setbacks = 0
        var climbed = false
        var typedSoFar = ""
        var hintWords: [String] = []
        var atEnd = false
        /// Set once graded: what the grade was, so a leech screen knows the visit is done.
        var graded: Grade?
    }

    /// Everything the session holds, as `saved()` writes it.
    struct State: Codable {
        var session: SessionFile
        var written: [String: Data] = [:]
        var queue: [Visit] = []
        var planned = 0
        var done = Set<String>()
        var number = 0
        var seenNew = Set<String>()
        var learningIDs = Set<String>()
        var reviewIDs = Set<String>()
        var reflected = Set<String>()
        var shownIDs = Set<String>()
        var undoStack: [UndoPoint] = []
        var statusChanges: [StatusChange] = []
        var random: UInt64
        var visit: VisitState?
        var askingPassageConsent = false
        var notices: [StudyNotice] = []
        var summary: StudyScreen.Summary?
        var refusedPassages = false
        var typedAnswers = false
        var skill: String?
        var medianMilliseconds = 6000
        /// A practice session's: its answers are recorded as practice reviews. Optional, so a
        /// state saved before there were practice sessions still reads.
        var practice: Bool?
    }

    public struct StatusChange: Codable, Sendable, Equatable {
        public var entry: String
        public var status: ProgressFile.Status
    }

    let root: URL
    let user: String
    let source: any StudySource
    /// The session's transaction (mode `.session`), let go as the session finishes: a
    /// finished session, kept to show its summary, holds no lock.
    var git: LibraryTransaction?
    var recorder: ReviewRecorder
    var profile: Profile?
    var state: State
    var random: SeededGenerator

    /// Asked before each card: a plan that replaces the rest of the queue, when the one the
    /// session began with was made before the library was checked and the check found
    /// changes. Entries already shown are not shown again, and failed ones still come back.
    public var revisedPlan: (() throws -> SessionPlan?)?
    /// Profile fields derived from the learner's history, which commands that only look (`rote
    /// today`) derive and show but never write: given the profile as the session leaves it and
    /// the session's end, the profile with them (nil: nothing to add). The session's commit
    /// carries them, so they reach the profile with the learner's next write.
    public var derivedProfileFields: ((Profile, Date) throws -> Profile?)?

    /// Vocabulary questions take a typed answer instead of showing choices (`rote study
    /// --typed`, or the profile's `typed_answers`).
    public var typedAnswers: Bool { state.typedAnswers }
    /// A practice session (`rote study --practice`): its answers are kept as practice reviews,
    /// which leave every schedule as it was.
    public var practice: Bool { state.practice ?? false }
    /// The skill this session is about, when it studies one skill (seed 001's `skill_id`).
    public var skill: String? {
        get { state.skill }
        set { state.skill = newValue }
    }
    /// The session file as it stands (committed, once the summary is on show).
    public var session: SessionFile { state.session }
    /// The entry on screen, for a front end that checks typing as it happens (a browser marks
    /// a passage's recall word by word); nil between cards.
    public var entryOnScreen: String? { state.visit?.visit.id }
    /// True when passages were left out of this session because the learner has not agreed to
    /// Rote keeping passage practice (seed 004).
    public var refusedPassages: Bool { state.refusedPassages }
    /// Entries whose status the learner changed in this session.
    public var statusChanges: [StatusChange] { state.statusChanges }
    /// Whether the session has ended (its summary is on show).
    public var isFinished: Bool { state.summary != nil }
    /// The screen on show.
    public private(set) var screen: StudyScreen

    package init(
        root: URL, user: String, source: any StudySource, git: LibraryTransaction, plan: SessionPlan, now: Date,
        typedAnswers: Bool = false, seed: UInt64 = UInt64.random(in: 0...UInt64.max),
        revisedPlan: (() throws -> SessionPlan?)? = nil, practice: Bool = false
    ) throws {
        self.revisedPlan = revisedPlan
        self.root = root
        self.user = user
        self.source = source
        self.git = git
        self.recorder = ReviewRecorder(
            root: root, user: user, device: git.device, decks: source.decks, profile: source.profile)
        recorder.balance { Array(source.dueDates().values) }
        self.profile = source.profile
        self.random = SeededGenerator(seed: seed)
        var session = SessionFile(
            id: UUID().uuidString.lowercased(), user: user, device: git.device, startedAt: Timestamp.wholeSeconds(now))
        session.new = 0
        state = State(session: session, random: seed)
        state.typedAnswers = typedAnswers
        if practice {
            state.practice = true
            recorder.practice = true
        }
        let times = source.recentAnswerTimes().sorted()
        if !times.isEmpty { state.medianMilliseconds = max(1000, times[times.count / 2]) }
        let newIDs = Set(plan.new.map(\.id))
        state.queue = (plan.due + plan.new).map { Visit(id: $0.id, tries: 0, isNew: newIDs.contains($0.id)) }
        state.planned = state.queue.count
        screen = StudyScreen(answered: 0, planned: 0, number: 0, notices: [], content: .summary(.empty))
        // A snapshot from the start, so a crash in the first card still leaves a session for
        // the next run to commit with whatever the learner changed.
        try surfaced { try snapshot() }
        try surfaced { try nextVisit(now: now) }
        screen = makeScreen()
    }

    package convenience init(
        root: URL, user: String, library: LoadedLibrary, index: LibraryIndex, git: LibraryTransaction,
        plan: SessionPlan,
        now: Date, typedAnswers: Bool = false, seed: UInt64 = UInt64.random(in: 0...UInt64.max)
    ) throws {
        try self.init(
            root: root, user: user, source: LoadedStudySource(library: library, index: index), git: git, plan: plan,
            now: now, typedAnswers: typedAnswers, seed: seed)
    }

    /// A session as `saved()` left it, over the same library: it goes on where it was.
    package init(restoring data: Data, root: URL, user: String, source: any StudySource, git: LibraryTransaction) throws
    {
        self.root = root
        self.user = user
        self.source = source
        self.git = git
        self.recorder = ReviewRecorder(
            root: root, user: user, device: git.device, decks: source.decks, profile: source.profile)
        do {
            state = try JSONDecoder().decode(State.self, from: data)
        } catch {
            throw LibraryError(.unreadable, "the saved study session does not read: \(error)")
        }
        random = SeededGenerator(seed: state.random)
        // Consents given in the session are in the profile on disk: read it again.
        profile =
            (try? ReadBeforeRewrite.read(Profile.self, at: LibraryPaths(user: user).profile, in: root))
            ?? source.profile
        recorder.keepsPassagePractice = profile?.passagePracticeConsent?.granted ?? recorder.keepsPassagePractice
        recorder.practice = state.practice ?? false
        recorder.balance { Array(source.dueDates().values) }
        screen = StudyScreen(answered: 0, planned: 0, number: 0, notices: [], content: .summary(.empty))
        screen = makeScreen()
    }

    /// The session, to restore with `init(restoring:…)`.
    public func saved() throws -> Data {
        var state = state
        state.random = random.state
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(state)
    }

    /// Does what `action` means on the screen on show and returns the next screen. An action
    /// that does not fit the screen (a choice where text is typed) throws `ActionError` and
    /// changes nothing.
    @discardableResult
    public func apply(_ action: StudyAction, now: Date) throws -> StudyScreen {
        guard !isFinished else { throw ActionError(code: .finished, message: "the session is over; start another") }
        state.notices = []
        try surfaced {
            if case let .command(command) = action {
                try perform(command, now: now)
            } else if state.askingPassageConsent {
                try answerPassageConsent(action, now: now)
            } else {
                try answer(action, now: now)
            }
            if !isFinished { try snapshot() }
        }
        screen = makeScreen()
        return screen
    }

    /// Lower-level failures worded as `LibraryError`s; a misfit action stays itself.
    func surfaced<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ActionError {
            throw error
        } catch {
            throw LibraryError.surfaced(error)
        }
    }

    func misfit(_ action: StudyAction) -> ActionError {
        ActionError(
            code: .actionDoesNotFit, message: "\(action) does not answer a \(screen.content.kind.rawValue) screen")
    }

    // MARK: Commands

    func perform(_ command: SessionCommand, now: Date) throws {
        if state.askingPassageConsent {
            // Undo, suspend or ignore are no answer to the question: it is asked again. Quit
            // stops before anything about a passage is recorded.
            if command == .quit {
                state.refusedPassages = true
                state.notices.append(.passagesLeftOut)
                try finish(now: now)
            }
            return
        }
        switch command {
        case .quit:
            // A visit on show that is graded (at its leech screen) is kept; one that is not
            // leaves its answers out.
            if let visit = state.visit, visit.graded == nil { visit.before.session.rewind(&state.session) }
            try finish(now: now)
        case .undo:
            if let visit = state.visit {
                // The visit on screen is dropped (its answers with it) and the last one comes back first.
                if visit.graded == nil {
                    visit.before.session.rewind(&state.session)
                    state.queue = visit.before.queue
                    state.done = visit.before.done
                }
                state.number = max(0, visit.number - 1)
            }
            state.visit = nil
            if let last = state.undoStack.popLast() {
                try undo(last)
                state.notices.append(.undone(entry: last.entry))
                state.number = max(0, state.number - 1)
            } else {
                state.notices.append(.nothingToUndo)
            }
            try nextVisit(now: now)
        case .suspend, .ignore:
            guard let visit = state.visit else { return }
            let status: ProgressFile.Status = command == .suspend ? .suspended : .ignored
            if visit.graded == nil {
                visit.before.session.rewind(&state.session)
                state.undoStack.append(visit.before)
            }
            try setStatus(visit.visit.id, status, now: now)
            state.notices.append(
                command == .suspend ? .suspended(entry: visit.visit.id) : .ignored(entry: visit.visit.id))
            state.visit = nil
            try nextVisit(now: now)
        }
    }

    /// Puts an entry's progress file, the session and the queue back as they were before a
    /// visit or a status change.
    func undo(_ point: UndoPoint) throws {
        try recorder.restore(entry: point.entry, to: point.progress)
        let path = recorder.progressPath(point.entry)
        state.written[path] = point.written
        point.session.rewind(&state.session)
        state.queue = point.queue
        state.seenNew = point.seenNew
        state.learningIDs = point.learningIDs
        state.reviewIDs = point.reviewIDs
        state.done = point.done
        state.statusChanges.removeAll { $0.entry == point.entry }
    }

    func setStatus(_ id: String, _ status: ProgressFile.Status, now: Date) throws {
        let result = try recorder.update(entry: id) { file in
            file.status = status
            file.statusAt = Timestamp.wholeSeconds(now)
        }
        state.written[result.path] = result.data
        state.statusChanges.append(StatusChange(entry: id, status: status))
        state.queue.removeAll { $0.id == id }
        state.done.insert(id)
        let deck = String(id.split(separator: "/")[0])
        if !state.session.decks.contains(deck) { state.session.decks.append(deck) }
    }

    // MARK: Visits

    /// The next entry in the queue on show, or the summary when there is none.
    func nextVisit(now: Date) throws {
        state.visit = nil
        while true {
            if let revised = try revisedPlan?() { revise(with: revised) }
            guard let visit = state.queue.first else { return try finish(now: now) }
            guard let entry = source.entry(visit.id) else {
                state.queue.removeFirst()
                continue
            }
            // Before the first passage is studied the learner is asked, once, whether Rote may
            // keep passage practice; without a yes no passage is studied, so nothing about one
            // is written.
            if recorder.isPassage(visit.id), !recorder.keepsPassagePractice {
                if let answer = profile?.passagePracticeConsent {
                    if !answer.granted {
                        leavePassagesOut()
                        continue
                    }
                    recorder.keepsPassagePractice = true
                } else if profile != nil {
                    state.askingPassageConsent = true
                    return
                } else {
                    leavePassagesOut()
                    continue
                }
            }
            // A progress file that does not read is never written over: the entry is left out
            // of this session, with the reason, and the rest of the session goes on.
            do {
                _ = try recorder.current(visit.id)
            } catch let refusal as LibraryError {
                state.queue.removeAll { $0.id == visit.id }
                state.notices.append(.skipped(reason: "\(visit.id): \(refusal.message)"))
                continue
            }
            let before = UndoPoint(
                entry: visit.id, progress: recorder.bytes(visit.id),
                written: state.written[recorder.progressPath(visit.id)], session: SessionMark(state.session),
                queue: state.queue,
                seenNew: state.seenNew, learningIDs: state.learningIDs, reviewIDs: state.reviewIDs, done: state.done)
            state.queue.removeFirst()
            state.shownIDs.insert(visit.id)
            state.number += 1
            state.visit = VisitState(visit: visit, number: state.number, before: before, phase: .card, shownAt: now)
            try begin(entry, now: now)
            return
        }
    }

    func leavePassagesOut() {
        state.queue.removeAll { recorder.isPassage($0.id) }
        if !state.refusedPassages { state.notices.append(.passagesLeftOut) }
        state.refusedPassages = true
    }

    /// The queue after a new plan: the failed entries waiting to come back, then the plan's
    /// entries not yet shown.
    func revise(with plan: SessionPlan) {
        let retries = state.queue.filter { $0.tries > 0 }
        let waiting = Set(retries.map(\.id))
        let newIDs = Set(plan.new.map(\.id))
        let fresh = (plan.due + plan.new).filter { !state.shownIDs.contains($0.id) && !waiting.contains($0.id) }
        state.queue = retries + fresh.map { Visit(id: $0.id, tries: 0, isNew: newIDs.contains($0.id)) }
        state.planned = state.done.count + Set(state.queue.map(\.id)).subtracting(state.done).count
    }

    /// The first screen of an entry's visit.
    func begin(_ entry: Entry, now: Date) throws {
        switch entry.content {
        case let .vocabulary(word): try beginWord(entry, word, now: now)
        case let .question(question): beginQuestion(question, now: now)
        case let .passage(passage): try beginPassage(entry, passage, now: now)
        case .letter: enter(.letter, now: now)
        }
    }

    func enter(_ phase: Phase, now: Date) {
        state.visit?.phase = phase
        state.visit?.shownAt = now
    }

    var currentEntry: Entry? { state.visit.flatMap { source.entry($0.visit.id) } }

    /// An answer to the screen on show.
    func answer(_ action: StudyAction, now: Date) throws {
        guard let visit = state.visit, let entry = currentEntry else { throw misfit(action) }
        switch visit.phase {
        case .card:
            guard action == .proceed else { throw misfit(action) }
            try nextWordStep(entry, now: now)
        case let .wordQuestion(exercise, typed):
            try answerWord(entry, exercise, typed: typed, action, now: now)
        case let .skillQuestion(exercise):
            try answerQuestion(entry, exercise, action, now: now)
        case let .feedback(feedback):
            if let proposed = feedback.proposed {
                switch action {
                case .proceed: try grade(entry, proposed, now: now)
                case let .grade(chosen): try grade(entry, chosen, now: now)
                default: throw misfit(action)
                }
            } else {
                guard action == .proceed else { throw misfit(action) }
                try afterFeedback(entry, now: now)
            }
        case let .gradeChoice(proposed):
            switch action {
            case let .grade(chosen): try gradeChoice(entry, chosen, now: now)
            case .proceed:
                guard let proposed else { throw misfit(action) }
                try gradeChoice(entry, proposed, now: now)
            default: throw misfit(action)
            }
        case .letter:
            guard action == .proceed else { throw misfit(action) }
            enter(.gradeChoice(proposed: nil), now: now)
        case .rung, .recall, .reflectionConsent, .reflection:
            guard case let .passage(passage) = entry.content else { throw misfit(action) }
            try answerPassage(entry, passage, action, now: now)
        case .leech:
            switch action {
            case .proceed: try nextVisit(now: now)
            default: throw misfit(action)
            }
        }
    }

    /// Where a visit goes after an answer's feedback that was not its last.
    func afterFeedback(_ entry: Entry, now: Date) throws {
        switch entry.content {
        case .vocabulary: try nextWordStep(entry, now: now)
        case let .passage(passage): try nextRung(entry, passage, now: now)
        case .question, .letter: try gradeVisit(entry, now: now)
        }
    }

    /// Records an answer in the session file.
    func attempt(_ entry: Entry, _ question: String, _ answer: String, _ correct: Bool, now: Date) -> Int {
        let ms = milliseconds(now)
        state.session.attempts.append(
            .init(
                entry: entry.id, question: question, answer: answer, correct: correct,
                at: Timestamp.wholeSeconds(now), ms: ms))
        if !state.session.decks.contains(entry.deck) { state.session.decks.append(entry.deck) }
        return ms
    }

    func milliseconds(_ now: Date) -> Int {
        guard let shown = state.visit?.shownAt else { return 0 }
        return max(0, Int((now.timeIntervalSince(shown) * 1000).rounded()))
    }

    /// The grade the visit's answers give, proposed on its last feedback (or chosen, when it
    /// had none).
    var proposedGrade: Grade { Grading.grade(state.visit?.answers.map(\.answer) ?? []) ?? .good }

    /// Ends a visit that had no feedback to propose its grade on.
    func gradeVisit(_ entry: Entry, now: Date) throws {
        enter(.gradeChoice(proposed: proposedGrade), now: now)
    }

    func gradeChoice(_ entry: Entry, _ grade: Grade, now: Date) throws {
        if case .letter = entry.content {
            _ = attempt(entry, "draw", grade.name, grade != .again, now: now)
        }
        try self.grade(entry, grade, now: now)
    }

    /// Records the visit's grade and moves on: a failed entry comes back a few places on,
    /// until it passes; a leech is told first.
    func grade(_ entry: Entry, _ grade: Grade, now: Date) throws {
        guard var visit = state.visit else { return }
        let visitAttempts = state.session.attempts.filter { $0.entry == entry.id }.suffix(visit.answers.count)
        let ms = visitAttempts.isEmpty ? nil : visitAttempts.map(\.ms).reduce(0, +)
        let result = try recorder.record(entry: entry.id, grade: grade, at: now, ms: ms)
        state.written[result.path] = result.data
        state.session.count(grade)
        if !state.session.decks.contains(entry.deck) { state.session.decks.append(entry.deck) }
        if visit.visit.isNew, state.seenNew.insert(entry.id).inserted { state.session.new += 1 }
        if state.seenNew.contains(entry.id) || visit.climbed {
            state.learningIDs.insert(entry.id)
        } else {
            state.reviewIDs.insert(entry.id)
        }
        if grade == .again, visit.visit.tries < 2, result.file.status == .active,
            !state.statusChanges.contains(where: { $0.entry == entry.id })
        {
            state.queue.insert(
                Visit(id: entry.id, tries: visit.visit.tries + 1, isNew: false), at: min(state.queue.count, 3))
        } else {
            state.done.insert(entry.id)
        }
        state.undoStack.append(visit.before)
        state.notices.append(.graded(grade, next: result.file.state?.due))
        visit.graded = grade
        state.visit = visit
        // A practice answer adds no lapse (its replay leaves it out), so it makes no leech.
        if result.becameLeech, let lapses = result.file.state?.lapses {
            enter(.leech(lapses: lapses, suspended: result.file.status == .suspended), now: now)
            return
        }
        try nextVisit(now: now)
    }

    /// The session so far, so a crash leaves enough to commit it on the next run, or, with
    /// the state beside it, to go on where it stopped (`resumableState`).
    func snapshot() throws {
        try AtomicFile.write(state.session.render(), to: root.appending(path: Self.snapshotPath))
        try AtomicFile.write(saved(), to: root.appending(path: Self.statePath))
    }

    public static let statePath = LibraryTransaction.sessionStatePath

    /// The saved state of a session a kill stopped, when it can go on: it reads, and every file
    /// it wrote (and the progress file of the entry on show) is on disk as it says. A kill
    /// between an answer's write and the state's leaves them apart; that state is removed, and
    /// the interrupted session is committed as it is on disk instead, as always.
    public static func resumableState(root: URL) -> Data? {
        let url = root.appending(path: statePath)
        guard FileManager.default.fileExists(atPath: root.appending(path: snapshotPath).path),
            let data = FileManager.default.contents(atPath: url.path)
        else { return nil }
        guard let state = try? JSONDecoder().decode(State.self, from: data), state.summary == nil else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        var expected = state.written.mapValues(Optional.some)
        if let visit = state.visit {
            let path = LibraryPaths(user: state.session.user).progress(visit.visit.id)
            if expected[path] == nil { expected[path] = visit.before.progress }
        }
        for (path, bytes) in expected
        where FileManager.default.contents(atPath: root.appending(path: path).path) != bytes {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return data
    }

    /// The earliest due date among the learner's entries after this session.
    public func nextDue() -> Date? {
        var dues = source.dueDates()
        for (path, data) in state.written where LibraryPaths.isProgress(path) {
            guard let file = ProgressFile.decode(data, path: path).0 else { continue }
            dues[file.entry] = file.status == .active ? file.state?.due : nil
        }
        return dues.values.min()
    }

    /// A session's label: `learning` when every entry it studied was being learned (new words
    /// however often they came back, passages on the ladder), `review` when every one was
    /// reviewed (and when nothing was studied), `mixed` otherwise.
    static func kind(learning: Set<String>, review: Set<String>) -> SessionFile.Kind {
        if learning.isEmpty { return .review }
        return review.isEmpty ? .learning : .mixed
    }

    /// Commits the session (when anything was done) and puts the summary on show.
    func finish(now: Date) throws {
        state.visit = nil
        state.askingPassageConsent = false
        defer {
            try? FileManager.default.removeItem(at: root.appending(path: Self.snapshotPath))
            try? FileManager.default.removeItem(at: root.appending(path: Self.statePath))
        }
        guard !state.written.isEmpty || !state.session.attempts.isEmpty else {
            var summary = StudyScreen.Summary.empty
            summary.passagesLeftOut = state.refusedPassages
            state.summary = summary
            git = nil
            return
        }
        var session = state.session
        session.endedAt = Timestamp.wholeSeconds(now)
        session.kind = Self.kind(learning: state.learningIDs, review: state.reviewIDs)
        session.skill = state.skill
        session.score = SessionFile.score(of: session.answers)
        let order = source.deckOrder
        session.decks.sort { (order.firstIndex(of: $0) ?? Int.max) < (order.firstIndex(of: $1) ?? Int.max) }
        state.session = session
        writeDerivedProfileFields(now: now)
        try AtomicFile.write(session.render(), at: SessionFile.path(for: session), in: root)
        try git?.commitSession(session, progress: state.written)
        git = nil
        let answers = session.answers
        state.summary = StudyScreen.Summary(
            saved: true, reviews: session.reviews, again: session.again, hard: session.hard, good: session.good,
            easy: session.easy, new: session.new, passagesPractised: session.passagesPractised,
            answers: answers.count, correctAnswers: answers.filter(\.correct).count,
            seconds: Int((session.endedAt ?? now).timeIntervalSince(session.startedAt).rounded()), nextDue: nextDue(),
            statusChanges: state.statusChanges.count, passagesLeftOut: state.refusedPassages, session: session.id)
    }

    /// Adds `derivedProfileFields` to the profile this session commits. They can be derived
    /// again at any time, so when they cannot be now (a profile that does not read, an index
    /// that fails) the session is committed without them rather than not at all.
    func writeDerivedProfileFields(now: Date) {
        guard let derivedProfileFields else { return }
        let path = LibraryPaths(user: user).profile
        guard let current = try? ReadBeforeRewrite.read(Profile.self, at: path, in: root),
            let updated = try? derivedProfileFields(current, now)
        else { return }
        let data = Data(updated.render().utf8)
        guard data != FileManager.default.contents(atPath: root.appending(path: path).path) else { return }
        // Written before the commit like every answer, so a kill between the two leaves it
        // for the recovery, which commits the learner's changed profile with the session.
        guard (try? AtomicFile.write(data, at: path, in: root)) != nil else { return }
        state.written[path] = data
    }

    // MARK: Screens

    func makeScreen() -> StudyScreen {
        var screen = StudyScreen(
            answered: min(state.done.count, state.planned), planned: state.planned, number: state.number,
            notices: state.notices, content: .summary(state.summary ?? .empty))
        if state.askingPassageConsent {
            screen.content = .consent(.init(topic: .passages))
            return screen
        }
        guard let visit = state.visit, let entry = source.entry(visit.visit.id) else {
            screen.number = 0
            return screen
        }
        screen.number = visit.number
        screen.deck = entry.deck
        screen.visit = visit.visit.isNew ? .new : visit.visit.tries > 0 ? .again : .review
        screen.content = content(of: visit, entry)
        screen.media = media(of: entry, on: screen.content)
        return screen
    }

    /// The entry's media for `content`, leaving out what would answer the question on show:
    /// the word's sound answers a question asking for the word, its picture one asking for
    /// its meaning.
    func media(of entry: Entry, on content: StudyScreen.Content) -> StudyScreen.Media? {
        let files = entry.media
        var media = StudyScreen.Media(autoplay: profile?.settings.autoplayAudio ?? false)
        switch (entry.content, content) {
        case let (.vocabulary(word), .card):
            media.audio = files.audio
            media.image = files.image
            media.speak = word.audio == nil ? word.word : nil
        case let (.vocabulary(word), .question(question)) where question.kind == .translation:
            media.audio = files.audio
            media.speak = word.audio == nil ? word.word : nil
        case let (.vocabulary, .question(question)) where question.kind == .reverseTranslation:
            media.image = files.image
        case let (.passage, .passage(rung)) where rung.step == .read || rung.step == .readAgain:
            media.image = files.image
        default:
            return nil
        }
        if media.speak != nil { media.language = source.decks[entry.deck]?.sourceLanguage ?? "en" }
        guard media.audio != nil || media.image != nil || media.speak != nil else { return nil }
        return media
    }

    func content(of visit: VisitState, _ entry: Entry) -> StudyScreen.Content {
        switch visit.phase {
        case .card:
            guard case let .vocabulary(word) = entry.content else { return .summary(.empty) }
            return .card(WordCard(entry: word))
        case let .wordQuestion(exercise, typed):
            return .question(Self.question(exercise, typed: typed))
        case let .skillQuestion(exercise):
            return .question(Self.question(exercise))
        case let .feedback(feedback):
            return .feedback(feedback)
        case let .gradeChoice(proposed):
            var letter: StudyScreen.LetterTask?
            if case let .letter(entryLetter) = entry.content { letter = Self.letterTask(entryLetter, revealed: true) }
            return .gradeChoice(.init(proposed: proposed, letter: letter))
        case .letter:
            guard case let .letter(letter) = entry.content else { return .summary(.empty) }
            return .letter(Self.letterTask(letter, revealed: false))
        case .rung, .recall, .reflectionConsent, .reflection:
            guard case let .passage(passage) = entry.content else { return .summary(.empty) }
            return passageContent(visit, entry, passage)
        case let .leech(lapses, suspended):
            return .leech(.init(lapses: lapses, suspended: suspended))
        }
    }

    static func letterTask(_ letter: LetterEntry, revealed: Bool) -> StudyScreen.LetterTask {
        StudyScreen.LetterTask(
            name: letter.name ?? letter.character ?? letter.glyph, glyph: letter.glyph, character: letter.character,
            strokes: revealed ? letter.strokes.map { $0.map { [$0.x, $0.y] } } : nil,
            tips: revealed ? letter.tips.map { .init(id: $0, text: LetterTips.phrase($0)) } : [])
    }
}

extension StudyScreen.Summary {
    /// Nothing answered, nothing saved.
    public static let empty = StudyScreen.Summary(
        saved: false, reviews: 0, again: 0, hard: 0, good: 0, easy: 0, new: 0, passagesPractised: 0, answers: 0,
        correctAnswers: 0, seconds: 0, nextDue: nil, statusChanges: 0, passagesLeftOut: false)
}
