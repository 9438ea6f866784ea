public import Foundation

/// Where fetch, push and clone find credentials, and how far they trust servers. Credentials are
/// looked up at the moment a server asks for them and handed straight to libgit2: nothing is
/// ever written to the repository, its config or any other file.
///
/// - ssh remotes: the ssh-agent (when `SSH_AUTH_SOCK` is set), then the key files
///   `id_ed25519` and `id_rsa` in `sshDirectory` that have no passphrase.
/// - https remotes: `token` (by default `ROTE_GIT_TOKEN`) as the password of the URL's user, else
///   `x-access-token` — but only to `tokenHost` and only over https (see `tokenRefusal(for:)`);
///   then the user's git credential helpers via `git credential fill`.
///
/// libgit2 asks again after every refused credential and would ask forever, so each operation
/// gives up after `maxAttempts` requests, or sooner when every source has been tried, with an
/// error that says what was tried and what to do.
///
/// ```swift
/// try remote.push(refspecs: ["refs/heads/main"], credentials: Credentials())
/// ```
public struct Credentials: Sendable {
    /// An access token for https remotes, sent as the password. Default: `ROTE_GIT_TOKEN`.
    public var token: String?
    /// The one host `token` is for. Default: `ROTE_GIT_TOKEN_HOST`; when that is unset, Rote
    /// scopes the token to the host of the library's `origin` remote (`scopedToLibrary(_:)`),
    /// or of the URL being cloned (`scopingToken(to:)`). While it is nil the token is sent
    /// nowhere: a token is a password for one account on one server, and any other server —
    /// a collaborator's publisher deck, a redirect — must never see it.
    public var tokenHost: String?
    /// Ask the user's configured git credential helpers (`git credential fill`) for https.
    public var useCredentialHelpers: Bool
    /// Let `git credential fill` prompt on the terminal. Off by default so that a sync run
    /// from a script or an app never waits for input nobody will type.
    public var allowTerminalPrompt: Bool
    /// Try the ssh-agent before key files.
    public var useSSHAgent: Bool
    /// The folder holding `id_ed25519` and `id_rsa`; default `~/.ssh`. (libgit2 reads
    /// `~/.ssh/known_hosts` itself.)
    public var sshDirectory: URL
    /// Accept an ssh host whose key is not in `~/.ssh/known_hosts` (or does not match it).
    /// Off by default: the error then explains how to accept the key with `ssh`.
    public var acceptUnknownHosts: Bool
    /// How many times one operation answers libgit2's request for credentials.
    public var maxAttempts: Int

