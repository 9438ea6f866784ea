import Foundation
import TestSupport
import Testing

@testable import Git

/// Clone, fetch and push over real network protocols on 127.0.0.1: `git://` served by
/// `git daemon` (which runs the server's hooks and checks, unlike a local path), and smart
/// HTTP with Basic authentication for the credential sources.
@Suite struct NetworkRemoteTests {
    static let seedFiles = ["rote.yaml": "format: 1\n", "corpus/words/run.yaml": "word: run\n"]
    static let noCredentials = Credentials(token: nil, useCredentialHelpers: false)

    @Test func clonesFetchesAndPushesOverGitProtocol() async throws {
        let directory = TemporaryDirectory()
        let served = directory.url.appending(path: "served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let bare = await GitTest.makeBareRemote(in: directory, name: "served/shared.git", files: Self.seedFiles)
        let daemon = try await GitDaemon(basePath: served)

        var updates: [TransferProgress] = []
        let clone = try Repository.clone(
            from: daemon.url("shared.git"), to: directory.url.appending(path: "device"), credentials: Self.noCredentials
        ) { updates.append($0) }
        #expect(directory.read("device/corpus/words/run.yaml") == "word: run\n")
        #expect(!updates.isEmpty)
        #expect(updates.last.map { $0.receivedObjects == $0.totalObjects && $0.totalObjects > 0 } == true)

        // Push a commit over git://.
        let pushed = try GitTest.commit(["profiles/ana/profile.yaml": "user: ana\n"], message: "Profile", in: clone)
        let origin = try #require(try clone.remote(named: "origin"))
        try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == pushed.hex + "\n")

        // Someone else pushes with the system git; fetch over git:// sees it.
        let other = directory.url.appending(path: "other")
        await GitTest.git(["clone", "-q", daemon.url("shared.git"), other.path], in: directory.url)
        try Data("user: ana\nlocale: ar\n".utf8).write(to: other.appending(path: "profiles/ana/profile.yaml"))
        await GitTest.git(["commit", "-qam", "Locale"], in: other)
        await GitTest.git(["push", "-q", "origin", "main"], in: other)
        let theirs = await GitTest.git(["rev-parse", "HEAD"], in: other).trimmingCharacters(in: .whitespacesAndNewlines)
        var fetchUpdates = 0
        try origin.fetch(credentials: Self.noCredentials) { _ in fetchUpdates += 1 }
        #expect(try clone.reference(named: "refs/remotes/origin/main")?.hex == theirs)
        #expect(fetchUpdates > 0)
        for path in [bare, directory.url.appending(path: "device"), other] { await GitTest.expectSound(path) }
    }

    /// libgit2 returns success for a push the server refused and only reports the refusal to
    /// `push_update_reference`; the wrapper must still throw.
    @Test func aPushTheServerRefusesThrowsWithTheServersReason() async throws {
        let directory = TemporaryDirectory()
        let served = directory.url.appending(path: "served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let bare = await GitTest.makeBareRemote(in: directory, name: "served/shared.git", files: Self.seedFiles)
        let hook = bare.appending(path: "hooks/pre-receive")
        try Data("#!/bin/sh\necho 'pushes are closed today' >&2\nexit 1\n".utf8).write(to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
        let before = await GitTest.git(["rev-parse", "main"], in: bare)
        let daemon = try await GitDaemon(basePath: served)

        let clone = try Repository.clone(
            from: daemon.url("shared.git"), to: directory.url.appending(path: "device"), credentials: Self.noCredentials
        )
        try GitTest.commit(["a.txt": "a\n"], message: "A", in: clone)
        let origin = try #require(try clone.remote(named: "origin"))
        let error = try #require(throws: GitError.self) {
            try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        }
        #expect(error.isRejectedPush)
        #expect(error.code != -11, "a declined hook is not a non-fast-forward")
        #expect(error.rejectedReferences["refs/heads/main"]?.contains("pre-receive hook declined") == true, "\(error)")
        #expect(error.message.contains("pushes are closed today"), "\(error)")
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == before)
        await GitTest.expectSound(bare)
    }

