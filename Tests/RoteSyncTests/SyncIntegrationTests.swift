import Foundation
import Git
import RoteModel
import Scheduling
import TestSupport
import Testing

@testable import RoteStore
@testable import RoteSync

/// Real repositories: clones of a bare remote that study offline and sync in turns.
@Suite(.serialized) struct SyncIntegrationTests {
    static var rote: String { Checkout.productsDirectory.appending(path: "rote").path }

    /// One machine: a clone of the shared remote where a learner studies.
    final class Device {
        let root: URL
        let name: String
        var clock: Date

        init(root: URL, name: String, clock: Date) {
            self.root = root
            self.name = name
            self.clock = clock
        }

        func git() throws -> LibraryGit { try LibraryGit(root: root, user: "ana", now: { [clock] in clock }) }
        /// A sync's transaction on this device, holding its lock until it is released.
        func transaction() throws -> LibraryTransaction {
            try LibraryTransaction(root: root, user: "ana", purpose: "sync", mode: .sync, now: { [clock] in clock })
        }

        /// Answers `count` reviews of the given entries and commits them as one session, with
        /// `grade` or random grades.
        func study(_ entries: [String], seed: UInt64, grade chosen: Grade? = nil) throws {
            var random = SeededGenerator(seed: seed)
            let library = try LibraryLoader(users: .only("ana"), includeSessions: false).load(root)
            var session = SessionFile(id: "\(name)-\(seed)", user: "ana", device: name, startedAt: clock, decks: [])
            var progress: [String: Data] = [:]
            for entry in entries {
                clock = clock.addingTimeInterval(Double(10 + random.next() % 50))
                var file = library.progress["ana"]?[entry] ?? ProgressFile(entry: entry)
                let grade = chosen ?? Grade(rawValue: Int(random.next() % 4) + 1)!
                let review = ReviewEvent(
                    id: "\(name)-\(seed)-\(entry)", at: clock, grade: grade, ms: 2000, device: name)
                file.reviews.append(review)
                file.reviews.sort(by: ReviewEvent.replayOrder)
                let deck = String(entry.split(separator: "/")[0])
                file.state = Scheduler.replay(
                    file.reviews, entryID: entry,
                    settings: .forDeck(library.decks[deck], profile: library.profiles["ana"]))
                let path = "profiles/ana/progress/\(entry).yaml"
                progress[path] = Data(file.render().utf8)
                try AtomicFile.write(progress[path]!, to: root.appending(path: path))
                session.attempts.append(
                    .init(
                        entry: entry, question: "translation", answer: "x", correct: grade != .again, at: clock,
                        ms: 2000))
                switch grade {
                case .again: session.again += 1
                case .hard: session.hard += 1
                case .good: session.good += 1
                case .easy: session.easy += 1
                }
                if !session.decks.contains(deck) { session.decks.append(deck) }
            }
            session.endedAt = clock.addingTimeInterval(60)
            try AtomicFile.write(session.render(), to: root.appending(path: SessionFile.path(for: session)))
            try git().commitSession(session, progress: progress)
            clock = clock.addingTimeInterval(3600)
        }

        @discardableResult
        func sync() throws -> SyncReport { try LibrarySync(transaction: try transaction()).sync() }

        func reviewIDs() throws -> Set<String> {
            let library = try LibraryLoader(users: .only("ana"), includeSessions: false).load(root)
            return Set(library.progress["ana", default: [:]].values.flatMap { $0.reviews.map(\.id) })
        }

        func profilesTree() async throws -> String {
            await Shell.run("git", ["ls-tree", "-r", "HEAD", "profiles"], in: root).stdout
        }

        func fsckIsClean() async -> Bool {
            await Shell.run("git", ["fsck", "--strict"], in: root).status == 0
        }
    }

    struct Network {
        let directory = TemporaryDirectory("rote-sync")
        var remote: URL { directory.url.appending(path: "remote.git") }

