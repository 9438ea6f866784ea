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

    static let noCredentials = Credentials(token: nil, useCredentialHelpers: false)

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
}
