import Foundation
import Git
import RoteModel
import RoteStore
import TestSupport
import Testing

@testable import RoteSync

#if canImport(Glibc)
import Glibc
#endif

/// What `rote sync` tells a remote and tells the learner: the token only to the library's own
/// host over https, no password from a URL on screen, and a push the server refuses reported
/// once, in the server's words.
@Suite(.serialized) struct SyncRemoteSafetyTests {
    typealias Network = SyncIntegrationTests.Network

    /// A `git daemon` on 127.0.0.1 serving `basePath`, pushes allowed. It stops when the
    /// value is released, and on its own after two minutes should the test process die first
    /// (`timeout` kills it).
    final class LoopbackGitDaemon {
        let port: UInt16
        private let pid: pid_t
        private let wrapper: Process

        init(basePath: URL) async throws {
            let pidFile = basePath.appending(path: "git-daemon.pid")
            port = UInt16(40_000 + Int(ProcessInfo.processInfo.processIdentifier % 20_000))
            wrapper = Process()
            wrapper.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // git-daemon itself, not the `git` wrapper, so the pid file names the server.
            let daemon =
                await Shell.run("git", ["--exec-path"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                + "/git-daemon"
            wrapper.arguments = [
                "timeout", "--signal=KILL", "120", daemon, "--reuseaddr", "--export-all", "--enable=receive-pack",
                "--listen=127.0.0.1", "--port=\(port)", "--pid-file=\(pidFile.path)", "--base-path=\(basePath.path)",
                basePath.path,
            ]
            wrapper.standardOutput = FileHandle.nullDevice
            wrapper.standardError = FileHandle.nullDevice
            try wrapper.run()
            var pid: pid_t?
            // Bounded wait: up to 5 s for the daemon to answer.
            for _ in 0..<50 {
                if pid == nil {
                    pid = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap {
                        pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
                    }
                }
                if pid != nil, await Shell.run("git", ["ls-remote", "git://127.0.0.1:\(port)/remote.git"]).status == 0 {
                    break
                }
                usleep(100_000)
            }
            guard let pid else {
                kill(wrapper.processIdentifier, SIGKILL)
                throw SyncError(.network, "git daemon did not start on 127.0.0.1:\(port)")
            }
            self.pid = pid
        }

        func url(_ name: String) -> String { "git://127.0.0.1:\(port)/\(name)" }

        deinit {
            // SIGKILL: a process started from a test thread may have SIGTERM blocked. The
            // daemon gone, `timeout` exits by itself.
            kill(pid, SIGKILL)
            wrapper.waitUntilExit()
        }
    }

    static func refuseEveryPush(_ bare: URL) throws {
        let hook = bare.appending(path: "hooks/pre-receive")
        try Data("#!/bin/sh\necho 'pushes are closed today' >&2\nexit 1\n".utf8).write(to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
    }

    static let noCredentials = Credentials(token: nil, tokenHost: nil, useCredentialHelpers: false)

    /// Runs a sync that must fail, and returns its error and every progress line it printed.
    static func failingSync(
        _ device: SyncIntegrationTests.Device, remote: String = "origin", credentials: Credentials = noCredentials
    ) throws -> (SyncError, [String]) {
        var lines: [String] = []
        let sync = LibrarySync(transaction: try device.transaction(), remoteName: remote, credentials: credentials) {
            lines.append($0)
        }
        let error = try #require(throws: SyncError.self) { try sync.sync() }
        return (error, lines)
    }

    static func expectRefusedOnce(
        _ error: SyncError, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.code == .pushRefused, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains("pre-receive hook declined"), "\(error)", sourceLocation: sourceLocation)
        #expect(
            error.message.contains("pushes are closed today"), "the hook's own words: \(error)",
            sourceLocation: sourceLocation)
        #expect(!error.message.contains("kept changing"), "\(error)", sourceLocation: sourceLocation)
        #expect(
            lines.filter { $0.hasPrefix("Fetching") }.count == 1, "not retried: \(lines)",
            sourceLocation: sourceLocation)
        #expect(!lines.contains { $0.contains("has new commits") }, "\(lines)", sourceLocation: sourceLocation)
    }

    @Test func aPushAGitDaemonsHookRefusesIsReportedOnceInTheHooksWords() async throws {
        let network = Network()
        let devices = try await network.devices(1)
        try Self.refuseEveryPush(network.remote)
        let before = await Shell.run("git", ["rev-parse", "main"], in: network.remote).stdout
        let daemon = try await LoopbackGitDaemon(basePath: network.directory.url)
        await Shell.run("git", ["remote", "set-url", "origin", daemon.url("remote.git")], in: devices[0].root)
        try devices[0].study(["english-a1/run"], seed: 3)

        let (error, lines) = try Self.failingSync(devices[0])
        Self.expectRefusedOnce(error, lines)
        #expect(await Shell.run("git", ["rev-parse", "main"], in: network.remote).stdout == before)
    }

