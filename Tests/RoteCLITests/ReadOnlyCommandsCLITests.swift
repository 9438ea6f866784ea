import Foundation
import TestSupport
import Testing

/// Issue #32: the commands that only look never commit and never touch the work tree, so a
/// learner can run them at any time — beside a sync, on a library they only browse — without
/// making history. `rote today` once committed rank promotion's velocity on every run.
@Suite struct ReadOnlyCommandsCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    let directory = TemporaryDirectory()
    var lib: URL { directory.url.appending(path: "lib") }

    @discardableResult
    func rote(_ arguments: [String], input: String? = nil) async -> Shell.Output {
        await Shell.run(
            Self.binary, ["-C", lib.path] + arguments, input: input,
            environment: ["ROTE_USER": "tester", "NO_COLOR": "1"])
    }

    /// HEAD, and every path git sees as changed, untracked or ignored.
    func state() async -> String {
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: lib).stdout
        let files = await Shell.run(
            "git", ["status", "--porcelain", "--untracked-files=all", "--ignored"], in: lib
        ).stdout
        return head + files
    }

    @Test func readOnlyCommandsLeaveHeadAndTheWorkTreeAsTheyWere() async throws {
        let made = await Shell.run(
            Self.binary, ["init", "lib"], in: directory.url, environment: ["ROTE_USER": "tester"])
        try #require(made.status == 0, "\(made.stderr)")
        // Some history: reviews of ranked words within rank promotion's window (what `today`
        // used to store) and a session in the log.
        for (entry, grade) in [("english-a1/run", "good"), ("english-a1/go", "easy"), ("english-a1/run", "easy")] {
            let reviewed = await rote(["review", entry, grade])
            try #require(reviewed.status == 0, "\(reviewed.stderr)")
        }
        directory.write("text.txt", "The child ran, and they go home.")
        var before = await state()

        let commands: [[String]] = [
            ["today"],
            ["show", "english-a1/run"],
            ["show", "ran"],
            ["stats"],
            ["list"],
            ["list", "english-a1", "--status"],
            ["lookup", "ran", "go"],
            ["log"],
            ["history", "english-a1/run"],
            ["read", directory.url.appending(path: "text.txt").path],
            ["study", "--plan"],
            ["study", "english-a1", "--plan", "--list"],
        ]
        for command in commands {
            let run = await rote(command)
            #expect(run.status == 0, "rote \(command.joined(separator: " ")): \(run.stderr)")
            // Against the state just before, so only the command that wrote fails.
            let after = await state()
            let last = await Shell.run("git", ["log", "-1", "--format=%s"], in: lib).stdout
            #expect(after == before, "rote \(command.joined(separator: " ")) changed the library (\(last)): \(after)")
            before = after
        }

        // What `today` derived and once committed (rank promotion's cycle count) goes in with
        // the learner's next write: the next study session's one commit.
        let profile = lib.appending(path: "profiles/tester/profile.yaml")
        #expect(try !String(contentsOf: profile, encoding: .utf8).contains("cycle_count"))
        let head = await Shell.run("git", ["rev-parse", "HEAD"], in: lib).stdout
        // Two of the five new words were met by the reviews above.
        let studied = await rote(["study", "english-a1", "--new", "5"], input: "1\n1\n1\n1\nquit\n")
        #expect(studied.status == 0, "\(studied.stderr)")
        #expect(studied.stdout.contains("Session saved: "), "\(studied.stdout)")
        let sessionCommits = await Shell.run(
            "git", ["rev-list", "--count", "\(head.trimmingCharacters(in: .whitespacesAndNewlines))..HEAD"], in: lib)
        #expect(sessionCommits.stdout == "1\n", "one commit, the session's")
        let changed = await Shell.run("git", ["diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"], in: lib)
            .stdout
        #expect(changed.contains("profiles/tester/profile.yaml\n"), "\(changed)")
        #expect(try String(contentsOf: profile, encoding: .utf8).contains("cycle_count: "))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
    }
}
