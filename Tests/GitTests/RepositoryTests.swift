import Foundation
import TestSupport
import Testing

@testable import Git

@Suite struct RepositoryTests {
    @Test func createsCommitsAndReadsThemBack() async throws {
        let directory = TemporaryDirectory()
        let repository = try Repository.create(at: directory.url.appending(path: "repo"))
        #expect(try repository.headCommit() == nil)
        directory.write("repo/a.txt", "hello\n")
        directory.write("repo/dir/b.txt", "world\n")
        let index = try repository.index()
        try index.add(path: "a.txt")
        try index.add(path: "dir/b.txt")
        try index.write()
        let tree = try index.writeTree()
        #expect(tree.count == 2)
        let when = Date(timeIntervalSince1970: 1_795_255_200)
        let signature = try Signature(name: "Ana", email: "ana@example.invalid", date: when)
        let id = try repository.createCommit(
            tree: tree, parents: [], message: "First\n\nbody\n", author: signature, committer: signature)
        let head = try #require(try repository.headCommit())
        #expect(head.id == id)
        #expect(head.summary == "First")
        #expect(head.authorName == "Ana")
        #expect(head.time == when)
        #expect(try head.tree().entryID(atPath: "dir/b.txt") != nil)
        #expect(try head.tree().entryID(atPath: "missing") == nil)
        // The system git agrees the repository is sound.
        let fsck = await Shell.run("git", ["fsck", "--strict"], in: directory.url.appending(path: "repo"))
        #expect(fsck.status == 0, "\(fsck.stderr)")
        let log = await Shell.run("git", ["log", "--format=%H %s"], in: directory.url.appending(path: "repo"))
        #expect(log.stdout == "\(id.hex) First\n")
        let branch = await Shell.run("git", ["branch", "--show-current"], in: directory.url.appending(path: "repo"))
        #expect(branch.stdout == "main\n")

        directory.write("repo/a.txt", "hello again\n")
        try index.add(path: "a.txt")
        let second = try repository.createCommit(
            tree: try index.writeTree(), parents: [head], message: "Second", author: signature, committer: signature)
        let parents = try repository.commit(second).parents()
        #expect(parents.map(\.id) == [id])
    }

    /// A date git cannot hold — read from a damaged file — is an error, not a trap converting
    /// the Double to an Int64 (issue #31, item 2).
    @Test func aSignatureWithADateGitCannotHoldIsAnError() throws {
        for seconds in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
            do {
                _ = try Signature(name: "Ana", email: "ana@example.invalid", date: Date(timeIntervalSince1970: seconds))
                Issue.record("a signature dated \(seconds) must be refused")
            } catch let error as GitError {
                #expect(error.description.contains("is not a time a commit can have"), "\(error)")
            }
        }
        #expect(throws: Never.self) {
            try Signature(name: "Ana", email: "ana@example.invalid", date: Date(timeIntervalSince1970: -1e9))
        }
    }

    @Test func openingANonRepositoryThrowsGitErrorWithLibgit2sMessage() {
        let directory = TemporaryDirectory()
        do {
            _ = try Repository.open(at: directory.url)
            Issue.record("expected an error")
        } catch let error as GitError {
            #expect(error.isNotFound)
            #expect(error.operation.contains(directory.url.path))
            #expect(!error.message.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func objectIDsParseAndPrint() {
        let hex = "55b97643805f970cd228e60bd09343f061dd94b8"
        #expect(ObjectID(hex: hex)?.hex == hex)
        #expect(ObjectID(hex: "xyz") == nil)
        #expect(ObjectID(hex: hex) == ObjectID(hex: hex))
    }

    @Test func signatureFallsBackWhenNoIdentityIsConfigured() throws {
        let directory = TemporaryDirectory()
        let repository = try Repository.create(at: directory.url)
        let config = try repository.config()
        try config.set("user.name", to: "Configured Name")
        try config.set("user.email", to: "configured@example.invalid")
        let signature = try repository.signature(at: Date(), fallbackName: "x", fallbackEmail: "x@y")
        #expect(signature.name == "Configured Name")
        #expect(config.string("user.email") == "configured@example.invalid")
    }
}
