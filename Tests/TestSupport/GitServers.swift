import Foundation
import LibGit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A self-signed certificate for 127.0.0.1 (valid until 2126), made for these tests with
/// `openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj /CN=127.0.0.1
/// -addext subjectAltName=DNS:127.0.0.1,IP:127.0.0.1`. Its key is public on purpose: it guards
/// nothing but a test server on the loopback address.
public enum TestCertificate {
    /// Makes libgit2 trust this certificate, and only it, for https in this process (the test
    /// process reaches no other https server). Idempotent.
    public static func trust() throws {
        if let failure = trusted { throw GitError(code: -1, message: failure, operation: "trusting the test certificate") }
    }

    /// Once per process: libgit2 swaps its whole certificate store, which must not happen
    /// under a handshake in progress. Nil when it worked, else why not.
    private static let trusted: String? = {
        let file = FileManager.default.temporaryDirectory.appending(path: "rote-test-ca-\(ProcessInfo.processInfo.processIdentifier).pem")
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
        MIIDJzCCAg+gAwIBAgIULXoSNaIYhaGjW8hQ/aRcpyx9EN0wDQYJKoZIhvcNAQEL
        BQAwFDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyNDE3MDc0OFoYDzIxMjYx
        MDMxMTcwNzQ4WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwggEiMA0GCSqGSIb3DQEB
        AQUAA4IBDwAwggEKAoIBAQDcg3mkaKp2U6XzqOu0m3BD2LP4VpMSY5tjzcdauwnH
        fP4Fic/B1gcxEyFCPRNnn4d0od3KIRGig7DyHU9lhOty3UxE/8Kgpa4KrdAG5zXU
        LzrtTTcPoGwXuEJQd5vjGlgX2Y6fGD7rXQNVsjPh139bMiLkWCGsyVlVl2C1JE5w
        920LiCBuvDdmNq8ee4pi+RyYkdw0eJnXDpXQxOe6EgA9+rrfyNEgOJYtyvs0nf+x
        wUw40AFZEb6XyltwwG8Uc1QmM1DGhRnfGHJU3qprfrMtuWDqO1fClasfHTrP+Inr
        2onvy7zI/WPRdhPdERqolZsJV/KVTmpYQut0SrfH8fhtAgMBAAGjbzBtMB0GA1Ud
        DgQWBBSQN2Pm+afKD48Cs76gUwvdpoOoFzAfBgNVHSMEGDAWgBSQN2Pm+afKD48C
        s76gUwvdpoOoFzAaBgNVHREEEzARggkxMjcuMC4wLjGHBH8AAAEwDwYDVR0TAQH/
        BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAhg6NN5W1/2eMbvEodurErdoc39N6
        MfojBGICKOKSskxIv+qFqG9coRePLXJcYUVY+ryZw4HxYn4z2/DZi3fLtdFmhxtu
        gEMkBeotQc5Bq6SL6+T4mkLtiaou8LmuSCpgCqnHXO/xujQcwG8taTZ4YN+Xf3pC
        Xr8XxxnJCCIhGr4nbTF/OLdSCguSdN8JP20dKG3wLGl8dIakK5twLL6N9ncNdde/
        zeZr75zjp7pS7XrzvHE2uqr9vcBjgX0c8DX+wjR2eRkZhFhZF9Fx8eMbeIG0vSyI
        84eUw8AWLGfKauzkm4OOS+BcbcNjUa2yZmKBwIEZ92cJbVIjNxLjVUNRFg==
        -----END CERTIFICATE-----

        """

    public static let keyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDcg3mkaKp2U6Xz
        qOu0m3BD2LP4VpMSY5tjzcdauwnHfP4Fic/B1gcxEyFCPRNnn4d0od3KIRGig7Dy
        HU9lhOty3UxE/8Kgpa4KrdAG5zXULzrtTTcPoGwXuEJQd5vjGlgX2Y6fGD7rXQNV
        sjPh139bMiLkWCGsyVlVl2C1JE5w920LiCBuvDdmNq8ee4pi+RyYkdw0eJnXDpXQ
        xOe6EgA9+rrfyNEgOJYtyvs0nf+xwUw40AFZEb6XyltwwG8Uc1QmM1DGhRnfGHJU
        3qprfrMtuWDqO1fClasfHTrP+Inr2onvy7zI/WPRdhPdERqolZsJV/KVTmpYQut0
        SrfH8fhtAgMBAAECggEACC3FMXyjU+uy1Eh/440/Wvja5ftaDZzNquQ7QGl/CZvg
        dRahMsyMLD0MJv+KbHW9ia0mQ4S5+XfedIBzTS3iqLo+BbIhxyEWBTXgqRziwXm1
        +w6529XEpJWUOhVRnhkASvQqBssYrFShFsjbBUWfpuODaUo+h4DZVCQe9WEBGs30
        6ITZG+YkZtsLnqIl+bANIbK85SwDUYDliy8Zq/D8pjJnBzqmlXIjjqpGvYCGqJqS
        x7pdFRHJuHoeDg3ojrH4OVGcvl3k46qKLdv6pgPZyYh/7L91Tm7EGEzcnMjkKWp7
        LKa2QhTCDTUF5DQhIbnR4gpQz/oOMeQ2R5PrNANFiQKBgQDvvGMF9mmyHG5oo5FE
        b6aB0yZxCDQD2x0MCDXFEkITVCMSbVWkAluAIvtIRKG92biDgFLWZsXRBodK7ZWP
        XC1ZElpqVGtQzjaMRpw4rpyWdtZ3AX9lCzWm/aUxAlIjdTJuBX5Mict5c/ekUTT1
        GKOmKa3Or7uqTxucTs1r+IyXuQKBgQDreT6umV2S2RkwG5MjWD17LRDIhRYdmtF9
        juH7jVWkfQtRmV9Dv+xo0ODFNP4pjfjJvfoD2r7Z7JbQkRK+liyOH2xPvSavptyY
        rzhpeJXHKAUDvQoxcbn0RgTAWvxEC4iwSxnebjeq6kuVW5Hc2x7WKX9YITJd4rj4
        poIwq/xYVQKBgDZI+kNHYPer6HRZVXOhtJqBLZs6uEyHOTSYR1SwpbWqv6ZUi6fv
        wLhrM2tR3y4WNunQDPHvo6uJRul4kv07ailZNpANPZ+2kjOBaa6MG3kWv8mC1U4U
        E7oUhWtrkx3kU98F72t1aFXAJLtYiB1Xzva5SVocAOq3rxDd5zYjufJBAoGBAMWg
        BX6OEt27PQuGKRBB75+ga/SO1cfU9rs1Hu57aQRbOhOq8CwxOJ2jqPF6D1Ia6FGR
        EvMHNKQ7jzvOdffkm9JQBxxJON204nF2pZbHcJUsPkEr+BEVTKb52OUDt7L4Jykm
        briisi/M4dChgKLmeFPvkgQKIHZxYSK2xI9K2MfdAoGAYRhJNcsCETX/aqPHX5lY
        emZfEQ5f0HqKh7KXTTEE8gmgF6cfy30h4WMTnJw9yvJEKK0iiqUkCuYa/nv1seao
        rrBzcXhBq66F+7RJT0+O0XV2m+e+iy1n3PkWX3RCrXxjWJLJSai1TPrlJN9c35Uy
        vr2BmJalKPSiQedvMnbek1c=
        -----END PRIVATE KEY-----

        """
}

/// A smart-HTTP git server (`git http-backend` behind a small Python server) on 127.0.0.1 that
/// demands HTTP Basic authentication as `user`:`password`, over plain http or, with `tls`, over
/// https with `TestCertificate` (call `TestCertificate.trust()` first so libgit2 accepts it).
/// It counts the requests that carried the right password, in `authenticatedRequests`.
/// Stopped when the value is released.
public final class AuthenticatingGitServer {
    public let port: UInt16
    public let tls: Bool
    private let process: Process
    private let countFile: URL

    public init(projectRoot: URL, user: String, password: String, scratch: TemporaryDirectory, tls: Bool = false) throws {
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
            throw GitError(code: -1, message: "the python git http server did not start", operation: "starting http server")
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
