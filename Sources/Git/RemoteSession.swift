internal import CLibGit2
import Foundation

/// The state that one fetch, push or clone shares with libgit2's C callbacks: the credentials
/// and which of them were tried, the progress handler, the references the remote rejected and
/// the messages it sent. libgit2 gets a pointer to this object as the callbacks' payload; the
/// caller keeps it alive for the whole call (`withExtendedLifetime`).
final class RemoteSession {
    let credentials: Credentials
    let operation: String
    private let progress: ((TransferProgress) -> Void)?
    /// Where `git credential fill` runs, so repository-local helpers count.
    private let helperDirectory: URL?

    /// The error a callback decided on; it explains more than libgit2's "callback failed".
    private(set) var failure: GitError?
    /// Reference → reason, for every reference the remote refused (`push_update_reference`).
    private(set) var rejectedReferences: [String: String] = [:]
    /// Text the remote sent on its side band ("remote: ..." lines), e.g. a hook's reason.
    private(set) var remoteMessages = ""

    private var attempts = 0
    private var sshSources: [Credentials.SSHKeySource]?
    private var skippedKeys: [URL] = []
    private var triedToken = false
    private var triedHelpers = false
    private var tried: [String] = []

    init(
        credentials: Credentials, operation: String, helperDirectory: URL?,
        progress: ((TransferProgress) -> Void)? = nil
    ) {
        self.credentials = credentials
        self.operation = operation
        self.helperDirectory = helperDirectory
        self.progress = progress
    }

