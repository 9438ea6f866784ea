public import Foundation
public import RoteModel
public import RoteStore
import Scheduling
public import StudyData

/// Runs one study session over a plan: shows each exercise, grades each entry from all its
/// answers (`Grading`), writes every review to its progress file the moment it is given, keeps
/// a snapshot of the session in `.git/rote/session.yaml`, brings failed entries back later in
/// the session (seed 002's "brain boost"), and ends in one commit with a session file.
///
/// At any prompt the learner may undo the last answered entry (its progress file goes back to
/// what it was, and the card comes back), suspend or ignore the entry on screen, or quit.
public final class StudySessionRunner {
    /// The session so far, for recovery after a kill (`LibraryWriter.recoverInterruptedSession`).
    public static let snapshotPath = LibraryGit.sessionSnapshotPath
    /// The version of the consent question about reflections; a new wording asks again.
    public static let reflectionConsentVersion = "1"
    public static let reflectionConsentTopic = "reflections"
    /// The prompts for typing a whole passage, which a browser marks word by word as it is typed.
    public static let recitePrompt = "recite (end a line with ? for the next word)"
    public static let recallPrompt = "type it (Enter when done)"

    /// One showing of an entry in the queue.
    struct Visit: Equatable {
        var id: String
        var tries: Int
        var isNew: Bool
    }

    /// Everything a visit (or a suspend/ignore) changed, as it was before, so undo puts it back.
    struct UndoPoint {
        var entry: String
        var progress: Data?
        var written: Data?
        var session: SessionFile
        var queue: [Visit]
        var seenNew: Set<String>
        var learningIDs: Set<String>
        var reviewIDs: Set<String>
    }

    /// Why a visit stopped before its grade.
    enum Interrupt: Error {
        case command(SessionCommand)
    }

    let root: URL
    let user: String
    let source: any StudySource
    let git: LibraryGit
    let console: any StudyConsole
    let now: () -> Date
    var random: SeededGenerator
    var recorder: ReviewRecorder
    public private(set) var session: SessionFile
    /// Library path → bytes this session wrote, committed at the end.
    var written: [String: Data] = [:]
    var medianMilliseconds = 6000
    var queue: [Visit] = []
    var seenNew = Set<String>()
    /// Entries this session learned (new words and their repeats, passages climbing the
    /// ladder) and entries it reviewed: together they label the session.
    var learningIDs = Set<String>()
    var reviewIDs = Set<String>()
    /// Whether the last passage visit was ladder work rather than a graduated review.
    var lastVisitClimbedLadder = false
    /// Passages whose reflection this session asked for: asked once a session, however often
    /// a missed cloze steps back through it.
    var reflected = Set<String>()
    var undoStack: [UndoPoint] = []
    var profile: Profile?
    /// Vocabulary questions take a typed answer instead of showing choices (`rote study
    /// --typed`, or the profile's `typed_answers`).
    public var typedAnswers = false
    /// The skill this session is about, when it studies one skill (seed 001's `skill_id`).
    public var skill: String?
    /// The entry on screen, for a console that checks typing as it happens (a browser marks
    /// a passage's recall word by word); nil between cards.
    public private(set) var onScreen: String?
    /// True when passages were left out of this session because the learner has not agreed to
    /// Rote keeping passage practice (seed 004).
    public private(set) var refusedPassages = false
    /// Entries whose status the learner changed in this session.
    public private(set) var statusChanges: [(entry: String, status: ProgressFile.Status)] = []
    /// Asked before each card: a plan that replaces the rest of the queue, when the one the
    /// session began with was made before the library was checked and the check found
    /// changes. Entries already shown are not shown again, and failed ones still come back.
    public var revisedPlan: (() throws -> SessionPlan?)?
    /// Profile fields derived from the learner's history, which commands that only look (`rote
    /// today`) derive and show but never write: given the profile as the session leaves it and
    /// the session's end, the profile with them (nil: nothing to add). The session's commit
    /// carries them, so they reach the profile with the learner's next write.
    public var derivedProfileFields: ((Profile, Date) throws -> Profile?)?
    /// Entries shown in this session.
    private var shownIDs = Set<String>()

    public convenience init(
        root: URL, user: String, library: LoadedLibrary, index: LibraryIndex, git: LibraryGit,
        console: any StudyConsole,
        now: @escaping () -> Date = { Date() }, seed: UInt64 = UInt64.random(in: 0...UInt64.max)
    ) {
        self.init(
            root: root, user: user, source: LoadedStudySource(library: library, index: index), git: git,
            console: console, now: now, seed: seed)
    }

