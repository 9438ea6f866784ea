import Foundation
import RoteModel

/// Which key means what at a single-key prompt.
package enum TerminalKeys {
    package static func reply(to key: Character, kind: AnswerKind) -> ConsoleReply? {
        if let command = SessionCommand.allCases.first(where: { $0.key == key }) { return .command(command) }
        switch kind {
        case let .choice(count):
            guard let digit = key.wholeNumberValue, (1...count).contains(digit) else { return nil }
            return .answer(String(digit))
        case .grade:
            if key == "\n" || key == "\r" { return .answer("") }
            guard let digit = key.wholeNumberValue, (1...4).contains(digit) else { return nil }
            return .answer(String(digit))
        case .reveal:
            return key == " " || key == "\n" || key == "\r" ? .answer("") : nil
        case .yesNo:
            return key == "y" || key == "n" ? .answer(String(key)) : nil
        case .text, .order:
            return nil
        }
    }
}

/// ANSI styles, used only where colour is on.
package enum TerminalStyle {
    /// Colour unless `NO_COLOR` is set (https://no-color.org), the terminal is `dumb`, or
    /// output is not a terminal.
    package static func coloursEnabled(environment: [String: String], isTerminal: Bool) -> Bool {
        isTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
    }

    /// `text` ready for the study screen: control characters in it shown escaped
    /// (`ControlCharacters.visible`, as all of `rote`'s output), then wrapped in the style's
    /// colour. Every piece of a card reaches the terminal through here.
    package static func apply(_ style: TextStyle, _ text: String, colours: Bool) -> String {
        let text = ControlCharacters.visible(text)
        guard colours else { return text }
        let code: String
        switch style {
        case .plain: return text
        case .title: code = "1"
        case .dim: code = "2"
        case .correct: code = "32"
        case .wrong: code = "31"
        case .prompt: code = "36"
        case .emphasis: code = "1;33"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
