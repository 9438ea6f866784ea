import Foundation
import Git
import RoteModel
import RoteStore

extension PublisherDecks {
    /// Newer versions of publisher decks that this device already knows of, from the mirrors
    /// the learner's own `rote deck add`, `status` or `update` fetched: nothing is fetched
    /// here, so it is safe offline and costs no network. Deck name → newer version.
    public func knownUpdates() -> [(deck: String, version: String)] {
        guard let library = try? LibrarySettings(root: root, user: user) else { return [] }
        var updates: [(deck: String, version: String)] = []
        for name in library.decks.keys.sorted() {
            guard let upstream = library.decks[name]?.upstream else { continue }
            let folder = PublisherCache.folder(root: root, url: upstream.url)
            guard FileManager.default.fileExists(atPath: folder.appending(path: "HEAD").path),
                let repository = try? Repository.open(at: folder),
                let (candidate, _) = try? newest(upstream, in: repository),
                let theirs = SemanticVersion(candidate.manifest.version), let ours = SemanticVersion(upstream.version),
                theirs > ours
            else { continue }
            updates.append((name, candidate.manifest.version))
        }
        return updates
    }
}
