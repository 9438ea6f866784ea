import Foundation
import TestSupport
import Testing

@testable import Git

/// Trees built from memory, listed, read and compared.
@Suite struct TreeTests {
    @Test func buildsNestedTreesFromMemoryWithAddsAndDeletes() async throws {
        let directory = TemporaryDirectory()
        let repository = try Repository.create(at: directory.url)
        let first = try repository.buildTree(
            from: nil,
            changes: [
                "rote.yaml": Data("format: 1\n".utf8),
                "corpus/words/run.yaml": Data("word: run\n".utf8),
                "corpus/words/go.yaml": Data("word: go\n".utf8),
                "profiles/ana/progress/words/run.yaml": Data("reviews: []\n".utf8),
                "profiles/ana/saved/x.yaml": Data("x\n".utf8),
                "profiles/ana/saved/y.yaml": Data("y\n".utf8),
                "ghost.txt": nil,  // deleting what is not there does nothing
            ])
        #expect(
            try first.files().map(\.path) == [
                "corpus/words/go.yaml", "corpus/words/run.yaml", "profiles/ana/progress/words/run.yaml",
                "profiles/ana/saved/x.yaml", "profiles/ana/saved/y.yaml", "rote.yaml",
            ])
        #expect(try GitTest.text(at: "corpus/words/run.yaml", of: first, in: repository) == "word: run\n")

        let second = try repository.buildTree(
            from: first,
            changes: [
                "corpus/words/run.yaml": Data("word: run\npos: verb\n".utf8),  // modify
                "corpus/words/go.yaml": nil,  // delete a file
                "corpus/verses/kjv/joh/11-35.yaml": Data("text: Jesus wept.\n".utf8),  // new nested folders
                "profiles/ana/saved": nil,  // delete a whole folder
                "profiles/ana/progress/words/run.yaml": Data("reviews: [a1]\n".utf8),
            ])
        let files = try second.files()
        #expect(
            files.map(\.path) == [
                "corpus/verses/kjv/joh/11-35.yaml", "corpus/words/run.yaml", "profiles/ana/progress/words/run.yaml",
                "rote.yaml",
            ])
        #expect(try repository.blob(try #require(files.first).id) == Data("text: Jesus wept.\n".utf8))
        #expect(second.entryID(atPath: "profiles/ana/saved") == nil, "an emptied folder disappears")
        // The base tree is unchanged, and unchanged sub-trees are shared, not copied.
        #expect(first.entryID(atPath: "corpus/words/go.yaml") != nil)
        #expect(first.entryID(atPath: "rote.yaml") == second.entryID(atPath: "rote.yaml"))

        #expect(
            try repository.changedPaths(from: first, to: second) == [
                "corpus/verses/kjv/joh/11-35.yaml", "corpus/words/go.yaml", "corpus/words/run.yaml",
                "profiles/ana/progress/words/run.yaml", "profiles/ana/saved/x.yaml", "profiles/ana/saved/y.yaml",
            ])
        #expect(try repository.changedPaths(from: second, to: second).isEmpty)
        #expect(try repository.changedPaths(from: nil, to: first).count == 6)

        // Commit it and let the system git check and list it.
        let signature = try Signature(
            name: "Test", email: "test@example.invalid", date: Date(timeIntervalSince1970: 1_795_255_200))
        let one = try repository.createCommit(
            tree: first, parents: [], message: "One", author: signature, committer: signature)
        try repository.createCommit(
            tree: second, parents: [try repository.commit(one)], message: "Two", author: signature, committer: signature
        )
        await GitTest.expectSound(directory.url)
        let listing = await GitTest.git(["ls-tree", "-r", "--format=%(objectname) %(path)", "HEAD"], in: directory.url)
        #expect(listing == files.map { "\($0.id.hex) \($0.path)\n" }.joined())
        let diff = await GitTest.git(["diff", "--name-only", "HEAD~1", "HEAD"], in: directory.url)
        #expect(diff == (try repository.changedPaths(from: first, to: second)).map { $0 + "\n" }.joined())
    }

    /// `buildTree` rewrites only the changed trees when it can; on random change sets that
    /// must give the very tree the general, whole-index way gives.
    @Test func changedTreesOnlyMatchTheWholeIndexWay() throws {
        let directory = TemporaryDirectory()
        let repository = try Repository.create(at: directory.url)
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let folders = ["a", "a/b", "a/b/c", "d", "d/e", "f"]
        let names = ["x.yaml", "y.yaml", "z.yaml"]
        var tree = try repository.buildTree(from: nil, changes: ["top.yaml": Data("t\n".utf8)])
        var fastWays = 0
        for round in 0..<200 {
            var changes: [String: Data?] = [:]
            for _ in 0..<(1 + next(6)) {
                let folder = folders[next(folders.count)]
                switch next(5) {
                case 0: changes[folder] = .some(nil)  // a whole folder, maybe missing
                case 1: changes["\(folder)/\(names[next(names.count)])"] = .some(nil)
                default: changes["\(folder)/\(names[next(names.count)])"] = Data("\(round)-\(next(3))\n".utf8)
                }
            }
            let expected = try repository.buildTreeThroughIndex(from: tree, changes: changes)
            if let fast = try repository.updatedTree(tree, changes: changes) {
                fastWays += 1
                #expect(fast.id == expected.id, "round \(round): \(changes.keys.sorted())")
            }
            #expect(try repository.buildTree(from: tree, changes: changes).id == expected.id)
            tree = expected
        }
        #expect(fastWays > 100, "most change sets take the fast way")
    }

    @Test func buildTreeKeepsAnExecutableBit() async throws {
        let directory = TemporaryDirectory()
        directory.write("tool.sh", "#!/bin/sh\n")
        await GitTest.git(["init", "-q", "-b", "main"], in: directory.url)
        await GitTest.git(["add", "--chmod=+x", "tool.sh"], in: directory.url)
        await GitTest.git(["commit", "-qm", "tool"], in: directory.url)
        let repository = try Repository.open(at: directory.url)
        let head = try #require(try repository.headCommit())
        let tree = try repository.buildTree(
            from: try head.tree(), changes: ["tool.sh": Data("#!/bin/sh\necho hi\n".utf8)])
        try repository.createCommit(
            tree: tree, parents: [head], message: "edit",
            author: try Signature(name: "T", email: "t@e.invalid", date: Date()),
            committer: try Signature(name: "T", email: "t@e.invalid", date: Date()))
        #expect(await GitTest.git(["ls-tree", "HEAD", "tool.sh"], in: directory.url).hasPrefix("100755 blob "))
    }

    @Test func blobOfAMissingObjectThrows() throws {
        let directory = TemporaryDirectory()
        let repository = try Repository.create(at: directory.url)
        let missing = try #require(ObjectID(hex: "55b97643805f970cd228e60bd09343f061dd94b8"))
        let error = try #require(throws: GitError.self) { try repository.blob(missing) }
        #expect(error.isNotFound)
        #expect(try repository.blob(try repository.writeBlob(Data())) == Data())
    }
}
