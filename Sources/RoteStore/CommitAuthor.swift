package import Foundation
package import Git
package import RoteModel

/// Who Rote's own commits are by. In a library whose `rote.yaml` says `privacy: anonymous`
/// every commit Rote makes is authored `Rote <learner-id@users.rote.invalid>`, whatever git's
/// user.name and user.email say, so history names no person (seed 004: an anonymous id until
/// the learner chooses otherwise). Otherwise git's identity is used when set, as `git commit`
/// would, and `<learner> <learner@rote.invalid>` when it is not. Dates are always UTC, so no
/// commit gives away a time zone.
package enum CommitAuthor {
    package static let anonymousName = "Rote"

    package static func anonymousEmail(user: String) -> String { "\(user)@users.rote.invalid" }

    package static func signature(
        in repository: Repository, privacy: LibraryManifest.Privacy, user: String, at date: Date
    ) throws -> Signature {
        switch privacy {
        case .anonymous:
            try Signature(name: anonymousName, email: anonymousEmail(user: user), date: date)
        case .standard:
            try repository.signature(at: date, fallbackName: user, fallbackEmail: "\(user)@rote.invalid")
        }
    }

    /// The library's privacy setting, from its `rote.yaml` (standard when it says nothing or
    /// cannot be read — `rote check` reports a manifest that does not read).
    package static func privacy(root: URL) -> LibraryManifest.Privacy {
        let path = root.appending(path: LibraryLocation.manifestName).path
        guard let data = FileManager.default.contents(atPath: path) else { return .standard }
        return LibraryManifest.decode(data, path: LibraryLocation.manifestName).0?.privacy ?? .standard
    }

    /// In an anonymous library, makes plain git commit as Rote does: user.name and
    /// user.email in the clone's own `.git/config` (never committed), so `git pull`'s merge
    /// commits name no one either. Does nothing in a standard library.
    package static func configureGit(_ repository: Repository, root: URL) throws {
        guard privacy(root: root) == .anonymous else { return }
        let manifest = FileManager.default.contents(atPath: root.appending(path: LibraryLocation.manifestName).path)
            .flatMap { LibraryManifest.decode($0, path: LibraryLocation.manifestName).0 }
        guard let user = manifest?.defaultUser else { return }
        let config = try repository.config()
        try config.set("user.name", to: anonymousName)
        try config.set("user.email", to: anonymousEmail(user: user))
    }
}
