import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

/// Seed 004's privacy through the `rote` binary: random device ids, anonymous libraries, and
/// consent to keeping passage practice.
@Suite struct PrivacyCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    let directory = TemporaryDirectory("rote-privacy")
    /// A git identity and login that must never reach an anonymous library's history.
    let home: URL
    static let gitName = "Zebulon Quillfeather", gitEmail = "zebulon.quill@example.org", login = "zquillfeather"

    init() throws {
        home = directory.url.appending(path: "home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try "[user]\n\tname = \(Self.gitName)\n\temail = \(Self.gitEmail)\n".write(
            to: home.appending(path: ".gitconfig"), atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        [
            "NO_COLOR": "1", "HOME": home.path, "USER": Self.login, "LOGNAME": Self.login, "ROTE_USER": "",
            "XDG_CONFIG_HOME": home.appending(path: ".config").path,
        ]
    }

    @discardableResult
    func rote(_ arguments: [String], in library: URL? = nil, input: String? = nil) async -> Shell.Output {
        await Shell.run(
            Self.binary, (library.map { ["-C", $0.path] } ?? []) + arguments, in: directory.url, input: input,
            environment: environment)
    }

    /// Every name, e-mail and message of every commit, and every version of every file.
    func everythingCommitted(in library: URL) async -> String {
        await Shell.run(
            "git", ["log", "--all", "-p", "--format=%an <%ae> %cn <%ce>%n%B"], in: library, environment: environment
        ).stdout
    }

    @Test func anAnonymousLibraryNamesNoOneInItsFilesOrCommits() async throws {
        let hub = directory.url.appending(path: "hub.git")
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", hub.path])
        let desk = directory.url.appending(path: "desk")
        let created = await rote(["init", "--anonymous", desk.path])
        #expect(created.status == 0, "\(created.stderr)")
        let manifest = try #require(
            LibraryManifest.decode(
                try String(contentsOf: desk.appending(path: "rote.yaml"), encoding: .utf8), path: "rote.yaml"
            ).0)
        let learner = try #require(manifest.defaultUser)
        #expect(manifest.privacy == .anonymous)
        #expect(learner.wholeMatch(of: /learner-[0-9a-f]{10}/) != nil, "a random learner id: \(learner)")

        // Study of every kind that writes, then a second clone and a sync both ways.
        #expect(await rote(["consent", "grant"], in: desk).status == 0)
        #expect(await rote(["review", "kjv/joh-3-16", "good"], in: desk).status == 0)
        #expect(await rote(["study", "english-a1", "--new", "1"], in: desk, input: "1\n").status == 0)
        await Shell.run("git", ["remote", "add", "origin", hub.path], in: desk)
        #expect(await rote(["sync"], in: desk).status == 0)
        let laptop = directory.url.appending(path: "laptop")
        #expect(await rote(["clone", hub.path, laptop.path]).status == 0)
        #expect(await rote(["review", "english-a1/run", "hard"], in: laptop).status == 0)
        #expect(await rote(["review", "english-a1/run", "easy"], in: desk).status == 0)
        #expect(await rote(["sync"], in: laptop).status == 0)
        #expect(await rote(["sync"], in: desk).status == 0)

        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        for library in [desk, laptop] {
            let committed = await everythingCommitted(in: library)
            #expect(committed.contains("joh-3-16") && committed.contains("Rote <\(learner)@users.rote.invalid>"))
            for name in [Self.gitName, Self.gitEmail, Self.login, "Zebulon"] {
                #expect(!committed.contains(name), "\(name) is in the history of \(library.lastPathComponent)")
            }
            if host.count >= 4 { #expect(!committed.contains(host), "the host name \(host) is in the history") }
            let authors = Set(
                await Shell.run("git", ["log", "--all", "--format=%an <%ae>%n%cn <%ce>"], in: library).stdout.split(
                    separator: "\n"
                ).map(String.init))
            #expect(
                authors == ["Rote <\(learner)@users.rote.invalid>"], "every commit, merges too, by Rote: \(authors)")
            // Plain git in the clone commits anonymously as well.
            #expect(
                await Shell.run("git", ["config", "user.email"], in: library).stdout.trimmingCharacters(
                    in: .whitespacesAndNewlines) == "\(learner)@users.rote.invalid")
        }
        #expect(await rote(["check"], in: desk).status == 0)
    }

    @Test func anAnonymousLibraryNeverFallsBackToTheLoginName() async throws {
        let library = directory.url.appending(path: "anon")
        #expect(await rote(["init", "--anonymous", library.path]).status == 0)
        var manifest = try String(contentsOf: library.appending(path: "rote.yaml"), encoding: .utf8)
        manifest =
            manifest.split(separator: "\n").filter { !$0.hasPrefix("default_user:") }.joined(separator: "\n") + "\n"
        try manifest.write(to: library.appending(path: "rote.yaml"), atomically: true, encoding: .utf8)
        let refused = await rote(["review", "english-a1/run", "good"], in: library)
        #expect(
            refused.status != 0 && refused.stderr.contains("anonymous") && refused.stderr.contains("--user"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: library.appending(path: "profiles/\(Self.login)").path))
    }

    @Test func theDeviceIdIsRandomPerCloneAndItsNameStaysLocal() async throws {
        let hub = directory.url.appending(path: "hub.git")
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", hub.path])
        let desk = directory.url.appending(path: "desk")
        #expect(await rote(["init", desk.path]).status == 0)
        #expect(await rote(["review", "english-a1/run", "good"], in: desk).status == 0)
        let id = try String(contentsOf: desk.appending(path: ".git/rote/device-id"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.wholeMatch(of: /dev-[0-9a-f]{12}/) != nil, "\(id)")
        let progress = try String(
            contentsOf: desk.appending(path: "profiles/\(Self.login)/progress/english-a1/run.yaml"), encoding: .utf8)
        #expect(progress.contains("device: \(id)}"), "\(progress)")
        #expect(await Shell.run("git", ["log", "-1", "--format=%B"], in: desk).stdout.contains("Rote-Device: \(id)"))

        let named = await rote(["device", "--name", "Ana's old laptop"], in: desk)
        #expect(
            named.status == 0 && named.stdout.contains(id) && named.stdout.contains("Ana's old laptop"),
            "\(named.stdout)")
        #expect(await rote(["log"], in: desk).stdout.contains("Ana's old laptop"), "rote log shows this device's name")
        #expect(await !everythingCommitted(in: desk).contains("old laptop"), "the name is never committed")

        await Shell.run("git", ["remote", "add", "origin", hub.path], in: desk)
        #expect(await rote(["sync"], in: desk).status == 0)
        let laptop = directory.url.appending(path: "laptop")
        #expect(await rote(["clone", hub.path, laptop.path]).status == 0)
        #expect(await rote(["review", "english-a1/run", "hard"], in: laptop).status == 0)
        let other = try String(contentsOf: laptop.appending(path: ".git/rote/device-id"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(other != id && other.hasPrefix("dev-"))
        #expect(!FileManager.default.fileExists(atPath: laptop.appending(path: ".git/rote/device-name").path))
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        if host.count >= 4 {
            #expect(
                await !everythingCommitted(in: laptop).contains("device: \(Slug.make(from: host))"),
                "no review names the host")
        }
    }

    @Test func passagePracticeWaitsForConsentAndWithdrawingErasesIt() async throws {
        let library = directory.url.appending(path: "lib")
        #expect(await rote(["init", library.path]).status == 0)
        #expect(await rote(["consent"], in: library).stdout.contains("passage practice: not asked yet"))
        let refused = await rote(["review", "kjv/joh-3-16", "good"], in: library)
        #expect(refused.status != 0 && refused.stderr.contains("rote consent grant"), "\(refused.stderr)")
        let studied = await rote(["study", "kjv", "--new", "1"], in: library, input: "")
        #expect(
            studied.status != 0 && studied.stderr.contains("passage study refused"),
            "end of input: \(studied.stdout) \(studied.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: library.appending(path: "profiles/\(Self.login)/progress/kjv").path)
        )
        #expect(await Shell.run("git", ["status", "--porcelain"], in: library).stdout.isEmpty)
        #expect(await !everythingCommitted(in: library).contains("profiles/\(Self.login)/progress/kjv"))
        #expect(
            await rote(["review", "english-a1/run", "good"], in: library).status == 0, "other decks are unaffected")

        #expect(await rote(["consent", "grant"], in: library).status == 0)
        #expect(await rote(["consent"], in: library).stdout.contains("passage practice: granted at 20"))
        #expect(await rote(["review", "kjv/joh-3-16", "good"], in: library).status == 0)
        #expect(await rote(["suspend", "kjv/mat-5-44"], in: library).status == 0)

        let withdrawn = await rote(["consent", "withdraw"], in: library)
        #expect(
            withdrawn.status == 0 && withdrawn.stdout.contains("Erased 3 files")
                && withdrawn.stdout.contains("--purge-history"), "\(withdrawn.stdout)")
        #expect(
            !FileManager.default.fileExists(atPath: library.appending(path: "profiles/\(Self.login)/progress/kjv").path)
        )
        #expect(
            FileManager.default.fileExists(
                atPath: library.appending(path: "profiles/\(Self.login)/progress/english-a1/run.yaml").path))
        #expect(await rote(["consent"], in: library).stdout.contains("passage practice: not granted"))
        #expect(await rote(["review", "kjv/joh-3-16", "good"], in: library).status != 0)
        #expect(await rote(["check"], in: library).status == 0)
        let purged = await rote(["consent", "withdraw", "--purge-history", "--yes"], in: library)
        #expect(purged.status == 0 && purged.stdout.contains("Rewrote"), "\(purged.stdout) \(purged.stderr)")
        let history = await Shell.run("git", ["log", "--all", "--name-only", "--format="], in: library).stdout
        #expect(!history.contains("progress/kjv"), "no commit holds passage practice")
        #expect(await Shell.run("git", ["fsck", "--no-progress"], in: library).status == 0)
    }

    /// Two clones of one library: `desk` has studied and synced, `laptop` is a fresh clone.
    func twoClones() async throws -> (desk: URL, laptop: URL) {
        let hub = directory.url.appending(path: "hub.git")
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", hub.path])
        let desk = directory.url.appending(path: "desk")
        #expect(await rote(["init", desk.path]).status == 0)
        #expect(await rote(["consent", "grant"], in: desk).status == 0)
        #expect(await rote(["review", "english-a1/run", "good"], in: desk).status == 0)
        #expect(await rote(["review", "kjv/joh-3-16", "good"], in: desk).status == 0)
        await Shell.run("git", ["remote", "add", "origin", hub.path], in: desk)
        #expect(await rote(["sync"], in: desk).status == 0)
        let laptop = directory.url.appending(path: "laptop")
        #expect(await rote(["clone", hub.path, laptop.path]).status == 0)
        return (desk, laptop)
    }

    /// Syncs the erasing desk and the offline laptop, in either order, and then the first
    /// again so both hold the result; returns the sync that merged the other side in.
    private func syncBothWays(desk: URL, laptop: URL, erasureSyncedFirst: Bool) async -> Shell.Output {
        let (first, second) = erasureSyncedFirst ? (desk, laptop) : (laptop, desk)
        #expect(await rote(["sync"], in: first).status == 0)
        let merging = await rote(["sync"], in: second)
        #expect(await rote(["sync"], in: first).status == 0)
        return merging
    }

    /// Issue #31, item 3: a clone that studied offline, before it synced the erasure, brought
    /// the forgotten learner's files back to every device. Both orders: the offline clone
    /// pulls the erasure, or the forgetting clone pulls the offline reviews.
    @Test(arguments: [true, false])
    func aForgottenLearnerStaysForgottenWhenACloneThatStudiedOfflineSyncs(erasureSyncedFirst: Bool) async throws {
        let (desk, laptop) = try await twoClones()
        let learner = Self.login
        // Offline on the laptop: a new word in a session, and a review of a file desk erases.
        let studied = await rote(["study", "english-a1", "--new", "1"], in: laptop, input: "1\n")
        #expect(studied.status == 0, "\(studied.stderr)")
        #expect(await rote(["review", "english-a1/run", "hard"], in: laptop).status == 0)
        #expect(await rote(["forget", learner, "--yes"], in: desk).status == 0)
        let merging = await syncBothWays(desk: desk, laptop: laptop, erasureSyncedFirst: erasureSyncedFirst)
        #expect(merging.status == 0, "\(merging.stderr)")
        #expect(
            merging.stdout.contains("of the erased learner \(learner) that another device had made before it synced"),
            "\(merging.stdout)")
        for clone in [desk, laptop] {
            #expect(!FileManager.default.fileExists(atPath: clone.appending(path: "profiles/\(learner)").path))
            let tracked = await Shell.run("git", ["ls-tree", "-r", "--name-only", "HEAD", "profiles/"], in: clone)
            #expect(tracked.stdout.isEmpty, "\(clone.lastPathComponent) still tracks \(tracked.stdout)")
            let check = await rote(["check"], in: clone)
            #expect(
                check.status == 0 && !check.stdout.contains("error:") && !check.stdout.contains("warning:"),
                "\(check.stdout)\(check.stderr)")
        }
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: desk).stdout
                == Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: laptop).stdout)
    }

    /// The same for `rote consent withdraw`: passage practice the laptop did before it synced
    /// the withdrawal (a passage first studied there too) does not come back.
    @Test(arguments: [true, false])
    func withdrawnPassagePracticeStaysErasedWhenACloneThatStudiedOfflineSyncs(erasureSyncedFirst: Bool)
        async throws
    {
        let (desk, laptop) = try await twoClones()
        let learner = Self.login
        #expect(await rote(["review", "kjv/joh-3-16", "hard"], in: laptop).status == 0)
        #expect(await rote(["review", "kjv/mat-5-44", "good"], in: laptop).status == 0)
        #expect(await rote(["review", "english-a1/run", "easy"], in: laptop).status == 0)
        #expect(await rote(["consent", "withdraw"], in: desk).status == 0)
        let merging = await syncBothWays(desk: desk, laptop: laptop, erasureSyncedFirst: erasureSyncedFirst)
        #expect(merging.status == 0, "\(merging.stderr)")
        #expect(
            merging.stdout.contains("of the erased passage practice of \(learner) that another device had made"),
            "\(merging.stdout)")
        for clone in [desk, laptop] {
            #expect(
                !FileManager.default.fileExists(atPath: clone.appending(path: "profiles/\(learner)/progress/kjv").path))
            let run = try String(
                contentsOf: clone.appending(path: "profiles/\(learner)/progress/english-a1/run.yaml"), encoding: .utf8)
            #expect(run.contains("grade: easy"), "the laptop's other reviews are kept")
            #expect(await rote(["consent"], in: clone).stdout.contains("passage practice: not granted"))
            #expect(await rote(["check"], in: clone).status == 0)
        }
    }
}
