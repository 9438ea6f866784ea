import Foundation
import RoteModel
import StudyData
import TestSupport
import Testing

@testable import RoteStore
@testable import Study

/// A console that answers from a script, as a learner would, and keeps what was shown.
final class ScriptedConsole: StudyConsole {
    var replies: [String]
    var shown: [String] = []
    var prompts: [(String, AnswerKind)] = []
    let isInteractive = false

    init(_ replies: [String]) { self.replies = replies }

    func beginCard(done: Int, planned: Int, title: String) { shown.append("[\(done)/\(planned)] \(title)") }
    /// A page turned: what was shown before is off the screen.
    static let pageTurn = "— page —"
    func turnPage() { shown.append(Self.pageTurn) }
    func show(_ text: String, style: TextStyle) { shown.append(text) }
    func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply? {
        prompts.append((prompt, kind))
        return replies.isEmpty ? nil : ConsoleReply.parse(line: replies.removeFirst())
    }
}

/// A session over a plan, drawn on a console as `rote study` draws it.
final class ConsoleSession {
    let root: URL
    let library: LoadedLibrary
    let index: LibraryIndex
    let console: any StudyConsole
    var revisedPlan: (() throws -> SessionPlan?)?
    private(set) var study: StudySession?
    var refusedPassages: Bool { study?.refusedPassages ?? false }

    init(root: URL, library: LoadedLibrary, index: LibraryIndex, console: any StudyConsole) {
        self.root = root
        self.library = library
        self.index = index
        self.console = console
    }

    func run(plan: SessionPlan) throws -> SessionFile? {
        let session = try StudySession(
            root: root, user: "ana", source: LoadedStudySource(library: library, index: index),
            git: LibraryTransaction(root: root, user: "ana", purpose: "study", mode: .session), plan: plan,
            now: Date(), seed: 7, revisedPlan: revisedPlan)
        study = session
        return try StudyConsoleDriver(console: console).run(session)
    }
}

@Suite struct StudySessionConsoleTests {
    let directory = TemporaryDirectory()
    var root: URL { directory.url }

    init() async {
        await FixtureLibrary.write(into: directory)
    }

    func makeRunner(_ console: ScriptedConsole) throws -> (ConsoleSession, LoadedLibrary) {
        let library = try LibraryLoader(includeSessions: false).load(root)
        let index = LibraryIndex(library: library, user: "ana")
        return (ConsoleSession(root: root, library: library, index: index, console: console), library)
    }

    func plan(new ids: [String], due: [String] = []) -> SessionPlan {
        func item(_ id: String) -> SessionPlan.Item { .init(id: id, deck: String(id.split(separator: "/")[0])) }
        return SessionPlan(
            due: due.map(item), new: ids.map(item), dueDeferred: 0, dueTotal: due.count, dueLaterToday: 0,
            reviewedToday: 0, introducedToday: 0, newPerDay: 10)
    }

    func progress(_ entry: String) throws -> ProgressFile {
        let path = "profiles/ana/progress/\(entry).yaml"
        let text = try #require(directory.read(path))
        return try #require(ProgressFile.decode(text, path: path).0)
    }

    func profile() throws -> Profile {
        let text = try #require(directory.read("profiles/ana/profile.yaml"))
        return try #require(Profile.decode(text, path: "profile.yaml").0)
    }

    static let mcq = "maths/arithmetic/addition/two_plus_two"
    static let reorder = "maths/arithmetic/addition/order_steps"
    static let passage = "verses/joh-11-35"

