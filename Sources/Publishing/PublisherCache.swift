import Foundation
import Git
import RoteModel
import RoteStore

/// Device-local bare mirrors of publishers' repositories, under `.git/rote/publishers/`, so
/// `rote deck status` and `update` fetch only what is new and the base of a three-way merge
/// (the commit imported last) is at hand. Never committed; a fresh clone of the library
/// fetches them again on first use.
enum PublisherCache {
    /// Branches and tags, mirrored as the publisher has them.
    static let refspecs = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]

    /// `.git/rote/publishers/<name>-<hash of the URL>`.
    static func folder(root: URL, url: String) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let base = url.split(separator: "/").last.map { String($0) } ?? "publisher"
        let name = Slug.make(from: base.hasSuffix(".git") ? String(base.dropLast(4)) : base)
        return root.appending(path: ".git/rote/publishers/\(name)-\(String(hash, radix: 16))")
    }

    /// The mirror of `url`, cloned on first use and fetched every time after, so it holds the
    /// publisher's branches and tags as they are now. The clone or fetch holds the mirror's
    /// own lock (`<mirror>.lock`): `rote deck status` runs without the library's lock (a study
    /// session may hold that), so two processes could otherwise fetch into one mirror at once.
    /// Throws `LibraryError` with the code `busy` when another process is refreshing the same
    /// mirror.
    ///
    /// The publisher's URL is whatever a deck.yaml says, which any collaborator on the library
    /// can edit, so `ROTE_GIT_TOKEN` is never offered to it (credential helpers still are:
    /// they answer per host, with the user's own rules).
    static func refreshed(root: URL, url: String, credentials: Credentials, purpose: String) throws -> Repository {
        let credentials = credentials.withoutToken(
            because: "a publisher's address comes from a deck.yaml anyone sharing the library can edit")
        let folder = folder(root: root, url: url)
        let lock = try LibraryError.surfacing {
            try LibraryLock(
                file: folder.deletingLastPathComponent().appending(path: "\(folder.lastPathComponent).lock"),
                resource:
                    "the mirror of the publisher \(RemoteURL.redactingUserinfo(url)) (.git/rote/publishers/\(folder.lastPathComponent))",
                purpose: purpose)
        }
        defer { withExtendedLifetime(lock) {} }
        do {
            if FileManager.default.fileExists(atPath: folder.appending(path: "HEAD").path) {
                let repository = try Repository.open(at: folder)
                let origin = try repository.remote(named: "origin") ?? repository.addRemote(named: "origin", url: url)
                try origin.fetch(refspecs: refspecs, credentials: credentials)
                return repository
            }
            try FileManager.default.createDirectory(
                at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
            let partial = folder.deletingLastPathComponent().appending(
                path: ".\(folder.lastPathComponent).\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: partial) }
            let repository = try Repository.clone(from: url, to: partial, credentials: credentials, bare: true)
            try repository.remote(named: "origin")?.fetch(refspecs: refspecs, credentials: credentials)
            try FileManager.default.moveItem(at: partial, to: folder)
            return try Repository.open(at: folder)
        } catch let error as GitError {
            throw PublisherError(
                .unreachable,
                "cannot reach the publisher at \(url): \(error.message); check the address (a path, file://, ssh:// or https:// URL of a git repository) and your connection",
                cause: error)
        }
    }
}