    public init(
        root: URL, user: String, source: any StudySource, git: LibraryGit, console: any StudyConsole,
        now: @escaping () -> Date = { Date() }, seed: UInt64 = UInt64.random(in: 0...UInt64.max)
    ) {
        self.root = root
        self.user = user
        self.source = source
        self.git = git
        self.console = console
        self.now = now
        self.random = SeededGenerator(seed: seed)
        self.recorder = ReviewRecorder(
            root: root, user: user, device: git.device, decks: source.decks, profile: source.profile)
        self.session = SessionFile(
            id: UUID().uuidString.lowercased(), user: user, device: git.device, startedAt: Timestamp.wholeSeconds(now())
        )
        self.profile = source.profile
        let times = source.recentAnswerTimes().sorted()
        if !times.isEmpty { medianMilliseconds = max(1000, times[times.count / 2]) }
    }

    /// Studies the plan's entries; returns the committed session (nil when nothing was done).
    public func run(plan: SessionPlan) throws -> SessionFile? {
        let newIDs = Set(plan.new.map(\.id))
        queue = (plan.due + plan.new).map { Visit(id: $0.id, tries: 0, isNew: newIDs.contains($0.id)) }
        let total = queue.count
        var shown = 0
        session.new = 0
        // A snapshot from the start, so a crash in the first card still leaves a session for
        // the next run to commit with whatever the learner changed.
        try snapshot()
        loop: while true {
            if let revised = try revisedPlan?() { revise(with: revised) }
            guard let visit = queue.first else { break }
            guard let entry = source.entry(visit.id) else {
                queue.removeFirst()
                continue
            }
            // Before the first passage is studied the learner is asked, once, whether Rote may
            // keep passage practice; without a yes no passage is studied, so nothing about one
            // is written. The end of input stops the session before anything is recorded.
            if recorder.isPassage(visit.id), !recorder.keepsPassagePractice {
                let agreed: Bool
                do {
                    agreed = try askPassageConsent()
                } catch let Interrupt.command(command) where command == .quit {
                    refusedPassages = true
                    console.show("Passages left out: " + Profile.passagesConsentRefusal(entry: nil) + ".", style: .dim)
                    break loop
                } catch Interrupt.command {
                    // Undo, suspend or ignore are no answer to the question: it is asked again.
                    continue
                }
                if !agreed {
                    queue.removeAll { recorder.isPassage($0.id) }
                    refusedPassages = true
                    console.show("Passages left out: " + Profile.passagesConsentRefusal(entry: nil) + ".", style: .dim)
                    continue
                }
            }
            // A progress file that does not read is never written over: the entry is left out
            // of this session, with the reason, and the rest of the session goes on.
            do {
                _ = try recorder.current(visit.id)
            } catch let refusal as LibraryError {
                queue.removeAll { $0.id == visit.id }
                console.show("Skipped \(visit.id): \(refusal.message)", style: .wrong)
                continue
            }
            let before = UndoPoint(
                entry: visit.id, progress: recorder.bytes(visit.id), written: written[recorder.progressPath(visit.id)],
                session: session,
                queue: queue, seenNew: seenNew, learningIDs: learningIDs, reviewIDs: reviewIDs)
            queue.removeFirst()
            shownIDs.insert(visit.id)
            onScreen = visit.id
            defer { onScreen = nil }
            shown += 1
            // The title names the deck, never the entry: an id or gloss would give answers away.
            console.beginCard(
                number: shown, total: max(total, shown + queue.count),
                title: "\(entry.deck) · \(visit.isNew ? "new" : visit.tries > 0 ? "again" : "review")")
            do {
                let grade = try study(entry, visit: visit)
                if visit.isNew, seenNew.insert(visit.id).inserted { session.new += 1 }
                if seenNew.contains(visit.id) || lastVisitClimbedLadder {
                    learningIDs.insert(visit.id)
                } else {
                    reviewIDs.insert(visit.id)
                }
                // Failed entries come back later in the session, a few places on, until they pass.
                if grade == .again, visit.tries < 2, !statusChanges.contains(where: { $0.entry == visit.id }) {
                    queue.insert(Visit(id: visit.id, tries: visit.tries + 1, isNew: false), at: min(queue.count, 3))
                }
                undoStack.append(before)
            } catch let Interrupt.command(command) {
                switch command {
                case .quit:
                    break loop
                case .undo:
                    // The visit on screen is dropped (its answers with it) and the last one
                    // comes back first.
                    session = before.session
                    queue = before.queue
                    if let last = undoStack.popLast() {
                        try undo(last)
                        console.show("Undone: \(last.entry) is back.", style: .dim)
                    } else {
                        console.show("Nothing to undo yet.", style: .dim)
                    }
                    shown = max(0, shown - 2)
                case .suspend, .ignore:
                    let status: ProgressFile.Status = command == .suspend ? .suspended : .ignored
                    try setStatus(entry.id, status)
                    queue.removeAll { $0.id == entry.id }
                    undoStack.append(before)
                    console.show(
                        "\(command == .suspend ? "Suspended" : "Ignored") \(entry.id); it leaves every queue until `rote activate \(entry.id)`.",
                        style: .dim)
                }
            }
            try snapshot()
        }
        return try finish()
    }

