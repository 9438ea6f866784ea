package import Foundation
package import RoteModel
import RoteStore
import Scheduling
import StudyData

/// A passage in a session: the acquisition ladder one rung at a time, typed recall once it has
/// graduated, and the consent questions (keeping passage practice, saving reflections) that
/// passages ask.
extension StudySession {
    /// A passage: up the acquisition ladder while it is being learned (read twice, reflect,
    /// three cloze rounds, recite with hints), typed recall once it has graduated. Every rung
    /// is saved in the progress file as it is climbed, so a stopped session resumes there.
    func beginPassage(_ entry: Entry, _ passage: PassageEntry, now: Date) throws {
        let file = try recorder.current(entry.id)
        let ladder =
            PassageLadder(position: file.ladder)
            ?? PassageLadder(level: file.scheduledReviews.isEmpty ? .read1 : .review)
        state.visit?.ladder = ladder
        if ladder.level == .review {
            enter(.recall, now: now)
            return
        }
        // One visit climbs until the passage graduates or two rungs did not pass; then it is
        // graded, and a failed passage comes back later in the session where it left off.
        state.visit?.climbed = true
        try enterRung(entry, passage, now: now)
    }

    func medianFor(_ passage: PassageEntry) -> Int {
        max(state.medianMilliseconds, 1000 * passage.text.split(separator: " ").count / 2)
    }

    /// The rung the ladder stands on, on show; rungs with nothing to ask (a reflection already
    /// asked this session, a cloze with no blanks) are climbed at once.
    func enterRung(_ entry: Entry, _ passage: PassageEntry, now: Date) throws {
        guard let ladder = state.visit?.ladder else { return }
        state.visit?.typedSoFar = ""
        state.visit?.hintWords = []
        state.visit?.atEnd = false
        switch ladder.level {
        case .reflect:
            // Asked once a session: a missed cloze steps back through it without asking again.
            guard state.reflected.insert(entry.id).inserted else {
                return try climb(entry, passage, .success, now: now)
            }
            if reflectionConsent == nil, profile != nil {
                enter(.reflectionConsent, now: now)
            } else {
                enter(.reflection, now: now)
            }
        case .cloze1, .cloze2, .cloze3:
            if ladder.prompt(for: passage, entryID: entry.id).blanks.isEmpty {
                return try climb(entry, passage, .success, now: now)
            }
            enter(.rung, now: now)
        default:
            enter(.rung, now: now)
        }
    }

    var reflectionConsent: Profile.Consent? {
        profile?.consent.first {
            $0.topic == Self.reflectionConsentTopic && $0.version == Self.reflectionConsentVersion
        }
    }

    /// After a rung's feedback: the next rung, or the visit's grade when the climb is over.
    func nextRung(_ entry: Entry, _ passage: PassageEntry, now: Date) throws {
        guard let visit = state.visit, let ladder = visit.ladder else { return }
        if ladder.level == .review || visit.setbacks >= 2 { return try gradeVisit(entry, now: now) }
        try enterRung(entry, passage, now: now)
    }

    /// Whether the climb ends with this rung: the passage graduated, or two rungs did not pass.
    var climbIsOver: Bool {
        guard let visit = state.visit, let ladder = visit.ladder else { return true }
        return ladder.level == .review || visit.setbacks >= 2
    }

    /// Records a rung's outcome on the ladder and in the progress file; rungs without feedback
    /// go straight on.
    func record(_ entry: Entry, _ passage: PassageEntry, _ outcome: LadderOutcome, now: Date) throws {
        guard var visit = state.visit, var ladder = visit.ladder else { return }
        if outcome != .success { visit.setbacks += 1 }
        let from = ladder.level
        ladder.record(outcome, clauseCount: passage.clauses.count)
        visit.ladder = ladder
        state.visit = visit
        try saveLadder(entry.id, ladder, now: now)
        if ladder.level < from { state.notices.append(.stepBack(to: ladder.level)) }
        if ladder.level == .review, from != .review { state.notices.append(.graduated) }
    }

    func climb(_ entry: Entry, _ passage: PassageEntry, _ outcome: LadderOutcome, now: Date) throws {
        try record(entry, passage, outcome, now: now)
        try nextRung(entry, passage, now: now)
    }

