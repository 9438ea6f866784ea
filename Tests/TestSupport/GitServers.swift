public import Foundation
import Git

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// A self-signed certificate for 127.0.0.1 and localhost (valid until 2126), made for these
/// tests with `openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj /CN=127.0.0.1
/// -addext subjectAltName=DNS:127.0.0.1,DNS:localhost,IP:127.0.0.1`. Its key is public on
/// purpose: it guards nothing but a test server on the loopback address.
public enum TestCertificate {
    /// Makes libgit2 trust this certificate, and only it, for https in this process (the test
    /// process reaches no other https server). Idempotent.
    public static func trust() throws {
        if let failure = trusted {
            throw GitError(code: -1, message: failure, operation: "trusting the test certificate")
        }
    }

    /// Once per process: libgit2 swaps its whole certificate store, which must not happen
    /// under a handshake in progress. Nil when it worked, else why not.
    private static let trusted: String? = {
        let file = FileManager.default.temporaryDirectory.appending(
            path: "rote-test-ca-\(ProcessInfo.processInfo.processIdentifier).pem")
        do {
            try Data(certificatePEM.utf8).write(to: file)
            try LibGit.trustCertificates(inFile: file)
            return nil
        } catch {
            return "\(error)"
        }
    }()

    public static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIDMjCCAhqgAwIBAgIUJuQMwIDtDQV34ZXalD97VRHN3ZcwDQYJKoZIhvcNAQEL
        BQAwFDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyNDE3MjQwNVoYDzIxMjYx
        MDMxMTcyNDA1WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwggEiMA0GCSqGSIb3DQEB
        AQUAA4IBDwAwggEKAoIBAQCSLsDBgwG90mzHl2DMIq04YAeEBP/+8iwNtm79t1YJ
        eCQ9tDnOcpZD54UdhNx6O5CRvGNJf4H8z/3bKwCirrJs9kMz5J2xTqbCEPKTTv8e
        ADwjRUhvA6d92Ih8IGJtYYqOs/G7xcMM1DgQMVZP9AZsGdx45yoTa7uFE+2/FJZg
        ysk3z6ThXhSndgcX/Hk1YvniK8u05cVCeeiXNnru1dnTG7KuvepkCr3vjxfNs/cX
        1DfhzqdidNaRo9t7Dvv3YKPGGEhuDacGAfqHLpAje5K42043nCrbzkikgVzWggOJ
        CHn0BGrfk00azvFUebozd/OEh1zRBN9JpfWjdrXXkatxAgMBAAGjejB4MB0GA1Ud
        DgQWBBSbta3mcUPuoI+1z40CI0n7rNhlFzAfBgNVHSMEGDAWgBSbta3mcUPuoI+1
        z40CI0n7rNhlFzAlBgNVHREEHjAcggkxMjcuMC4wLjGCCWxvY2FsaG9zdIcEfwAA
        ATAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQCLOjPbWx0gf7OT
        1NRb2cIMNfKLcmx6PYM0angmJFkrZkjDuiWH/itSK6WZP1uVE1pCf164CyKycynt
        0vyCClalSPwk/JzkGRPjvDNxJ46nUaigfDNpk7CRvGQ++hAtm6ZoidPDT2mA297s
        Eiv1MrX0+xedA0OZRlHQmFXqgMwJZ+Q2HBJd1n73cJNQFRQWi/5RQVsJsvqkZtrj
        x2pyW/h2nzucUuQDJX1EOU6FXOsv6rnDCnKqFzz/pEDS87uM7en9GPYNykzggcj2
        7jplBXTjxX0vE27RtjwnUqq5U1FSkJ+oPpcWep7dXZWDQaPRoG8w9cTmuZPqoPl/
        TNCqIudR
        -----END CERTIFICATE-----

