import Foundation
import TestSupport
import Testing

@testable import Git

/// The decisions behind authentication that need no server: which ssh keys are tried, when a
/// host key is refused, and how push statuses are read.
@Suite struct CredentialsTests {
    static func keygen(_ file: URL, passphrase: String) async {
        let output = await Shell.run(
            "ssh-keygen", ["-q", "-t", "ed25519", "-N", passphrase, "-C", "test", "-f", file.path])
        #expect(output.status == 0, "\(output.stderr)")
    }

    @Test func sshKeysWithAPassphraseAreSkippedAndTheAgentComesFirst() async throws {
        let directory = TemporaryDirectory()
        let ssh = directory.url.appending(path: "ssh")
        try FileManager.default.createDirectory(at: ssh, withIntermediateDirectories: true)
        await Self.keygen(ssh.appending(path: "id_ed25519"), passphrase: "")
        // An ed25519 key under the rsa name.
        await Self.keygen(ssh.appending(path: "id_rsa"), passphrase: "correct horse")

        let credentials = Credentials(token: nil, sshDirectory: ssh)
        let withAgent = credentials.sshKeySources(environment: ["SSH_AUTH_SOCK": "/tmp/agent.sock"])
        #expect(
            withAgent.sources == [
                .agent,
                .file(privateKey: ssh.appending(path: "id_ed25519"), publicKey: ssh.appending(path: "id_ed25519.pub")),
            ])
        #expect(withAgent.skipped == [ssh.appending(path: "id_rsa")])
        #expect(credentials.sshKeySources(environment: [:]).sources.first != .agent)
        var noAgent = credentials
        noAgent.useSSHAgent = false
        #expect(noAgent.sshKeySources(environment: ["SSH_AUTH_SOCK": "/tmp/agent.sock"]).sources.count == 1)