        /// A library pushed to a new bare remote, and `count` devices cloned from it.
        func devices(_ count: Int) async throws -> [Device] {
            let first = directory.url.appending(path: "device-0")
            try LibraryCreator(user: "ana", now: Date(timeIntervalSince1970: 1_795_000_000)).create(at: first)
            await Shell.run("git", ["init", "-q", "--bare", "-b", "main", remote.path])
            await Shell.run("git", ["remote", "add", "origin", remote.path], in: first)
            await Shell.run("git", ["push", "-q", "origin", "main"], in: first)
            var devices: [Device] = []
            for index in 0..<count {
                let root = directory.url.appending(path: "device-\(index)")
                if index > 0 { await Shell.run("git", ["clone", "-q", remote.path, root.path]) }
                let repository = try Repository.open(at: root)
                try MergeDrivers.configure(repository, rotePath: SyncIntegrationTests.rote)
                await Shell.run("git", ["config", "user.name", "Device \(index)"], in: root)
                await Shell.run("git", ["config", "user.email", "d\(index)@example.invalid"], in: root)
                devices.append(
                    Device(
                        root: root, name: "device-\(index)",
                        clock: Date(timeIntervalSince1970: 1_795_100_000 + Double(index) * 7)))
            }
            return devices
        }
    }

    @Test func twoDevicesStudyingOfflineConvergeWithoutLosingAReview() async throws {
        let network = Network()
        let devices = try await network.devices(2)
        let words = ["english-a1/run", "english-a1/go", "english-a1/be", "kjv/joh-3-16"]
        for round in 0..<3 {
            try devices[0].study(words, seed: UInt64(round * 2))
            try devices[1].study(Array(words.reversed().prefix(3)), seed: UInt64(round * 2 + 1))
        }
        let union = try devices[0].reviewIDs().union(try devices[1].reviewIDs())
        try devices[0].sync()
        let report = try devices[1].sync()
        #expect(
            report.merged?.reviews == 12 && report.merged?.sessions == 3,
            "device 0's work arrives: \(String(describing: report.merged))")
        try devices[0].sync()
        #expect(try await devices[0].profilesTree() == (try devices[1].profilesTree()))
        #expect(try devices[0].reviewIDs() == union)
        #expect(union.count == 21)
        // state in every file equals a fresh replay of its reviews
        let library = try LibraryLoader(users: .only("ana")).load(devices[0].root)
        for (id, file) in library.progress["ana"]! {
            let settings = SchedulerSettings.forDeck(
                library.decks[String(id.split(separator: "/")[0])], profile: library.profiles["ana"])
            #expect(Scheduler.replay(file.reviews, entryID: id, settings: settings) == file.state, "\(id)")
        }
        #expect(library.errors.isEmpty, "\(library.errors)")
        for device in devices { #expect(await device.fsckIsClean(), "\(device.root.path)") }
        #expect(await Shell.run("git", ["status", "--porcelain"], in: devices[0].root).stdout.isEmpty)
        // rote log reads the sessions back from history
        let log = await Shell.run(Self.rote, ["-C", devices[0].root.path, "--user", "ana", "log"])
        #expect(log.stdout.split(separator: "\n").count == 6, "\(log.stdout)\(log.stderr)")
        #expect(log.stdout.contains("device-1") && log.stdout.contains("reviews ("))
    }