        """

    public static let keyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCSLsDBgwG90mzH
        l2DMIq04YAeEBP/+8iwNtm79t1YJeCQ9tDnOcpZD54UdhNx6O5CRvGNJf4H8z/3b
        KwCirrJs9kMz5J2xTqbCEPKTTv8eADwjRUhvA6d92Ih8IGJtYYqOs/G7xcMM1DgQ
        MVZP9AZsGdx45yoTa7uFE+2/FJZgysk3z6ThXhSndgcX/Hk1YvniK8u05cVCeeiX
        Nnru1dnTG7KuvepkCr3vjxfNs/cX1DfhzqdidNaRo9t7Dvv3YKPGGEhuDacGAfqH
        LpAje5K42043nCrbzkikgVzWggOJCHn0BGrfk00azvFUebozd/OEh1zRBN9JpfWj
        drXXkatxAgMBAAECggEACDh724YIA4pBVsoTBffPQPPZiFmVodsxkgXX4Qm922N3
        ukaX153HCIOND1do5LDT1PZAqSH0B+kUcA5Ph1aGryz8I39wRMfVBeXZFmKjYycF
        OsCLLb8JXMDgEAbsMhWBqrvA1Nvut5p5mqODpJRnBg5AQUZSrevpjDbOMGgyerfm
        7REG9FRUA+tyOuENa49FkOWbXKDGIck8DO+4bf6CLHbDikPyssbba6QhlK76dD3V
        Vxw0V644U6GGsP2UoE9lnpMSYwSc5CNT5XQMFS8O2nS4XcowbQRWK2fcBQL1SgU5
        Ry/u5LTgqhj/YsaPk0QI2RpGopACo5i3xYjjNldrAQKBgQDE6JVOWEoTozCmJS73
        h1aJ0inR9ggm96wOVbQ0/4IWG6DBNrXUousI/NjTCxcKM24s5hAQ4FFOmXdtZ9hY
        j91PCFkM4MiLVCuzrPgQuExq4S22Q0nRgxTEDGmq0txCtIlhkOM3LgeuZQ8IJhgh
        u3E2XFk+k7bXoPubDte0buP80QKBgQC+DSxf9RsQqbsSFlAJ2eZvAkbuygE75V1w
        zTYwAUCmpidqZi5KkG10hdPg4ziULLkCRRe1zwc5oJfLf93tj95UkcykMG9P8mvB
        XN+rIOuRLgN10DuM+hC2unlUHIQl1BQsZfaDJc4RmdCeEw1HoLkbnWwhciejdA7x
        buR8Bu/soQKBgQCvFih8y2DC6V5+vZ1vmDXIwslQ2rYRADVLYcWlQnTHd7WPWDiC
        ZIMdMMcTkU7hUS3sWn16pBtoCmn5LFdhGDsu5TtZih6IVUWutGS3aUj52FQvNtHS
        q/2w/WCP9oLIBYQK7yw6ioFl/pJJKqZWiDd4oNDyJaJ1Rb2z+JSw6dFroQKBgFGa
        fm9FYzWoa3a8telE8ri/lY16l0UMmy6QLrA2GXh053+8GCxUD2t0+yEY73ZQLbBX
        0nJyTnvkBMmQQc57c8+EOwZU9bayNKp2ImPsYrmXtEyl+Kvzw7FyKB6BkAxeH7tg
        nJR7axwLm5QEQjN7Q4Aj/AXwaiy47KGmJ91JbUOBAoGAZYsae6FlEqHX5HOAIWhK
        PE5puSNNt8/0PF2tgbpXFtTq7Hn49f+HomPowEN2MwzsQ31hHZJblkytOastj5u0
        5pW8jPjXR/47KrKnKgpbhIaB7TEO6Txa7wVzmCULVFEOs76gAxH30FXIhlOkEtQ4
        gieURVYXKU9wh1WLU/uHf2I=
        -----END PRIVATE KEY-----

        """
}

/// A smart-HTTP git server (`git http-backend` behind a small Python server) on 127.0.0.1 that
/// demands HTTP Basic authentication as `user`:`password`, over plain http or, with `tls`, over
/// https with `TestCertificate` (call `TestCertificate.trust()` first so libgit2 accepts it).
/// It counts the requests that carried the right password, in `authenticatedRequests`, and
/// answers any path under `/moved/` with a redirect to the same path on `localhost` — the
/// same server under another host name.
/// Stopped when the value is released.
public final class AuthenticatingGitServer {
    public let port: UInt16
    public let tls: Bool
    private let process: Process
    private let countFile: URL

