import Foundation
import RoteModel
import Study
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal: `rote` runs with the slave side as stdin, stdout and stderr (so
/// `isatty` is true and raw mode really switches the line discipline), and the test reads the
/// screen and types keys on the master side. Every step waits on output, never on a clock.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    private var bytes: [UInt8] = []
    /// Where the next `waitFor` starts looking, so a prompt shown twice is waited for twice.
    private var cursor: String.Index?

    /// A libc function the Glibc module leaves out (it needs _XOPEN_SOURCE), looked up by name.
    private static func libc<T>(_ name: String, as type: T.Type) throws -> T {
        guard let symbol = dlsym(nil, name) else { throw POSIXError(.ENOSYS) }
        return unsafeBitCast(symbol, to: type)
    }

    init() throws {
        let openMaster = try Self.libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        let grant = try Self.libc("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        let unlock = try Self.libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        let slaveName = try Self.libc(
            "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
        master = openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0, grant(master) == 0, unlock(master) == 0 else { throw POSIXError(.ENXIO) }
        var name = [CChar](repeating: 0, count: 128)
        guard slaveName(master, &name, name.count) == 0 else { throw POSIXError(.ENXIO) }
        slave = open(
            String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENXIO) }
    }

    deinit {
        close(master)
        close(slave)
    }

    /// The terminal's settings as seen from the slave side (what `stty -g` shows).
    var settings: termios {
        var value = termios()
        tcgetattr(slave, &value)
        return value
    }

    var isRaw: Bool { settings.c_lflag & tcflag_t(ICANON) == 0 }

    var screen: String { String(decoding: bytes, as: UTF8.self) }

    func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        // The child gets its own copy: Process may close what it is given once spawned, and
        // the test keeps `slave` to read the terminal's settings after the child is gone.
        let handle = FileHandle(fileDescriptor: dup(slave), closeOnDealloc: true)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        return process
    }

    /// Reads output until `text` appears after the last match; false after `seconds`.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let current = screen
            let start = cursor.flatMap { $0 <= current.endIndex ? $0 : nil } ?? current.startIndex
            if let found = current.range(of: text, range: start..<current.endIndex) {
                cursor = found.upperBound
                return true
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 0.5) * 1000)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno != EINTR {
                return false
            }
        }
    }

    /// Waits until the program has put the terminal in raw mode (it reads a key), or not.
    func waitUntil(raw: Bool, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRaw != raw {
            guard deadline.timeIntervalSinceNow > 0 else { return false }
            // Drain output meanwhile so the program never blocks writing to a full terminal.
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 5) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(master, &buffer, buffer.count)
                if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            }
        }
        return true
    }

    /// Waits for the process to end; kills it after `seconds` so a stuck session fails the
    /// test instead of hanging the suite. True when it ended by itself.
    func finish(_ process: Process, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard deadline.timeIntervalSinceNow > 0 else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return false
            }
            _ = waitFor("\u{0}", seconds: 0.05)  // drains output while waiting
        }
        return true
    }

    func send(_ keys: String) {
        let data = Array(keys.utf8)
        _ = data.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }
}