    func answerPassage(_ entry: Entry, _ passage: PassageEntry, _ action: StudyAction, now: Date) throws {
        guard let visit = state.visit, let ladder = visit.ladder else { throw misfit(action) }
        let median = medianFor(passage)
        switch visit.phase {
        case .recall:
            guard case let .type(typed) = action else { throw misfit(action) }
            let comparison = RecallComparison.compare(passage: passage.text, typed: typed)
            let correct = comparison.similarity >= PassageLadder.passingSimilarity
            let ms = attempt(entry, "recall", typed, correct, now: now)
            state.visit?.answers.append(
                GivenAnswer(correct: correct, similarity: comparison.similarity, milliseconds: ms, median: median))
            if !correct {
                // A forgotten passage is rebuilt with hints next time (seed 004: drop one level).
                try record(entry, passage, .failure, now: now)
            }
            enter(
                .feedback(
                    .init(
                        correct: correct, expected: correct ? nil : passage.text, nearly: false,
                        similarity: comparison.similarity, hints: 0, explanation: nil, proposed: proposedGrade)),
                now: now)
        case .reflectionConsent:
            guard case let .consent(granted) = action else { throw misfit(action) }
            _ = try recordConsent(
                Self.reflectionConsentTopic, version: Self.reflectionConsentVersion, granted: granted, now: now)
            enter(.reflection, now: now)
        case .reflection:
            guard case let .type(typed) = action else { throw misfit(action) }
            let text = typed.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty {
                if reflectionConsent?.granted == true {
                    let result = try recorder.update(entry: entry.id) {
                        $0.reflection = .init(text: text, at: Timestamp.wholeSeconds(now))
                    }
                    state.written[result.path] = result.data
                } else {
                    state.notices.append(.reflectionNotSaved)
                }
            }
            _ = attempt(entry, ladder.level.rawValue, "", true, now: now)
            try climb(entry, passage, .success, now: now)
        case .rung:
            switch ladder.level {
            case .read1, .read2:
                guard action == .proceed else { throw misfit(action) }
                _ = attempt(entry, ladder.level.rawValue, "", true, now: now)
                try climb(entry, passage, .success, now: now)
            case .cloze1, .cloze2, .cloze3:
                guard case let .type(reply) = action else { throw misfit(action) }
                let prompt = ladder.prompt(for: passage, entryID: entry.id)
                let results = prompt.check(typed: reply)
                let correct = !results.contains(false)
                let ms = attempt(entry, ladder.level.rawValue, reply, correct, now: now)
                state.visit?.answers.append(
                    GivenAnswer(correct: correct, similarity: nil, milliseconds: ms, median: median))
                try record(entry, passage, PassageLadder.outcome(cloze: results), now: now)
                enter(
                    .feedback(
                        .init(
                            correct: correct, expected: correct ? nil : prompt.blanks.joined(separator: " "),
                            nearly: false, similarity: nil, hints: 0, explanation: nil,
                            proposed: climbIsOver ? proposedGrade : nil)), now: now)
            case .recite, .reflect, .review:
                switch action {
                // Both carry the whole recitation so far, however a front end gathers it.
                case let .hint(typed):
                    let sofar = typed.trimmingCharacters(in: .whitespacesAndNewlines)
                    state.visit?.typedSoFar = sofar
                    if let word = PassageLadder.hint(for: passage, typed: sofar) {
                        state.visit?.hintWords.append(word)
                    } else {
                        state.visit?.atEnd = true
                    }
                case let .type(whole):
                    let typed = whole.trimmingCharacters(in: .whitespacesAndNewlines)
                    let hints = visit.hintWords.count + (visit.atEnd ? 1 : 0)
                    let comparison = RecallComparison.compare(passage: passage.text, typed: typed)
                    let outcome = PassageLadder.outcome(recitationSimilarity: comparison.similarity, hintsUsed: hints)
                    let ms = attempt(entry, "recite", typed, outcome == .success, now: now)
                    state.visit?.answers.append(
                        GivenAnswer(
                            correct: outcome != .failure, similarity: comparison.similarity, milliseconds: ms,
                            median: median))
                    try record(entry, passage, outcome, now: now)
                    enter(
                        .feedback(
                            .init(
                                correct: outcome == .success, expected: outcome == .failure ? passage.text : nil,
                                nearly: false, similarity: comparison.similarity, hints: hints, explanation: nil,
                                proposed: climbIsOver ? proposedGrade : nil)), now: now)
                default:
                    throw misfit(action)
                }
            }
        default:
            throw misfit(action)
        }
    }

