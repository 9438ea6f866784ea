import Foundation
import RoteModel

#if canImport(Glibc)
import Glibc
#endif

// Everything `rote` shows a person passes through `ControlCharacters.visible`, here and in
// `TerminalStyle.apply` (the study screen): entries, file names, messages from libraries and
// remotes all carry text someone else wrote, and an ESC or BEL in it would drive the
// terminal — retitle it, recolour it, rewrite what is on screen. The rules are in
// docs/format.md ("Control characters").

/// Every `print` in this module: the standard library's, with control characters shown as
/// `\u{1B}`. Declaring it here shadows `Swift.print` for the whole module, so no command can
/// print content raw by forgetting a call; output meant to carry escapes goes through
/// `Terminal.styled`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(ControlCharacters.visible(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}

/// Output besides `print`: notes and problems to stderr, bulk results and data to stdout.
enum Terminal {
    static func note(_ text: String) {
        standardError(text)
    }

    static func error(_ text: String) {
        standardError(text)
    }

    /// A large result written at once (a listing), shown like `print`'s.
    static func output(_ text: String) {
        flushPrint()
        FileHandle.standardOutput.write(Data(ControlCharacters.visible(text).utf8))
    }

    /// Data a command writes to stdout for another program or a file (an export): exactly
    /// its bytes when stdout is a pipe or a file, so it reads back the same; shown like
    /// `print`'s when stdout is a terminal, where a person reads it.
    static func data(_ text: String) {
        flushPrint()
        FileHandle.standardOutput.write(Data((isatty(1) != 0 ? ControlCharacters.visible(text) : text).utf8))
    }

    /// Text Rote composed with its own escape sequences (colours) around nothing but its own
    /// words and numbers; the one way around `print`'s escaping.
    static func styled(_ text: String) {
        Swift.print(text)
    }

    private static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((ControlCharacters.visible(text) + "\n").utf8))
    }

    /// `print` buffers; a direct write after it must not overtake what it holds (nil: every
    /// stream, which also spares naming the global `stdout`, unsafe under strict concurrency).
    private static func flushPrint() {
        fflush(nil)
    }
}
