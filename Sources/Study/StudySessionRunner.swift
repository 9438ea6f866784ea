import Foundation
import RoteModel
import RoteStore
import RoteSync
import Scheduling

/// How a study session talks to the learner: a terminal, a script on stdin, or a test.
public protocol StudyConsole: AnyObject {
    /// True for a person at a terminal: cards wait for Enter and grades can be overridden.
    var isInteractive: Bool { get }
    func show(_ text: String)
    /// One answer line; nil at the end of input (which stops and saves, like `q`).
    func ask(_ prompt: String) -> String?
}

/// Runs one study session over a plan: shows each exercise, grades each entry from all its
/// answers (`Grading`), writes every review to its progress file the moment it is given, keeps
/// a snapshot of the session in `.git/rote/session.yaml`, brings failed entries back later in
/// the session, and ends in one commit with a session file.
public final class StudySessionRunner {
    public static let snapshotPath = ".git/rote/session.yaml"

    let root: URL
    let user: String
    let library: LoadedLibrary
    let index: LibraryIndex
    let git: LibraryGit
    let console: any StudyConsole
    let now: () -> Date
    var random: SeededGenerator
    let recorder: ReviewRecorder
    var session: SessionFile
    var written: [String: Data] = [:]
    var reviewsOf: [String: Int] = [:]
    var medianMilliseconds = 6000

    public init(root: URL, user: String, library: LoadedLibrary, index: LibraryIndex, git: LibraryGit, console: any StudyConsole,
                now: @escaping () -> Date = { Date() }, seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.root = root
        self.user = user
        self.library = library
        self.index = index
        self.git = git
        self.console = console
        self.now = now
        self.random = SeededGenerator(seed: seed)
        self.recorder = ReviewRecorder(root: root, user: user, device: git.device, library: library)
        self.session = SessionFile(id: UUID().uuidString.lowercased(), user: user, device: git.device, startedAt: Timestamp.wholeSeconds(now()))
        let times = index.progress.values.flatMap { $0.reviews.suffix(3).compactMap(\.ms) }.sorted()
        if !times.isEmpty { medianMilliseconds = max(1000, times[times.count / 2]) }
    }

    /// Commits a session a crash interrupted: its snapshot names the answers given, whose
    /// reviews are already in the progress files. Returns true when there was one.
    @discardableResult
    public static func recoverInterruptedSession(root: URL, git: LibraryGit) throws -> Bool {
        let url = root.appending(path: snapshotPath)
        guard let data = FileManager.default.contents(atPath: url.path) else { return false }
        guard var session = SessionFile.decode(data, path: snapshotPath).0 else {
            try? FileManager.default.removeItem(at: url)
            return false
        }
        session.endedAt = session.endedAt ?? session.attempts.last?.at ?? session.startedAt
        var progress: [String: Data] = [:]
        for entry in Set(session.attempts.map(\.entry)) {
            let path = "profiles/\(session.user)/progress/\(entry).yaml"
            if let file = FileManager.default.contents(atPath: root.appending(path: path).path) { progress[path] = file }
        }
        try AtomicFile.write(session.render(), to: root.appending(path: SessionFile.path(for: session)))
        if !session.attempts.isEmpty { try git.commitSession(session, progress: progress, recovered: true) }
        try FileManager.default.removeItem(at: url)
        return !session.attempts.isEmpty
    }

    /// Studies the plan's entries; returns the committed session (nil when nothing was answered).
    public func run(plan: SessionPlan) throws -> SessionFile? {
        var queue = (plan.due + plan.new).map { ($0.id, 0) }
        let newIDs = Set(plan.new.map(\.id))
        session.new = 0
        var seenNew = Set<String>()
        var stopped = false
        while !queue.isEmpty, !stopped {
            let (id, tries) = queue.removeFirst()
            guard let entry = index.entries[id] else { continue }
            console.show("\n[\(session.again + session.hard + session.good + session.easy + 1)] \(entry.id)")
            guard let outcome = try study(entry, isNew: newIDs.contains(id) && tries == 0) else {
                stopped = true
                break
            }
            if newIDs.contains(id), seenNew.insert(id).inserted { session.new += 1 }
            if outcome == .again, tries < 2 { queue.append((id, tries + 1)) }
        }
        return try finish()
    }

