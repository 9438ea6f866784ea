import Foundation
import TestSupport
import Testing

@testable import Git

/// Remotes that are folders on this machine: their hooks run as plain git runs them, and a
/// folder that is not there is named as such.
@Suite struct LocalRemoteTests {
    static let seedFiles = ["rote.yaml": "format: 1\n"]
    static let noCredentials = Credentials(token: nil, useCredentialHelpers: false)

    static func hook(_ name: String, _ script: String, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: name)
        try Data(("#!/bin/sh\n" + script).utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }

    static func clone(_ bare: URL, in directory: TemporaryDirectory, as name: String = "device") throws -> Repository {
        try Repository.clone(from: bare.path, to: directory.url.appending(path: name), credentials: noCredentials)
    }

    @Test func aPushToAFolderRemoteRunsItsReceiveHooks() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        let before = await GitTest.git(["rev-parse", "main"], in: bare)
        try Self.hook("pre-receive", "echo 'pushes are closed today' >&2\nexit 1\n", in: bare.appending(path: "hooks"))
        let clone = try Self.clone(bare, in: directory)
        let commit = try GitTest.commit(["a.txt": "a\n"], message: "A", in: clone)
        let origin = try #require(try clone.remote(named: "origin"))

        let error = try #require(throws: GitError.self) {
            try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        }
        #expect(error.isRejectedPush && !error.isNonFastForward, "\(error)")
        #expect(error.rejectedReferences == ["refs/heads/main": "pre-receive hook declined"], "\(error)")
        #expect(error.message.contains("remote said: pushes are closed today"), "\(error)")
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == before, "the hook kept the push out")

        // Hooks that accept run too, post-receive included, and the push lands.
        try Self.hook("pre-receive", "exit 0\n", in: bare.appending(path: "hooks"))
        try Self.hook("post-receive", "cat > \"$GIT_DIR/received\"\n", in: bare.appending(path: "hooks"))
        try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == commit.hex + "\n")
        #expect(directory.read("shared.git/received")?.hasSuffix(" \(commit.hex) refs/heads/main\n") == true)
        #expect(try clone.reference(named: "refs/remotes/origin/main") == commit)
        await GitTest.expectSound(bare)
    }

    /// git looks for hooks where `core.hooksPath` says, and so does the push.
    @Test func hooksInCoreHooksPathRunToo() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        await GitTest.git(["config", "core.hooksPath", "policy"], in: bare)
        try Self.hook("update", "echo \"no pushes to $1\"\nexit 1\n", in: bare.appending(path: "policy"))
        let clone = try Self.clone(bare, in: directory)
        try GitTest.commit(["a.txt": "a\n"], message: "A", in: clone)
        let error = try #require(throws: GitError.self) {
            try #require(try clone.remote(named: "origin")).push(
                refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        }
        #expect(error.rejectedReferences["refs/heads/main"] == "hook declined", "\(error)")
        #expect(error.message.contains("no pushes to refs/heads/main"), "\(error)")
    }

    /// Through git, a branch that moved on is still the retryable kind of refusal.
    @Test func aFolderRemoteWithHooksThatMovedOnIsANonFastForward() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        try Self.hook("post-receive", "exit 0\n", in: bare.appending(path: "hooks"))
        let first = try Self.clone(bare, in: directory, as: "first")
        let second = try Self.clone(bare, in: directory, as: "second")
        let landed = try GitTest.commit(["first.txt": "1\n"], message: "First", in: first)
        try #require(try first.remote(named: "origin")).push(
            refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        try GitTest.commit(["second.txt": "2\n"], message: "Second", in: second)
        let error = try #require(throws: GitError.self) {
            try #require(try second.remote(named: "origin")).push(
                refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        }
        #expect(error.isNonFastForward, "\(error)")
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == landed.hex + "\n")
    }

    @Test func aFolderRemoteThatIsNotThereIsNamedAsMissing() async throws {
        let directory = TemporaryDirectory()
        let missing = directory.url.appending(path: "usb/rote.git")
        for url in [missing.path, "file://" + missing.path] {
            let error = try #require(throws: GitError.self) {
                try Repository.clone(
                    from: url, to: directory.url.appending(path: "device"), credentials: Self.noCredentials)
            }
            #expect(error.message.contains("the remote's path \(missing.path) does not exist"), "\(error)")
            #expect(!error.message.contains("unsupported URL protocol"), "\(error)")
        }

        let bare = await GitTest.makeBareRemote(in: directory, files: Self.seedFiles)
        let clone = try Self.clone(bare, in: directory)
        try GitTest.commit(["a.txt": "a\n"], message: "A", in: clone)
        let origin = try clone.addRemote(named: "usb", url: missing.path)
        let fetch = try #require(throws: GitError.self) { try origin.fetch(credentials: Self.noCredentials) }
        #expect(fetch.message.contains("\(missing.path) does not exist"), "\(fetch)")
        let push = try #require(throws: GitError.self) {
            try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        }
        #expect(push.message.contains("\(missing.path) does not exist"), "\(push)")
        #expect(push.isNotFound)
    }

    @Test func gitPushPorcelainIsReadReferenceByReference() {
        let stdout = """
            To /srv/rote.git
            !\trefs/heads/main:refs/heads/main\t[remote rejected] (pre-receive hook declined)
            !\trefs/heads/b:refs/heads/b\t[rejected] (fetch first)
             \trefs/heads/c:refs/heads/c\t1111111..2222222
            Done

            """
        let stderr =
            "remote: closed for the night        \nremote:\nerror: failed to push some refs to '/srv/rote.git'\n"
        let result = LocalRemote.parsePush(stdout: stdout, stderr: stderr)
        #expect(result.rejected == ["refs/heads/main": "pre-receive hook declined", "refs/heads/b": "fetch first"])
        #expect(result.remoteLines == ["closed for the night"])
    }
}
