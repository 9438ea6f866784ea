import Foundation
package import HTTPTypes
import Hummingbird

/// Who may talk to the server, and how: the rules `docs/web.md` documents.
///
/// - every request for the library's data (the API, media) carries the launch's token in the
///   `X-Rote-Token` header: none is 401, a wrong one 403, and neither says anything about the
///   library. The token never travels in a cookie — cookies are not scoped by port, so every
///   other web server on 127.0.0.1 would receive it — nor in a query string, which reaches
///   logs and history; the printed address carries it in its fragment, which browsers never
///   send, and the page keeps it in the tab's `sessionStorage`;
/// - the page's shell (`/`, `/favicon.ico`, `/assets/…`: the embedded HTML, script, style, icon and strings, the
///   same for every library) is served without the token, since a browser cannot put a
///   header on a navigation; it holds nothing of the library;
/// - the `Host` header names an address the server listens on (DNS rebinding), and an
///   `Origin` header, when sent, is this server itself (cross-site requests);
/// - every answer forbids framing, sniffing and any script, style or connection that is not
///   the server's own (Content-Security-Policy).
package struct AccessPolicy: Sendable {
    package static let headerName = HTTPField.Name("X-Rote-Token")!
    package static let hostField = HTTPField.Name("Host")!
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    package let token: String
    /// Host names (no port) the `Host` and `Origin` headers may name.
    package let hosts: Set<String>
    /// The port the server listens on, once known: an `Origin` on another port of the same
    /// host is another program.
    let port: PortBox

    package init(token: String, hosts: Set<String>, port: Int? = nil) {
        self.token = token
        self.hosts = hosts
        self.port = PortBox(port)
    }

    /// 127.0.0.1, localhost and ::1, and `host` when the server was told to listen there.
    package static func hosts(listeningOn host: String) -> Set<String> {
        var hosts: Set<String> = ["127.0.0.1", "localhost", "::1"]
        hosts.insert(host.lowercased())
        return hosts
    }

    /// A new random token: 32 bytes from the system's generator, as hex.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The host name of a `Host` header or an origin's authority, lower-cased, without its
    /// port or IPv6 brackets; and the port when one is given.
    static func split(authority: String) -> (host: String, port: Int?) {
        var text = authority.lowercased()
        var port: Int?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return (text, nil) }
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { port = Int(rest.dropFirst()) }
            text = String(text[text.index(after: text.startIndex)..<close])
            return (text, port)
        }
        if let colon = text.lastIndex(of: ":") {
            port = Int(text[text.index(after: colon)...])
            text = String(text[..<colon])
        }
        return (text, port)
    }

    /// Why a request is refused, or nil when it may go on.
    func refusal(for request: Request) -> WebError? {
        // HTTP/1's Host header arrives as the authority; any Host field left over must agree.
        let claimed = [request.head.authority].compactMap { $0 } + request.headers[values: Self.hostField]
        guard !claimed.isEmpty else {
            return WebError(.badRequest, "no_host", "the request has no Host header")
        }
        for host in claimed {
            let (hostName, hostPort) = Self.split(authority: host)
            guard hosts.contains(hostName) else {
                return WebError(
                    .forbidden, "foreign_host",
                    "this server answers only to \(hosts.sorted().joined(separator: ", ")), not \(hostName)")
            }
            if let known = port.value, let hostPort, hostPort != known {
                return WebError(.forbidden, "foreign_host", "this server listens on port \(known), not \(hostPort)")
            }
        }
        if let origin = request.headers[.origin], origin != "null" || request.method != .get {
            guard let url = URL(string: origin), url.scheme == "http", let originHost = url.host(percentEncoded: false),
                hosts.contains(Self.split(authority: originHost).host), port.value == nil || url.port == port.value
            else {
                return WebError(.forbidden, "foreign_origin", "requests from \(origin) are refused")
            }
        }
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            return WebError(.forbidden, "foreign_origin", "cross-site requests are refused")
        }
        if Self.isShell(request.uri.path) { return nil }
        guard let presented = presentedToken(request) else {
            return WebError(
                .unauthorized, "no_token", "open the address `rote serve` printed (it ends in #token=…) in this tab")
        }
        guard Self.constantTimeEqual(presented, token) else {
            return WebError(
                .forbidden, "wrong_token", "that token is not this server's; open the address `rote serve` printed")
        }
        return nil
    }

    /// The token a request carries: the header, and nothing else — not a cookie, which every
    /// server on the same host receives whatever its port, nor a query string.
    func presentedToken(_ request: Request) -> String? {
        request.headers[Self.headerName]
    }

    /// The page's shell: the embedded pages and assets, which hold nothing of the library. An
    /// asset is a plain file name, so no path that another route could take for its own
    /// (`/assets/../api/…`, an encoded slash) passes without the token.
    static func isShell(_ path: String) -> Bool {
        if path == "/" || path == "/favicon.ico" { return true }
        guard path.hasPrefix("/assets/") else { return false }
        let name = path.dropFirst("/assets/".count)
        return !name.isEmpty && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "."
                    || $0 == "-" || $0 == "_"
            }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The port, set once the server is listening.
final class PortBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int?
    init(_ port: Int?) { stored = port }
    var value: Int? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A refusal or failure, answered as JSON: `{"error": {"code": "...", "message": "..."}}`.
package struct WebError: Error, Sendable {
    package let status: HTTPResponse.Status
    package let code: String
    package let message: String
    /// Data the page puts into its own words for `code` (`error.<code>` in the strings
    /// table, at `{detail}`): another process's note, `pid 4242: rote sync`.
    package let detail: String?

    package init(_ status: HTTPResponse.Status, _ code: String, _ message: String, detail: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail
    }
}

/// Checks every request against the `AccessPolicy`, turns every error into a JSON answer
/// (never a crash, never a stack), and puts the security headers on every answer.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: AccessPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        var response: Response
        if let refusal = policy.refusal(for: request) {
            response = JSONReply.error(refusal)
        } else {
            do {
                response = try await next(request, context)
            } catch let error as WebError {
                response = JSONReply.error(error)
            } catch let error as HTTPError {
                let code =
                    error.status == .contentTooLarge
                    ? "too_large" : error.status == .notFound ? "not_found" : "bad_request"
                response = JSONReply.error(WebError(error.status, code, error.body ?? error.status.reasonPhrase))
            } catch {
                response = JSONReply.error(WebError.from(error))
            }
        }
        response.headers[.contentSecurityPolicy] = AccessPolicy.contentSecurityPolicy
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        // The time the server spent, for the browser's developer tools and `make bench`.
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        response.headers[HTTPField.Name("Server-Timing")!] = "app;dur=\(String(format: "%.2f", milliseconds))"
        return response
    }
}
