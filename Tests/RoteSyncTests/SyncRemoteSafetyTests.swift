import Foundation
import LibGit
import Testing
import TestSupport
@testable import RoteSync

/// What `rote sync` tells a remote and tells the learner: the token only to the library's own
/// host over https, no password from a URL on screen, and a push the server refuses reported
/// once, in the server's words.
@Suite(.serialized) struct SyncRemoteSafetyTests {
    typealias Network = SyncIntegrationTests.Network

    static let noCredentials = Credentials(token: nil, tokenHost: nil, useCredentialHelpers: false)

    /// Runs a sync that must fail, and returns its error and every progress line it printed.
    static func failingSync(_ device: SyncIntegrationTests.Device, remote: String = "origin", credentials: Credentials = noCredentials) throws -> (SyncError, [String]) {
        var lines: [String] = []
        let sync = LibrarySync(git: try device.git(), remoteName: remote, credentials: credentials) { lines.append($0) }
        let error = try #require(throws: SyncError.self) { try sync.sync() }
        return (error, lines)
    }

    @Test func syncShowsNoPasswordFromTheRemotesURL() throws {
        let network = Network()
        let devices = try network.devices(1)
        // Nothing listens on the discard port of the loopback address: the fetch fails at once.
        Shell.run("git", ["remote", "set-url", "origin", "http://alice:hunter2@127.0.0.1:9/remote.git"], in: devices[0].root)
        let (error, lines) = try Self.failingSync(devices[0])
        #expect(error.code == .network, "\(error)")
        let shown = ([error.message] + lines).joined(separator: "\n")
        #expect(!shown.contains("hunter2"), "\(shown)")
        #expect(shown.contains("http://alice:***@127.0.0.1:9/remote.git"), "\(shown)")
    }

    /// With no ROTE_GIT_TOKEN_HOST, the token is for the host of the library's origin: a sync
    /// with another remote does not send it, a sync with origin does.
    @Test func syncSendsTheTokenOnlyToTheLibrarysOrigin() throws {
        try TestCertificate.trust()
        let network = Network()
        let devices = try network.devices(1)
        let server = try AuthenticatingGitServer(
            projectRoot: network.directory.url, user: "x-access-token", password: "s3cret-token", scratch: network.directory, tls: true)
        try devices[0].study(["english-a1/run"], seed: 5)
        let credentials = Credentials(token: "s3cret-token", tokenHost: nil, useCredentialHelpers: false)

        Shell.run("git", ["remote", "set-url", "origin", "https://git.example.invalid/ana/rote.git"], in: devices[0].root)
        Shell.run("git", ["remote", "add", "mirror", server.url("remote.git")], in: devices[0].root)
        let (error, _) = try Self.failingSync(devices[0], remote: "mirror", credentials: credentials)
        #expect(error.code == .network)
        #expect(error.message.contains("it is for git.example.invalid"), "\(error)")
        #expect(server.authenticatedRequests == 0, "the mirror's server saw the token")

        Shell.run("git", ["remote", "set-url", "origin", server.url("remote.git")], in: devices[0].root)
        let report = try LibrarySync(git: try devices[0].git(), credentials: credentials).sync()
        #expect(report.pushed)
        #expect(server.authenticatedRequests > 0)
        #expect(Shell.run("git", ["rev-parse", "main"], in: network.remote).stdout
            == Shell.run("git", ["rev-parse", "HEAD"], in: devices[0].root).stdout)
    }
}