    func passageContent(_ visit: VisitState, _ entry: Entry, _ passage: PassageEntry) -> StudyScreen.Content {
        let ladder = visit.ladder ?? PassageLadder(level: .read1)
        switch visit.phase {
        case .recall:
            return .passage(
                .init(
                    step: .recall, level: .review, reference: passage.reference, text: nil, blanks: 0, typed: "",
                    hintWords: [],
                    atEnd: false))
        case .reflectionConsent:
            return .consent(.init(topic: .reflections))
        case .reflection:
            return .reflection(
                .init(reference: passage.reference, text: passage.text, saved: reflectionConsent?.granted == true))
        default:
            let prompt = ladder.prompt(for: passage, entryID: entry.id)
            let step: StudyScreen.PassageRung.Step =
                switch ladder.level {
                case .read1: .read
                case .read2: .readAgain
                case .cloze1, .cloze2, .cloze3: .cloze
                case .reflect, .recite, .review: .recite
                }
            return .passage(
                .init(
                    step: step, level: ladder.level, reference: passage.reference,
                    text: step == .recite ? nil : step == .cloze ? prompt.text : passage.text,
                    blanks: step == .cloze ? prompt.blanks.count : 0, typed: visit.typedSoFar,
                    hintWords: visit.hintWords, atEnd: visit.atEnd))
        }
    }

    /// What the rung on show asks, as the ladder words it.
    func currentLadderPrompt() -> LadderPrompt? {
        guard let visit = state.visit, let ladder = visit.ladder, let entry = currentEntry,
            case let .passage(passage) = entry.content
        else { return nil }
        return ladder.prompt(for: passage, entryID: entry.id)
    }

    /// Seed 004 §6: whether Rote may keep passage practice; recorded (with its time) in the
    /// profile, committed with the session.
    func answerPassageConsent(_ action: StudyAction, now: Date) throws {
        guard case let .consent(granted) = action else { throw misfit(action) }
        _ = try recordConsent(
            Profile.passagesConsentTopic, version: Profile.passagesConsentVersion, granted: granted, now: now)
        recorder.keepsPassagePractice = granted
        state.askingPassageConsent = false
        if !granted { leavePassagesOut() }
        try nextVisit(now: now)
    }

    func recordConsent(_ topic: String, version: String, granted: Bool, now: Date) throws -> Profile.Consent? {
        guard var profile else { return nil }
        let path = LibraryPaths(user: user).profile
        // The copy in hand may have left out what it did not understand: read it again, in full.
        profile = try ReadBeforeRewrite.read(Profile.self, at: path, in: root) ?? profile
        profile.recordConsent(topic, version: version, granted: granted, at: Timestamp.wholeSeconds(now))
        let answer = profile.consentAnswer(topic, version: version)
        let data = Data(profile.render().utf8)
        try AtomicFile.write(data, at: path, in: root)
        state.written[path] = data
        self.profile = profile
        return answer
    }

    func saveLadder(_ id: String, _ ladder: PassageLadder, now: Date) throws {
        let at = Timestamp.wholeSeconds(now)
        let result = try recorder.update(entry: id) { $0.ladder = ladder.position(at: at) }
        state.written[result.path] = result.data
    }
}

extension PassageLadder {
    /// The ladder a progress file saved; nil when it saved none.
    package init?(position: ProgressFile.LadderPosition?) {
        guard let position, let level = LadderLevel(rawValue: position.level) else { return nil }
        self.init(level: level, clausesCovered: position.covered, attempts: position.attempts)
    }

    /// The ladder as a progress file keeps it.
    package func position(at date: Date) -> ProgressFile.LadderPosition {
        .init(level: level.rawValue, covered: clausesCovered, attempts: attempts, at: date)
    }
}
