import Foundation
import Git
import RoteLibrary
import RoteModel
import TestSupport
import Testing

@testable import RoteStore

/// An entry's history comes from the changed-paths cache where it can; it must be the history
/// that comparing every commit's trees gives, whoever made the commits and whatever the
/// cache file holds.
@Suite struct EntryHistoryTests {
    static let run = "corpus/english-a1/run.yaml"
    static let runProgress = "profiles/demo/progress/english-a1/run.yaml"

    /// The commits that changed `paths`, by comparing each commit's tree with its parent's.
    static func fromTrees(root: URL, paths: [String]) throws -> [String] {
        let repository = try Repository.open(at: root)
        guard let head = try repository.headCommit() else { return [] }
        return try repository.log(from: head.id).filter { commit in
            let tree = try commit.tree()
            let parent = try commit.parents().first?.tree()
            return paths.contains { tree.entryID(atPath: $0) != parent?.entryID(atPath: $0) }
        }.map(\.id.hex)
    }

    static func fromCache(root: URL, entry: String) throws -> [String] {
        let library = try Library(root: root, user: "demo")
        return try library.commits(touching: library.entry(named: entry)).map(\.id)
    }

    static func cacheFile(_ root: URL) -> URL { root.appending(path: ".git/rote/changed-paths") }

    /// Rote's commits, a commit made with git, and one that rewrites a file with the bytes it
    /// already had (which changes nothing and must not appear).
    static func libraryWithHistory() async throws -> TemporaryDirectory {
        let directory = await StarterLibrary.copy()
        let root = directory.url
        let git = try LibraryGit(root: root, user: "demo")
        let original = try Data(contentsOf: root.appending(path: run))
        try git.commit(changes: [runProgress: Data("status: ignored\n".utf8)], message: "Ignore run")
        try git.commit(
            changes: ["profiles/demo/progress/english-a1/go.yaml": Data("status: ignored\n".utf8)], message: "Ignore go"
        )
        try git.commit(
            changes: [run: original, "profiles/demo/progress/english-a1/be.yaml": Data("status: ignored\n".utf8)],
            message: "Ignore be, run unchanged")
        try Data((String(decoding: original, as: UTF8.self) + "# edited by hand\n").utf8).write(
            to: root.appending(path: run))
        await Shell.run("git", ["commit", "-q", "-am", "Edit run by hand"], in: root)
        try git.commit(changes: [runProgress: nil], message: "Forget run")
        return directory
    }

    @Test func theCacheGivesTheHistoryTheTreesGive() async throws {
        let directory = try await Self.libraryWithHistory()
        let root = directory.url
        let expected = try Self.fromTrees(root: root, paths: [Self.run, Self.runProgress])
        #expect(expected.count == 4, "the starter commit, ignore, the hand edit, forget")
        #expect(try Self.fromCache(root: root, entry: "english-a1/run") == expected)
        // Rote's own commits were written to the cache as they were made, the hand commit
        // when the history walk met it; the no-op rewrite of run.yaml is not a change.
        let lines = try String(contentsOf: Self.cacheFile(root), encoding: .utf8).split(separator: "\n")
        let ignoreBe = lines.first { $0.contains("progress/english-a1/be.yaml") }
        #expect(ignoreBe != nil && !ignoreBe!.contains(Self.run), "\(lines)")
        #expect(lines.filter { $0.contains(Self.run + "\t") }.count == 1, "the hand edit: \(lines)")
        // The first commit adds every file: it is looked up in its tree, not listed.
        #expect(lines.filter { $0.hasSuffix("\t*\t.") }.count == 1, "\(lines)")
        for word in ["go", "be"] {
            let paths = ["corpus/english-a1/\(word).yaml", "profiles/demo/progress/english-a1/\(word).yaml"]
            #expect(
                try Self.fromCache(root: root, entry: "english-a1/\(word)") == Self.fromTrees(root: root, paths: paths),
                "\(word)")
        }
    }

    @Test func aLineCutShortIsIgnoredAndAWrongOneNeverHides() async throws {
        let directory = try await Self.libraryWithHistory()
        let root = directory.url
        let expected = try Self.fromTrees(root: root, paths: [Self.run, Self.runProgress])
        // A crash mid-append leaves a line without its closing field: here it claims the
        // newest commit changed nothing, which would hide it if it were believed.
        let head = try #require(try Repository.open(at: root).headCommit()).id.hex
        try? FileManager.default.removeItem(at: Self.cacheFile(root))
        try Data("\(head)\tcorpus/x.yaml".utf8).write(to: Self.cacheFile(root))
        #expect(try Self.fromCache(root: root, entry: "english-a1/run") == expected)
        // Its line was written after the torn one, on a line of its own, and reads back.
        let text = try String(contentsOf: Self.cacheFile(root), encoding: .utf8)
        #expect(text.contains("\n\(head)\t\(Self.runProgress)\t.\n"), "\(text)")
    }
}

/// A git kept open between writes (`rote serve`) commits as a new one would, also when
/// another process committed in between and git's index changed under it.
@Suite struct LibraryGitPoolTests {
    @Test func writesThroughAKeptGitCommitAsANewOneWould() async throws {
        let directory = await StarterLibrary.copy()
        let root = directory.url
        let pool = LibraryCommits(deferred: false)
        func library() async throws -> Library {
            let library = try Library(root: root, user: "demo")
            library.commits = pool
            return library
        }
        let first = try await library()
        _ = try first.change(.status(.ignored), of: [first.entry(named: "english-a1/go")], verb: "Ignore")
        // Another process commits, changing git's index behind the kept git.
        let hand =
            try String(contentsOf: root.appending(path: "corpus/english-a1/run.yaml"), encoding: .utf8) + "# a note\n"
        try Data(hand.utf8).write(to: root.appending(path: "corpus/english-a1/run.yaml"))
        await Shell.run("git", ["commit", "-q", "-am", "Edit run by hand"], in: root)
        let second = try await library()
        _ = try second.change(.status(.ignored), of: [second.entry(named: "english-a1/be")], verb: "Ignore")
        let log = await Shell.run("git", ["log", "--format=%s", "-3"], in: root).stdout
        #expect(log == "Ignore: english-a1/be\nEdit run by hand\nIgnore: english-a1/go\n", "\(log)")
        #expect(await Shell.run("git", ["status", "--porcelain"], in: root).stdout == "", "the index matches HEAD")
        let committed = await Shell.run("git", ["show", "HEAD:corpus/english-a1/run.yaml"], in: root).stdout
        #expect(committed.hasSuffix("# a note\n"), "the hand edit is kept")
        #expect(
            await Shell.run("git", ["show", "--name-only", "--format=", "HEAD"], in: root).stdout
                == "profiles/demo/progress/english-a1/be.yaml\n")
    }
}
