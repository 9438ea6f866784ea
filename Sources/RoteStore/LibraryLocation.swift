package import Foundation
package import RoteModel

/// Finds the library a command works on, the way git finds a repository.
package enum LibraryLocation {
    package static let manifestName = "rote.yaml"

    /// Resolves, in order: an explicit path (`-C` or `ROTE_LIBRARY`), which must be a
    /// library; the current folder or the nearest parent holding `rote.yaml`; else the user's
    /// default library (`$XDG_DATA_HOME/rote`, `~/.local/share/rote`), which `isDefault`
    /// reports so the caller can create it on first use.
    package static func resolve(
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

    /// The library's `rote.yaml`, read; nil when there is none. One that does not read is an
    /// error naming its line, never a silent fallback: it says who the default learner is and
    /// whether the library is anonymous, so without it Rote would act for the login name, or
    /// name a person in an anonymous library's commits.
    package static func readManifest(root: URL) throws -> LibraryManifest? {
        guard let data = FileManager.default.contents(atPath: root.appending(path: manifestName).path) else {
            return nil
        }
        let (manifest, problems) = LibraryManifest.decode(data, path: manifestName)
        let errors = problems.filter { $0.severity == .error }
        guard let manifest, errors.isEmpty else {
            throw manifestError(errors.isEmpty ? problems : errors, data: data)
        }
        return manifest
    }

    /// What to say about a `rote.yaml` that does not read: each problem with its line, and
    /// what to do.
    package static func manifestError(_ problems: [Diagnostic], data: Data) -> LibraryError {
        let text = String(decoding: data, as: UTF8.self)
        let markers = text.split(separator: "\n", omittingEmptySubsequences: false).contains {
            $0.hasPrefix("<<<<<<<") || $0.hasPrefix(">>>>>>>")
        }
        let shown = problems.isEmpty ? [Diagnostic.error(manifestName, 1, "does not read")] : problems
        let lines = shown.prefix(5).map(\.description).joined(separator: "\n")
        let advice =
            markers
            ? "resolve the conflict markers a merge left in rote.yaml (keep the lines you want, delete the <<<<<<<, ======= and >>>>>>> lines), commit, then run the command again"
            : "fix rote.yaml (see docs/format.md), then run the command again"
        return LibraryError(
            .unreadable,
            "\(lines)\nrote.yaml does not read, so Rote cannot tell which learner to act for or whether the library is anonymous; \(advice)"
        )
    }

    package static func isLibrary(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appending(path: manifestName).path)
    }

    /// `$XDG_DATA_HOME/rote`, else `$HOME/.local/share/rote`.
    package static func defaultLibrary(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
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
    package static func user(
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

    package static func loginUser(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Slug.make(from: environment["USER"] ?? environment["LOGNAME"] ?? NSUserName())
    }
}
