import Foundation
import RoteModel
import RoteStore
import Scheduling
import StudyData

/// A letter in a session, drawn on paper and graded by the learner.
extension StudySessionRunner {
    /// A letter in the terminal: write it on paper from memory, reveal the template, grade
    /// yourself. (Tracing with scores happens in an app, through `rote letters record`.)
    func studyLetter(_ entry: Entry, _ letter: LetterEntry) throws -> Grade {
        let name = letter.name ?? letter.character ?? letter.glyph
        console.show("Write \(name) on paper from memory, in stroke order.", style: .title)
        let started = now()
        _ = try ask("space to reveal", .reveal)
        console.showLetter(letter)
        if !letter.tips.isEmpty { console.show("tips: " + letter.tips.joined(separator: ", "), style: .dim) }
        let reply = try ask("how did it go? 1 again · 2 hard · 3 good · 4 easy", .grade(proposed: nil))
        let grade = Grade(name: reply.trimmingCharacters(in: .whitespaces)) ?? .good
        attempt(entry, "draw", grade.name, grade != .again, milliseconds(since: started))
        return grade
    }
}
