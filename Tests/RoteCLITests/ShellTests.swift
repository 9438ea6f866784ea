import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `Shell.run`, which every CLI test runs `rote` and `git` through, keeps the promises they
/// rely on.
@Suite struct ShellTests {
    /// A file this process holds open, without close-on-exec, is not open in the child: one
    /// left open there keeps a file busy ("Text file busy" when exec'ing a binary another
    /// thread is still writing).
    @Test func theChildInheritsNoOpenFile() async throws {
        let directory = TemporaryDirectory()
        directory.write("held", "")
        let held = directory.url.appending(path: "held").resolvingSymlinksInPath().path
        let descriptor = open(held, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        // The shell's descriptors and what each is open on.
        let listed = await Shell.run("sh", ["-c", "ls -l /proc/$$/fd"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(" 0 -> "), "\(listed.stdout)")
        #expect(!listed.stdout.contains(held), "\(listed.stdout)")
    }

    /// A child that exits without reading its input is a normal run, not a crash of the test
    /// process (swift-subprocess's `.string` input traps there: swiftlang/swift-subprocess#367).
    @Test func aChildThatReadsNoInputEndsNormally() async {
        let output = await Shell.run("true", [], input: String(repeating: "x", count: 1 << 20))
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// Input reaches the child whole, and both outputs come back whole, even when each is far
    /// larger than a pipe holds and the child writes them at once.
    @Test func bigInputAndOutputsPassWhole() async {
        let input = String(repeating: "line of input\n", count: 300_000)
        let output = await Shell.run("sh", ["-c", "tee /dev/stderr | wc -c"], input: input)
        #expect(output.status == 0)
        #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(input.utf8.count))
        #expect(output.stderr == input)
    }

    /// The exit status as a shell reports it: the code, or 128 + the signal that killed it.
    @Test func statusIsTheExitCodeOr128PlusTheSignal() async {
        #expect(await Shell.run("sh", ["-c", "exit 3"]).status == 3)
        #expect(await Shell.run("sh", ["-c", "kill -TERM $$"]).status == 128 + SIGTERM)
    }

    /// The program is found on the PATH, runs in the folder given, with the environment given
    /// over the process's own.
    @Test func directoryAndEnvironmentReachTheChild() async {
        let directory = TemporaryDirectory()
        let output = await Shell.run(
            "sh", ["-c", "pwd; echo \"$ROTE_SHELL_TEST\"; echo \"$HOME\""], in: directory.url,
            environment: ["ROTE_SHELL_TEST": "given"])
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(output.stdout)")
        #expect(
            URL(fileURLWithPath: lines.first ?? "").resolvingSymlinksInPath().path
                == directory.url.resolvingSymlinksInPath().path)
        #expect(lines.dropFirst().first == "given")
        #expect(lines.last == ProcessInfo.processInfo.environment["HOME"] ?? "")
        let missing = await Shell.run("rote-no-such-program", [])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("rote-no-such-program"), "\(missing.stderr)")
    }
}