    /// libgit2 writes into a folder remote without running its hooks; the push goes through
    /// git instead, so the hook refuses it as it would refuse `git push`.
    @Test func aPushAFolderRemotesHookRefusesIsReportedOnceInTheHooksWords() async throws {
        let network = Network()
        let devices = try await network.devices(1)
        try Self.refuseEveryPush(network.remote)
        let before = await Shell.run("git", ["rev-parse", "main"], in: network.remote).stdout
        try devices[0].study(["english-a1/run"], seed: 4)

        let (error, lines) = try Self.failingSync(devices[0])
        Self.expectRefusedOnce(error, lines)
        #expect(
            await Shell.run("git", ["rev-parse", "main"], in: network.remote).stdout == before, "the push did not land")
    }

    @Test func aFolderRemoteThatIsNotThereIsNamedAsMissing() async throws {
        let network = Network()
        let devices = try await network.devices(1)
        let missing = network.directory.url.appending(path: "unplugged/rote.git").path
        await Shell.run("git", ["remote", "set-url", "origin", missing], in: devices[0].root)
        let (error, _) = try Self.failingSync(devices[0])
        #expect(error.code == .network)
        #expect(error.message.contains("the remote's path \(missing) does not exist"), "\(error)")
        #expect(!error.message.contains("unsupported URL protocol"), "\(error)")
    }

    @Test func syncShowsNoPasswordFromTheRemotesURL() async throws {
        let network = Network()
        let devices = try await network.devices(1)
        // Nothing listens on the discard port of the loopback address: the fetch fails at once.
        await Shell.run(
            "git", ["remote", "set-url", "origin", "http://alice:hunter2@127.0.0.1:9/remote.git"], in: devices[0].root)
        let (error, lines) = try Self.failingSync(devices[0])
        #expect(error.code == .network, "\(error)")
        let shown = ([error.message] + lines).joined(separator: "\n")
        #expect(!shown.contains("hunter2"), "\(shown)")
        #expect(shown.contains("http://alice:***@127.0.0.1:9/remote.git"), "\(shown)")
    }

    /// An authentication failure stays one: the sync error keeps libgit2's `GitError` as its
    /// cause, so a caller can tell it from an unreachable host without reading the text, and
    /// the code matches in a `catch`.
    @Test func anAuthenticationFailureKeepsItsGitErrorAsTheCause() async throws {
        let network = Network()
        let devices = try await network.devices(1)
        // Plain http: the token is refused before it is sent, as an authentication failure.
        let server = try AuthenticatingGitServer(
            projectRoot: network.directory.url, user: "x-access-token", password: "s3cret-token",
            scratch: network.directory, tls: false)
        await Shell.run("git", ["remote", "set-url", "origin", server.url("remote.git")], in: devices[0].root)
        let credentials = Credentials(token: "s3cret-token", tokenHost: "127.0.0.1", useCredentialHelpers: false)
        let (error, _) = try Self.failingSync(devices[0], credentials: credentials)
        #expect(error.code == .network, "\(error)")
        let cause = try #require(error.cause as? GitError, "\(String(describing: error.cause))")
        #expect(cause.isAuthenticationFailure, "\(cause)")
        #expect(cause.code == -16, "\(cause)")  // GIT_EAUTH
        #expect(error.message.contains(cause.message), "the message still says what libgit2 said")
        do {
            _ = try LibrarySync(transaction: try devices[0].transaction(), credentials: credentials).sync()
            Issue.record("the sync went through")
        } catch SyncError.Code.network {
        } catch {
            Issue.record("not matched by its code: \(error)")
        }
        #expect(!(SyncError.Code.noRemote ~= error), "a code matches only its own errors")
    }

    /// With no ROTE_GIT_TOKEN_HOST, the token is for the host of the library's origin: a sync
    /// with another remote does not send it, a sync with origin does.
    @Test func syncSendsTheTokenOnlyToTheLibrarysOrigin() async throws {
        try TestCertificate.trust()
        let network = Network()
        let devices = try await network.devices(1)
        let server = try AuthenticatingGitServer(
            projectRoot: network.directory.url, user: "x-access-token", password: "s3cret-token",
            scratch: network.directory, tls: true)
        try devices[0].study(["english-a1/run"], seed: 5)
        let credentials = Credentials(token: "s3cret-token", tokenHost: nil, useCredentialHelpers: false)

        await Shell.run(
            "git", ["remote", "set-url", "origin", "https://git.example.invalid/ana/rote.git"], in: devices[0].root)
        await Shell.run("git", ["remote", "add", "mirror", server.url("remote.git")], in: devices[0].root)
        let (error, _) = try Self.failingSync(devices[0], remote: "mirror", credentials: credentials)
        #expect(error.code == .network)
        #expect(error.message.contains("it is for git.example.invalid"), "\(error)")
        #expect(server.authenticatedRequests == 0, "the mirror's server saw the token")

        await Shell.run("git", ["remote", "set-url", "origin", server.url("remote.git")], in: devices[0].root)
        let report = try LibrarySync(transaction: try devices[0].transaction(), credentials: credentials).sync()
        #expect(report.pushed)
        #expect(server.authenticatedRequests > 0)
        #expect(
            await Shell.run("git", ["rev-parse", "main"], in: network.remote).stdout
                == Shell.run("git", ["rev-parse", "HEAD"], in: devices[0].root).stdout)
    }
}