    public init(
        token: String? = ProcessInfo.processInfo.environment["ROTE_GIT_TOKEN"],
        tokenHost: String? = ProcessInfo.processInfo.environment["ROTE_GIT_TOKEN_HOST"],
        useCredentialHelpers: Bool = true,
        allowTerminalPrompt: Bool = false,
        useSSHAgent: Bool = true,
        sshDirectory: URL = Credentials.defaultSSHDirectory,
        acceptUnknownHosts: Bool = false,
        maxAttempts: Int = 5
    ) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.tokenHost = tokenHost.flatMap { Self.normalizedHost($0) }
        self.useCredentialHelpers = useCredentialHelpers
        self.allowTerminalPrompt = allowTerminalPrompt
        self.useSSHAgent = useSSHAgent
        self.sshDirectory = sshDirectory
        self.acceptUnknownHosts = acceptUnknownHosts
        self.maxAttempts = maxAttempts
    }

    /// `$HOME/.ssh`.
    public static var defaultSSHDirectory: URL {
        let home =
            ProcessInfo.processInfo.environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appending(path: ".ssh", directoryHint: .isDirectory)
    }

    /// These credentials with the token scoped to the host of `url`, unless it already has a
    /// host (`ROTE_GIT_TOKEN_HOST` wins). For `rote clone URL`, whose URL becomes `origin`.
    public func scopingToken(to url: String) -> Credentials {
        var scoped = self
        if scoped.tokenHost == nil { scoped.tokenHost = RemoteURL.host(of: url) }
        return scoped
    }

    /// These credentials with the token scoped to the host of `repository`'s `origin` remote,
    /// unless it already has a host. A library's own remote decides where its token may go;
    /// a remote added under another name (or a publisher's) never widens that.
    package func scopedToLibrary(_ repository: Repository) -> Credentials {
        guard tokenHost == nil, let origin = try? repository.remote(named: "origin") else { return self }
        return scopingToken(to: origin.url)
    }

    /// These credentials without the token, for servers that someone else chose, such as a
    /// publisher deck's `upstream.url`, which any collaborator can edit. `reason` ends up in
    /// the error when the server then refuses every other credential.
    public func withoutToken(because reason: String) -> Credentials {
        var stripped = self
        if stripped.token != nil { stripped.tokenWithheld = reason }
        stripped.token = nil
        return stripped
    }

    /// Why a token that was set is not offered in this operation at all.
    var tokenWithheld: String?

    /// Why the token must not be sent to `url`, or nil when it may: the URL must be https
    /// (plain http shows the token to everyone on the way) and its host must be `tokenHost`.
    func tokenRefusal(for url: String) -> String? {
        guard token != nil else { return "no token is set" }
        guard RemoteURL.scheme(of: url) == "https" else {
            return "\(RemoteURL.scheme(of: url) ?? "this") is not https, and a token is only sent over https"
        }
        let host = RemoteURL.host(of: url) ?? url
        guard let tokenHost else {
            return "it is scoped to no host; set ROTE_GIT_TOKEN_HOST=\(host) if the token is for \(host)"
        }
        guard host == tokenHost else {
            return "it is for \(tokenHost) (ROTE_GIT_TOKEN_HOST, else the library's origin), not \(host)"
        }
        return nil
    }

    /// `GitHub.com.` → `github.com`; nil for an empty value.
    static func normalizedHost(_ host: String) -> String? {
        var trimmed = host.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasSuffix(".") { trimmed.removeLast() }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// One way to authenticate over ssh, in the order they are tried.
    enum SSHKeySource: Equatable {
        case agent
        case file(privateKey: URL, publicKey: URL?)
    }

    /// The ssh sources to try, and the key files skipped because they have a passphrase.
    func sshKeySources(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (sources: [SSHKeySource], skipped: [URL])
    {
        var sources: [SSHKeySource] = []
        var skipped: [URL] = []
        if useSSHAgent, let socket = environment["SSH_AUTH_SOCK"], !socket.isEmpty {
            sources.append(.agent)
        }
        for name in ["id_ed25519", "id_rsa"] {
            let privateKey = sshDirectory.appending(path: name)
            guard let contents = FileManager.default.contents(atPath: privateKey.path) else { continue }
            if Self.isEncryptedPrivateKey(contents) {
                skipped.append(privateKey)
                continue
            }
            let publicKey = sshDirectory.appending(path: name + ".pub")
            sources.append(
                .file(
                    privateKey: privateKey,
                    publicKey: FileManager.default.fileExists(atPath: publicKey.path) ? publicKey : nil))
        }
        return (sources, skipped)
    }

    /// True when a private key file needs a passphrase: an OpenSSH key whose cipher is not
    /// "none", or a PEM key marked `ENCRYPTED`.
    static func isEncryptedPrivateKey(_ contents: Data) -> Bool {
        let text = String(decoding: contents, as: UTF8.self)
        if text.contains("ENCRYPTED") { return true }
        let begin = "-----BEGIN OPENSSH PRIVATE KEY-----"
        let end = "-----END OPENSSH PRIVATE KEY-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return false }
        let base64 = text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
        guard let body = Data(base64Encoded: String(base64)) else { return false }
        // "openssh-key-v1\0", then the cipher name as a big-endian length and bytes.
        let magic = Array("openssh-key-v1\0".utf8)
        let bytes = [UInt8](body)
        guard bytes.count >= magic.count + 4, Array(bytes[0..<magic.count]) == magic else { return false }
        let lengthBytes = bytes[magic.count..<magic.count + 4]
        let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        let nameStart = magic.count + 4
        guard length > 0, bytes.count >= nameStart + length else { return false }
        return String(decoding: bytes[nameStart..<nameStart + length], as: UTF8.self) != "none"
    }

    /// Why an ssh host key is refused, or nil to accept it. libgit2 passes `valid` true when
    /// the key matches `~/.ssh/known_hosts`.
    func hostKeyRefusal(valid: Bool, host: String) -> String? {
        if valid || acceptUnknownHosts { return nil }
        return "the ssh host key of \(host) is not in ~/.ssh/known_hosts, or does not match it; "
            + "run `ssh \(host)` once to check its fingerprint and accept the key, then try again"
    }

    /// Asks the user's git credential helpers for a user name and password for `url` with
    /// `git credential fill`, run in `directory` so repository-local helpers count. Nothing is
    /// approved or stored back. Nil when no helper answers.
    func fillFromCredentialHelpers(url: String, username: String?, in directory: URL?) -> (
        username: String, password: String
    )? {
        // Foundation's Process, not swift-subprocess: this runs inside libgit2's synchronous
        // credential callback, which cannot await, and blocking a thread of the concurrency pool
        // until swift-subprocess finishes deadlocks, since it needs a free pool thread to finish.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "credential", "fill"]
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        if !allowTerminalPrompt {
            environment["GIT_TERMINAL_PROMPT"] = "0"
        }
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        var request = "url=\(url)\n"
        if let username { request += "username=\(username)\n" }
        request += "\n"
        try? input.fileHandleForWriting.write(contentsOf: Data(request.utf8))
        try? input.fileHandleForWriting.close()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in answer.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let password = fields["password"] else { return nil }
        return (fields["username"] ?? username ?? "", password)
    }
}

/// How far a fetch or clone has got (`git_indexer_progress`).
package struct TransferProgress: Sendable, Equatable {
    package var totalObjects: Int
    package var receivedObjects: Int
    package var indexedObjects: Int
    package var receivedBytes: Int

    package init(totalObjects: Int, receivedObjects: Int, indexedObjects: Int, receivedBytes: Int) {
        self.totalObjects = totalObjects
        self.receivedObjects = receivedObjects
        self.indexedObjects = indexedObjects
        self.receivedBytes = receivedBytes
    }
}
