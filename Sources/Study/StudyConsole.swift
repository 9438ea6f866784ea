import Foundation
public import RoteModel

/// What the learner can do at any prompt besides answering: undo the last answer, suspend or
/// ignore the entry on screen, or stop and save.
public enum SessionCommand: String, Sendable, CaseIterable {
    case undo, suspend, ignore, quit

    /// The key a terminal takes for it (`u`, `s`, `i`, `q`).
    public var key: Character { rawValue.first! }
}

/// One reply to a prompt.
package enum ConsoleReply: Sendable, Equatable {
    case answer(String)
    case command(SessionCommand)

    /// Reads a typed line: the words `undo`, `suspend`, `ignore`, `quit` (and `q`) are
    /// commands, anything else is an answer. Whole words only, so an answer such as `i` or
    /// `us` is never taken for a command.
    package static func parse(line: String) -> ConsoleReply {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text == "q" { return .command(.quit) }
        if let command = SessionCommand(rawValue: text.lowercased()) { return .command(command) }
        return .answer(text)
    }
}

/// What a prompt expects, so a terminal can take single keys where one key is the whole
/// answer and read a line where text is.
package enum AnswerKind: Sendable, Equatable {
    /// A choice number 1…count.
    case choice(count: Int)
    /// An order of `count` steps, typed as numbers (`2 1 3`).
    case order(count: Int)
    /// Typed text.
    case text
    /// Nothing to answer: continue (space reveals, Enter goes on).
    case reveal
    /// A grade: 1–4 or again|hard|good|easy; empty accepts `proposed` when there is one.
    case grade(proposed: Grade?)
    /// y or n.
    case yesNo
}

/// How a piece of text is shown; plain where colour is off.
package enum TextStyle: Sendable {
    case plain, title, dim, correct, wrong, prompt, emphasis
}

/// How a study session talks to the learner: a terminal, a script on stdin, or a test.
package protocol StudyConsole: AnyObject {
    /// True for a person at a terminal: cards wait for a key and grades can be overridden.
    var isInteractive: Bool { get }
    /// Starts a new card: a terminal clears the screen and shows where the session is —
    /// `done` of the `planned` entries (a missed entry coming back counts once).
    func beginCard(done: Int, planned: Int, title: String)
    /// Takes what the card showed so far off the screen, its header staying: a new word's
    /// card holds the answers to the questions that follow it, which must never share a
    /// screen with them. A console with no screen (a script's lines) has nothing to take off.
    func turnPage()
    func show(_ text: String, style: TextStyle)
    /// One reply; nil at the end of input (which stops and saves, like `quit`).
    func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply?
    /// Numbered choices or steps, answered by number: a terminal lists them, a browser makes
    /// them buttons.
    func showChoices(_ choices: [String])
    /// A letter's stroke template, shown after the learner wrote it from memory: a terminal
    /// draws it in dots, a browser as a drawing.
    func showLetter(_ letter: LetterEntry)
}

extension StudyConsole {
    package func turnPage() {}

    package func show(_ text: String) { show(text, style: .plain) }

    package func showChoices(_ choices: [String]) {
        show(choices.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
    }

    package func showLetter(_ letter: LetterEntry) {
        show(LetterSketch.render(letter))
    }
}

/// Text for a left-to-right terminal that keeps right-to-left runs (Arabic, Hebrew…) in
/// logical order: each run of right-to-left words is wrapped in Unicode's first-strong
/// isolate (U+2068 … U+2069), so a terminal that implements the bidirectional algorithm
/// lays the run out right to left without reordering the Latin text, digits and
/// punctuation around it — `I {أجري} every day` stays one line reading as written.
package enum BidiText {
    package static let firstStrongIsolate: Character = "\u{2068}"
    package static let popDirectionalIsolate: Character = "\u{2069}"

    /// Whether a scalar is a strong right-to-left letter (Hebrew, Arabic, Syriac, Thaana,
    /// NKo, and their presentation forms).
    package static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }

    /// Whether a scalar takes its direction from its neighbours (spaces, punctuation,
    /// combining marks, digits), so it can sit inside a right-to-left run.
    static func isNeutralInsideRun(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isAlphabetic
    }

    /// `text` with each right-to-left run isolated. A run starts at a right-to-left letter
    /// and takes in neutral characters up to the last right-to-left letter before the next
    /// left-to-right letter, so spaces between Arabic words stay inside and the space before
    /// the next English word stays outside. Text already holding isolates is returned as is.
    package static func isolated(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: isRightToLeft),
            !scalars.contains(where: { $0 == firstStrongIsolate.unicodeScalars.first! })
        else { return text }
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard isRightToLeft(scalars[index]) else {
                out.append(scalars[index])
                index += 1
                continue
            }
            var end = index
            var probe = index
            while probe < scalars.count, isRightToLeft(scalars[probe]) || isNeutralInsideRun(scalars[probe]) {
                if scalars[probe] == "\n" { break }
                if isRightToLeft(scalars[probe]) { end = probe }
                probe += 1
            }
            out.append(contentsOf: firstStrongIsolate.unicodeScalars)
            out.append(contentsOf: scalars[index...end])
            out.append(contentsOf: popDirectionalIsolate.unicodeScalars)
            index = end + 1
        }
        return String(out)
    }
}
