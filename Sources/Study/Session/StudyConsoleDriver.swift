package import Foundation
package import RoteModel
import RoteStore

/// Draws a `StudySession`'s screens on a `StudyConsole` — a terminal, a script's lines, a
/// test — in English, and turns each reply into the session's action. A person at a terminal
/// (`isInteractive`) sees every card and feedback until a key goes on, and may change the
/// proposed grade; a script types answers only: cards, read rungs and proposed grades go on
/// by themselves.
package struct StudyConsoleDriver {
    package static let recitePrompt = "recite (end a line with ? for the next word)"
    package static let recallPrompt = "type it (Enter when done)"

    let console: any StudyConsole
    let now: () -> Date

    package init(console: any StudyConsole, now: @escaping () -> Date = { Date() }) {
        self.console = console
        self.now = now
    }

    /// Runs the session to its end; returns the committed session (nil when nothing was done).
    package func run(_ session: StudySession) throws -> SessionFile? {
        var number = 0
        var asked: StudyScreen.Content?
        while true {
            let screen = session.screen
            if screen.number != number, screen.number > 0 {
                number = screen.number
                // The title names the deck, never the entry: an id or gloss would give answers away.
                console.beginCard(
                    done: screen.answered, planned: screen.planned,
                    title: "\(screen.deck ?? "") · \(screen.visit?.rawValue ?? "")")
            } else if Self.turnsPage(from: asked, to: screen.content) {
                console.turnPage()
            }
            for notice in screen.notices { show(notice) }
            if case .summary = screen.content { break }
            // A terminal plays and shows neither: it says where the files are.
            if let media = screen.media {
                if let audio = media.audio { console.show("sound: \(LibraryPaths.content(audio))", style: .dim) }
                if let image = media.image { console.show("picture: \(LibraryPaths.content(image))", style: .dim) }
            }
            guard let action = try draw(screen, session: session, asked: asked) else { continue }
            if case .feedback = screen.content {} else { asked = screen.content }
            do {
                try session.apply(action, now: now())
            } catch is StudySession.ActionError {
                // A number past the choices, or steps that are not the screen's: asked again.
                console.show("That is not one of the answers here; try again.", style: .wrong)
            }
        }
        return session.isFinished && session.session.endedAt != nil ? session.session : nil
    }

    /// A new word's card holds the answers to the questions that follow it, and a passage's
    /// rung the words the next one blanks: what follows them comes on a page of its own.
    static func turnsPage(from previous: StudyScreen.Content?, to next: StudyScreen.Content) -> Bool {
        switch (previous, next) {
        // A hint keeps the recitation on its page.
        case let (.passage?, .passage(rung)): rung.step != .recite || (rung.hintWords.isEmpty && !rung.atEnd)
        case (.card?, .question), (.passage?, .reflection), (.reflection?, .passage), (.passage?, .consent),
            (.consent?, .reflection):
            true
        default: false
        }
    }

    /// The reply to one screen as an action; nil when the screen was only drawn.
    func draw(_ screen: StudyScreen, session: StudySession, asked: StudyScreen.Content?) throws -> StudyAction? {
        let interactive = console.isInteractive
        switch screen.content {
        case let .card(card):
            console.show(card.render())
            guard interactive else { return .proceed }
            return try ask("space or Enter to go on", .reveal) { _ in .proceed }
        case let .question(question):
            return try ask(question)
        case let .feedback(feedback):
            showFeedback(feedback, after: asked)
            if let proposed = feedback.proposed {
                guard interactive else { return .proceed }
                return try ask(
                    "grade: \(proposed.name) — Enter to accept, or 1 again · 2 hard · 3 good · 4 easy",
                    .grade(proposed: proposed)
                ) { reply in Grade(name: reply.trimmingCharacters(in: .whitespaces)).map { .grade($0) } ?? .proceed }
            }
            // A word's next question comes below the feedback; a passage's next rung turns the
            // page, so the learner reads the feedback first.
            guard interactive, case .passage? = asked else { return .proceed }
            return try ask("space or Enter to go on", .reveal) { _ in .proceed }
        case let .gradeChoice(choice):
            if let letter = choice.letter {
                if let entry = session.currentEntry, case let .letter(letterEntry) = entry.content {
                    console.showLetter(letterEntry)
                }
                if !letter.tips.isEmpty {
                    console.show("tips: " + letter.tips.map(\.text).joined(separator: " "), style: .dim)
                }
                return try ask("how did it go? 1 again · 2 hard · 3 good · 4 easy", .grade(proposed: nil)) { reply in
                    .grade(Grade(name: reply.trimmingCharacters(in: .whitespaces)) ?? .good)
                }
            }
            guard interactive, let proposed = choice.proposed else {
                return choice.proposed.map { _ in .proceed } ?? .grade(.good)
            }
            return try ask(
                "grade: \(proposed.name) — Enter to accept, or 1 again · 2 hard · 3 good · 4 easy",
                .grade(proposed: proposed)
            ) { reply in Grade(name: reply.trimmingCharacters(in: .whitespaces)).map { .grade($0) } ?? .proceed }
        case let .letter(letter):
            console.show("Write \(letter.name) on paper from memory, in stroke order.", style: .title)
            return try ask("space to reveal", .reveal) { _ in .proceed }
        case let .passage(rung):
            return try draw(rung, session: session)
        case let .reflection(reflection):
            console.show(
                "What does \(reflection.reference) mean to you? Put it in your own words.", style: .title)
            console.show(reflection.text)
            return try ask("what does it mean to you? (Enter to skip)", .text) { .type($0) }
        case let .consent(consent):
            switch consent.topic {
            case .passages:
                console.show(Profile.passagesConsentText, style: .dim)
                return try ask("keep your passage practice? (y/n)", .yesNo) { .consent(Self.isYes($0)) }
            case .reflections:
                console.show(
                    "Reflections on scripture are religious data (special-category data under GDPR Art. 9). "
                        + "Saved reflections are kept in your progress files and sync wherever this library syncs.",
                    style: .dim)
                return try ask("save your reflections? (y/n)", .yesNo) { .consent(Self.isYes($0)) }
            }
        case let .leech(leech) where leech.suspended:
            console.show(
                "Leech: forgotten \(leech.lapses) times, so it is suspended (this deck's leech rule). Rewrite it (a mnemonic, a clearer example), then `rote activate` brings it back.",
                style: .wrong)
            return try ask("Enter goes on", .reveal) { _ in .proceed }
        case let .leech(leech):
            console.show(
                "Leech: forgotten \(leech.lapses) times. Rewrite it (a mnemonic, a clearer example) or suspend it.",
                style: .wrong)
            return try ask("s suspends it · Enter goes on", .reveal) { _ in .proceed }
        case .summary:
            return nil
        }
    }

    static func isYes(_ reply: String) -> Bool {
        ["y", "yes"].contains(reply.trimmingCharacters(in: .whitespaces).lowercased())
    }

    func ask(_ question: StudyScreen.Question) throws -> StudyAction {
        switch question.kind {
        case .order:
            console.show(question.prompt ?? "Put the steps in order:", style: .title)
            console.showChoices(question.choices)
            return try ask("order (e.g. 2 1 3)", .order(count: question.choices.count)) { reply in
                .order(reply.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) }.map { $0 - 1 })
            }
        case .choice:
            console.show(question.prompt ?? "", style: .title)
            console.showChoices(question.choices)
            return try ask("answer (number)", .choice(count: question.choices.count)) { reply in
                .choose((Int(reply.trimmingCharacters(in: .whitespaces)) ?? 0) - 1)
            }
        case .translation, .reverseTranslation, .sentenceCompletion:
            if question.typed {
                console.show(Self.typedPrompt(question), style: .title)
                return try ask("type the answer", .text) { .type($0) }
            }
            console.show(question.prompt ?? "", style: .title)
            console.showChoices(question.choices)
            return try ask("answer (number or text)", .choice(count: question.choices.count)) { reply in
                Int(reply.trimmingCharacters(in: .whitespaces)).map { .choose($0 - 1) } ?? .type(reply)
            }
        }
    }

    /// The question asked for a typed answer, without choices.
    static func typedPrompt(_ question: StudyScreen.Question) -> String {
        let prompt = question.prompt ?? ""
        switch question.kind {
        case .translation: return "Translate: \(prompt)"
        case .reverseTranslation: return "Translate back: \(prompt)"
        default: return "Fill the blank with the right form" + (question.hint.map { " of \($0)" } ?? "") + ": \(prompt)"
        }
    }

    func draw(_ rung: StudyScreen.PassageRung, session: StudySession) throws -> StudyAction {
        let instruction = session.currentLadderPrompt()?.instruction ?? rung.reference
        switch rung.step {
        case .read, .readAgain:
            console.show(instruction, style: .title)
            console.show(rung.text ?? "")
            guard console.isInteractive else { return .proceed }
            return try ask("read it aloud, then space or Enter", .reveal) { _ in .proceed }
        case .cloze:
            console.show(instruction, style: .title)
            console.show(rung.text ?? "")
            return try ask("the \(rung.blanks) missing word\(rung.blanks == 1 ? "" : "s"), in order", .text) {
                .type($0)
            }
        case .recite:
            if rung.hintWords.isEmpty, !rung.atEnd { console.show(instruction, style: .title) }
            if rung.atEnd {
                console.show("that is the end of the passage", style: .dim)
            } else if let word = rung.hintWords.last {
                console.show("next word: \(word)", style: .dim)
            }
            return try ask(Self.recitePrompt, .text) { line in
                let whole = (rung.typed + " " + line).trimmingCharacters(in: .whitespaces)
                return line.hasSuffix("?") ? .hint(String(whole.dropLast())) : .type(whole)
            }
        case .recall:
            console.show("\(rung.reference) — type it from memory", style: .title)
            return try ask(Self.recallPrompt, .text) { .type($0) }
        }
    }

    func showFeedback(_ feedback: StudyScreen.Feedback, after asked: StudyScreen.Content?) {
        let text: String
        if let similarity = feedback.similarity {
            text =
                "\(Int((similarity * 100).rounded()))% of the words right"
                + (feedback.hints > 0
                    ? ", with \(feedback.hints) hint\(feedback.hints == 1 ? "" : "s") — once more without" : "")
        } else if feedback.nearly, let expected = feedback.expected {
            text = "nearly: it is spelt \(expected)"
        } else if feedback.correct {
            text = "correct"
        } else if case .passage? = asked {
            text = "it was: " + (feedback.expected ?? "")
        } else if case let .question(question)? = asked, question.kind == .order {
            text = "not quite: " + (feedback.expected ?? "")
        } else {
            text = "the answer is " + (feedback.expected ?? "")
        }
        console.show((feedback.correct ? "✓ " : "✗ ") + text, style: feedback.correct ? .correct : .wrong)
        if feedback.similarity != nil, let expected = feedback.expected { console.show("  \(expected)") }
        if let explanation = feedback.explanation { console.show("  \(explanation)", style: .dim) }
    }

    func show(_ notice: StudyNotice) {
        switch notice {
        case let .graded(grade, next):
            console.show(
                grade.name + (next.map { " · next \(StudySummary.relative($0, from: now()))" } ?? ""), style: .dim)
        case let .undone(entry): console.show("Undone: \(entry) is back.", style: .dim)
        case .nothingToUndo: console.show("Nothing to undo yet.", style: .dim)
        case let .suspended(entry):
            console.show("Suspended \(entry); it leaves every queue until `rote activate \(entry)`.", style: .dim)
        case let .ignored(entry):
            console.show("Ignored \(entry); it leaves every queue until `rote activate \(entry)`.", style: .dim)
        case let .skipped(reason): console.show("Skipped \(reason)", style: .wrong)
        case .passagesLeftOut:
            console.show("Passages left out: " + Profile.passagesConsentRefusal(entry: nil) + ".", style: .dim)
        case let .stepBack(level): console.show("One step back, to \(level.learnerName); try again.", style: .dim)
        case .graduated: console.show("The passage graduates to review.", style: .correct)
        case .reflectionNotSaved: console.show("Not saved: you chose not to save reflections.", style: .dim)
        }
    }

    /// Asks, turning the reply into an action: commands are the session's, and the end of
    /// input stops and saves, as quit does.
    func ask(_ prompt: String, _ kind: AnswerKind, _ answer: (String) -> StudyAction) throws -> StudyAction {
        guard let reply = console.ask(prompt, kind: kind) else { return .command(.quit) }
        switch reply {
        case let .answer(text): return answer(text)
        case let .command(command): return .command(command)
        }
    }
}
