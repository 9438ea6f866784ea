import Foundation
import TestSupport
import Testing

@testable import Git

/// The index file read straight from its bytes must say what git says of it: every staged
/// file's blob and stat data, in every index version git writes, and nothing at all where the
/// file is not in a form read here.
@Suite struct IndexStampsTests {
    /// A repository with committed, staged, nested, long-named and unstaged files.
    static func repository() async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let root = directory.url
        await GitTest.git(["init", "-q", "-b", "main", "."], in: root)
        var files: [String: String] = [
            "rote.yaml": "name: test\n", "corpus/words/deck.yaml": "kind: vocabulary\n",
            "corpus/words/café.yaml": "word: café\n",
            "profiles/ana/progress/words/" + String(repeating: "long", count: 40) + ".yaml": "entry: x\n",
        ]
        for number in 0..<40 { files["corpus/words/w\(number).yaml"] = "word: w\(number)\n" }
        for (path, text) in files {
            let target = root.appending(path: path)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target)
        }
        await GitTest.git(["add", "-A"], in: root)
        await GitTest.git(["commit", "-qm", "Seed"], in: root)
        try Data("word: new\n".utf8).write(to: root.appending(path: "corpus/words/staged.yaml"))
        await GitTest.git(["add", "corpus/words/staged.yaml"], in: root)
        try Data("not staged\n".utf8).write(to: root.appending(path: "corpus/words/loose.yaml"))
        return directory
    }

    /// What `git ls-files --stage --debug` says of each stage-0 entry.
    static func gitsView(of root: URL) async -> [String: Index.Stamp] {
        let output = await GitTest.git(["-c", "core.quotepath=off", "ls-files", "--stage", "--debug"], in: root)
        var stamps: [String: Index.Stamp] = [:]
        var current: (path: String, id: ObjectID, stage: Int)?
        var mtime: (Int32, UInt32)?
        var inode: UInt32?
        for line in output.split(separator: "\n").map(String.init) {
            if !line.hasPrefix(" ") {
                // "<mode> <id> <stage>\t<path>"
                let (fields, path) = (
                    line.split(separator: "\t", maxSplits: 1)[0].split(separator: " "),
                    String(line.split(separator: "\t", maxSplits: 1)[1])
                )
                current = (path, ObjectID(hex: String(fields[1]))!, Int(fields[2])!)
            } else if line.hasPrefix("  mtime: ") {
                // "  mtime: <seconds>:<nanoseconds>"
                let parts = line.dropFirst("  mtime: ".count).split(separator: ":")
                mtime = (Int32(parts[0])!, UInt32(parts[1])!)
            } else if let found = line.range(of: "ino: ") {
                inode = UInt32(line[found.upperBound...])!
            } else if line.hasPrefix("  size: "), let entry = current, let mtime, let inode {
                // "  size: <bytes>\tflags: <flags>"
                let size = UInt32(line.dropFirst("  size: ".count).prefix { $0 != "\t" })!
                if entry.stage == 0 {
                    stamps[entry.path] = Index.Stamp(
                        id: entry.id, size: size, modifiedSeconds: mtime.0, modifiedNanoseconds: mtime.1, inode: inode)
                }
            }
        }
        return stamps
    }

    static func expectSame(_ root: URL, sourceLocation: SourceLocation = #_sourceLocation) async {
        let expected = await gitsView(of: root)
        let stamps = IndexStamps(gitDirectory: root.appending(path: ".git"))
        #expect(expected.count > 40, sourceLocation: sourceLocation)
        #expect(stamps.count == expected.count, sourceLocation: sourceLocation)
        for (path, stamp) in expected {
            #expect(stamps.stamp(forPath: path) == stamp, "\(path)", sourceLocation: sourceLocation)
        }
        #expect(stamps.stamp(forPath: "corpus/words/loose.yaml") == nil, sourceLocation: sourceLocation)
        #expect(stamps.stamp(forPath: "corpus/words") == nil, sourceLocation: sourceLocation)
    }

    @Test(arguments: [2, 3, 4])
    func everyStagedFileAsGitSeesIt(version: Int) async throws {
        let directory = try await IndexStampsTests.repository()
        await GitTest.git(["update-index", "--index-version", "\(version)"], in: directory.url)
        if version >= 3 {
            // An intent-to-add entry carries the extended flags only versions 3 and 4 have.
            try Data("word: later\n".utf8).write(to: directory.url.appending(path: "corpus/words/later.yaml"))
            await GitTest.git(["add", "-N", "corpus/words/later.yaml"], in: directory.url)
        }
        await IndexStampsTests.expectSame(directory.url)
    }

    @Test func aConflictsSidesHaveNoStamp() async throws {
        let directory = try await IndexStampsTests.repository()
        let root = directory.url
        await GitTest.git(["commit", "-qm", "Staged"], in: root)
        await GitTest.git(["checkout", "-qb", "other"], in: root)
        try Data("word: other\n".utf8).write(to: root.appending(path: "corpus/words/w1.yaml"))
        await GitTest.git(["commit", "-qam", "Other"], in: root)
        await GitTest.git(["checkout", "-q", "main"], in: root)
        try Data("word: main\n".utf8).write(to: root.appending(path: "corpus/words/w1.yaml"))
        await GitTest.git(["commit", "-qam", "Main"], in: root)
        #expect(await Shell.run("git", GitTest.identity + ["merge", "-q", "other"], in: root).status != 0)
        let stamps = IndexStamps(gitDirectory: root.appending(path: ".git"))
        #expect(stamps.stamp(forPath: "corpus/words/w1.yaml") == nil)
        await IndexStampsTests.expectSame(root)
    }

    @Test func aSplitIndexGivesNoStamps() async throws {
        let directory = try await IndexStampsTests.repository()
        await GitTest.git(["update-index", "--split-index"], in: directory.url)
        #expect(IndexStamps(gitDirectory: directory.url.appending(path: ".git")).count == 0)
    }

    /// A damaged file gives some stamps or none, and never a read out of bounds: cut at every
    /// length, and with bytes overwritten.
    @Test(arguments: [2, 4])
    func aDamagedIndexIsReadSafely(version: Int) async throws {
        let directory = try await IndexStampsTests.repository()
        await GitTest.git(["update-index", "--index-version", "\(version)"], in: directory.url)
        let bytes = try Data(contentsOf: directory.url.appending(path: ".git/index"))
        let whole = IndexStamps(indexFile: bytes)
        for length in 0..<bytes.count where IndexStamps(indexFile: bytes.prefix(length)).count > whole.count {
            Issue.record("cut at \(length): more stamps than the whole file")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var damaged = bytes
            for _ in 0..<3 {
                damaged[Int.random(in: 12..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            _ = IndexStamps(indexFile: damaged)
        }
        #expect(IndexStamps(indexFile: Data("DIRC".utf8)).count == 0)
    }
}
