import Foundation
import RoteModel
import RoteStore
import StudyData
import TestSupport
import Testing

@testable import Study

/// `StudySession` as a value: actions in, screens out, with no console, thread or clock.
@Suite struct StudySessionTests {
    let directory: TemporaryDirectory
    var root: URL { directory.url }
    /// The library's lock for the test, as `rote study` holds it: a restored or resumed
    /// session goes on in the transaction of the one before it.
    let transaction: LibraryTransaction
    static let start = Timestamp.parse("2026-11-20T10:00:00Z")!
    static let mcq = "maths/arithmetic/addition/two_plus_two"
    static let reorder = "maths/arithmetic/addition/order_steps"
    static let passage = "verses/joh-11-35"

    init() async throws {
        directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        transaction = try LibraryTransaction(root: directory.url, user: "ana", purpose: "study", mode: .session)
    }

    func source() throws -> LoadedStudySource {
        let library = try LibraryLoader(includeSessions: false).load(root)
        return LoadedStudySource(library: library, index: LibraryIndex(library: library, user: "ana"))
    }

    func session(new ids: [String], due: [String] = [], seed: UInt64 = 7, typed: Bool = false) throws -> StudySession {
        func item(_ id: String) -> SessionPlan.Item { .init(id: id, deck: String(id.split(separator: "/")[0])) }
        let plan = SessionPlan(
            due: due.map(item), new: ids.map(item), dueDeferred: 0, dueTotal: due.count, dueLaterToday: 0,
            reviewedToday: 0, introducedToday: 0, newPerDay: 10)
        return try StudySession(
            root: root, user: "ana", source: try source(),
            git: transaction, plan: plan,
            now: Self.start, typedAnswers: typed, seed: seed)
    }

    func progress(_ entry: String) throws -> ProgressFile? {
        let path = "profiles/ana/progress/\(entry).yaml"
        guard let text = directory.read(path) else { return nil }
        return try #require(ProgressFile.decode(text, path: path).0)
    }

    // MARK: Each kind, screen by screen

