import Foundation

/// Reading the address of a remote the way libgit2 picks its transport: `scheme://…`, scp-like
/// `user@host:path`, or a folder path (plain, relative or `file://`).
package enum RemoteURL {
    /// `text` with the userinfo of every URL in it hidden: `user:password@` becomes
    /// `user:***@`, and a user name alone before the host of a URL that is not `ssh://`
    /// becomes `***@`, because access tokens are often written there
    /// (`https://ghp_…@github.com/…`). ssh user names (`ssh://git@host`, `git@host:path`)
    /// are kept: they name an account, never a secret.
    ///
    /// Every message Rote prints or throws that may hold a remote's address passes through
    /// this one function (errors redact in their initialisers), so a password in a remote's
    /// URL never reaches a terminal, a log or a bug report.
    package static func redactingUserinfo(_ text: String) -> String {
        guard text.contains("@") else { return text }
        let range = NSRange(text.startIndex..., in: text)
        var result = ""
        var copied = text.startIndex
        for match in userinfoPattern.matches(in: text, range: range) {
            guard let scheme = Range(match.range(at: 1), in: text), let userinfo = Range(match.range(at: 2), in: text)
            else { continue }
            result += text[copied..<userinfo.lowerBound]
            let info = text[userinfo]
            if let colon = info.firstIndex(of: ":") {
                result += info[..<colon] + ":***"
            } else if text[scheme].lowercased().hasPrefix("ssh") || info.isEmpty {
                result += info
            } else {
                result += "***"
            }
            copied = userinfo.upperBound
        }
        result += text[copied...]
        return result
    }

    /// `scheme://` then the userinfo: everything up to the last `@` before the host's end
    /// (a password with an unescaped `@` in it is still hidden whole).
    private static let userinfoPattern = try! NSRegularExpression(
        pattern: #"\b([A-Za-z][A-Za-z0-9+.\-]*)://([^/\s?#]*)@"#)

    /// The scheme, lowercased (`https`, `ssh`, `git`, `file`, …); nil for a path or an
    /// scp-like address.
    package static func scheme(of url: String) -> String? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) })
        else { return nil }
        return scheme.lowercased()
    }

    /// The host of `https://host/...`, `ssh://user@host/...` or scp-like `user@host:path`,
    /// lowercased; nil for a folder path.
    package static func host(of url: String) -> String? {
        if localPath(of: url) != nil { return nil }
        if scheme(of: url) != nil {
            guard let parsed = URLComponents(string: url), let host = parsed.host, !host.isEmpty else { return nil }
            return host.lowercased()
        }
        var rest = Substring(url)
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if let colon = rest.firstIndex(of: ":") { rest = rest[..<colon] }
        return rest.isEmpty ? nil : rest.lowercased()
    }

    /// The folder a local remote names — a path (absolute, or relative to the current
    /// folder), or a `file://` URL — or nil for a network remote. Like git, a colon before the
    /// first slash makes an scp-like ssh address (`host:path`), not a path.
    package static func localPath(of url: String) -> String? {
        if let scheme = scheme(of: url) {
            guard scheme == "file" else { return nil }
            let rest = String(url.dropFirst("file://".count))
            // file:///srv/x and file://localhost/srv/x; libgit2 takes no other host.
            let path = rest.hasPrefix("localhost/") ? String(rest.dropFirst("localhost".count)) : rest
            return path.removingPercentEncoding ?? path
        }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") { return nil }
        guard !url.isEmpty else { return nil }
        return URL(fileURLWithPath: url).standardizedFileURL.path
    }
}