    /// Shows one entry's exercises and records its grade; nil when the learner stopped.
    func study(_ entry: Entry, isNew: Bool) throws -> Grade? {
        var answers: [Answer] = []
        switch entry.content {
        case let .vocabulary(word):
            let reviews = index.progress[entry.id]?.reviews ?? []
            let visit: VocabularyExercises.Visit = isNew ? .new : .review(number: reviews.count, lastGrade: reviews.last?.grade)
            let deck = library.entries.compactMap { candidate -> VocabularyEntry? in
                guard candidate.deck == entry.deck, case let .vocabulary(other) = candidate.content else { return nil }
                return other
            }
            for step in VocabularyExercises.plan(for: word, visit: visit) {
                switch step {
                case .card:
                    console.show(WordCard(entry: word).render())
                    if console.isInteractive, console.ask("Enter to continue") == nil { return nil }
                case let .question(question):
                    let exercise = VocabularyExercises.exercise(for: question, of: word, deck: deck, using: &random)
                    var lines = [exercise.prompt]
                    for (number, option) in exercise.options.enumerated() { lines.append("  \(number + 1). \(option)") }
                    console.show(lines.joined(separator: "\n"))
                    let started = now()
                    guard let reply = console.ask("answer (number or text)") else { return nil }
                    let choice = Int(reply.trimmingCharacters(in: .whitespaces))
                    let correct = choice.map { exercise.check(choice: $0 - 1) } ?? exercise.check(typed: reply)
                    let ms = milliseconds(since: started)
                    answers.append(Answer(correct: correct, milliseconds: ms, medianMilliseconds: medianMilliseconds))
                    attempt(entry, question.id, choice.flatMap { exercise.options.indices.contains($0 - 1) ? exercise.options[$0 - 1] : nil } ?? reply, correct, ms)
                    console.show(correct ? "✓ correct" : "✗ the answer is \(exercise.options[exercise.correctIndex])")
                }
            }
        case let .question(question):
            let exercise = SkillExercise(question: question, using: &random)
            let started = now()
            switch exercise {
            case let .mcq(mcq):
                console.show(([mcq.prompt] + mcq.choices.enumerated().map { "  \($0.offset + 1). \($0.element)" }).joined(separator: "\n"))
                guard let reply = console.ask("answer (number)") else { return nil }
                let position = (Int(reply.trimmingCharacters(in: .whitespaces)) ?? 0) - 1
                let correct = mcq.check(position: position)
                let ms = milliseconds(since: started)
                answers.append(Answer(correct: correct, milliseconds: ms, medianMilliseconds: medianMilliseconds))
                attempt(entry, "mcq_single", reply, correct, ms)
                console.show(correct ? "✓ correct" : "✗ the answer is \(mcq.choices[mcq.correctPosition])")
            case let .reorder(reorder):
                console.show(([reorder.prompt ?? "Put the steps in order:"] + reorder.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }).joined(separator: "\n"))
                guard let reply = console.ask("order (e.g. 2 1 3)") else { return nil }
                let positions = reply.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) }.map { $0 - 1 }
                let correct = reorder.check(positions: positions)
                let ms = milliseconds(since: started)
                answers.append(Answer(correct: correct, milliseconds: ms, medianMilliseconds: medianMilliseconds))
                attempt(entry, "reorder_steps", reply, correct, ms)
                console.show(correct ? "✓ correct" : "✗ not quite")
            }
            if let explanation = question.explanation { console.show("  \(explanation)") }
        case let .passage(passage):
            if isNew { console.show("\(passage.reference)\n  \(passage.text)\nRead it twice, then type it from memory.") }
            else { console.show("\(passage.reference) — type it from memory") }
            let started = now()
            guard let reply = console.ask("recite") else { return nil }
            let comparison = RecallComparison.compare(passage: passage.text, typed: reply)
            let ms = milliseconds(since: started)
            let correct = comparison.similarity >= 0.9
            answers.append(Answer(correct: correct, similarity: comparison.similarity, milliseconds: ms, medianMilliseconds: max(medianMilliseconds, 1000 * passage.text.split(separator: " ").count / 2)))
            attempt(entry, "recall", reply, correct, ms)
            console.show("\(Int((comparison.similarity * 100).rounded()))% of the words right" + (correct ? "" : "\n  \(passage.text)"))
        case .letter:
            return .good
        }
        guard var grade = Grading.grade(answers) else { return .good }
        if console.isInteractive, let reply = console.ask("grade: \(grade.name) — Enter to accept, or 1 again, 2 hard, 3 good, 4 easy") {
            if let override = Grade(name: reply.trimmingCharacters(in: .whitespaces)) { grade = override }
        }
        let result = try recorder.record(entry: entry.id, grade: grade, at: now(), ms: answers.isEmpty ? nil : session.attempts.suffix(answers.count).map(\.ms).reduce(0, +))
        written[result.path] = result.data
        count(grade)
        try snapshot()
        return grade
    }

    func attempt(_ entry: Entry, _ question: String, _ answer: String, _ correct: Bool, _ ms: Int) {
        session.attempts.append(.init(entry: entry.id, question: question, answer: answer, correct: correct, at: Timestamp.wholeSeconds(now()), ms: ms))
        if !session.decks.contains(entry.deck) { session.decks.append(entry.deck) }
    }

    func count(_ grade: Grade) {
        switch grade {
        case .again: session.again += 1
        case .hard: session.hard += 1
        case .good: session.good += 1
        case .easy: session.easy += 1
        }
    }

    func milliseconds(since start: Date) -> Int { max(0, Int((now().timeIntervalSince(start) * 1000).rounded())) }

    /// The session so far, so a crash leaves enough to commit it on the next run.
    func snapshot() throws {
        try AtomicFile.write(session.render(), to: root.appending(path: StudySessionRunner.snapshotPath))
    }

    func finish() throws -> SessionFile? {
        let reviews = session.again + session.hard + session.good + session.easy
        defer { try? FileManager.default.removeItem(at: root.appending(path: StudySessionRunner.snapshotPath)) }
        guard reviews > 0 else { return nil }
        session.endedAt = Timestamp.wholeSeconds(now())
        session.kind = session.new == 0 ? .review : (session.new == reviews ? .learning : .mixed)
        let order = library.deckOrder
        session.decks.sort { (order.firstIndex(of: $0) ?? Int.max) < (order.firstIndex(of: $1) ?? Int.max) }
        try AtomicFile.write(session.render(), to: root.appending(path: SessionFile.path(for: session)))
        try git.commitSession(session, progress: written)
        return session
    }
}