    public init(projectRoot: URL, user: String, password: String, scratch: TemporaryDirectory, tls: Bool = false) throws
    {
        let name = "git-http-server-\(UUID().uuidString.prefix(8))"
        let script = scratch.url.appending(path: "\(name).py")
        try Data(Self.script.utf8).write(to: script)
        let portFile = scratch.url.appending(path: "\(name).port")
        countFile = scratch.url.appending(path: "\(name).count")
        var arguments = [script.path, projectRoot.path, portFile.path, user, password, countFile.path]
        if tls {
            let certificate = scratch.url.appending(path: "\(name).pem")
            try Data((TestCertificate.certificatePEM + TestCertificate.keyPEM).utf8).write(to: certificate)
            arguments.append(certificate.path)
        }
        self.tls = tls
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        // The server's own complaints (a client hanging up early) stay out of the test output.
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded wait: up to 10 s for the server to bind and write its port.
        var port: UInt16?
        for _ in 0..<200 where process.isRunning {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let number = UInt16(text) {
                port = number
                break
            }
            usleep(50_000)
        }
        guard let port else {
            Self.stop(process)
            throw GitError(
                code: -1, message: "the python git http server did not start", operation: "starting http server")
        }
        self.port = port
        self.process = process
    }

    public func url(_ name: String) -> String { "\(tls ? "https" : "http")://127.0.0.1:\(port)/\(name)" }

    /// How many requests so far carried the expected password.
    public var authenticatedRequests: Int {
        (try? String(contentsOf: countFile, encoding: .utf8)).map { $0.count } ?? 0
    }

    /// SIGKILL, because a child started from a Swift concurrency thread inherits that
    /// thread's blocked signals, SIGTERM included.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { Self.stop(process) }

    private static let script = #"""
        import base64, http.server, os, ssl, subprocess, sys

        root, port_file, user, password, count_file = sys.argv[1:6]
        expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                self.serve()

            def do_POST(self):
                self.serve()

            def body(self):
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    data = b""
                    while True:
                        size = int(self.rfile.readline().strip().split(b";")[0], 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            return data
                        data += self.rfile.read(size)
                        self.rfile.readline()
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length else b""

            def reply(self, status, headers, payload):
                lines = [f"HTTP/1.1 {status} {self.responses.get(status, ('Unknown',))[0]}"]
                lines += [f"{key}: {value}" for key, value in headers]
                lines.append(f"Content-Length: {len(payload)}")
                self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)

            def serve(self):
                request = self.body()
                if self.path.startswith("/moved/"):
                    scheme = "https" if len(sys.argv) > 6 else "http"
                    location = f"{scheme}://localhost:{self.server.server_address[1]}{self.path[len('/moved'):]}"
                    self.reply(302, [("Location", location)], b"")
                    return
                if self.headers.get("Authorization") != expected:
                    # An empty body: libgit2 1.5.1 fails with "http parser error: invalid
                    # constant string" on the retried request when a 401 carries a body.
                    self.reply(401, [("WWW-Authenticate", 'Basic realm="rote-test"')], b"")
                    return
                with open(count_file, "a") as f:
                    f.write("+")
                path, _, query = self.path.partition("?")
                env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                           QUERY_STRING=query, REQUEST_METHOD=self.command, REMOTE_USER=user, REMOTE_ADDR="127.0.0.1",
                           CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(request)))
                out = subprocess.run(["git", "http-backend"], input=request, env=env, capture_output=True).stdout
                separator = b"\r\n\r\n" if b"\r\n\r\n" in out else b"\n\n"
                head, _, payload = out.partition(separator)
                status, headers = 200, []
                for line in head.replace(b"\r\n", b"\n").split(b"\n"):
                    key, _, value = line.decode().partition(":")
                    if key.lower() == "status":
                        status = int(value.strip().split()[0])
                    elif key:
                        headers.append((key, value.strip()))
                self.reply(status, headers, payload)

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if len(sys.argv) > 6:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[6])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#
}