    @Test(arguments: [[0, 1, 2], [2, 1, 0], [1, 0, 2], [1, 2, 0, 1, 2]])
    func threeDevicesEndIdenticalInAnyOrder(_ order: [Int]) async throws {
        let network = Network()
        let devices = try await network.devices(3)
        for (index, device) in devices.enumerated() {
            try device.study(
                ["english-a1/run", "english-a1/have", "math/arithmetic/addition/carry_tens"], seed: UInt64(index + 10))
        }
        let union = try devices.map { try $0.reviewIDs() }.reduce(Set()) { $0.union($1) }
        for index in order { try devices[index].sync() }
        for device in devices { try device.sync() }
        var trees: [String] = []
        for device in devices { trees.append(try await device.profilesTree()) }
        #expect(Set(trees).count == 1)
        for device in devices { #expect(try device.reviewIDs() == union) }
        for device in devices { #expect(await device.fsckIsClean(), "\(device.root.path)") }
    }

    @Test func aHandEditToContentAndAStudySessionMergeCleanly() async throws {
        let network = Network()
        let devices = try await network.devices(2)
        let path = "corpus/english-a1/run.yaml"
        let text = try String(contentsOf: devices[0].root.appending(path: path), encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: "usage_notes: Double the n", with: "usage_notes: Mostly used for moving fast. Double the n")
        #expect(edited != text, "the hand edit changes run.yaml")
        try edited.write(to: devices[0].root.appending(path: path), atomically: true, encoding: .utf8)
        try devices[0].sync()
        try devices[1].study(["english-a1/run"], seed: 1)
        let report = try devices[1].sync()
        #expect(report.conflicts.isEmpty)
        let merged = try String(contentsOf: devices[1].root.appending(path: path), encoding: .utf8)
        #expect(merged.contains("Mostly used for"))
        #expect(try devices[1].reviewIDs().count == 1)
    }

    /// Issue #32 item 4: the same field edited on two devices used to leave git's markers in
    /// the entry, pushed to every device, and the entry vanished from `list` everywhere.
    @Test func aTrueContentConflictKeepsTheEntryLoadableWithBothValuesWhileProgressStillMerges() async throws {
        let network = Network()
        let devices = try await network.devices(2)
        let path = "corpus/english-a1/go.yaml"
        for (device, translation) in zip(devices, ["يمضي", "يروح"]) {
            let text = try String(contentsOf: device.root.appending(path: path), encoding: .utf8)
            try text.replacingOccurrences(of: "translation: يذهب", with: "translation: \(translation)").write(
                to: device.root.appending(path: path), atomically: true, encoding: .utf8)
            try device.study(["english-a1/run"], seed: UInt64(device.name.hashValue & 0xFF))
        }
        try devices[0].sync()
        let report = try devices[1].sync()
        #expect(report.conflicts.isEmpty, "no markers")
        #expect(report.pushed, "a file that parses is pushed")
        #expect(report.editConflicts.map(\.path) == [path])
        #expect(report.editConflicts.first?.conflict.field == "translation")
        #expect(try devices[1].reviewIDs().count == 2, "both devices' reviews merged")
        let check = await Shell.run(Self.rote, ["-C", devices[1].root.path, "check"])
        let line = try #require(report.editConflicts.first?.conflict.line)
        #expect(check.stdout.contains("\(path):\(line): warning: two devices changed 'translation'"), "\(check.stdout)")
        #expect(check.stdout.contains("يمضي") && check.stdout.contains("يروح"), "both values: \(check.stdout)")
        for device in devices {
            if device !== devices[1] { try device.sync() }
            let list = await Shell.run(Self.rote, ["-C", device.root.path, "list", "english-a1"])
            #expect(list.stdout.contains("english-a1/go "), "the entry still loads on \(device.name)")
            #expect(await device.fsckIsClean())
        }
    }

    /// Three clones edit the same field: one syncs first, one syncs with `rote sync` (exit 1
    /// and a warning, for scripts), one merges with plain `git pull` through the driver
    /// `rote setup-git` installed. Every value written is still in the file.
    @Test func threeClonesEditingOneFieldThroughSyncAndGitPullKeepEveryValue() async throws {
        let network = Network()
        let devices = try await network.devices(3)
        let path = "corpus/english-a1/go.yaml"
        let values = ["يمضي", "يروح", "ينطلق"]
        for (device, value) in zip(devices, values) {
            let text = try String(contentsOf: device.root.appending(path: path), encoding: .utf8)
            try text.replacingOccurrences(of: "translation: يذهب", with: "translation: \(value)").write(
                to: device.root.appending(path: path), atomically: true, encoding: .utf8)
        }
        #expect(await Shell.run(Self.rote, ["-C", devices[0].root.path, "sync"]).status == 0)
        let second = await Shell.run(Self.rote, ["-C", devices[1].root.path, "sync"])
        #expect(second.status == 1, "a conflict a person must settle: \(second.stdout) \(second.stderr)")
        #expect(second.stdout.contains("pushed"), "\(second.stdout)")
        #expect(second.stderr.contains("\(path):") && second.stderr.contains("two devices changed 'translation'"))
        await Shell.run("git", ["commit", "-qam", "go"], in: devices[2].root)
        let pull = await Shell.run(
            "git", ["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: devices[2].root)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(pull.stderr.contains("rote merge-driver: warning: \(path):"), "\(pull.stderr)")
        let merged = try String(contentsOf: devices[2].root.appending(path: path), encoding: .utf8)
        for value in values { #expect(merged.contains(value), "\(value) is kept:\n\(merged)") }
        let list = await Shell.run(Self.rote, ["-C", devices[2].root.path, "list", "english-a1"])
        #expect(list.stdout.contains("english-a1/go "), "\(list.stdout)")
    }

    /// Issue #32 item 6: Rote's drivers were registered for the whole process, so the library
    /// that synced last set the settings every merge in the process replayed progress with.
    /// Two libraries whose learners keep different retention now merge at once, each with its
    /// own: both libraries' drivers are installed before either merges, then both sync on two
    /// threads at once.
    @Test func twoLibrariesMergeAtOnceEachWithItsOwnSettings() async throws {
        let path = "profiles/ana/progress/english-a1/run.yaml"
        var networks: [Network] = []
        var merging: [Device] = []
        for retention in ["0.97", "0.7"] {
            let network = Network()
            networks.append(network)
            let devices = try await network.devices(2)
            let profile = devices[0].root.appending(path: "profiles/ana/profile.yaml")
            let text = try String(contentsOf: profile, encoding: .utf8)
            #expect(text.contains("\nsettings:\n"))
            try text.replacingOccurrences(of: "\nsettings:\n", with: "\nsettings:\n  desired_retention: \(retention)\n")
                .write(to: profile, atomically: true, encoding: .utf8)
            try devices[0].sync()
            try devices[1].sync()
            for (index, device) in devices.enumerated() {
                // Easy answers leave learning at once: the intervals then depend on retention.
                for round in 0..<2 {
                    try device.study(["english-a1/run"], seed: UInt64(7 + index * 10 + round), grade: .easy)
                }
            }
            try devices[0].sync()
            await Shell.run("git", ["fetch", "-q", "origin"], in: devices[1].root)
            merging.append(devices[1])
        }
        // What each library's merge must write: its own settings' replay of both sides.
        func expected(_ device: Device, settingsOf other: Device) throws -> Data {
            let repository = try Repository.open(at: device.root)
            let side = { (name: String) throws -> Data in
                let tip = try #require(try repository.reference(named: name))
                let file = try #require(try repository.commit(tip).tree().entryID(atPath: path))
                return try repository.blob(file)
            }
            let outcome = ProgressMerge.merge(
                base: nil, ours: try side("HEAD"), theirs: try side("refs/remotes/origin/main"),
                settings: MergeDrivers.settingsResolver(root: other.root)(path), path: path)
            guard case .merged(let data) = outcome else { throw CancellationError() }
            return data
        }
        let wanted = try merging.map { try expected($0, settingsOf: $0) }
        #expect(
            try expected(merging[0], settingsOf: merging[1]) != wanted[0], "the two settings give different merges")

        // Both libraries' drivers installed before either merges; their transactions end
        // before the syncs below take the locks again.
        do {
            let syncs = try merging.map { LibrarySync(transaction: try $0.transaction()) }
            for sync in syncs { try sync.installMergeDrivers() }
            for (index, sync) in syncs.enumerated() {
                let repository = sync.git.repository
                let head = try #require(try repository.headCommit())
                let theirsID = try #require(try repository.reference(named: "refs/remotes/origin/main"))
                let theirs = try repository.commit(theirsID)
                let merge = try sync.mergeCommit(ours: head, theirs: theirs)
                let merged = try repository.blob(try #require(merge.tree.entryID(atPath: path)))
                #expect(merged == wanted[index], "library \(index) merged with its own settings")
            }
        }

        let reports = try await withThrowingTaskGroup(of: (Int, SyncReport).self) { group in
            for (index, device) in merging.enumerated() {
                let (root, clock) = (device.root, device.clock)
                group.addTask {
                    (index, try LibrarySync.sync(root: root, user: "ana", now: { clock }))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(reports.count == 2 && reports.values.allSatisfy { $0.pushed })
        for (index, device) in merging.enumerated() {
            let merged = try Data(contentsOf: device.root.appending(path: path))
            #expect(merged == wanted[index], "library \(index), synced beside the other, kept its own settings")
        }
        withExtendedLifetime(networks) {}
    }

    @Test func anErasureStaysDeletedButAPlainDeletionLosesToAChange() async throws {
        let network = Network()
        let devices = try await network.devices(2)
        try devices[0].study(["english-a1/run", "english-a1/go"], seed: 3)
        try devices[0].sync()
        try devices[1].sync()
        // Device 1 erases the learner's progress for `run` (as `rote forget` does) and deletes
        // `go`'s progress by hand; device 0 studies both meanwhile.
        let git1 = try devices[1].git()
        try git1.commit(
            changes: ["profiles/ana/progress/english-a1/run.yaml": nil],
            message: CommitMessage(subject: "Forget ana", trailers: [.init(SessionCommitMessage.erasureTrailer, "ana")])
        )
        try git1.commit(changes: ["profiles/ana/progress/english-a1/go.yaml": nil], message: "Tidy up by hand\n")
        for path in ["run", "go"] {
            try FileManager.default.removeItem(
                at: devices[1].root.appending(path: "profiles/ana/progress/english-a1/\(path).yaml"))
        }
        #expect(try devices[1].git().pendingPaths().isEmpty)
        try devices[0].study(["english-a1/run", "english-a1/go"], seed: 4)
        try devices[1].sync()
        try devices[0].sync()
        try devices[1].sync()
        for device in devices {
            #expect(
                !FileManager.default.fileExists(
                    atPath: device.root.appending(path: "profiles/ana/progress/english-a1/run.yaml").path))
            #expect(
                FileManager.default.fileExists(
                    atPath: device.root.appending(path: "profiles/ana/progress/english-a1/go.yaml").path))
        }
        #expect(try await devices[0].profilesTree() == (try devices[1].profilesTree()))
    }

    @Test func plainGitPullMergesExactlyAsSyncDoes() async throws {
        let network = Network()
        let devices = try await network.devices(3)
        try devices[0].study(["english-a1/run", "english-a1/go"], seed: 5)
        try devices[0].sync()
        // Devices 1 and 2 start from the same commit and study the same way.
        try devices[1].study(["english-a1/run", "english-a1/have"], seed: 6)
        await Shell.run("git", ["fetch", "-q", devices[1].root.path, "main"], in: devices[2].root)
        await Shell.run("git", ["reset", "-q", "--hard", "FETCH_HEAD"], in: devices[2].root)
        try devices[1].sync()
        let pull = await Shell.run(
            "git", ["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: devices[2].root)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: devices[1].root).stdout
                == Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: devices[2].root).stdout, "byte-identical trees")
    }

    @Test func aPushRaceIsResolvedByTheRetryLoop() async throws {
        let network = Network()
        let devices = try await network.devices(3)
        for (index, device) in devices.enumerated() {
            try device.study(["english-a1/run", "english-a1/go"], seed: UInt64(40 + index))
        }
        // Three processes sync at the same moment; each must end pushed.
        let results = await withTaskGroup(of: Shell.Output.self) { group in
            for root in devices.map(\.root.path) {
                group.addTask { await Shell.run(Self.rote, ["-C", root, "--user", "ana", "sync"]) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for output in results { #expect(output.status == 0, "\(output.stdout)\(output.stderr)") }
        // A folder remote has no compare-and-swap: a push checked as landed can still be
        // overwritten by a racing one a moment later. The commit stays on its device, whose
        // next sync puts it back; two rounds bring every device's reviews to every device.
        for _ in 0..<2 {
            for device in devices { try device.sync() }
        }
        var trees: [String] = []
        for device in devices { trees.append(try await device.profilesTree()) }
        #expect(Set(trees).count == 1)
        #expect(try devices[0].reviewIDs().count == 6)
        for device in devices { #expect(await device.fsckIsClean(), "\(device.root.path)") }
    }

    @Test func aGitDaemonRemoteOnLoopback() async throws {
        let network = Network()
        let devices = try await network.devices(1)
        let port = 20_000 + Int(ProcessInfo.processInfo.processIdentifier % 20_000)
        let daemon = Process()
        // git-daemon itself, not the `git` wrapper, so killing it stops the server.
        daemon.executableURL = URL(
            fileURLWithPath: await Shell.run("git", ["--exec-path"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
                + "/git-daemon")
        daemon.arguments = [
            "--reuseaddr", "--export-all", "--enable=receive-pack", "--listen=127.0.0.1", "--port=\(port)",
            "--base-path=\(network.directory.url.path)", network.directory.url.path,
        ]
        try daemon.run()
        defer {
            // SIGKILL: a process started from a test thread may have SIGTERM blocked.
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        let url = "git://127.0.0.1:\(port)/remote.git"
        var ready = false
        for _ in 0..<50 where !ready {
            ready = await Shell.run("git", ["ls-remote", url]).status == 0
            if !ready { usleep(100_000) }
        }
        #expect(ready, "git daemon answers")
        let clone = await Shell.run(Self.rote, ["clone", url, network.directory.url.appending(path: "over-git").path])
        #expect(clone.status == 0, "\(clone.stderr)")
        let second = Device(
            root: network.directory.url.appending(path: "over-git"), name: "over-git",
            clock: Date(timeIntervalSince1970: 1_795_200_000))
        await Shell.run("git", ["remote", "set-url", "origin", url], in: devices[0].root)
        try devices[0].study(["english-a1/run"], seed: 1)
        try second.study(["english-a1/run"], seed: 2)
        try devices[0].sync()
        try second.sync()
        try devices[0].sync()
        #expect(try devices[0].reviewIDs().count == 2)
        #expect(try await devices[0].profilesTree() == (try second.profilesTree()))
    }

    @Test func syncWithoutARemoteSaysHowToAddOne() async throws {
        let directory = TemporaryDirectory()
        let root = directory.url.appending(path: "lib")
        try LibraryCreator(user: "ana").create(at: root)
        let output = await Shell.run(Self.rote, ["-C", root.path, "sync"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("no remote named 'origin'"))
        #expect(output.stderr.contains("remote add origin"))
    }

    @Test func sessionCommitMessageSummarisesTheSession() {
        let start = Timestamp.parse("2026-11-21T10:00:00Z")!
        let session = SessionFile(
            id: "s1", user: "ana", device: "laptop", startedAt: start, endedAt: start.addingTimeInterval(14 * 60),
            decks: ["english-a1", "kjv"], again: 3, hard: 5, good: 14, easy: 2, new: 6)
        let message = SessionCommitMessage.make(for: session).rendered(device: "laptop", user: "ana")
        #expect(
            message.hasPrefix(
                "Study: 24 reviews (3 again, 5 hard, 14 good, 2 easy), 6 new — english-a1, kjv · 14 min\n"))
        #expect(SessionCommitMessage.trailer("Rote-Session", in: message) == "s1")
        #expect(SessionCommitMessage.trailer("Rote-Device", in: message) == "laptop")
        #expect(SessionCommitMessage.trailer("Rote-User", in: message) == "ana")
    }
}

/// A library whose tracked `.gitattributes` predates a merge rule still merges by it:
/// `rote sync` and `rote setup-git` put the full table into `.git/info/attributes`.
@Suite(.serialized) struct MergeRulesInClonesTests {
    static var rote: String { SyncIntegrationTests.rote }
    let directory = TemporaryDirectory("rote-rules")

    func clone(_ name: String) async -> URL {
        let root = directory.url.appending(path: name)
        await Shell.run("git", ["clone", "-q", directory.url.appending(path: "remote.git").path, root.path])
        await Shell.run("git", ["config", "user.name", name], in: root)
        await Shell.run("git", ["config", "user.email", "\(name)@example.invalid"], in: root)
        return root
    }

    @discardableResult
    func rote(_ root: URL, _ arguments: [String], input: String? = nil) async -> Shell.Output {
        await Shell.run(
            Self.rote, ["-C", root.path, "--user", "ana"] + arguments, input: input, environment: ["NO_COLOR": "1"])
    }

    func record(_ root: URL, score: Int, second: Int) async {
        let attempt =
            #"{"letter": "a", "mode": "memory", "score": \#(score), "stroke_order": 90, "direction": 90, "shape": 90, "start": 90, "started_at": "2026-11-21T10:00:\#(second)Z", "completed_at": "2026-11-21T10:00:\#(second)Z", "drawing": [[[50, 10, 0], [50, 80, 400]]]}"#
        let result = await rote(root, ["letters", "record", "-"], input: attempt)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func scores(_ root: URL) throws -> [Int] {
        let path = "profiles/ana/letters/alphabet/a.yaml"
        let data = try #require(FileManager.default.contents(atPath: root.appending(path: path).path))
        #expect(!String(decoding: data, as: UTF8.self).contains("<<<<<<<"), "no conflict markers")
        return try #require(LetterAttemptsFile.decode(data, path: path).0).attempts.map(\.score).sorted()
    }

    func mergeAttribute(_ root: URL) async -> String {
        await Shell.run("git", ["check-attr", "merge", "profiles/ana/letters/alphabet/a.yaml"], in: root).stdout
    }

    @Test func lettersMergeAsAUnionWithRoteSyncAndWithGitPullThoughGitattributesLacksTheRule() async throws {
        // An old library: its tracked .gitattributes has no letters rule.
        let first = directory.url.appending(path: "first")
        try LibraryCreator(user: "ana", now: Date(timeIntervalSince1970: 1_795_000_000)).create(at: first)
        let old =
            MergeRules.gitAttributes.split(separator: "\n").filter { !$0.contains("letters") }.joined(separator: "\n")
            + "\n"
        try old.write(to: first.appending(path: ".gitattributes"), atomically: true, encoding: .utf8)
        await Shell.run(
            "git",
            ["-c", "user.name=Old", "-c", "user.email=old@example.invalid", "commit", "-qam", "Rote before letters"],
            in: first)
        await Shell.run(
            "git", ["init", "-q", "--bare", "-b", "main", directory.url.appending(path: "remote.git").path])
        await Shell.run(
            "git", ["remote", "add", "origin", directory.url.appending(path: "remote.git").path], in: first)
        await record(first, score: 70, second: 10)
        await Shell.run("git", ["push", "-q", "origin", "main"], in: first)
        let (laptop, phone, tablet) = await (clone("laptop"), clone("phone"), clone("tablet"))
        #expect(
            await mergeAttribute(tablet).hasSuffix("merge: unspecified\n"),
            "a plain clone of the old library has no letters rule")

        await record(laptop, score: 81, second: 20)
        await record(phone, score: 82, second: 30)
        await record(tablet, score: 83, second: 40)
        #expect(await rote(laptop, ["sync"]).status == 0)
        let phoneSync = await rote(phone, ["sync"])
        #expect(phoneSync.status == 0, "\(phoneSync.stderr)")
        #expect(phoneSync.stdout.contains("merged"), "\(phoneSync.stdout)")
        #expect(try scores(phone) == [70, 81, 82], "rote sync merged both devices' attempts")

        #expect(await rote(tablet, ["setup-git"]).status == 0)
        let attribute = await mergeAttribute(tablet)
        #expect(attribute.hasSuffix("merge: rote-letters\n"), "\(attribute)")
        let pull = await Shell.run("git", ["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: tablet)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try scores(tablet) == [70, 81, 82, 83], "plain git pull merged the union too")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: tablet).stdout.isEmpty)
        #expect(
            await !Shell.run("git", ["show", "HEAD:.gitattributes"], in: tablet).stdout.contains("letters"),
            "the tracked file is left alone")
    }
}