    /// The queue after a new plan: the failed entries waiting to come back, then the plan's
    /// entries not yet shown.
    func revise(with plan: SessionPlan) {
        let retries = queue.filter { $0.tries > 0 }
        let waiting = Set(retries.map(\.id))
        let newIDs = Set(plan.new.map(\.id))
        queue =
            retries
            + (plan.due + plan.new).filter { !shownIDs.contains($0.id) && !waiting.contains($0.id) }
            .map { Visit(id: $0.id, tries: 0, isNew: newIDs.contains($0.id)) }
    }

    /// Puts an entry's progress file, the session and the queue back as they were before a
    /// visit or a status change.
    func undo(_ point: UndoPoint) throws {
        try recorder.restore(entry: point.entry, to: point.progress)
        let path = recorder.progressPath(point.entry)
        written[path] = point.written
        session = point.session
        queue = point.queue
        seenNew = point.seenNew
        learningIDs = point.learningIDs
        reviewIDs = point.reviewIDs
        statusChanges.removeAll { $0.entry == point.entry }
    }

    func setStatus(_ id: String, _ status: ProgressFile.Status) throws {
        let result = try recorder.update(entry: id) { file in
            file.status = status
            file.statusAt = Timestamp.wholeSeconds(now())
        }
        written[result.path] = result.data
        statusChanges.append((id, status))
        if !session.decks.contains(String(id.split(separator: "/")[0])) {
            session.decks.append(String(id.split(separator: "/")[0]))
        }
    }

    /// Asks, turning commands and the end of input into `Interrupt`s.
    func ask(_ prompt: String, _ kind: AnswerKind) throws -> String {
        guard let reply = console.ask(prompt, kind: kind) else { throw Interrupt.command(.quit) }
        switch reply {
        case let .answer(text): return text
        case let .command(command): throw Interrupt.command(command)
        }
    }

    /// A leech (`docs/scheduling.md`: forgotten 8 times, told again every 4 more lapses): the
    /// learner is told, and one key (`s`, or `suspend` in a script) suspends it; anything
    /// else goes on.
    func announceLeech(_ id: String, lapses: Int) throws {
        console.show(
            "Leech: forgotten \(lapses) times. Rewrite it (a mnemonic, a clearer example) or suspend it.", style: .wrong
        )
        do {
            _ = try ask("s suspends it · Enter goes on", .reveal)
        } catch Interrupt.command(.suspend) {
            try setStatus(id, .suspended)
            queue.removeAll { $0.id == id }
            console.show("Suspended \(id); it leaves every queue until `rote activate \(id)`.", style: .dim)
        }
    }