    /// Points libgit2's callbacks at this session. The session must outlive the call that
    /// uses `callbacks`.
    func install(into callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, usernameFromURL, allowedTypes, payload in
            guard let out, let payload else { return GIT_EUSER.rawValue }
            let session = Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
            return session.acquireCredential(
                out, url: url.map { String(cString: $0) } ?? "",
                username: usernameFromURL.map { String(cString: $0) }, allowedTypes: allowedTypes)
        }
        callbacks.certificate_check = { certificate, valid, host, payload in
            guard let certificate, let payload else { return GIT_PASSTHROUGH.rawValue }
            let session = Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
            // TLS certificates: libgit2's own verdict stands.
            guard certificate.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 else { return GIT_PASSTHROUGH.rawValue }
            let hostName = host.map { String(cString: $0) } ?? "the server"
            if let refusal = session.credentials.hostKeyRefusal(valid: valid != 0, host: hostName) {
                return session.fail(GIT_ECERTIFICATE, GIT_ERROR_SSH, refusal)
            }
            return 0
        }
        callbacks.transfer_progress = { stats, payload in
            guard let stats, let payload else { return 0 }
            let session = Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
            session.progress?(
                TransferProgress(
                    totalObjects: Int(stats.pointee.total_objects),
                    receivedObjects: Int(stats.pointee.received_objects),
                    indexedObjects: Int(stats.pointee.indexed_objects), receivedBytes: stats.pointee.received_bytes))
            return 0
        }
        callbacks.sideband_progress = { text, length, payload in
            guard let text, let payload, length > 0 else { return 0 }
            let session = Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
            if session.remoteMessages.utf8.count < 16_384 {
                let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
                session.remoteMessages += String(decoding: bytes, as: UTF8.self)
            }
            return 0
        }
        callbacks.push_update_reference = { reference, status, payload in
            guard let payload, let status else { return 0 }
            let session = Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
            session.rejectedReferences[reference.map { String(cString: $0) } ?? "?"] = String(cString: status)
            return 0
        }
    }

    /// The error for a libgit2 call that returned `code`: the callback's own when it gave up,
    /// else libgit2's.
    func error(_ code: Int32) -> GitError {
        failure ?? GitError.last(code, operation)
    }

    /// The remote's own words, trimmed, for error messages.
    var remoteSaid: String {
        let lines = remoteMessages.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.isEmpty ? "" : " (remote said: \(lines.joined(separator: " / ")))"
    }

    /// Records why the operation failed, tells libgit2 the same, and returns `code` for the
    /// callback to return.
    private func fail(_ code: git_error_code, _ errorClass: git_error_t, _ message: String) -> Int32 {
        failure = GitError(
            code: code.rawValue, errorClass: Int32(errorClass.rawValue), message: message, operation: operation)
        git_error_set_str(Int32(errorClass.rawValue), message)
        return code.rawValue
    }

    private func acquireCredential(
        _ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, url: String, username: String?,
        allowedTypes: UInt32
    ) -> Int32 {
        attempts += 1
        let host = Self.host(of: url)
        let user = username ?? ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
        if attempts > credentials.maxAttempts {
            return fail(
                GIT_EAUTH, GIT_ERROR_NET,
                "gave up authenticating to \(host) after \(credentials.maxAttempts) attempts (tried \(triedList))")
        }
        let sshKey = GIT_CREDENTIAL_SSH_KEY.rawValue
        let userPass = GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue
        if allowedTypes & (sshKey | userPass) == 0, allowedTypes & GIT_CREDENTIAL_USERNAME.rawValue != 0 {
            return git_credential_username_new(out, user)
        }
        if allowedTypes & sshKey != 0 {
            if sshSources == nil {
                let found = credentials.sshKeySources()
                sshSources = found.sources
                skippedKeys = found.skipped
            }
            if let next = sshSources?.first {
                sshSources?.removeFirst()
                switch next {
                case .agent:
                    tried.append("the ssh-agent")
                    return git_credential_ssh_key_from_agent(out, user)
                case .file(let privateKey, let publicKey):
                    tried.append(privateKey.path)
                    return git_credential_ssh_key_new(out, user, publicKey?.path, privateKey.path, nil)
                }
            }
            var message = "ssh authentication to \(host) as \(user) failed (tried \(triedList))"
            if !skippedKeys.isEmpty {
                message += "; skipped \(skippedKeys.map(\.path).joined(separator: ", ")) because it needs a passphrase"
            }
            message +=
                "; load your key into the ssh-agent (`ssh-add`), or add a key without a passphrase as "
                + "\(credentials.sshDirectory.appending(path: "id_ed25519").path) and register its .pub file with the server"
            return fail(GIT_EAUTH, GIT_ERROR_SSH, message)
        }
        if allowedTypes & userPass != 0 {
            if credentials.token == nil, let reason = credentials.tokenWithheld, !triedToken {
                triedToken = true
                tried.append("ROTE_GIT_TOKEN (not sent: \(reason))")
            }
            if let token = credentials.token, !triedToken {
                triedToken = true
                // libgit2 hands over the URL it is talking to now, after any redirect, so the
                // scope is checked against the server that would actually receive the token.
                if let refusal = credentials.tokenRefusal(for: url) {
                    tried.append("ROTE_GIT_TOKEN (not sent: \(refusal))")
                } else {
                    tried.append("ROTE_GIT_TOKEN")
                    return git_credential_userpass_plaintext_new(out, username ?? "x-access-token", token)
                }
            }
            if credentials.useCredentialHelpers, !triedHelpers {
                triedHelpers = true
                tried.append("git credential helpers")
                if let found = credentials.fillFromCredentialHelpers(url: url, username: username, in: helperDirectory)
                {
                    return git_credential_userpass_plaintext_new(out, found.username, found.password)
                }
            }
            let helper = "a git credential helper that knows \(host) (`git config --global credential.helper ...`)"
            return fail(
                GIT_EAUTH, GIT_ERROR_NET,
                "authentication to \(host) failed (tried \(triedList)); "
                    + (credentials.tokenWithheld != nil
                        ? "configure \(helper)"
                        : "set ROTE_GIT_TOKEN to an access token for \(host) (sent only over https, to ROTE_GIT_TOKEN_HOST "
                            + "or else the host of the library's origin), or configure \(helper)"))
        }
        return fail(
            GIT_EAUTH, GIT_ERROR_NET,
            "\(host) asks for a kind of credential Rote cannot supply (libgit2 credential types \(allowedTypes))")
    }

    private var triedList: String { tried.isEmpty ? "nothing" : tried.joined(separator: ", ") }

    /// The host of `https://host/...`, `ssh://user@host/...` or scp-like `user@host:path`.
    static func host(of url: String) -> String {
        RemoteURL.host(of: url) ?? RemoteURL.redactingUserinfo(url)
    }
}

@available(*, unavailable)
extension RemoteSession: Sendable {}
