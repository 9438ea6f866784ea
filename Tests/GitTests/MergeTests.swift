import Foundation
import TestSupport
import Testing

@testable import Git

/// Three-way merges in memory: conflicts and their resolution, and custom merge drivers.
@Suite struct MergeTests {
    /// A repository with a base commit and two divergent commits made from it by `buildTree`.
    struct Divergence {
        let directory = TemporaryDirectory()
        let repository: Repository
        let base: ObjectID
        let ours: ObjectID
        let theirs: ObjectID

        init(
            base baseFiles: [String: String], ours oursChanges: [String: String?],
            theirs theirsChanges: [String: String?]
        ) throws {
            repository = try Repository.create(at: directory.url.appending(path: "repo"))
            func data(_ changes: [String: String?]) -> [String: Data?] {
                changes.mapValues { $0.map { Data($0.utf8) } }
            }
            // The work tree gets the base files too, so `.gitattributes` is where libgit2 looks.
            base = try GitTest.commit(baseFiles, message: "Base", in: repository)
            let baseCommit = try repository.commit(base)
            let baseTree = try baseCommit.tree()
            ours = try GitTest.looseCommit(
                try repository.buildTree(from: baseTree, changes: data(oursChanges)), parents: [baseCommit],
                message: "Ours", in: repository)
            theirs = try GitTest.looseCommit(
                try repository.buildTree(from: baseTree, changes: data(theirsChanges)), parents: [baseCommit],
                message: "Theirs", in: repository)
        }

        var url: URL { directory.url.appending(path: "repo") }
    }

    @Test func conflictsListEachSideAndCanBeResolved() async throws {
        let setup = try Divergence(
            base: ["a.txt": "one\ntwo\nthree\n", "b.txt": "keep me\n", "same.txt": "x\n"],
            ours: [
                "a.txt": "one\nTWO (ours)\nthree\n", "b.txt": "changed by us\n", "c.txt": "ours c\n",
                "mine.txt": "only ours\n",
            ],
            theirs: ["a.txt": "one\nTWO (theirs)\nthree\n", "b.txt": nil, "c.txt": "theirs c\n", "same.txt": "x\ny\n"])
        let repository = setup.repository
        let merged = try repository.mergeCommits(ours: setup.ours, theirs: setup.theirs)
        #expect(merged.hasConflicts)
        let conflicts = try merged.conflicts()
        #expect(conflicts.map(\.path) == ["a.txt", "b.txt", "c.txt"])
        let byPath = Dictionary(uniqueKeysWithValues: conflicts.map { ($0.path, $0) })
        // Both modified.
        #expect(try GitTest.text(byPath["a.txt"]?.ancestor, in: repository) == "one\ntwo\nthree\n")
        #expect(try GitTest.text(byPath["a.txt"]?.ours, in: repository) == "one\nTWO (ours)\nthree\n")
        #expect(try GitTest.text(byPath["a.txt"]?.theirs, in: repository) == "one\nTWO (theirs)\nthree\n")
        // Modified by us, deleted by them.
        #expect(try GitTest.text(byPath["b.txt"]?.ours, in: repository) == "changed by us\n")
        #expect(byPath["b.txt"]?.theirs == nil)
        #expect(byPath["b.txt"]?.ancestor != nil)
        // Added on both sides.
        #expect(byPath["c.txt"]?.ancestor == nil)
        #expect(byPath["c.txt"]?.ours != nil && byPath["c.txt"]?.theirs != nil)

        #expect(throws: GitError.self) { try merged.writeTree() }  // unmerged entries remain

        try merged.resolveConflict(at: "a.txt", with: Data("one\nTWO (both)\nthree\n".utf8))
        try merged.resolveConflict(at: "b.txt", with: nil)
        #expect(merged.hasConflicts)
        try merged.resolveConflict(at: "c.txt", with: Data("both c\n".utf8))
        #expect(!merged.hasConflicts)
        #expect(try merged.conflicts().isEmpty)
        let tree = try merged.writeTree()
        #expect(try GitTest.text(at: "a.txt", of: tree, in: repository) == "one\nTWO (both)\nthree\n")
        #expect(tree.entryID(atPath: "b.txt") == nil)
        #expect(try GitTest.text(at: "c.txt", of: tree, in: repository) == "both c\n")
        #expect(try GitTest.text(at: "same.txt", of: tree, in: repository) == "x\ny\n")
        #expect(try GitTest.text(at: "mine.txt", of: tree, in: repository) == "only ours\n")

        let commit = try GitTest.looseCommit(
            tree, parents: [try repository.commit(setup.ours), try repository.commit(setup.theirs)], message: "Merge",
            in: repository)
        try repository.setReference(named: "refs/heads/merged", to: commit, message: "test")
        await GitTest.expectSound(setup.url)
    }