    @Test func undoTakesTheLastReviewOutOfItsFileAndShowsTheCardAgain() async throws {
        let console = ScriptedConsole(["1", "undo", "2", "2 1"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.mcq, Self.reorder])))
        #expect(try progress(Self.mcq).reviews.count == 1, "the undone review is gone, the second answer's is there")
        #expect(try progress(Self.reorder).reviews.count == 1)
        #expect(session.attempts.map(\.question) == ["mcq_single", "reorder_steps"])
        #expect(session.again + session.hard + session.good + session.easy == 2)
        let questions = console.shown.filter { $0 == "What is 2 + 2?" || $0 == "Put the steps in order:" }
        #expect(
            Array(questions.prefix(3)) == ["What is 2 + 2?", "Put the steps in order:", "What is 2 + 2?"],
            "the card came back: \(questions)")
        #expect(console.shown.contains("Undone: \(Self.mcq) is back."))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: root).stdout.isEmpty)
    }

    /// A session that began from a plan made before the library was checked takes the
    /// checked plan once it comes: what was shown is not shown again, the rest follows the
    /// new plan (here the passage left it and the reorder question came in).
    @Test func aRevisedPlanReplacesTheRestOfTheQueue() throws {
        let console = ScriptedConsole(["1", "2 1"])
        let (runner, _) = try makeRunner(console)
        var asked = 0
        runner.revisedPlan = {
            asked += 1
            return asked == 2 ? plan(new: [Self.mcq, Self.reorder]) : nil
        }
        let session = try #require(try runner.run(plan: plan(new: [Self.mcq, Self.passage])))
        #expect(
            session.attempts.map(\.entry) == [Self.mcq, Self.reorder],
            "shown once each, the passage gone with the old plan")
        #expect(asked >= 2)
    }

    @Test func undoWithNothingAnsweredRestartsTheCard() throws {
        let console = ScriptedConsole(["undo", "2"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.mcq])))
        #expect(console.shown.contains("Nothing to undo yet."))
        #expect(session.attempts.count == 1)
        #expect(try progress(Self.mcq).reviews.count == 1)
    }

    @Test func suspendAndIgnoreSetTheStatusAndTheEntryLeavesTheSession() async throws {
        let console = ScriptedConsole(["suspend", "ignore", "quit"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.mcq, Self.reorder, "words/go"])))
        let suspended = try progress(Self.mcq)
        let ignored = try progress(Self.reorder)
        #expect(suspended.status == .suspended && suspended.statusAt != nil && suspended.reviews.isEmpty)
        #expect(ignored.status == .ignored)
        #expect(session.attempts.isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: root.appending(path: "profiles/ana/progress/words/go.yaml").path))
        let message = await Shell.run("git", ["log", "-1", "--format=%s"], in: root).stdout
        #expect(message.hasPrefix("Study: 0 reviews"), "the status changes are committed: \(message)")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: root).stdout.isEmpty)
    }

    @Test func undoBringsASuspendedEntryBack() throws {
        let console = ScriptedConsole(["suspend", "undo", "2", "1 2"])
        let (runner, _) = try makeRunner(console)
        _ = try runner.run(plan: plan(new: [Self.mcq, Self.reorder]))
        let file = try progress(Self.mcq)
        #expect(file.status == .active && file.reviews.count == 1)
    }

    /// John 11:35 has one clause, so the ladder is short: read twice, reflect, one blank,
    /// the whole clause, its first two words (nothing left to fill), then recitation.
    @Test func aNewPassageClimbsTheWholeLadderAndGraduates() throws {
        let (_, library) = try makeRunner(ScriptedConsole([]))
        guard case let .passage(passage) = library.entries.first(where: { $0.id == Self.passage })?.content else {
            Issue.record("no passage")
            return
        }
        let cloze1 = PassageLadder(level: .cloze1, attempts: 3).prompt(for: passage, entryID: Self.passage)
        let console = ScriptedConsole([
            "y", "y", "Weeping with those who weep.", cloze1.blanks.joined(separator: " "), "Jesus wept", "Jesus wept.",
        ])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.passage])))
        let file = try progress(Self.passage)
        #expect(file.ladder?.level == "review")
        #expect(file.reflection?.text == "Weeping with those who weep.")
        #expect(file.reviews.count == 1)
        #expect(session.attempts.map(\.question) == ["read1", "read2", "reflect", "cloze1", "cloze2", "recite"])
        #expect(session.answers.map(\.question) == ["cloze1", "cloze2", "recite"], "reading is no answer")
        #expect(!session.attempts.contains { $0.answer.contains("Weeping") }, "a reflection stays out of the session")
        #expect(session.attempts.allSatisfy { $0.correct })
        #expect(session.passagesPractised == 1)
        #expect(SessionCommitMessage.make(for: session).subject.contains("1 passage practised"))
        // Seven rungs (read twice, reflect, three cloze rounds, recite), each on a page of its own.
        #expect(console.shown.filter { $0 == ScriptedConsole.pageTurn }.count == 6, "\(console.shown)")
        let consent = try #require(try profile().consent.first(where: { $0.topic == "reflections" }))
        #expect(consent.granted && consent.version == StudySession.reflectionConsentVersion)
    }

    /// Issue #33 item 2: a missed cloze steps back to the reflection, which is not asked again
    /// in the same session, however often the passage comes back.
    @Test func aReflectionIsAskedOnceASessionHoweverOftenTheLadderStepsBack() throws {
        let console = ScriptedConsole(["y", "y", "Weeping with those who weep.", "zzz", "zzz", "zzz", "zzz"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.passage])))
        #expect(console.prompts.filter { $0.0.contains("mean to you") }.count == 1, "\(console.prompts.map(\.0))")
        #expect(console.prompts.filter { $0.0.contains("missing word") }.count >= 3, "the cloze came back")
        #expect(session.passagesPractised == 1)
    }

    /// A kill while the session file or a progress file was being written leaves that write's
    /// temporary file; the next command commits the session from its snapshot and removes
    /// those files (both found by the fault-injection test), but not one a live process is
    /// still writing.
    @Test func recoveringASessionRemovesTheTemporaryFileOfItsKilledWrite() async throws {
        let session = SessionFile(
            id: "0193a4f2-0000-4000-8000-000000000001", user: "ana",
            startedAt: Timestamp.parse("2026-11-20T09:00:00Z")!,
            attempts: [
                .init(
                    entry: Self.mcq, question: "mcq_single", answer: "4", correct: true,
                    at: Timestamp.parse("2026-11-20T09:00:05Z")!, ms: 900)
            ])
        directory.write(StudySession.snapshotPath, session.render())
        let path = SessionFile.path(for: session)
        let name = String(path.split(separator: "/").last!)
        let leftover = path.dropLast(name.count) + ".\(name).999999999.1.tmp"
        directory.write(String(leftover), "id: 0193a4f2-")
        let progressLeftover = "profiles/ana/progress/maths/arithmetic/addition/.order_steps.yaml.999999998.7.tmp"
        directory.write(progressLeftover, "reviews:\n  - {id: half")
        let live = "profiles/ana/progress/maths/arithmetic/addition/.order_steps.yaml.\(getpid()).8.tmp"
        directory.write(live, "reviews:\n")
        let writer = try LibraryTransaction(root: root, user: "ana", purpose: "study")
        #expect(try writer.recoverInterruptedSession())
        #expect(directory.read(String(leftover)) == nil, "the killed write's temporary file is gone")
        #expect(directory.read(progressLeftover) == nil, "the killed progress write's temporary file is gone")
        #expect(directory.read(live) != nil, "a live writer's temporary file stays")
        #expect(directory.read(path) != nil)
        try FileManager.default.removeItem(at: root.appending(path: live))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: root).stdout.isEmpty)
    }

    /// A session of only new entries is `learning` even when a failed one came back and was
    /// answered again (a repeat is a review event, not a review of a learned entry).
    @Test func aSessionOfNewEntriesWithRepeatsIsLearning() throws {
        let console = ScriptedConsole(["1 2", "2 1"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.reorder])))
        #expect(session.reviews == 2 && session.new == 1, "the failed question came back once")
        #expect(session.kind == .learning)
    }

    /// A passage still on the ladder is being learned, though it is not new: a session of
    /// only ladder work is `learning`; with a due word beside it, `mixed`.
    @Test func aPassageSessionOfLadderWorkIsLearning() throws {
        directory.write(
            "profiles/ana/progress/verses/joh-11-35.yaml",
            """
            entry: verses/joh-11-35
            status: active
            ladder: {level: read2, attempts: 1, at: 2026-11-01T09:00:00Z}

            """)
        let (runner, _) = try makeRunner(ScriptedConsole(["y", "y", "", "wrong", "", "wrong"]))
        let session = try #require(try runner.run(plan: plan(new: [], due: [Self.passage])))
        #expect(session.again == 1, "two setbacks end the visit")
        #expect(session.new == 0)
        #expect(session.kind == .learning)
        #expect(StudySession.kind(learning: ["a"], review: ["b"]) == .mixed)
        #expect(StudySession.kind(learning: [], review: ["b"]) == .review)
    }

    @Test func withoutConsentNoReflectionIsWrittenAndTheQuestionIsNotAskedAgain() throws {
        let console = ScriptedConsole(["y", "n", "Private thoughts"])
        let (runner, _) = try makeRunner(console)
        _ = try runner.run(plan: plan(new: [Self.passage]))
        #expect(try progress(Self.passage).reflection == nil)
        #expect(!(directory.read("profiles/ana/progress/verses/joh-11-35.yaml") ?? "").contains("Private"))
        #expect(try profile().consent.first { $0.topic == "reflections" }?.granted == false)
        #expect(console.shown.contains("Not saved: you chose not to save reflections."))

        // The ladder stopped at cloze1 is where the next session starts, without asking again.
        let again = ScriptedConsole([])
        let (next, _) = try makeRunner(again)
        _ = try next.run(plan: plan(new: [Self.passage]))
        #expect(!again.prompts.contains { $0.0.contains("save your reflections") })
        #expect(again.shown.contains { $0.hasPrefix("Fill in the missing words") })
    }

    /// Seed 004 §6: the learner is asked before the first passage, and a no keeps every
    /// passage out — nothing about one is written — while the other decks are studied.
    @Test func withoutPassageConsentNothingAboutPassagesIsWrittenAndOtherDecksAreStudied() async throws {
        let fixture = await Shell.run("git", ["rev-parse", "HEAD"], in: root).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let console = ScriptedConsole(["n", "1"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.passage, Self.mcq])))
        #expect(directory.read("profiles/ana/progress/verses/joh-11-35.yaml") == nil)
        #expect(try progress(Self.mcq).reviews.count == 1, "the skills question after the passage was studied")
        #expect(!session.attempts.contains { $0.entry.hasPrefix("verses/") } && !session.decks.contains("verses"))
        let answer = try #require(try profile().passagePracticeConsent)
        #expect(!answer.granted && answer.version == Profile.passagesConsentVersion, "the no is recorded with its time")
        #expect(console.prompts.first?.0.contains("keep your passage practice") == true)
        #expect(console.shown.contains { $0.hasPrefix("Passages left out:") && $0.contains("rote consent grant") })
        let committed = await Shell.run("git", ["log", "-p", "--format=%B", "\(fixture)..HEAD"], in: root).stdout
        #expect(
            !committed.contains("joh-11-35") && !committed.contains("verses"),
            "no commit since names the passage or its deck: \(committed)")

        // Asked once: the next session leaves passages out without asking again.
        let again = ScriptedConsole([])
        let (next, _) = try makeRunner(again)
        #expect(try next.run(plan: plan(new: [Self.passage])) == nil)
        #expect(again.prompts.isEmpty && next.refusedPassages)
        #expect(directory.read("profiles/ana/progress/verses/joh-11-35.yaml") == nil)
    }

    @Test func theEndOfInputAtThePassageQuestionWritesNothing() async throws {
        let console = ScriptedConsole([])
        let (runner, _) = try makeRunner(console)
        #expect(try runner.run(plan: plan(new: [Self.passage])) == nil)
        #expect(directory.read("profiles/ana/progress/verses/joh-11-35.yaml") == nil)
        #expect(try profile().passagePracticeConsent == nil, "no answer, nothing recorded")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: root).stdout.isEmpty)
    }

    /// The gate is in the one place progress is computed, so no caller can write a passage's
    /// progress without consent — a review from outside a session, a status change.
    @Test func theRecorderRefusesPassageProgressWithoutConsent() throws {
        let library = try LibraryLoader(includeSessions: false).load(root)
        var recorder = ReviewRecorder(
            root: root, user: "ana", device: "dev-000000000000", decks: library.decks, profile: library.profiles["ana"])
        #expect(throws: LibraryError.self) {
            try recorder.record(entry: Self.passage, grade: .good, at: Date(), ms: nil)
        }
        #expect(throws: LibraryError.self) { try recorder.update(entry: Self.passage) { $0.status = .suspended } }
        #expect(directory.read("profiles/ana/progress/verses/joh-11-35.yaml") == nil)
        _ = try recorder.record(entry: Self.mcq, grade: .good, at: Date(), ms: nil)
        recorder.keepsPassagePractice = true
        _ = try recorder.record(entry: Self.passage, grade: .good, at: Date(), ms: nil)
        #expect(try progress(Self.passage).reviews.count == 1)
    }

    @Test func aFailedRungDropsOneLevelAndTheVisitEndsAfterTwoSetbacks() throws {
        let console = ScriptedConsole(["y", "y", "", "wrong", "wrong"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [Self.passage])))
        // cloze1 failed → reflect (not asked again this session) → cloze1 failed → the visit
        // ends, graded again. It comes back later in the session, steps through the reflection
        // without asking, and waits at cloze1 when the input ends.
        #expect(try progress(Self.passage).ladder?.level == "cloze1")
        #expect(console.prompts.filter { $0.0.contains("mean to you") }.count == 1)
        #expect(session.again == 1)
        #expect(console.shown.contains("One step back, to saying what it means to you; try again."))
    }

    @Test func anUnlockedLetterIsDrawnOnPaperAndSelfGraded() throws {
        let console = ScriptedConsole(["", "good"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: ["letters/l"])))
        #expect(session.good == 1)
        #expect(session.attempts.first?.question == "draw")
        #expect(
            console.shown.contains { $0.contains("1") && $0.contains("•") }, "the template is shown after the reveal")
    }

    @Test func aReviewedPassageIsTypedRecall() throws {
        directory.write(
            "profiles/ana/progress/verses/joh-11-35.yaml",
            """
            entry: verses/joh-11-35
            status: active
            ladder: {level: review, attempts: 9, at: 2026-11-01T09:00:00Z}
            state: {phase: review, stability: 3.0, difficulty: 5.0, due: 2026-11-05T09:00:00Z, reps: 1, lapses: 0}
            reviews:
              - {id: p1, at: 2026-11-01T09:00:00Z, grade: good}

            """)
        let console = ScriptedConsole(["y", "jesus WEPT"])
        let (runner, _) = try makeRunner(console)
        let session = try #require(try runner.run(plan: plan(new: [], due: [Self.passage])))
        #expect(session.attempts.first?.question == "recall")
        #expect(session.attempts.first?.correct == true, "case and punctuation do not count")
        #expect(try progress(Self.passage).reviews.count == 2)
    }
}

