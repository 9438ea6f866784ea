import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import Scheduling
import Study

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show an entry and your progress with it.",
        discussion: """
            ID is an entry id (english-a1/run, kjv/joh-3-16); a word form such as `ran` also finds its entry. \
            A domain or skill of a skills deck (math/algebra, math/algebra/linear_equations) shows each skill \
            with your progress: attempts, right answers and accuracy, when last practised, and mastery.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("Entry id, or a word.", valueName: "id"))
    var id: String

    func run() throws {
        let library = try CommandContext.library(rote.global)
        if let overview = try library.skillOverview(id) {
            print(EntryPresenter.describe(overview, user: library.user))
            return
        }
        let entry = try library.entry(named: id, suffixes: true)
        print(EntryPresenter.describe(entry, deck: library.decks[entry.deck]))
        let schedule = DeckSchedule(library.decks[entry.deck], profile: library.profile, deckName: entry.deck)
        let scheduler = Scheduler(settings: schedule.settings)
        let file = library.progress(of: entry.id)
        let mastery = file.map {
            Mastery(events: $0.scheduledReviews, entryID: entry.id, at: Date(), scheduler: scheduler)
        }
        print(
            EntryPresenter.describeProgress(
                file, status: library.status(of: entry), user: library.user, mastery: mastery,
                leechThreshold: schedule.settings.leechThreshold))
        print("scheduling (\(entry.deck)): " + ScheduleText.describe(schedule))
        print(
            EntryPresenter.describeQuestions(
                entry, statistics: library.questionStatistics(under: entry.id)[entry.id] ?? [:]))
    }
}

/// Readable text for entries and progress, shared by `show` and `lookup`.
enum EntryPresenter {
    static func describe(_ entry: Entry, deck: DeckManifest?) -> String {
        var lines = ["\(entry.id)  (\(deck?.title ?? entry.deck), \(entry.path))"]
        switch entry.content {
        case let .vocabulary(word):
            var head = "\(word.word)  \(word.ipa ?? "")  \(word.pos)"
            if let rank = word.rank { head += " · rank \(rank)" }
            if let cefr = word.cefr { head += " · \(cefr)" }
            lines.append(head)
            lines.append(
                "  \(word.translation)"
                    + (word.alternatives.isEmpty ? "" : "  (also: \(word.alternatives.joined(separator: "، ")))"))
            for (language, text) in word.definition { lines.append("  \(language): \(text)") }
            if !word.forms.isEmpty {
                lines.append("  forms: " + word.forms.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
            }
            for (relation, words) in word.related { lines.append("  \(relation): \(words.joined(separator: ", "))") }
            if let notes = word.usageNotes { lines.append("  note: \(notes)") }
            if !word.examples.isEmpty { lines.append("  examples:") }
            for example in word.examples {
                lines.append("    \(VocabularyEntry.Example.plain(example.en))")
                lines.append("    \(VocabularyEntry.Example.plain(example.translated))")
            }
            lines.append(
                "  questions: " + word.questions.map { "\($0.id) (\($0.kind.rawValue))" }.joined(separator: ", "))
        case let .passage(passage):
            lines.append("\(passage.reference)" + (passage.translation.map { " (\($0))" } ?? ""))
            lines.append("  " + passage.text)
            if !passage.tags.isEmpty { lines.append("  tags: \(passage.tags.joined(separator: ", "))") }
            if let mnemonic = passage.mnemonic { lines.append("  mnemonic: \(mnemonic)") }
            if let rights = passage.rights {
                lines.append("  rights: \(rights.license)" + (rights.note.map { " — \($0)" } ?? ""))
            }
            lines.append("  clauses: \(passage.clauses.count)")
        case let .letter(letter):
            lines.append("\(letter.character ?? "") \(letter.name ?? "") (\(letter.glyph)), order \(letter.order)")
            for (number, stroke) in letter.strokes.enumerated() {
                lines.append(
                    "  stroke \(number + 1): "
                        + stroke.map { "(\(format($0.x)),\(format($0.y)))" }.joined(separator: " → "))
            }
            if !letter.tips.isEmpty { lines.append("  tips: \(letter.tips.joined(separator: ", "))") }
        case let .question(question):
            switch question.payload {
            case let .mcqSingle(prompt, choices, solution):
                lines.append(prompt)
                for (number, choice) in choices.enumerated() {
                    lines.append("  \(number + 1). \(choice)\(number == solution ? "   ✓" : "")")
                }
            case let .reorderSteps(prompt, steps, solution):
                lines.append(prompt ?? "Put the steps in order")
                for (position, step) in solution.enumerated() { lines.append("  \(position + 1). \(steps[step])") }
            }
            if let explanation = question.explanation { lines.append("  why: \(explanation)") }
            lines.append("  \(question.published ? "published" : "draft (not published)")")
        }
        return lines.joined(separator: "\n")
    }

    /// Each question's times used and average success rate, over every learner's sessions.
    static func describeQuestions(_ entry: Entry, statistics: [String: QuestionStatistics]) -> String {
        var questions: [String]
        switch entry.content {
        case let .vocabulary(word): questions = word.questions.map(\.id)
        case .question: questions = Array(statistics.keys)
        case .passage, .letter: questions = []
        }
        questions += statistics.keys.filter { !questions.contains($0) }.sorted()
        guard !questions.isEmpty else { return "" }
        var lines = ["", "questions (every learner's sessions):"]
        let width = questions.map(\.count).max() ?? 0
        for question in questions {
            let line = (statistics[question] ?? QuestionStatistics(entry: entry.id, question: question)).summary
            lines.append("  \(question.padding(toLength: width, withPad: " ", startingAt: 0))  \(line)")
        }
        return lines.joined(separator: "\n")
    }

    /// A domain or skill and the learner's progress in each skill.
    static func describe(_ overview: SkillOverview, user: String) -> String {
        var lines = ["\(overview.path)  (\(overview.isDomain ? "domain" : "skill"))", overview.title]
        if let description = overview.description { lines.append("  \(description)") }
        lines.append("")
        lines.append("progress (\(user)):")
        for row in overview.skills {
            let name =
                overview.isDomain
                ? "\(row.path.split(separator: "/").last ?? "") — \(row.skill.title)" : row.skill.title
            lines.append("  \(name)")
            lines.append("    " + row.practice.summary(formatDate: { Timestamp.local($0) }))
            let progress = row.progress
            lines.append(
                "    progress \(Int((progress.progress * 100).rounded()))%: \(progress.mastered) of \(progress.total) published question\(progress.total == 1 ? "" : "s") last answered right"
            )
        }
        if overview.skills.isEmpty { lines.append("  no skills") }
        return lines.joined(separator: "\n")
    }

    static func describeProgress(
        _ file: ProgressFile?, status: LibraryIndex.Status, user: String, mastery: Mastery? = nil,
        leechThreshold: Int = SchedulerSettings.defaultLeechThreshold
    ) -> String {
        guard let file, !file.reviews.isEmpty else { return "\nprogress (\(user)): \(status.rawValue), never reviewed" }
        var lines = [
            "",
            "progress (\(user)): \(status.rawValue), \(file.reviews.count) review\(file.reviews.count == 1 ? "" : "s")"
                + Self.undoneNote(file.reviews),
        ]
        if let state = file.state {
            var parts = ["phase \(state.phase.rawValue)"]
            if let stability = state.stability { parts.append("stability \(String(format: "%.2f", stability)) d") }
            if let difficulty = state.difficulty { parts.append("difficulty \(String(format: "%.2f", difficulty))") }
            if let ease = state.ease { parts.append("ease \(String(format: "%.2f", ease))") }
            if let interval = state.interval { parts.append("interval \(String(format: "%.1f", interval)) d") }
            parts.append("due \(Timestamp.local(state.due))")
            parts.append("lapses \(state.lapses)")
            lines.append("  " + parts.joined(separator: " · "))
        }
        if let mastery {
            lines.append(
                "  confidence \(mastery.confidence)/100 · mastery \(mastery.level.rawValue.replacingOccurrences(of: "_", with: " "))"
            )
        }
        if let state = file.state, state.isLeech(threshold: leechThreshold) {
            lines.append(
                file.status == .suspended
                    ? "  leech: forgotten \(state.lapses) times, suspended — rewrite it, then `rote activate \(file.entry)` brings it back"
                    : "  leech: forgotten \(state.lapses) times — rewrite it, or `rote suspend \(file.entry)` takes it out of study"
            )
        }
        for review in file.reviews.suffix(8) {
            lines.append(
                "  \(Timestamp.local(review.at))  \(review.grade.name.padding(toLength: 5, withPad: " ", startingAt: 0))"
                    + (review.ms.map { "  \($0) ms" } ?? "") + (review.device.map { "  \($0)" } ?? "")
                    + Self.undoneMark(review))
        }
        if file.reviews.count > 8 { lines.insert("  … \(file.reviews.count - 8) earlier", at: 2) }
        return lines.joined(separator: "\n")
    }

    /// `, 2 undone` when `rote undo` took some of `reviews` back.
    static func undoneNote(_ reviews: [ReviewEvent]) -> String {
        let undone = reviews.filter { $0.undone != nil }.count
        return undone == 0 ? "" : " (\(undone) undone)"
    }

    /// `  undone 2026-11-21 09:14` on a review `rote undo` took back.
    static func undoneMark(_ review: ReviewEvent) -> String {
        review.undone.map { "  undone \(Timestamp.local($0))" } ?? ""
    }

    static func format(_ value: Double) -> String {
        // Bounded before `Int(_:)`, which traps past Int's range.
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