    /// Shows one entry's exercises and records its grade.
    func study(_ entry: Entry, visit: Visit) throws -> Grade {
        var answers: [Answer] = []
        var selfGrade: Grade?
        lastVisitClimbedLadder = false
        switch entry.content {
        case let .vocabulary(word):
            answers = try studyWord(entry, word, isNew: visit.isNew)
        case let .question(question):
            answers = try studyQuestion(entry, question)
        case let .passage(passage):
            answers = try studyPassage(entry, passage)
        case let .letter(letter):
            selfGrade = try studyLetter(entry, letter)
        }
        var grade: Grade
        if let selfGrade {
            grade = selfGrade
        } else {
            grade = Grading.grade(answers) ?? .good
            if console.isInteractive {
                let reply = try ask(
                    "grade: \(grade.name) — Enter to accept, or 1 again · 2 hard · 3 good · 4 easy",
                    .grade(proposed: grade))
                if let override = Grade(name: reply.trimmingCharacters(in: .whitespaces)) { grade = override }
            }
        }
        let visitAttempts = session.attempts.filter { $0.entry == entry.id }.suffix(answers.count)
        let ms = visitAttempts.isEmpty ? nil : visitAttempts.map(\.ms).reduce(0, +)
        let result = try recorder.record(entry: entry.id, grade: grade, at: now(), ms: ms)
        written[result.path] = result.data
        count(grade)
        if !session.decks.contains(entry.deck) { session.decks.append(entry.deck) }
        if let due = result.file.state?.due {
            console.show("\(grade.name) · next \(StudySummary.relative(due, from: now()))", style: .dim)
        }
        if grade == .again, let lapses = result.file.state?.lapses, MemoryState.isLeechMilestone(lapses: lapses) {
            try announceLeech(entry.id, lapses: lapses)
        }
        return grade
    }

    func feedback(_ correct: Bool, _ text: String) {
        console.show((correct ? "✓ " : "✗ ") + text, style: correct ? .correct : .wrong)
    }

    func attempt(_ entry: Entry, _ question: String, _ answer: String, _ correct: Bool, _ ms: Int) {
        session.attempts.append(
            .init(
                entry: entry.id, question: question, answer: answer, correct: correct,
                at: Timestamp.wholeSeconds(now()), ms: ms))
        if !session.decks.contains(entry.deck) { session.decks.append(entry.deck) }
    }

    func count(_ grade: Grade) { session.count(grade) }

    /// A session's label: `learning` when every entry it studied was being learned (new words
    /// however often they came back, passages on the ladder), `review` when every one was
    /// reviewed (and when nothing was studied), `mixed` otherwise.
    static func kind(learning: Set<String>, review: Set<String>) -> SessionFile.Kind {
        if learning.isEmpty { return .review }
        return review.isEmpty ? .learning : .mixed
    }

    func milliseconds(since start: Date) -> Int { max(0, Int((now().timeIntervalSince(start) * 1000).rounded())) }

    /// The session so far, so a crash leaves enough to commit it on the next run.
    func snapshot() throws {
        try AtomicFile.write(session.render(), to: root.appending(path: StudySessionRunner.snapshotPath))
    }

    /// The earliest due date among the learner's entries after this session.
    public func nextDue() -> Date? {
        var dues = source.dueDates()
        for (path, data) in written where path.contains("/progress/") {
            guard let file = ProgressFile.decode(data, path: path).0 else { continue }
            dues[file.entry] = file.status == .active ? file.state?.due : nil
        }
        return dues.values.min()
    }

    func finish() throws -> SessionFile? {
        defer { try? FileManager.default.removeItem(at: root.appending(path: StudySessionRunner.snapshotPath)) }
        guard !written.isEmpty || !session.attempts.isEmpty else { return nil }
        session.endedAt = Timestamp.wholeSeconds(now())
        session.kind = Self.kind(learning: learningIDs, review: reviewIDs)
        session.skill = skill
        session.score = SessionFile.score(of: session.answers)
        let order = source.deckOrder
        session.decks.sort { (order.firstIndex(of: $0) ?? Int.max) < (order.firstIndex(of: $1) ?? Int.max) }
        writeDerivedProfileFields()
        try AtomicFile.write(session.render(), at: SessionFile.path(for: session), in: root)
        try git.commitSession(session, progress: written)
        return session
    }

    /// Adds `derivedProfileFields` to the profile this session commits. They can be derived
    /// again at any time, so when they cannot be now (a profile that does not read, an index
    /// that fails) the session is committed without them rather than not at all.
    func writeDerivedProfileFields() {
        guard let derivedProfileFields else { return }
        let path = LibraryPaths(user: user).profile
        guard let current = try? ReadBeforeRewrite.read(Profile.self, at: path, in: root),
            let updated = try? derivedProfileFields(current, now())
        else { return }
        let data = Data(updated.render().utf8)
        guard data != FileManager.default.contents(atPath: root.appending(path: path).path) else { return }
        // Written before the commit like every answer, so a kill between the two leaves it
        // for the recovery, which commits the learner's changed profile with the session.
        guard (try? AtomicFile.write(data, at: path, in: root)) != nil else { return }
        written[path] = data
    }
}