        let pem = Data(
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAAA\n-----END RSA PRIVATE KEY-----\n"
                .utf8)
        #expect(Credentials.isEncryptedPrivateKey(pem))
        #expect(!Credentials.isEncryptedPrivateKey(Data("not a key".utf8)))
    }

    @Test func unknownHostKeysAreRefusedWithAWayToAcceptThem() {
        let strict = Credentials(token: nil)
        #expect(strict.hostKeyRefusal(valid: true, host: "git.example.org") == nil)
        let refusal = strict.hostKeyRefusal(valid: false, host: "git.example.org")
        #expect(refusal?.contains("run `ssh git.example.org` once") == true)
        #expect(refusal?.contains("known_hosts") == true)
        #expect(
            Credentials(token: nil, acceptUnknownHosts: true).hostKeyRefusal(valid: false, host: "git.example.org")
                == nil)
    }

    @Test(arguments: [
        ("https://github.com/ana/deck.git", "github.com"),
        ("ssh://git@example.org:2222/ana/deck.git", "example.org"),
        ("git@example.org:ana/deck.git", "example.org"),
        ("example.org:deck.git", "example.org"),
    ])
    func hostsAreReadFromEveryURLForm(url: String, host: String) {
        #expect(RemoteSession.host(of: url) == host)
    }

    @Test func pushStatusesThatMeanSomeoneElsePushedAreRetryable() {
        #expect(Remote.meansSomeoneElsePushed("non-fast-forward"))
        #expect(Remote.meansSomeoneElsePushed("failed to update ref"))
        #expect(
            Remote.meansSomeoneElsePushed(
                "failed to create locked file '/srv/rote.git/refs/heads/main.lock': File exists"))
        #expect(!Remote.meansSomeoneElsePushed("pre-receive hook declined"))
        #expect(!Remote.meansSomeoneElsePushed("deny updating a hidden ref"))
    }

    @Test func aTokenIsOfferedOnlyOverHTTPSToItsOwnHost() {
        let scoped = Credentials(token: "t", tokenHost: "Git.Example.org", useCredentialHelpers: false)
        #expect(scoped.tokenHost == "git.example.org")
        #expect(scoped.tokenRefusal(for: "https://git.example.org/ana/rote.git") == nil)
        #expect(
            scoped.tokenRefusal(for: "https://GIT.example.org:8443/ana/rote.git") == nil,
            "host names compare without case; any port")
        #expect(scoped.tokenRefusal(for: "http://git.example.org/ana/rote.git")?.contains("not https") == true)
        #expect(
            scoped.tokenRefusal(for: "https://evil.example.net/deck.git")?.contains("is for git.example.org") == true)
        #expect(
            scoped.tokenRefusal(for: "https://git.example.org.evil.example.net/x.git") != nil,
            "a suffix is another host")
        #expect(scoped.tokenRefusal(for: "ssh://git@git.example.org/ana/rote.git") != nil)

        let unscoped = Credentials(token: "t", tokenHost: nil)
        #expect(
            unscoped.tokenRefusal(for: "https://git.example.org/x.git")?.contains("ROTE_GIT_TOKEN_HOST=git.example.org")
                == true)
        let cloned = unscoped.scopingToken(to: "https://alice@Git.Example.org/ana/rote.git")
        #expect(cloned.tokenHost == "git.example.org")
        #expect(cloned.tokenRefusal(for: "https://git.example.org/ana/rote.git") == nil)
        #expect(
            scoped.scopingToken(to: "https://other.example.net/x.git").tokenHost == "git.example.org",
            "ROTE_GIT_TOKEN_HOST wins")
        #expect(scoped.withoutToken(because: "test").token == nil)
        #expect(scoped.withoutToken(because: "test").tokenRefusal(for: "https://git.example.org/x.git") != nil)
    }

    @Test func aLibrarysTokenIsScopedToItsOriginWhicheverRemoteIsUsed() throws {
        let directory = TemporaryDirectory()
        let repository = try Repository.create(at: directory.url.appending(path: "library"))
        let unscoped = Credentials(token: "t", tokenHost: nil)
        #expect(unscoped.scopedToLibrary(repository).tokenHost == nil, "no origin, no host")
        try repository.addRemote(named: "backup", url: "https://backup.example.net/ana/rote.git")
        try repository.addRemote(named: "origin", url: "https://git.example.org/ana/rote.git")
        let scoped = unscoped.scopedToLibrary(repository)
        #expect(scoped.tokenHost == "git.example.org")
        #expect(scoped.tokenRefusal(for: "https://backup.example.net/ana/rote.git") != nil)
        let chosen = Credentials(token: "t", tokenHost: "backup.example.net").scopedToLibrary(repository)
        #expect(chosen.tokenHost == "backup.example.net")
    }

    @Test(arguments: [
        (
            "Fetching from origin (http://alice:hunter2@127.0.0.1:9/x.git)…",
            "Fetching from origin (http://alice:***@127.0.0.1:9/x.git)…"
        ),
        (
            "cannot clone https://ghp_abc123@github.com/ana/rote.git: 404",
            "cannot clone https://***@github.com/ana/rote.git: 404"
        ),
        ("https://alice:p@ss@host/x and ftp://u:pw@h/y", "https://alice:***@host/x and ftp://u:***@h/y"),
        ("ssh://git@example.org:2222/ana/deck.git", "ssh://git@example.org:2222/ana/deck.git"),
        ("ssh://git:secret@example.org/deck.git", "ssh://git:***@example.org/deck.git"),
        ("git@example.org:ana/deck.git and ana@example.org", "git@example.org:ana/deck.git and ana@example.org"),
        ("https://example.org/a@b/x.git", "https://example.org/a@b/x.git"),
        ("/mnt/usb/rote.git", "/mnt/usb/rote.git"),
    ])
    func userinfoIsRedactedInEveryURLOfAMessage(text: String, shown: String) {
        #expect(RemoteURL.redactingUserinfo(text) == shown)
        #expect(GitError(code: -1, message: text, operation: text).description == "\(shown): \(shown)")
    }

    @Test func folderRemotesAreToldFromNetworkOnes() {
        #expect(RemoteURL.localPath(of: "/mnt/usb/rote.git") == "/mnt/usb/rote.git")
        #expect(RemoteURL.localPath(of: "file:///mnt/usb/my%20rote.git") == "/mnt/usb/my rote.git")
        #expect(RemoteURL.localPath(of: "file://localhost/srv/rote.git") == "/srv/rote.git")
        #expect(RemoteURL.localPath(of: "../rote.git") == URL(fileURLWithPath: "../rote.git").standardizedFileURL.path)
        #expect(RemoteURL.localPath(of: "./a:b") != nil, "a colon after a slash is part of a path")
        for url in [
            "git@example.org:ana/rote.git", "example.org:rote.git", "https://example.org/x.git",
            "git://127.0.0.1/x.git",
        ] {
            #expect(RemoteURL.localPath(of: url) == nil, "\(url)")
        }
    }

    @Test func anEmptyTokenIsNoToken() {
        #expect(Credentials(token: "").token == nil)
        #expect(Credentials(token: "t").token == "t")
        #expect(Credentials(token: "t", tokenHost: " ").tokenHost == nil)
    }
}
