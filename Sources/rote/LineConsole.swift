import Foundation
import Study

#if canImport(Glibc)
import Glibc
#endif

/// The study console on standard input and output: a person at a terminal, or a script
/// giving one answer per line. `q` stops and saves, as the end of input does.
final class LineConsole: StudyConsole {
    let isInteractive = isatty(0) != 0

    func show(_ text: String) {
        print(text)
    }

    func ask(_ prompt: String) -> String? {
        if isInteractive {
            FileHandle.standardOutput.write(Data("\(prompt) › ".utf8))
            FileHandle.standardOutput.synchronizeFile()
        }
        guard let line = readLine(strippingNewline: true) else { return nil }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer == "q" ? nil : answer
    }
}