    @Test func aDriverNamedInGitattributesMergesInsideMergeCommits() async throws {
        let calls = Recorder()
        try MergeDriver.register(name: "rote-test-union-sorted") { input in
            calls.record(input)
            let lines = Set(
                [input.ours, input.theirs].compactMap { $0 }.flatMap {
                    String(decoding: $0, as: UTF8.self).split(separator: "\n")
                })
            return .merged(Data((lines.sorted().joined(separator: "\n") + "\n").utf8))
        }
        let setup = try Divergence(
            base: [
                ".gitattributes": "*.txt merge=rote-test-union-sorted\n", "log.txt": "b\n",
                "notes.md": "one\ntwo\nthree\n",
            ],
            ours: ["log.txt": "b\nd\n", "notes.md": "ONE\ntwo\nthree\n", "untouched.txt": "u\n"],
            theirs: ["log.txt": "b\nc\n", "notes.md": "one\ntwo\nTHREE\n"])
        let merged = try setup.repository.mergeCommits(ours: setup.ours, theirs: setup.theirs)
        #expect(!merged.hasConflicts)
        let tree = try merged.writeTree()
        // Both sides appended at the same place, a conflict for the text merge; the driver unites them.
        #expect(try GitTest.text(at: "log.txt", of: tree, in: setup.repository) == "b\nc\nd\n")
        // notes.md has no driver: libgit2's text merge combines the two edits.
        #expect(try GitTest.text(at: "notes.md", of: tree, in: setup.repository) == "ONE\ntwo\nTHREE\n")
        // The driver ran once, for the one path both sides changed, with all three versions.
        let inputs = calls.inputs
        #expect(inputs.map(\.path) == ["log.txt"])
        #expect(inputs.first?.ancestor == Data("b\n".utf8))
        #expect(inputs.first?.ours == Data("b\nd\n".utf8))
        #expect(inputs.first?.theirs == Data("b\nc\n".utf8))
        _ = try GitTest.looseCommit(tree, parents: [], message: "Result", in: setup.repository)
        await GitTest.expectSound(setup.url)
    }

    @Test func aDriverCanLeaveAConflictOrDeferToTheTextMergeAndCanBeReplaced() throws {
        let name = "rote-test-switchable"
        try MergeDriver.register(name: name) { _ in .conflict }
        let setup = try Divergence(
            base: [".gitattributes": "*.yaml merge=\(name)\n", "p.yaml": "a: 1\nb: 2\nc: 3\n"],
            ours: ["p.yaml": "a: 10\nb: 2\nc: 3\n"],
            theirs: ["p.yaml": "a: 1\nb: 2\nc: 30\n"])
        let conflicted = try setup.repository.mergeCommits(ours: setup.ours, theirs: setup.theirs)
        #expect(try conflicted.conflicts().map(\.path) == ["p.yaml"])

        try MergeDriver.register(name: name) { _ in .defaultMerge }
        let textMerged = try setup.repository.mergeCommits(ours: setup.ours, theirs: setup.theirs)
        #expect(!textMerged.hasConflicts)
        #expect(
            try GitTest.text(at: "p.yaml", of: textMerged.writeTree(), in: setup.repository) == "a: 10\nb: 2\nc: 30\n")

        try MergeDriver.register(name: name) { input in .merged(input.theirs ?? Data()) }
        let theirsWins = try setup.repository.mergeCommits(ours: setup.ours, theirs: setup.theirs)
        #expect(
            try GitTest.text(at: "p.yaml", of: theirsWins.writeTree(), in: setup.repository) == "a: 1\nb: 2\nc: 30\n")
    }

    @Test func theDefaultDriverServesABareRepository() async throws {
        try MergeDriver.register(name: "rote-test-bare-default") { _ in .merged(Data("from the driver\n".utf8)) }
        let setup = try Divergence(base: ["f.txt": "base\n"], ours: ["f.txt": "ours\n"], theirs: ["f.txt": "theirs\n"])
        let bareURL = setup.directory.url.appending(path: "bare.git")
        await GitTest.git(["clone", "-q", "--bare", setup.url.path, bareURL.path], in: setup.directory.url)
        await GitTest.git(
            [
                "fetch", "-q", setup.url.path, "\(setup.ours.hex):refs/heads/ours",
                "\(setup.theirs.hex):refs/heads/theirs",
            ], in: bareURL)
        let bare = try Repository.open(at: bareURL)
        #expect(bare.workTree == nil)
        #expect(try bare.mergeCommits(ours: setup.ours, theirs: setup.theirs).hasConflicts)
        let merged = try bare.mergeCommits(
            ours: setup.ours, theirs: setup.theirs, defaultDriver: "rote-test-bare-default")
        #expect(try GitTest.text(at: "f.txt", of: merged.writeTree(), in: bare) == "from the driver\n")
    }

    @Test func builtInDriverNamesCannotBeTaken() {
        #expect(throws: GitError.self) { try MergeDriver.register(name: "text") { _ in .defaultMerge } }
    }
}

/// Collects what a merge driver was given; drivers are `@Sendable`.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [MergeDriverInput] = []

    func record(_ input: MergeDriverInput) {
        lock.lock()
        recorded.append(input)
        lock.unlock()
    }

    var inputs: [MergeDriverInput] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
