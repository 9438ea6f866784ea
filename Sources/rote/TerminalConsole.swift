import Foundation
import Study
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The study console for a person at a terminal: a screen per card, colours unless
/// `NO_COLOR` is set, single keys where one key is the whole answer (1–4 to choose or grade,
/// space to reveal, `u` undo, `s` suspend, `i` ignore, `q` quit), a line editor where text is
/// typed (where the words `undo`, `suspend`, `ignore`, `quit` work as commands). Lines are
/// broken between words at the terminal's width (`TerminalLines`), and right-to-left text is
/// isolated so it reads in logical order, unless `ROTE_ISOLATES=off` says the terminal shows
/// the isolates as boxes.
///
/// The terminal is in raw mode only while waiting for a key, and is put back as it was after
/// every key and on SIGINT or SIGTERM, so an interrupted session never leaves it unusable.
final class TerminalConsole: StudyConsole {
    let isInteractive = true
    let colours: Bool
    /// Right-to-left runs wrapped in direction isolates (`BidiText`): on unless
    /// `ROTE_ISOLATES` is `off` (or `0`, `no`, `false`).
    let isolates: Bool
    private let environment: [String: String]

    /// Both standard input and output are a terminal.
    static var isAvailable: Bool { isatty(0) != 0 && isatty(1) != 0 }

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        colours = TerminalStyle.coloursEnabled(environment: environment, isTerminal: true)
        isolates = !["off", "0", "no", "false"].contains(environment["ROTE_ISOLATES"]?.lowercased() ?? "")
        self.environment = environment
        TerminalMode.installSignalRestore()
    }

    /// The terminal's width now, asked at every line so a resized window is followed; else
    /// `COLUMNS`, else 80.
    var columns: Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// The card on screen, redrawn when its page is turned.
    private var header: (done: Int, planned: Int, title: String)?

    func turnPage() {
        guard let header else { return }
        beginCard(done: header.done, planned: header.planned, title: header.title)
    }

    func beginCard(done: Int, planned: Int, title: String) {
        header = (done, planned, title)
        write("\u{1B}[H\u{1B}[2J")
        show("rote · \(done) of \(planned) done", style: .dim)
        show(title, style: .title)
        show("1–4 choose/grade · space reveal · u undo · s suspend · i ignore · q quit", style: .dim)
        write("\n")
    }

    /// Each line of `text` broken at the terminal's width, then isolated and styled: a line
    /// is one paragraph to the terminal's bidirectional layout, so each is isolated alone.
    func show(_ text: String, style: TextStyle) {
        for line in TerminalLines.wrapped(text, width: columns) {
            write(TerminalStyle.apply(style, isolates ? BidiText.isolated(line) : line, colours: colours) + "\n")
        }
    }

    func ask(_ prompt: String, kind: AnswerKind) -> ConsoleReply? {
        write(TerminalStyle.apply(.prompt, "\(prompt) › ", colours: colours))
        switch kind {
        case .text, .order:
            guard let line = readLine(strippingNewline: true) else { return nil }
            return ConsoleReply.parse(line: line)
        case let .choice(count) where count > 9:
            guard let line = readLine(strippingNewline: true) else { return nil }
            return ConsoleReply.parse(line: line)
        case .choice, .reveal, .grade, .yesNo:
            while true {
                guard let key = TerminalMode.readKey() else { return nil }
                if let reply = TerminalKeys.reply(to: key, kind: kind) {
                    write((key == " " || key == "\n" ? "" : String(key)) + "\n")
                    return reply
                }
                write("\u{07}")
            }
        }
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// The terminal's settings as they were before raw mode, for the signal handlers to put back.
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var terminalSaved = false

/// Raw mode for one key at a time.
enum TerminalMode {
    /// Puts the terminal back and exits on SIGINT and SIGTERM. Only async-signal-safe calls:
    /// answers are already on disk and the session snapshot is committed by the next run.
    static func installSignalRestore() {
        // A parent may have started rote with these blocked (a test runner's worker thread,
        // some process supervisors); they would then never reach the handler and Ctrl-C
        // would do nothing.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in [SIGINT, SIGTERM] { sigaddset(&handled, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { number in
                if terminalSaved { tcsetattr(0, TCSANOW, &savedTerminal) }
                let message = "\nrote: stopped; your answers are saved and the next `rote study` commits them.\n"
                _ = message.withCString {
                    try? FileDescriptor.standardError.write(UnsafeRawBufferPointer(start: $0, count: strlen($0)))
                }
                _exit(128 + number)
            }
        }
    }

    /// Reads one key (a whole UTF-8 character) with echo off; nil at the end of input.
    static func readKey() -> Character? {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return readByteCharacter() }
        savedTerminal = original
        terminalSaved = true
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        defer {
            tcsetattr(0, TCSANOW, &original)
            terminalSaved = false
        }
        return readByteCharacter()
    }

    static func readByteCharacter() -> Character? {
        var first: UInt8 = 0
        guard read(0, &first, 1) == 1 else { return nil }
        var bytes = [first]
        let extra = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
        for _ in 0..<extra {
            var next: UInt8 = 0
            guard read(0, &next, 1) == 1 else { break }
            bytes.append(next)
        }
        return String(decoding: bytes, as: UTF8.self).first
    }
}
