import Foundation
import TestSupport
import Testing

@testable import Git

/// Clone, fetch, push and the fetch-merge-push loop between real repositories on disk.
@Suite struct RemoteTests {
    static let seedFiles = ["rote.yaml": "format: 1\n", "corpus/words/run.yaml": "word: run\n"]

    @Test(arguments: [false, true])
    func clonesABareRepositoryByPathOrFileURL(useFileURL: Bool) async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        let url = useFileURL ? bare.absoluteString : bare.path
        #expect(url.hasPrefix("file://") == useFileURL)
        let destination = directory.url.appending(path: "clone")
        let clone = try Repository.clone(from: url, to: destination, credentials: Credentials(token: nil))

        let expected = await GitTest.git(["rev-parse", "main"], in: bare).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(try clone.headCommit()?.id.hex == expected)
        #expect(try clone.reference(named: "refs/remotes/origin/main")?.hex == expected)
        #expect(clone.headBranchName == "main")
        #expect(directory.read("clone/corpus/words/run.yaml") == "word: run\n")
        #expect(try clone.remoteNames() == ["origin"])
        let origin = try #require(try clone.remote(named: "origin"))
        #expect(origin.name == "origin")
        #expect(origin.url == url)
        #expect(try clone.remote(named: "upstream") == nil)
        #expect(try clone.statusPaths().isEmpty)
        await GitTest.expectSound(destination)
    }

    @Test func cloningAMissingRepositoryThrows() {
        let directory = TemporaryDirectory()
        #expect(throws: GitError.self) {
            try Repository.clone(
                from: directory.url.appending(path: "nothing.git").path, to: directory.url.appending(path: "c"))
        }
    }

    @Test func addsARemoteAndFetchesIntoRemoteTrackingReferences() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        let repository = try Repository.create(at: directory.url.appending(path: "local"))
        let remote = try repository.addRemote(named: "backup", url: bare.path)
        #expect(remote.name == "backup")
        #expect(try repository.remoteNames() == ["backup"])
        #expect(try repository.config().string("remote.backup.url") == bare.path)
        #expect(throws: GitError.self) { try repository.addRemote(named: "backup", url: bare.path) }

        try remote.fetch(credentials: Credentials(token: nil))
        let fetched = try #require(try repository.reference(named: "refs/remotes/backup/main"))
        #expect(
            await fetched.hex
                == GitTest.git(["rev-parse", "main"], in: bare).trimmingCharacters(in: .whitespacesAndNewlines))
        // Fetching never touches the unborn local branch or the work tree.
        #expect(try repository.headCommit() == nil)
        #expect(
            try repository.mergeAnalysis(theirs: fetched)
                == MergeAnalysis(upToDate: false, fastForward: true, normal: false, unborn: true))
    }

    /// Two devices commit in turn; the second one's push is rejected, then fetch, merge,
    /// commit and push succeed, and the first device fast-forwards.
    @Test func twoClonesPushInTurnAndARejectedPushIsRetriedAfterMerging() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        let credentials = Credentials(token: nil, useCredentialHelpers: false)
        let laptop = try Repository.clone(
            from: bare.path, to: directory.url.appending(path: "laptop"), credentials: credentials)
        let desktop = try Repository.clone(
            from: bare.path, to: directory.url.appending(path: "desktop"), credentials: credentials)
        let base = try #require(try laptop.headCommit()).id

        // Turn 1: the laptop commits and pushes.
        let laptopCommit = try GitTest.commit(
            ["profiles/ana/progress/words/run.yaml": "reviews: [a1]\n"], message: "Laptop session", in: laptop)
        try #require(try laptop.remote(named: "origin")).push(
            refspecs: ["refs/heads/main:refs/heads/main"], credentials: credentials)
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == laptopCommit.hex + "\n")
        #expect(try laptop.reference(named: "refs/remotes/origin/main") == laptopCommit)

        // Turn 2: the desktop committed offline; its push is rejected as non-fast-forward.
        let desktopCommit = try GitTest.commit(
            ["profiles/ana/progress/words/go.yaml": "reviews: [d1]\n"], message: "Desktop session", in: desktop)
        let origin = try #require(try desktop.remote(named: "origin"))
        let rejection = try #require(throws: GitError.self) {
            try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: credentials)
        }
        #expect(rejection.isRejectedPush)
        #expect(rejection.code == -11)  // GIT_ENONFASTFORWARD
        #expect(rejection.message.contains("fetch, merge and push again"))
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == laptopCommit.hex + "\n")

        // Fetch, merge in memory, commit the merge, update the work tree, push again.
        try origin.fetch(credentials: credentials)
        let theirs = try #require(try desktop.reference(named: "refs/remotes/origin/main"))
        #expect(theirs == laptopCommit)
        #expect(
            try desktop.mergeAnalysis(theirs: theirs)
                == MergeAnalysis(upToDate: false, fastForward: false, normal: true))
        #expect(try desktop.mergeBase(desktopCommit, theirs) == base)
        let merged = try desktop.mergeCommits(ours: desktopCommit, theirs: theirs)
        #expect(!merged.hasConflicts)
        let tree = try merged.writeTree()
        let mergeCommit = try GitTest.looseCommit(
            tree, parents: [try desktop.commit(desktopCommit), try desktop.commit(theirs)], message: "Merge",
            in: desktop)
        try desktop.checkoutTree(tree)
        try desktop.setReference(named: "HEAD", to: mergeCommit, message: "sync: merge", expected: desktopCommit)
        #expect(try desktop.statusPaths().isEmpty)
        #expect(directory.read("desktop/profiles/ana/progress/words/run.yaml") == "reviews: [a1]\n")
        try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: credentials)
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == mergeCommit.hex + "\n")
        #expect(try desktop.isDescendant(mergeCommit, of: laptopCommit))
        #expect(try desktop.isDescendant(mergeCommit, of: desktopCommit))
        #expect(try !desktop.isDescendant(laptopCommit, of: desktopCommit))

        // The laptop fetches and fast-forwards: work tree first, then the branch.
        let laptopOrigin = try #require(try laptop.remote(named: "origin"))
        try laptopOrigin.fetch(credentials: credentials)
        let incoming = try #require(try laptop.reference(named: "refs/remotes/origin/main"))
        let analysis = try laptop.mergeAnalysis(theirs: incoming)
        #expect(analysis == MergeAnalysis(upToDate: false, fastForward: true, normal: false), "\(analysis)")
        try laptop.checkoutTree(try laptop.commit(incoming).tree())
        try laptop.setReference(named: "refs/heads/main", to: incoming, message: "sync: fast-forward")
        #expect(try laptop.headCommit()?.id == mergeCommit)
        #expect(directory.read("laptop/profiles/ana/progress/words/go.yaml") == "reviews: [d1]\n")
        #expect(try laptop.statusPaths().isEmpty)
        #expect(try laptop.mergeAnalysis(theirs: incoming).upToDate)
        #expect(
            await Shell.run("git", ["status", "--porcelain"], in: directory.url.appending(path: "laptop")).stdout == "")

        for name in ["shared.git", "laptop", "desktop"] {
            await GitTest.expectSound(directory.url.appending(path: name))
        }
        let parents = await GitTest.git(["log", "-1", "--format=%P", "main"], in: bare)
        #expect(parents == "\(desktopCommit.hex) \(laptopCommit.hex)\n")
    }

    @Test func pushingAnUnknownBranchNameFails() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        let clone = try Repository.clone(from: bare.path, to: directory.url.appending(path: "c"))
        let origin = try #require(try clone.remote(named: "origin"))
        #expect(throws: GitError.self) { try origin.push(refspecs: ["refs/heads/nope:refs/heads/nope"]) }
    }
}
