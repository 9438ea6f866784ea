public import Foundation
public import RoteModel
import RoteStore
import Scheduling
import StudyData

/// A passage in a session: the acquisition ladder, typed recall, and the consent questions
/// (keeping passage practice, saving reflections) that passages ask.
extension StudySessionRunner {
    /// A passage: up the acquisition ladder while it is being learned (read twice, reflect,
    /// three cloze rounds, recite with hints), typed recall once it has graduated. Every rung
    /// is saved in the progress file as it is climbed, so a stopped session resumes there.
    func studyPassage(_ entry: Entry, _ passage: PassageEntry) throws -> [Answer] {
        var file = try recorder.current(entry.id)
        var ladder =
            PassageLadder(position: file.ladder)
            ?? PassageLadder(level: file.scheduledReviews.isEmpty ? .read1 : .review)
        let clauseCount = passage.clauses.count
        let medianForPassage = max(medianMilliseconds, 1000 * passage.text.split(separator: " ").count / 2)
        if ladder.level == .review {
            console.show("\(passage.reference) — type it from memory", style: .title)
            let started = now()
            let typed = try recite(passage, hintsAllowed: false).text
            let comparison = RecallComparison.compare(passage: passage.text, typed: typed)
            let ms = milliseconds(since: started)
            let correct = comparison.similarity >= PassageLadder.passingSimilarity
            attempt(entry, "recall", typed, correct, ms)
            feedback(correct, "\(Int((comparison.similarity * 100).rounded()))% of the words right")
            if !correct { console.show("  \(passage.text)") }
            if !correct {
                // A forgotten passage is rebuilt with hints next time (seed 004: drop one level).
                ladder.record(.failure, clauseCount: clauseCount)
                try saveLadder(entry.id, ladder, &file)
            }
            return [
                Answer(
                    correct: correct, similarity: comparison.similarity, milliseconds: ms,
                    medianMilliseconds: medianForPassage)
            ]
        }
        lastVisitClimbedLadder = true
        var answers: [Answer] = []
        var setbacks = 0
        // One visit climbs until the passage graduates or two rungs did not pass; then it is
        // graded, and a failed passage comes back later in the session where it left off.
        var rungs = 0
        var answered = false
        while ladder.level != .review, setbacks < 2 {
            // One rung on screen at a time: a cloze under the text it blanks gives it away. A
            // rung answered waits for the learner to read its feedback before the page turns.
            if rungs > 0 {
                if answered, console.isInteractive { _ = try ask("space or Enter to go on", .reveal) }
                console.turnPage()
            }
            rungs += 1
            answered = false
            let prompt = ladder.prompt(for: passage, entryID: entry.id)
            let outcome: LadderOutcome
            switch ladder.level {
            case .read1, .read2:
                console.show("\(prompt.instruction)", style: .title)
                console.show(passage.text)
                let started = now()
                if console.isInteractive { _ = try ask("read it aloud, then space or Enter", .reveal) }
                attempt(entry, ladder.level.rawValue, "", true, milliseconds(since: started))
                outcome = .success
            case .reflect:
                // Asked once a session: a missed cloze steps back through it without asking again.
                if reflected.insert(entry.id).inserted {
                    console.show("\(prompt.instruction)", style: .title)
                    console.show(passage.text)
                    let started = now()
                    try reflect(on: entry, &file)
                    attempt(entry, ladder.level.rawValue, "", true, milliseconds(since: started))
                }
                outcome = .success
            case .cloze1, .cloze2, .cloze3:
                console.show("\(prompt.instruction)", style: .title)
                console.show(prompt.text)
                if prompt.blanks.isEmpty {
                    outcome = .success
                } else {
                    let started = now()
                    let reply = try ask(
                        "the \(prompt.blanks.count) missing word\(prompt.blanks.count == 1 ? "" : "s"), in order", .text
                    )
                    let results = prompt.check(typed: reply)
                    let correct = !results.contains(false)
                    let ms = milliseconds(since: started)
                    attempt(entry, ladder.level.rawValue, reply, correct, ms)
                    answers.append(Answer(correct: correct, milliseconds: ms, medianMilliseconds: medianForPassage))
                    feedback(correct, correct ? "all right" : "it was: " + prompt.blanks.joined(separator: " "))
                    outcome = PassageLadder.outcome(cloze: results)
                    answered = true
                }
            case .recite, .review:
                console.show("\(prompt.instruction)", style: .title)
                let started = now()
                let (typed, hints) = try recite(passage, hintsAllowed: true)
                let comparison = RecallComparison.compare(passage: passage.text, typed: typed)
                let ms = milliseconds(since: started)
                outcome = PassageLadder.outcome(recitationSimilarity: comparison.similarity, hintsUsed: hints)
                attempt(entry, "recite", typed, outcome == .success, ms)
                answers.append(
                    Answer(
                        correct: outcome != .failure, similarity: comparison.similarity, milliseconds: ms,
                        medianMilliseconds: medianForPassage))
                feedback(
                    outcome == .success,
                    "\(Int((comparison.similarity * 100).rounded()))% of the words right"
                        + (hints > 0 ? ", with \(hints) hint\(hints == 1 ? "" : "s") — once more without" : ""))
                if outcome == .failure { console.show("  \(passage.text)") }
                answered = true
            }
            if outcome != .success { setbacks += 1 }
            let from = ladder.level
            ladder.record(outcome, clauseCount: clauseCount)
            try saveLadder(entry.id, ladder, &file)
            if ladder.level < from {
                console.show("One step back, to \(ladder.level.learnerName); try again.", style: .dim)
            }
            if ladder.level == .review { console.show("\(passage.reference) graduates to review.", style: .correct) }
        }
        return answers
    }