@Suite struct BidiTextTests {
    @Test func rightToLeftRunsAreIsolatedInLogicalOrder() {
        #expect(BidiText.isolated("I {أجري} every day.") == "I {\u{2068}أجري\u{2069}} every day.")
        #expect(
            BidiText.isolated("run — يجري  (also: يركض, يدير)")
                == "run — \u{2068}يجري\u{2069}  (also: \u{2068}يركض, يدير\u{2069})",
            "spaces and commas between Arabic words stay inside one run")
        #expect(BidiText.isolated("أنا أجري كل صباح.") == "\u{2068}أنا أجري كل صباح\u{2069}.")
    }

    @Test func textWithoutRightToLeftLettersIsUnchanged() {
        for text in ["Jesus wept.", "1. 2. 3.", "", "naïve café"] {
            #expect(BidiText.isolated(text) == text)
        }
        #expect(BidiText.isolated("שלום world") == "\u{2068}שלום\u{2069} world")
        #expect(
            BidiText.isolated(BidiText.isolated("يجري")) == "\u{2068}يجري\u{2069}", "isolating twice changes nothing")
    }

    @Test func commandsAreWholeWordsSoShortAnswersStayAnswers() {
        #expect(ConsoleReply.parse(line: " undo ") == .command(.undo))
        #expect(ConsoleReply.parse(line: "QUIT") == .command(.quit))
        #expect(ConsoleReply.parse(line: "q") == .command(.quit))
        #expect(ConsoleReply.parse(line: "i") == .answer("i"))
        #expect(ConsoleReply.parse(line: "suspended") == .answer("suspended"))
    }
}