/// `rote study` at a real (pseudo-)terminal: single keys in raw mode, a screen per card,
/// colours only without NO_COLOR, and the terminal put back as it was.
@Suite(.serialized) struct TerminalSessionTests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }
    let directory = TemporaryDirectory()

    init() async { await FixtureLibrary.write(into: directory) }

    func environment(colour: Bool) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = colour ? nil : "1"
        environment["TERM"] = "xterm-256color"
        return environment
    }

    func progress(_ entry: String) throws -> ProgressFile {
        let path = "profiles/ana/progress/\(entry).yaml"
        return try #require(directory.read(path).flatMap { ProgressFile.decode($0, path: path).0 }, "\(path)")
    }

    /// Sends `keys` once the program waits for a key in raw mode. Called after waiting for
    /// output the previous key produced, so the raw mode seen is the new prompt's.
    func press(_ keys: String, on terminal: PseudoTerminal, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            terminal.waitUntil(raw: true), "raw mode for '\(keys)': \(terminal.screen)", sourceLocation: sourceLocation)
        terminal.send(keys)
    }

    /// `rote study words` on a new terminal, with the terminal's settings from before.
    func studyWords(colour: Bool) throws -> (PseudoTerminal, termios, Process) {
        let terminal = try PseudoTerminal()
        let before = terminal.settings
        let process = try terminal.spawn(
            Self.binary, ["-C", directory.url.path, "--user", "ana", "study", "words"],
            environment: environment(colour: colour))
        return (terminal, before, process)
    }

    @Test func singleKeysInRawModeWithColoursAndTheTerminalRestored() async throws {
        let (terminal, before, process) = try studyWords(colour: true)
        defer { _ = terminal.finish(process, seconds: 0) }
        // Card 1: words/run is due and learned; its review asks two questions (a sentence
        // completion, then a reverse translation), each a choice by key.
        #expect(terminal.waitFor("rote · 0 of 2 done"), "\(terminal.screen)")
        #expect(terminal.waitFor("answer (number or text)"))
        press("1", on: terminal)
        #expect(terminal.waitFor("answer (number or text)"), "\(terminal.screen)")
        press("1", on: terminal)
        #expect(terminal.waitFor("grade:"))
        press("\r", on: terminal)  // Enter accepts the proposed grade
        // Card 2: words/go is new: its word card, then space goes on to the first question.
        #expect(terminal.waitFor("go  verb"), "\(terminal.screen)")
        press(" ", on: terminal)
        #expect(terminal.waitFor("answer (number or text)"))
        // The question is on a page of its own: the card, which answers it, is gone.
        let page = terminal.screen.components(separatedBy: "\u{1B}[2J").last ?? ""
        #expect(page.contains("rote · ") && page.contains("of 2 done") && !page.contains("go  verb"), "\(page)")
        press("u", on: terminal)  // undo: run's review is taken back
        #expect(terminal.waitFor("Undone: words/run is back."), "\(terminal.screen)")
        #expect(terminal.waitFor("answer (number or text)"))
        press("s", on: terminal)  // suspend run, on screen again
        #expect(terminal.waitFor("Suspended words/run"))
        #expect(terminal.waitFor("space or Enter to go on"))
        press("q", on: terminal)
        #expect(terminal.waitFor("1 entry suspended or ignored."), "\(terminal.screen)")
        #expect(terminal.finish(process))
        #expect(process.terminationStatus == 0, "\(terminal.screen)")

        let screen = terminal.screen
        #expect(screen.contains("\u{1B}[H\u{1B}[2J"), "a screen per card")
        #expect(screen.contains("\u{1B}[1m") && screen.contains("\u{1B}[0m"), "colours without NO_COLOR")
        #expect(screen.contains("\u{2068}يجري\u{2069}"), "right-to-left text isolated")
        let after = terminal.settings
        #expect(
            after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_oflag == before.c_oflag,
            "terminal mode restored")
        let run = try progress("words/run")
        #expect(run.status == .suspended && run.reviews.count == 2, "the undone review is gone, the suspension kept")
        #expect(await Shell.run("git", ["log", "-1", "--format=%s"], in: directory.url).stdout.hasPrefix("Study: "))
    }

    @Test func plainWithNoColourAndRestoredWhenKilledWhileWaitingForAKey() throws {
        let (terminal, before, process) = try studyWords(colour: false)
        defer { _ = terminal.finish(process, seconds: 0) }
        #expect(terminal.waitFor("answer (number or text)"), "\(terminal.screen)")
        #expect(terminal.waitUntil(raw: true), "waiting for a key in raw mode")
        process.terminate()  // SIGTERM in the middle of raw mode
        #expect(terminal.finish(process), "SIGTERM ends the session")
        #expect(process.terminationStatus == 128 + SIGTERM, "\(terminal.screen)")
        #expect(terminal.waitFor("your answers are saved"))
        let screen = terminal.screen
        #expect(screen.contains("\u{1B}[2J") && screen.contains("rote · 0 of 2 done"), "still a screen per card")
        #expect(
            !screen.contains("\u{1B}[1m") && !screen.contains("\u{1B}[0m") && !screen.contains("\u{1B}[36m"),
            "no colour with NO_COLOR")
        #expect(!terminal.isRaw, "the signal handler put the terminal back")
        #expect(terminal.settings.c_lflag == before.c_lflag)
    }

    /// Issue #33 item 8: at a narrow terminal every line of a card fits its width, broken
    /// between words, never inside one.
    @Test func aNarrowTerminalBreaksACardsLinesBetweenWords() throws {
        let terminal = try PseudoTerminal()
        var size = winsize(ws_row: 40, ws_col: 32, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(terminal.slave, UInt(TIOCSWINSZ), &size) == 0)
        let process = try terminal.spawn(
            Self.binary, ["-C", directory.url.path, "--user", "ana", "study", "words"],
            environment: environment(colour: false))
        defer { _ = terminal.finish(process, seconds: 0) }
        #expect(terminal.waitFor("answer (number or text)"), "\(terminal.screen)")
        press("q", on: terminal)
        #expect(terminal.finish(process))
        let screen = terminal.screen.replacing(try Regex(#"\u{1B}\[[0-9;]*[A-Za-z]"#), with: "")
        let card = try #require(screen.range(of: "rote · 0 of 2 done"), "\(screen)")
        let prompt = try #require(screen.range(of: "answer (number or text)", range: card.upperBound..<screen.endIndex))
        let lines = screen[card.lowerBound..<prompt.lowerBound].split(whereSeparator: \.isNewline)
        #expect(lines.count > 3, "\(lines)")
        for line in lines { #expect(TerminalLines.width(of: line) <= 32, "wider than the terminal: '\(line)'") }
        #expect(lines.contains { $0.contains("choose/grade") }, "the key hint is broken between its words: \(lines)")
    }

    /// Issue #33 item 8: calibration at a terminal takes single keys, as study does; q stops
    /// it with nothing written.
    @Test func calibrationAtATerminalTakesSingleKeys() async throws {
        let library = await StarterLibrary.copy()
        library.write(
            "profiles/newbie/profile.yaml",
            "user: newbie\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\n")
        await Shell.run("git", ["add", "-A"], in: library.url)
        await Shell.run(
            "git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "newbie"],
            in: library.url)
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: library.url).stdout
        let terminal = try PseudoTerminal()
        let process = try terminal.spawn(
            Self.binary, ["-C", library.url.path, "--user", "newbie", "calibrate", "--seed", "7"],
            environment: environment(colour: false))
        defer { _ = terminal.finish(process, seconds: 0) }
        #expect(terminal.waitFor("[y/n]"), "\(terminal.screen)")
        press("x", on: terminal)  // not an answer: the bell, and the same question waits
        press("y", on: terminal)
        #expect(terminal.waitFor("2. "), "one key answered question 1, no Enter: \(terminal.screen)")
        #expect(terminal.waitUntil(raw: true), "question 2 waits for a key")
        terminal.send("q")
        #expect(terminal.finish(process))
        #expect(process.terminationStatus == 1, "\(terminal.screen)")
        #expect(terminal.screen.contains("stopped at question 2; nothing was written"), "\(terminal.screen)")
        #expect(await Shell.run("git", ["rev-parse", "HEAD"], in: library.url).stdout == head, "no commit")
    }
}