    @Test func aNewWordIsItsCardThenEachQuestionThenItsFeedbackAndGrade() throws {
        let study = try session(new: ["words/go"])
        #expect(study.screen.kind == .card && study.screen.visit == .new && study.screen.planned == 1)
        guard case let .card(card) = study.screen.content else { return }
        #expect(card.word == "go")
        var now = Self.start
        var screen = try study.apply(.proceed, now: now)
        var questions = 0
        while case let .question(question) = screen.content {
            questions += 1
            // The question's screen has the choices, and no card.
            #expect(!question.choices.isEmpty && !question.typed)
            now += 2
            screen = try study.apply(.choose(0), now: now)
            guard case let .feedback(feedback) = screen.content else {
                Issue.record("an answer's feedback comes next: \(screen)")
                return
            }
            if feedback.proposed != nil { break }
            screen = try study.apply(.proceed, now: now)
        }
        #expect(questions >= 1)
        guard case let .feedback(last) = screen.content, let proposed = last.proposed else {
            Issue.record("the last feedback proposes a grade: \(screen)")
            return
        }
        // The learner may change the proposed grade.
        let chosen: Grade = proposed == .hard ? .easy : .hard
        screen = try study.apply(.grade(chosen), now: now)
        #expect(
            screen.kind == .summary
                || screen.notices.contains { if case .graded(chosen, _) = $0 { true } else { false } })
        #expect(try progress("words/go")?.reviews.last?.grade == chosen)
    }

    @Test func aSkillQuestionIsOneScreenAndItsFeedbackCarriesTheExplanation() throws {
        let study = try session(new: [Self.reorder])
        guard case let .question(question) = study.screen.content else {
            Issue.record("\(study.screen)")
            return
        }
        #expect(question.kind == .order && question.choices.count == 2)
        #expect(throws: StudySession.ActionError.self) { try study.apply(.choose(0), now: Self.start) }
        #expect(study.screen.kind == .question, "a misfit changes nothing")
        let screen = try study.apply(.order([1, 0]), now: Self.start + 3)
        guard case let .feedback(feedback) = screen.content else {
            Issue.record("\(screen)")
            return
        }
        #expect(feedback.explanation == "Ones first, then tens." && feedback.proposed != nil)
        let end = try study.apply(.proceed, now: Self.start + 4)
        guard case let .summary(summary) = end.content else {
            Issue.record("\(end)")
            return
        }
        #expect(summary.saved && summary.reviews == 1 && summary.answers == 1)
        #expect(end.answered == 1 && end.planned == 1)
    }

    @Test func aLetterIsWrittenFirstAndItsTemplateShownOnlyWithTheGrade() throws {
        let study = try session(new: ["letters/l"])
        guard case let .letter(task) = study.screen.content else {
            Issue.record("\(study.screen)")
            return
        }
        #expect(task.strokes == nil && task.tips.isEmpty, "nothing of the template before it is written")
        let grading = try study.apply(.proceed, now: Self.start + 5)
        guard case let .gradeChoice(choice) = grading.content else {
            Issue.record("\(grading)")
            return
        }
        #expect(choice.proposed == nil && choice.letter?.strokes?.isEmpty == false)
        #expect(choice.letter?.tips.allSatisfy { !$0.text.contains("-") } == true, "tips are sentences")
        _ = try study.apply(.grade(.hard), now: Self.start + 6)
        #expect(study.isFinished)
        #expect(try progress("letters/l")?.reviews.last?.grade == .hard)
        #expect(study.session.attempts.map(\.question) == ["draw"])
    }

    @Test func aPassageAsksConsentThenClimbsOneRungAtATime() throws {
        let study = try session(new: [Self.passage])
        #expect(study.screen.content == .consent(.init(topic: .passages)))
        var screen = try study.apply(.consent(true), now: Self.start)
        var steps: [StudyScreen.PassageRung.Step] = []
        var reflections = 0
        var guardSteps = 0
        while screen.kind != .summary, guardSteps < 40 {
            guardSteps += 1
            switch screen.content {
            case let .passage(rung):
                steps.append(rung.step)
                // A cloze's text never holds the words it blanks beside them.
                screen = try study.apply(
                    rung.step == .read || rung.step == .readAgain ? .proceed : .type("zzz"), now: Self.start)
            case .consent(let consent):
                #expect(consent.topic == .reflections)
                screen = try study.apply(.consent(false), now: Self.start)
            case .reflection(let reflection):
                reflections += 1
                #expect(!reflection.saved)
                screen = try study.apply(.type("it moves me"), now: Self.start)
                #expect(screen.notices.contains(.reflectionNotSaved))
            case let .feedback(feedback):
                screen = try study.apply(feedback.proposed == nil ? .proceed : .proceed, now: Self.start)
            default:
                screen = try study.apply(.proceed, now: Self.start)
            }
        }
        #expect(steps.prefix(2) == [.read, .readAgain], "\(steps)")
        #expect(steps.contains(.cloze))
        #expect(reflections == 1, "a reflection at most once a session")
        guard case let .summary(summary) = screen.content else { return }
        #expect(summary.passagesPractised == 1)
        #expect(try progress(Self.passage)?.ladder != nil)
    }

    @Test func mediaComeWhereTheyDoNotGiveTheAnswerAway() throws {
        let go = try #require(directory.read("corpus/words/go.yaml"))
        directory.write("corpus/words/go.yaml", go + "audio: go.mp3\nimage: go.png\n")
        let study = try session(new: ["words/go"])
        #expect(study.screen.media == .init(audio: "words/go.mp3", image: "words/go.png", autoplay: false))
        var screen = try study.apply(.proceed, now: Self.start)
        var seen = 0
        while case let .question(question) = screen.content {
            seen += 1
            switch question.kind {
            case .translation: #expect(screen.media?.audio == "words/go.mp3" && screen.media?.image == nil)
            case .reverseTranslation: #expect(screen.media?.audio == nil && screen.media?.image == "words/go.png")
            default: #expect(screen.media == nil, "a sentence to complete with the word gets neither")
            }
            screen = try study.apply(.choose(0), now: Self.start)
            if case .feedback = screen.content { screen = try study.apply(.proceed, now: Self.start) }
        }
        #expect(seen > 0)
        // Without an audio file, the word for the browser's voice, in the deck's language.
        directory.write("corpus/words/go.yaml", go)
        let spoken = try session(new: ["words/go"])
        #expect(spoken.screen.media?.speak == "go" && spoken.screen.media?.audio == nil)
    }

    // MARK: Random sessions

    /// What a random learner does at a screen: an answer that fits it, and now and then undo,
    /// suspend, ignore or quit.
    static func action(for screen: StudyScreen, using random: inout SeededGenerator) -> StudyAction {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 7 { return .command(.undo) }
        if roll < 10 { return .command(.suspend) }
        if roll < 12 { return .command(.ignore) }
        if roll < 14 { return .command(.quit) }
        let grade = Grade.allCases.randomElement(using: &random)!
        switch screen.content {
        case .card, .letter, .leech, .summary: return .proceed
        case let .question(question):
            if question.typed { return .type(["go", "run", "يذهب", "x"].randomElement(using: &random)!) }
            if question.kind == .order { return .order(Array(question.choices.indices).shuffled(using: &random)) }
            return .choose(Int.random(in: 0..<question.choices.count, using: &random))
        case let .feedback(feedback):
            return feedback.proposed != nil && Bool.random(using: &random) ? .grade(grade) : .proceed
        case .gradeChoice: return .grade(grade)
        case let .passage(rung):
            switch rung.step {
            case .read, .readAgain: return .proceed
            case .recite where Bool.random(using: &random): return .hint(rung.typed + " Jesus")
            default: return .type(["Jesus wept.", "Jesus", ""].randomElement(using: &random)!)
            }
        case .reflection: return .type(Bool.random(using: &random) ? "" : "it moves me")
        case .consent: return .consent(roll % 3 != 0)
        }
    }

    /// One review or status change the model expects, as the session's undo stack holds them.
    struct Event {
        var entry: String
        var grade: Grade?
        var status: ProgressFile.Status?
    }

    /// Runs a random session to its end; with `restoring`, the session is saved and restored
    /// before some actions. Returns the screens seen and the reviews and statuses the actions
    /// imply.
    func randomSession(seed: UInt64, restoring: Bool) throws -> (screens: [StudyScreen], events: [Event], log: [String])
    {
        var study = try session(
            new: ["words/go", Self.mcq, Self.reorder, "letters/l", Self.passage], due: ["words/run"], seed: seed)
        var random = SeededGenerator(seed: seed ^ 0x5eed)
        var restores = SeededGenerator(seed: seed ^ 0xface)
        var events: [Event] = []
        var log: [String] = []
        var screens = [study.screen]
        var now = Self.start
        var steps = 0
        while !study.isFinished, steps < 300 {
            steps += 1
            if restoring, Int.random(in: 0..<3, using: &restores) == 0 {
                let saved = try study.saved()
                let restored = try StudySession(
                    restoring: saved, root: root, user: "ana", source: try source(),
                    git: transaction)
                #expect(restored.screen == study.screen, "a restored session shows the same screen")
                study = restored
            }
            let screen = study.screen
            let action = Self.action(for: screen, using: &random)
            let entry = study.entryOnScreen
            now += Double(Int.random(in: 1...20, using: &random))
            log.append("\(entry ?? "-") \(screen.kind.rawValue) \(action)")
            do {
                screens.append(try study.apply(action, now: now))
            } catch is StudySession.ActionError {
                #expect(study.screen == screen, "a misfit changes nothing")
                continue
            }
            // What the action implies, from the screen it answered.
            switch (screen.content, action) {
            case (.feedback(let feedback), .proceed) where feedback.proposed != nil:
                events.append(Event(entry: entry!, grade: feedback.proposed))
            case (.feedback(let feedback), .grade(let grade)) where feedback.proposed != nil:
                events.append(Event(entry: entry!, grade: grade))
            case (.gradeChoice(let choice), .proceed):
                events.append(Event(entry: entry!, grade: choice.proposed))
            case (.gradeChoice, .grade(let grade)):
                events.append(Event(entry: entry!, grade: grade))
            case (.leech, .command(let command)) where command == .suspend || command == .ignore:
                events[events.count - 1].status = command == .suspend ? .suspended : .ignored
            // The question whether passages are kept is asked until it is answered: a command
            // there does nothing. (A reflection's consent is part of its passage's visit.)
            case (.consent(.init(topic: .passages)), _), (.summary, _):
                break
            case (_, .command(.undo)):
                _ = events.popLast()
            case (_, .command(let command)) where (command == .suspend || command == .ignore) && entry != nil:
                events.append(Event(entry: entry!, status: command == .suspend ? .suspended : .ignored))
            default:
                break
            }
        }
        #expect(study.isFinished, "the session ended within 300 actions")
        return (screens, events, log)
    }

    @Test(arguments: Array(1...24) as [UInt64])
    func randomActionsRecordExactlyTheReviewsTheirAnswersImply(seed: UInt64) throws {
        let before = try Dictionary(
            uniqueKeysWithValues: ["words/run"].map { ($0, try progress($0)?.reviews.count ?? 0) })
        let (_, events, log) = try randomSession(seed: seed, restoring: false)
        for entry in ["words/go", Self.mcq, Self.reorder, "letters/l", Self.passage, "words/run"] {
            let file = try progress(entry)
            let recorded = (file?.reviews ?? []).dropFirst(before[entry] ?? 0).map(\.grade)
            let expected = events.filter { $0.entry == entry }.compactMap(\.grade)
            #expect(
                recorded == expected,
                "seed \(seed), \(entry): \(recorded) recorded, \(expected) answered: \(log.joined(separator: "\n"))")
            let status = events.last { $0.entry == entry && $0.status != nil }?.status ?? .active
            #expect((file?.status ?? .active) == status, "seed \(seed), \(entry): \(log.joined(separator: "\n"))")
        }
        // One commit for the session, when anything was answered.
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: StudySession.snapshotPath).path))
    }

    /// The same learner twice, the second time saved and restored before a third of the
    /// actions: every screen is the same.
    @Test(arguments: Array(31...38) as [UInt64])
    func aSaveAndRestoreAtAnyStepChangesNothing(seed: UInt64) async throws {
        let plain = try randomSession(seed: seed, restoring: false)
        let again = TemporaryDirectory()
        await FixtureLibrary.write(into: again)
        let other = try StudySessionTests(directory: again)
        let restored = try other.randomSession(seed: seed, restoring: true)
        // Intervals are fuzzed from each review's random id: compare all but the due dates.
        func comparable(_ screens: [StudyScreen]) -> [StudyScreen] {
            screens.map { screen in
                var screen = screen
                screen.notices = screen.notices.map {
                    if case let .graded(grade, _) = $0 { .graded(grade, next: nil) } else { $0 }
                }
                if case var .summary(summary) = screen.content {
                    summary.nextDue = nil
                    summary.session = summary.session.map { _ in "the session" }  // each run's own id
                    screen.content = .summary(summary)
                }
                return screen
            }
        }
        #expect(comparable(plain.screens) == comparable(restored.screens))
        #expect(plain.events.map(\.entry) == restored.events.map(\.entry))
    }

    /// A session a kill stopped goes on from its saved state, when its files agree with it;
    /// when one of them does not (a kill between an answer's write and the state's), the state
    /// is refused and removed, and the interrupted session is left to be committed.
    @Test func aKilledSessionResumesOnlyWhenItsFilesAgreeWithItsState() throws {
        let study = try session(new: [Self.mcq, Self.reorder])
        _ = try study.apply(.choose(0), now: Self.start + 2)
        _ = try study.apply(.proceed, now: Self.start + 3)
        let shown = study.screen
        // Killed here: no finish, the snapshot and the state left behind.
        let saved = try #require(StudySession.resumableState(root: root))
        let resumed = try StudySession(
            restoring: saved, root: root, user: "ana", source: try source(),
            git: transaction)
        #expect(resumed.screen == shown)
        _ = try resumed.apply(.order([1, 0]), now: Self.start + 5)
        _ = try resumed.apply(.proceed, now: Self.start + 6)
        #expect(resumed.isFinished && resumed.session.reviews == 2)
        #expect(StudySession.resumableState(root: root) == nil, "a finished session leaves nothing to resume")

        // A review on disk that the state does not know of: not resumed.
        let other = try session(new: [Self.mcq, Self.reorder])
        _ = try other.apply(.choose(0), now: Self.start + 2)
        let path = "profiles/ana/progress/\(Self.mcq).yaml"
        let text = try #require(directory.read(path))
        directory.write(path, text + "# written after the state\n")
        #expect(StudySession.resumableState(root: root) == nil)
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: StudySession.statePath).path))
    }

    @Test func aScreenAndAnActionRoundTripThroughTheirJSON() throws {
        let study = try session(new: ["words/go", Self.reorder])
        var screens = [study.screen]
        screens.append(try study.apply(.proceed, now: Self.start))
        for screen in screens {
            let data = try JSONEncoder().encode(screen)
            #expect(try JSONDecoder().decode(StudyScreen.self, from: data) == screen)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["kind"] as? String == screen.kind.rawValue && object[screen.kind.rawValue] != nil)
        }
        for action in [
            StudyAction.proceed, .choose(2), .type("run"), .order([1, 0]), .hint("Jesus"), .consent(false),
            .grade(.hard), .command(.undo),
        ] {
            #expect(try JSONDecoder().decode(StudyAction.self, from: JSONEncoder().encode(action)) == action)
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StudyAction.self, from: Data(#"{"choose": 1, "type": "x"}"#.utf8))
        }
    }
}

extension StudySessionTests {
    init(directory: TemporaryDirectory) throws {
        self.directory = directory
        transaction = try LibraryTransaction(root: directory.url, user: "ana", purpose: "study", mode: .session)
    }
}

extension StudyScreen {
    var kind: Content.Kind { content.kind }
}
