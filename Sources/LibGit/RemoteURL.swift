import Foundation

/// Remote addresses as Rote shows them to people.
public enum RemoteURL {
    /// `text` with the userinfo of every URL in it hidden: `user:password@` becomes
    /// `user:***@`, and a user name alone before the host of a URL that is not `ssh://`
    /// becomes `***@`, because access tokens are often written there
    /// (`https://ghp_…@github.com/…`). ssh user names (`ssh://git@host`, `git@host:path`)
    /// are kept: they name an account, never a secret.
    ///
    /// Every message Rote prints or throws that may hold a remote's address passes through
    /// this one function (errors redact in their initialisers), so a password in a remote's
    /// URL never reaches a terminal, a log or a bug report.
    public static func redactingUserinfo(_ text: String) -> String {
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
}