    /// Typed recitation. With `hintsAllowed`, a line ending in `?` asks for the next word and
    /// the text before it is kept; returns the whole text and the hints used.
    func recite(_ passage: PassageEntry, hintsAllowed: Bool) throws -> (text: String, hints: Int) {
        var typed = ""
        var hints = 0
        while true {
            let line = try ask(hintsAllowed ? Self.recitePrompt : Self.recallPrompt, .text)
            guard hintsAllowed, line.hasSuffix("?") else {
                return ((typed + " " + line).trimmingCharacters(in: .whitespaces), hints)
            }
            typed = (typed + " " + String(line.dropLast())).trimmingCharacters(in: .whitespaces)
            hints += 1
            console.show(
                PassageLadder.hint(for: passage, typed: typed).map { "next word: \($0)" }
                    ?? "that is the end of the passage", style: .dim)
        }
    }

    /// Seed 004 §6: asks whether Rote may keep passage practice, unless the learner answered
    /// already; records the answer (with its time) in the profile, committed with the session.
    /// Throws `Interrupt.command(.quit)` at the end of input, recording nothing.
    func askPassageConsent() throws -> Bool {
        if let answer = profile?.passagePracticeConsent { return answer.granted }
        guard profile != nil else { return false }
        console.show(Profile.passagesConsentText, style: .dim)
        let reply = try ask("keep your passage practice? (y/n)", .yesNo)
        let granted = ["y", "yes"].contains(reply.trimmingCharacters(in: .whitespaces).lowercased())
        _ = try recordConsent(Profile.passagesConsentTopic, version: Profile.passagesConsentVersion, granted: granted)
        recorder.keepsPassagePractice = granted
        return granted
    }

    /// Seed 004's reflection: asks for consent once (recorded in the profile with time and
    /// version), then saves the learner's words in the progress file only if they agreed.
    func reflect(on entry: Entry, _ file: inout ProgressFile) throws {
        var consent = profile?.consent.first {
            $0.topic == Self.reflectionConsentTopic && $0.version == Self.reflectionConsentVersion
        }
        if consent == nil, profile != nil {
            console.show(
                "Reflections on scripture are religious data (special-category data under GDPR Art. 9). "
                    + "Saved reflections are kept in your progress files and sync wherever this library syncs.",
                style: .dim)
            let reply = try ask("save your reflections? (y/n)", .yesNo)
            let granted = ["y", "yes"].contains(reply.lowercased())
            consent = try recordConsent(
                Self.reflectionConsentTopic, version: Self.reflectionConsentVersion, granted: granted)
        }
        let text = try ask("what does it mean to you? (Enter to skip)", .text).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        guard consent?.granted == true else {
            console.show("Not saved: you chose not to save reflections.", style: .dim)
            return
        }
        let result = try recorder.update(entry: entry.id) {
            $0.reflection = .init(text: text, at: Timestamp.wholeSeconds(now()))
        }
        written[result.path] = result.data
        file = result.file
    }

    func recordConsent(_ topic: String, version: String, granted: Bool) throws -> Profile.Consent? {
        guard var profile else { return nil }
        let path = LibraryPaths(user: user).profile
        // The copy in hand may have left out what it did not understand: read it again, in full.
        profile = try ReadBeforeRewrite.read(Profile.self, at: path, in: root) ?? profile
        profile.recordConsent(topic, version: version, granted: granted, at: Timestamp.wholeSeconds(now()))
        let answer = profile.consentAnswer(topic, version: version)
        let data = Data(profile.render().utf8)
        try AtomicFile.write(data, at: path, in: root)
        written[path] = data
        self.profile = profile
        return answer
    }

    func saveLadder(_ id: String, _ ladder: PassageLadder, _ file: inout ProgressFile) throws {
        let at = Timestamp.wholeSeconds(now())
        let result = try recorder.update(entry: id) { $0.ladder = ladder.position(at: at) }
        written[result.path] = result.data
        file = result.file
        try snapshot()
    }
}

extension PassageLadder {
    /// The ladder a progress file saved; nil when it saved none.
    public init?(position: ProgressFile.LadderPosition?) {
        guard let position, let level = LadderLevel(rawValue: position.level) else { return nil }
        self.init(level: level, clausesCovered: position.covered, attempts: position.attempts)
    }

    /// The ladder as a progress file keeps it.
    public func position(at date: Date) -> ProgressFile.LadderPosition {
        .init(level: level.rawValue, covered: clausesCovered, attempts: attempts, at: date)
    }
}
