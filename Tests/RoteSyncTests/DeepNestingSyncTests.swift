import Foundation
import RoteModel
import Scheduling
import TestSupport
import Testing

@testable import RoteSync

/// Issue #31: a progress file nested 50 000 levels deep, pushed by another clone, killed
/// `rote sync` on every retry and the merge driver under `git pull`. It is now a file that
/// cannot be read, which the merge refuses as a conflict, as it refuses any unreadable file.
@Suite(.serialized) struct DeepNestingSyncTests {
    static let path = "profiles/ana/progress/english-a1/run.yaml"
    static let deep =
        "entry: english-a1/run\nreviews:\n  - " + String(repeating: "[", count: 50_000)
        + String(repeating: "]", count: 50_000) + "\n"

    @Test func aDeepSideIsAConflictForEveryKindOfMerge() {
        let progress = Data(
            "entry: english-a1/run\nreviews:\n  - {id: r1, at: 2026-11-01T09:00:00Z, grade: good}\n".utf8)
        for (kind, path) in [
            (MergeKind.progress, Self.path), (.profile, "profiles/ana/profile.yaml"),
            (.letters, "profiles/ana/letters/alphabet/a.yaml"),
        ] {
            // The deep side is read first, so the refusal is its own; for progress, either side.
            let sides =
                [(Data(Self.deep.utf8), progress)] + (kind == .progress ? [(progress, Data(Self.deep.utf8))] : [])
            for (ours, theirs) in sides {
                let outcome = SemanticMerge.merge(
                    kind: kind, base: nil, ours: ours, theirs: theirs, path: path, settings: .default)
                guard case .conflict(let reason) = outcome else {
                    Issue.record("\(kind): a deep side merged")
                    continue
                }
                #expect(reason.contains("\(path):3"), "\(reason)")
                #expect(reason.contains("nest more than \(100) levels deep"), "\(reason)")
            }
        }
    }

    @Test func rotesMergeDriverRefusesADeepSideWithoutCrashing() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "ours", "entry: english-a1/run\nreviews:\n  - {id: r1, at: 2026-11-01T09:00:00Z, grade: good}\n")
        directory.write("theirs", Self.deep)
        let driver = await Shell.run(
            SyncIntegrationTests.rote, ["merge-driver", "progress", "none", "ours", "theirs", Self.path],
            in: directory.url)
        #expect(driver.status == 1, "a conflict, not a crash: \(driver.status) \(driver.stderr)")
        #expect(driver.stderr.contains("nest more than"), "\(driver.stderr)")
    }

    @Test func syncWithADeepProgressFileFromAnotherCloneReportsAConflictAndTheRestLoads() async throws {
        let network = SyncIntegrationTests.Network()
        let devices = try await network.devices(2)
        // Another clone writes a deep progress file and pushes it.
        devices[1].directoryWrite(Self.path, Self.deep)
        await Shell.run("git", ["add", Self.path], in: devices[1].root)
        await Shell.run("git", ["commit", "-qm", "deep"], in: devices[1].root)
        try devices[1].sync()
        // This one studied the same entry offline: both added the file.
        try devices[0].study(["english-a1/run", "english-a1/go"], seed: 1)
        let report = try devices[0].sync()
        #expect(report.conflicts.contains(Self.path), "\(report.conflicts)")
        // Its markers stay here until fixed: no other clone fast-forwards to them.
        #expect(report.heldBack.contains(Self.path), "\(report.heldBack)")
        #expect(!report.pushed)
        let check = await Shell.run(SyncIntegrationTests.rote, ["-C", devices[0].root.path, "check"])
        #expect(check.stdout.contains(Self.path), "\(check.stdout)")
        let list = await Shell.run(SyncIntegrationTests.rote, ["-C", devices[0].root.path, "list", "english-a1"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("english-a1/go "), "the rest of the library still loads")
        #expect(await devices[0].fsckIsClean())
    }
}

extension SyncIntegrationTests.Device {
    func directoryWrite(_ path: String, _ text: String) {
        TemporaryDirectory(at: root).write(path, text)
    }
}
