public import Foundation

/// Finds the library a command works on, the way git finds a repository.
public enum LibraryLocation {
    public static let manifestName = "rote.yaml"

    /// Resolves, in order: an explicit path (`-C` or `ROTE_LIBRARY`), which must be a
    /// library; the current folder or the nearest parent holding `rote.yaml`; else the user's
    /// default library (`$XDG_DATA_HOME/rote`, `~/.local/share/rote`), which `isDefault`
    /// reports so the caller can create it on first use.
    public static func resolve(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) throws -> (root: URL, isDefault: Bool) {
        if let explicit = explicit ?? environment["ROTE_LIBRARY"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let url = URL(fileURLWithPath: explicit, relativeTo: currentDirectory).standardizedFileURL
            guard isLibrary(url) else {
                var isFolder: ObjCBool = false
                if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
                    throw LibraryError(
                        .notFound, "\(url.path): no such folder; create a library there with `rote init \(explicit)`")
                }
                throw LibraryError(
                    .notALibrary,
                    "\(url.path)/\(manifestName): missing, so this is not a Rote library; create one with `rote init \(explicit)`"
                )
            }
            return (url, false)
        }
        var folder = currentDirectory.standardizedFileURL
        while true {
            if isLibrary(folder) { return (folder, false) }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return (defaultLibrary(environment: environment), true)
    }

    public static func isLibrary(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appending(path: manifestName).path)
    }

    /// `$XDG_DATA_HOME/rote`, else `$HOME/.local/share/rote`.
    public static func defaultLibrary(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data, isDirectory: true).appending(path: "rote")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appending(path: ".local/share/rote")
    }

    /// The learner commands act for: `--user`, else `ROTE_USER`, else the library's
    /// `default_user`, else (except in an anonymous library) the login name made into a slug.
    ///
    /// This is the one place a learner name enters Rote, and it becomes part of file paths
    /// (`profiles/<user>/…`, `.git/rote/launch-<user>.index`), so a name that is not a slug —
    /// `../../victim`, a slash, an empty segment — is refused here, for every command.
    public static func user(
        explicit: String?, manifest: LibraryManifest?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        // An anonymous library never takes a learner's name from their login.
        if manifest?.privacy == .anonymous, explicit?.isEmpty ?? true, environment["ROTE_USER"]?.isEmpty ?? true,
            manifest?.defaultUser == nil
        {
            throw LibraryError(
                .invalidUser,
                "this library is anonymous (privacy: anonymous in rote.yaml) and names no default_user, so your login name is not used; pass --user with your learner id"
            )
        }
        let (user, source): (String, String) =
            if let explicit, !explicit.isEmpty {
                (explicit, "--user")
            } else if let fromEnvironment = environment["ROTE_USER"], !fromEnvironment.isEmpty {
                (fromEnvironment, "ROTE_USER")
            } else if let user = manifest?.defaultUser { (user, "rote.yaml's default_user") } else {
                (loginUser(environment: environment), "your login name")
            }
        guard Slug.isValidUser(user) else {
            throw LibraryError(
                .invalidUser,
                "'\(user)' (from \(source)) is not a valid learner name; use lowercase letters, digits, _ . - (e.g. --user jane)"
            )
        }
        return user
    }

    public static func loginUser(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Slug.make(from: environment["USER"] ?? environment["LOGNAME"] ?? NSUserName())
    }
}
