import Foundation
import TestSupport
import Testing

@testable import Git

/// The sshd the ssh tests run, from `ROTE_TEST_SSHD`.
let testSSHD = ProcessInfo.processInfo.environment["ROTE_TEST_SSHD"].flatMap { $0.isEmpty ? nil : $0 }

/// Clone and push over ssh against a real `sshd` on 127.0.0.1: host-key refusal, key files,
/// and giving up when no key is accepted.
///
/// Opt-in, because running sshd needs set-up that a test should not do to a machine: set
/// `ROTE_TEST_SSHD` to an sshd executable (or a wrapper script) that this user can run with
/// `-D -e -f CONFIG`, for example `/usr/sbin/sshd` where openssh-server is installed.
@Suite(.enabled(if: testSSHD != nil, "set ROTE_TEST_SSHD to an sshd to run the ssh tests"))
struct SSHRemoteTests {
    /// An sshd accepting one client key, serving the repositories of this machine as the
    /// current user.
    final class Server {
        let port: UInt16
        let clientKeys: URL
        private let process: SpawnedServer

        init(in directory: TemporaryDirectory) async throws {
            let keys = directory.url.appending(path: "server")
            clientKeys = directory.url.appending(path: "client-ssh")
            try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: clientKeys, withIntermediateDirectories: true)
            await CredentialsTests.keygen(keys.appending(path: "host_ed25519"), passphrase: "")
            await CredentialsTests.keygen(clientKeys.appending(path: "id_ed25519"), passphrase: "")
            try FileManager.default.copyItem(
                at: clientKeys.appending(path: "id_ed25519.pub"), to: keys.appending(path: "authorized_keys"))
            port = GitTest.freePort()
            let config = """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(keys.appending(path: "host_ed25519").path)
                AuthorizedKeysFile \(keys.appending(path: "authorized_keys").path)
                StrictModes no
                UsePAM no
                PermitRootLogin prohibit-password
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PidFile none

                """
            try Data(config.utf8).write(to: keys.appending(path: "sshd_config"))
            process = try SpawnedServer(testSSHD!, ["-D", "-e", "-f", keys.appending(path: "sshd_config").path])
            var listening = false
            for _ in 0..<100 where process.isRunning {  // bounded wait: 5 s
                listening = GitTest.isListening(port)
                if listening { break }
                usleep(50_000)
            }
            if !listening {
                throw GitError(code: -1, message: "sshd did not start", operation: "starting sshd")
            }
        }

        func url(_ path: URL) -> String {
            let user = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? NSUserName()
            return "ssh://\(user)@127.0.0.1:\(port)\(path.path)"
        }
    }

    @Test func anUnknownHostIsRefusedUntilAcceptedThenKeyFilesAuthenticate() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: ["rote.yaml": "format: 1\n"])
        let server = try await Server(in: directory)
        let strict = Credentials(token: nil, useSSHAgent: false, sshDirectory: server.clientKeys)

        let refused = try #require(throws: GitError.self) {
            try Repository.clone(
                from: server.url(bare), to: directory.url.appending(path: "refused"), credentials: strict)
        }
        #expect(refused.isCertificateFailure, "\(refused)")
        #expect(refused.message.contains("run `ssh 127.0.0.1` once"), "\(refused)")

        var trusting = strict
        trusting.acceptUnknownHosts = true
        let clone = try Repository.clone(
            from: server.url(bare), to: directory.url.appending(path: "device"), credentials: trusting)
        #expect(directory.read("device/rote.yaml") == "format: 1\n")
        let pushed = try GitTest.commit(["a.txt": "a\n"], message: "A", in: clone)
        try #require(try clone.remote(named: "origin")).push(
            refspecs: ["refs/heads/main:refs/heads/main"], credentials: trusting)
        #expect(await GitTest.git(["rev-parse", "main"], in: bare) == pushed.hex + "\n")
        await GitTest.expectSound(bare)
    }

    @Test func whenNoKeyIsAcceptedItGivesUpAndSaysWhatItTried() async throws {
        let directory = TemporaryDirectory()
        let bare = await GitTest.makeBareRemote(in: directory, files: ["rote.yaml": "format: 1\n"])
        let server = try await Server(in: directory)
        let strangers = directory.url.appending(path: "stranger-ssh")
        try FileManager.default.createDirectory(at: strangers, withIntermediateDirectories: true)
        await CredentialsTests.keygen(strangers.appending(path: "id_ed25519"), passphrase: "")
        await CredentialsTests.keygen(strangers.appending(path: "id_rsa"), passphrase: "secret")

        let started = Date()
        let error = try #require(throws: GitError.self) {
            try Repository.clone(
                from: server.url(bare), to: directory.url.appending(path: "device"),
                credentials: Credentials(
                    token: nil, useSSHAgent: false, sshDirectory: strangers, acceptUnknownHosts: true))
        }
        #expect(error.isAuthenticationFailure, "\(error)")
        #expect(error.message.contains(strangers.appending(path: "id_ed25519").path), "\(error)")
        #expect(error.message.contains("needs a passphrase"), "\(error)")
        #expect(error.message.contains("ssh-add"), "\(error)")
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
