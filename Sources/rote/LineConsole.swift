import Foundation
import Study

#if canImport(Glibc)
import Glibc
#endif

/// The study console for scripts: one answer per line on standard input (a choice number,
/// typed text, `again|hard|good|easy`, or one of the words `undo`, `suspend`, `ignore`,
/// `quit`), plain text on standard output. The end of input stops and saves, as `quit` does.
final class LineConsole: StudyConsole {
    let isInteractive = false

    func beginCard(done: Int, planned: Int, title: String) {
        print("\n[\(done)/\(planned) done] \(title)")
    }

    func show(_ text: String, style: TextStyle) {
        print(text)
    }

    func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply? {
        guard let line = readLine(strippingNewline: true) else { return nil }
        return ConsoleReply.parse(line: line)
    }
}