@Suite struct TerminalTextTests {
    @Test func singleKeysMapToAnswersAndCommands() {
        #expect(TerminalKeys.reply(to: "3", kind: .choice(count: 4)) == .answer("3"))
        #expect(TerminalKeys.reply(to: "5", kind: .choice(count: 4)) == nil, "no fifth option")
        #expect(TerminalKeys.reply(to: "u", kind: .choice(count: 4)) == .command(.undo))
        #expect(TerminalKeys.reply(to: "s", kind: .reveal) == .command(.suspend))
        #expect(TerminalKeys.reply(to: "i", kind: .grade(proposed: .good)) == .command(.ignore))
        #expect(TerminalKeys.reply(to: "q", kind: .yesNo) == .command(.quit))
        #expect(TerminalKeys.reply(to: " ", kind: .reveal) == .answer(""))
        #expect(
            TerminalKeys.reply(to: "\n", kind: .grade(proposed: .good)) == .answer(""),
            "Enter accepts the proposed grade")
        #expect(TerminalKeys.reply(to: "4", kind: .grade(proposed: nil)) == .answer("4"))
        #expect(TerminalKeys.reply(to: "x", kind: .reveal) == nil)
    }

    @Test func colourOnlyAtATerminalWithoutNoColor() {
        #expect(TerminalStyle.coloursEnabled(environment: [:], isTerminal: true))
        #expect(!TerminalStyle.coloursEnabled(environment: ["NO_COLOR": "1"], isTerminal: true))
        #expect(!TerminalStyle.coloursEnabled(environment: ["TERM": "dumb"], isTerminal: true))
        #expect(!TerminalStyle.coloursEnabled(environment: [:], isTerminal: false))
        #expect(TerminalStyle.apply(.wrong, "✗", colours: true) == "\u{1B}[31m✗\u{1B}[0m")
        #expect(TerminalStyle.apply(.wrong, "✗", colours: false) == "✗")
    }
}

/// The study screen's one way to the terminal shows content's control characters escaped,
/// and keeps its own colours.
@Suite struct TerminalStyleTests {
    @Test func contentIsShownEscapedInsideTheStyle() {
        #expect(
            TerminalStyle.apply(.title, "zz\u{1B}]0;pwned\u{7}", colours: true)
                == "\u{1B}[1mzz\\u{1B}]0;pwned\\u{7}\u{1B}[0m")
        #expect(TerminalStyle.apply(.plain, "a\u{1B}[2Jb", colours: true) == "a\\u{1B}[2Jb")
        #expect(TerminalStyle.apply(.wrong, "a\u{1B}[2Jb", colours: false) == "a\\u{1B}[2Jb")
        #expect(TerminalStyle.apply(.correct, "يجري\tok", colours: false) == "يجري\tok")
    }
}