    /// When the server itself refuses a non-fast-forward (here a forced push meets
    /// `receive.denyNonFastForwards`), the error is the retryable kind; after fetch and merge the
    /// push goes through.
    @Test func aServerSideNonFastForwardIsRetryable() async throws {
        let directory = TemporaryDirectory()
        let served = directory.url.appending(path: "served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let bare = await GitTest.makeBareRemote(in: directory, name: "served/shared.git", files: Self.seedFiles)
        await GitTest.git(["config", "receive.denyNonFastForwards", "true"], in: bare)
        let daemon = try await GitDaemon(basePath: served)
        let first = try Repository.clone(
            from: daemon.url("shared.git"), to: directory.url.appending(path: "first"), credentials: Self.noCredentials)
        let second = try Repository.clone(
            from: daemon.url("shared.git"), to: directory.url.appending(path: "second"), credentials: Self.noCredentials
        )

        let firstCommit = try GitTest.commit(["first.txt": "1\n"], message: "First", in: first)
        try #require(try first.remote(named: "origin")).push(
            refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)

        let secondCommit = try GitTest.commit(["second.txt": "2\n"], message: "Second", in: second)
        let origin = try #require(try second.remote(named: "origin"))
        let error = try #require(throws: GitError.self) {
            try origin.push(refspecs: ["+refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        }
        #expect(error.isRejectedPush)
        #expect(error.code == -11, "\(error)")  // GIT_ENONFASTFORWARD
        #expect(error.rejectedReferences.keys.sorted() == ["refs/heads/main"])
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == firstCommit.hex + "\n")

        try origin.fetch(credentials: Self.noCredentials)
        let theirs = try #require(try second.reference(named: "refs/remotes/origin/main"))
        let merged = try second.mergeCommits(ours: secondCommit, theirs: theirs)
        let tree = try merged.writeTree()
        let mergeCommit = try GitTest.looseCommit(
            tree, parents: [try second.commit(secondCommit), try second.commit(theirs)], message: "Merge", in: second)
        try second.checkoutTree(tree)
        try second.setReference(named: "HEAD", to: mergeCommit, message: "merge")
        try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.noCredentials)
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == mergeCommit.hex + "\n")
        await GitTest.expectSound(bare)
        await GitTest.expectSound(directory.url.appending(path: "second"))
    }

    // MARK: - Credentials over smart HTTP(S)

    static func httpServer(_ directory: TemporaryDirectory, tls: Bool = true) async throws -> (
        bare: URL, server: AuthenticatingGitServer
    ) {
        if tls { try TestCertificate.trust() }
        let projects = directory.url.appending(path: "projects")
        try FileManager.default.createDirectory(at: projects, withIntermediateDirectories: true)
        let bare = await GitTest.makeBareRemote(in: directory, name: "projects/shared.git", files: seedFiles)
        let server = try AuthenticatingGitServer(
            projectRoot: projects, user: "x-access-token", password: "s3cret-token", scratch: directory, tls: tls)
        return (bare, server)
    }

    /// The token scoped to the test server's host.
    static func token(_ token: String, helpers: Bool = false) -> Credentials {
        Credentials(token: token, tokenHost: "127.0.0.1", useCredentialHelpers: helpers)
    }

    @Test func aTokenAuthenticatesHTTPSAndIsNeverStored() async throws {
        let directory = TemporaryDirectory()
        let (bare, server) = try await Self.httpServer(directory)
        let destination = directory.url.appending(path: "device")
        let clone = try Repository.clone(
            from: server.url("shared.git"), to: destination, credentials: Self.token("s3cret-token"))
        #expect(directory.read("device/rote.yaml") == "format: 1\n")
        let pushed = try GitTest.commit(["b.txt": "b\n"], message: "B", in: clone)
        try #require(try clone.remote(named: "origin")).push(
            refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.token("s3cret-token"))
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == pushed.hex + "\n")
        #expect(server.authenticatedRequests > 0)
        // The token is in no file of the clone.
        let grep = await Shell.run("grep", ["-rl", "s3cret-token", destination.path])
        #expect(grep.stdout.isEmpty, "token written to \(grep.stdout)")
        #expect(try clone.remote(named: "origin")?.url == server.url("shared.git"))
        await GitTest.expectSound(destination)
    }

    /// Plain http shows the token to anyone on the way, so it is not sent there even to its
    /// own host; the error says why.
    @Test func aTokenIsNeverSentOverPlainHTTP() async throws {
        let directory = TemporaryDirectory()
        let (_, server) = try await Self.httpServer(directory, tls: false)
        let error = try #require(throws: GitError.self) {
            try Repository.clone(
                from: server.url("shared.git"), to: directory.url.appending(path: "device"),
                credentials: Self.token("s3cret-token"))
        }
        #expect(error.isAuthenticationFailure, "\(error)")
        #expect(error.message.contains("ROTE_GIT_TOKEN (not sent: http is not https"), "\(error)")
        #expect(server.authenticatedRequests == 0, "the server saw the token")
    }

    /// A server other than the token's host gets nothing, even over https; without a host the
    /// token goes nowhere.
    @Test func aTokenIsNeverSentToAnotherHost() async throws {
        let directory = TemporaryDirectory()
        let (_, server) = try await Self.httpServer(directory)
        for credentials in [
            Credentials(token: "s3cret-token", tokenHost: "git.example.org", useCredentialHelpers: false),
            Credentials(token: "s3cret-token", tokenHost: nil, useCredentialHelpers: false),
        ] {
            let error = try #require(throws: GitError.self) {
                try Repository.clone(
                    from: server.url("shared.git"), to: directory.url.appending(path: "device"),
                    credentials: credentials)
            }
            #expect(error.isAuthenticationFailure, "\(error)")
            #expect(error.message.contains("not sent"), "\(error)")
        }
        #expect(server.authenticatedRequests == 0, "the server saw the token")
    }

    /// The scope is checked against the server that asks: after a redirect to another host
    /// (`localhost` is another name, so another host), that host's request for credentials
    /// does not get the token.
    @Test func aRedirectToAnotherHostDoesNotGetTheToken() async throws {
        let directory = TemporaryDirectory()
        let (_, server) = try await Self.httpServer(directory)
        let error = try #require(throws: GitError.self) {
            try Repository.clone(
                from: server.url("moved/shared.git"), to: directory.url.appending(path: "device"),
                credentials: Self.token("s3cret-token"))
        }
        #expect(error.isAuthenticationFailure, "\(error)")
        #expect(error.message.contains("authentication to localhost failed"), "\(error)")
        #expect(error.message.contains("it is for 127.0.0.1"), "\(error)")
        #expect(server.authenticatedRequests == 0, "the other host saw the token")
    }

    @Test func aRefusedTokenFallsBackToTheUsersCredentialHelper() async throws {
        let directory = TemporaryDirectory()
        let (bare, server) = try await Self.httpServer(directory)
        let destination = directory.url.appending(path: "device")
        let clone = try Repository.clone(
            from: server.url("shared.git"), to: destination, credentials: Self.token("s3cret-token", helpers: true))
        // A repository-local helper (an empty value first resets any inherited helpers).
        await GitTest.git(["config", "credential.helper", ""], in: destination)
        await GitTest.git(
            [
                "config", "--add", "credential.helper",
                "!f() { test \"$1\" = get || exit 0; echo username=x-access-token; echo password=s3cret-token; }; f",
            ], in: destination)

        let pushed = try GitTest.commit(["c.txt": "c\n"], message: "C", in: clone)
        try #require(try clone.remote(named: "origin")).push(
            refspecs: ["refs/heads/main:refs/heads/main"], credentials: Self.token("stale-token", helpers: true))
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == pushed.hex + "\n")
        let grep = await Shell.run("grep", ["-rl", "s3cret-token", destination.appending(path: ".git").path])
        #expect(
            grep.stdout == destination.appending(path: ".git/config").path + "\n",
            "only the test's own helper line mentions it")
    }

    @Test func whenNoCredentialWorksItGivesUpWithAClearError() async throws {
        let directory = TemporaryDirectory()
        let (_, server) = try await Self.httpServer(directory)
        let started = Date()
        let error = try #require(throws: GitError.self) {
            try Repository.clone(
                from: server.url("shared.git"), to: directory.url.appending(path: "device"),
                credentials: Self.token("wrong"))
        }
        #expect(error.isAuthenticationFailure, "\(error)")
        #expect(error.message.contains("127.0.0.1"), "\(error)")
        #expect(error.message.contains("tried ROTE_GIT_TOKEN)"), "\(error)")
        #expect(error.message.contains("credential helper"), "\(error)")
        #expect(Date().timeIntervalSince(started) < 10)

        let none = try #require(throws: GitError.self) {
            try Repository.clone(
                from: server.url("shared.git"), to: directory.url.appending(path: "device2"),
                credentials: Self.noCredentials)
        }
        #expect(none.isAuthenticationFailure, "\(none)")
        #expect(none.message.contains("tried nothing"), "\(none)")
    }
}
