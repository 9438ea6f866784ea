package import Foundation
package import Git
import RoteModel
import RoteStore
package import Scheduling

/// Rote's merge drivers, registered with libgit2 in process under the names `.gitattributes`
/// uses (`rote-progress`, `rote-profile`, `rote-immutable`), and the settings they replay
/// progress with.
package enum MergeDrivers {
    package static func driverName(_ kind: MergeKind) -> String { MergeRules.driverName(kind.rawValue) }

    /// The scheduler settings for a progress path `profiles/<user>/progress/<deck>/…`: the
    /// deck's scheduler and the learner's retention, read from that deck's `deck.yaml` and
    /// that learner's `profile.yaml` under `root` — only those files, once each, however many
    /// files a merge touches and however large the library is.
    package static func settingsResolver(root: URL) -> @Sendable (String) -> SchedulerSettings {
        let cache = SettingsCache(root: root)
        return { path in cache.settings(for: path) }
    }

    /// Registers (or re-registers) Rote's drivers for merges in `repository`, replaying
    /// progress with `settings`: each library's merges use its own settings, however many
    /// libraries this process merges at once.
    package static func register(
        for repository: Repository, settings: @escaping @Sendable (String) -> SchedulerSettings
    ) throws {
        for kind in MergeKind.allCases {
            try MergeDriver.register(name: driverName(kind), for: repository) { input in
                guard let ours = input.ours, let theirs = input.theirs else { return .conflict }
                let outcome = SemanticMerge.merge(
                    kind: kind, base: input.ancestor, ours: ours, theirs: theirs, path: input.path,
                    settings: settings(input.path))
                switch outcome {
                case .merged(let data): return .merged(data)
                case .conflict: return .conflict
                }
            }
        }
    }

    /// What a driver git runs (`rote merge-driver KIND %O %A %B %P`) did.
    package enum GitDriverOutcome: Sendable, Equatable {
        /// Merged; `warnings` are the values both sides changed differently that the merge
        /// kept one of and listed (`EditConflict`), which git cannot see in a clean merge.
        case merged(warnings: [String])
        /// Not merged: `ours` now holds both versions between git's conflict markers.
        case conflict(reason: String)
    }

    /// Runs the `kind` driver as git does, once per file, at the top of the work tree `root`:
    /// merges the files `base`, `ours` and `theirs` and writes the result over `ours`. Reads
    /// only the deck's and the learner's files for the settings, never the whole library.
    package static func runForGit(kind: MergeKind, base: URL, ours: URL, theirs: URL, path: String, root: URL)
        throws -> GitDriverOutcome
    {
        guard let oursData = FileManager.default.contents(atPath: ours.path),
            let theirsData = FileManager.default.contents(atPath: theirs.path)
        else {
            throw SyncError(.mergeFailed, "cannot read the versions git passed (\(ours.path), \(theirs.path))")
        }
        let baseData = FileManager.default.contents(atPath: base.path).flatMap { $0.isEmpty ? nil : $0 }
        let settings = settingsResolver(root: root)(path)
        switch SemanticMerge.merge(
            kind: kind, base: baseData, ours: oursData, theirs: theirsData, path: path, settings: settings)
        {
        case .merged(let data):
            try AtomicFile.write(data, to: ours)
            guard kind == .entry else { return .merged(warnings: []) }
            // Records already in ours were there before this merge: only new ones are news.
            let before = EntryMerge.conflicts(in: oursData, path: path).count
            return .merged(
                warnings: EntryMerge.conflicts(in: data, path: path).dropFirst(before).map {
                    EntryConflict(path: path, conflict: $0).text
                })
        case .conflict(let reason):
            let text = try Repository.mergeText(ancestor: baseData, ours: oursData, theirs: theirsData, path: path)
            try AtomicFile.write(text.contents, to: ours)
            return .conflict(reason: reason)
        }
    }

    /// What `rote setup-git` (run by `rote init`, `rote clone` and `rote sync`) sets up, so
    /// plain `git merge`/`git pull` run the same merges through `rote merge-driver`: the
    /// drivers in `.git/config`, and the full table of which paths take them in
    /// `.git/info/attributes` (`MergeRules`), which also covers rules newer than the
    /// library's tracked `.gitattributes`. In an anonymous library it also gives plain git
    /// Rote's anonymous identity (`CommitAuthor.configureGit`), so a clone commits as anonymously
    /// as the library it came from.
    package static func configure(_ repository: Repository, rotePath: String) throws {
        try MergeRules.installInfoAttributes(gitDirectory: repository.gitDirectory)
        if let root = repository.workTree { try CommitAuthor.configureGit(repository, root: root) }
        let config = try repository.config()
        let command = rotePath.contains(" ") ? "\"\(rotePath)\"" : rotePath
        for kind in MergeKind.allCases {
            try config.set("merge.\(driverName(kind)).name", to: "Rote \(kind.rawValue) merge")
            try config.set(
                "merge.\(driverName(kind)).driver", to: "\(command) merge-driver \(kind.rawValue) %O %A %B %P")
        }
    }
}

/// Deck manifests and profiles read on first use, shared by merge-driver callbacks.
final class SettingsCache: @unchecked Sendable {
    let root: URL
    private var decks: [String: DeckManifest?] = [:]
    private var profiles: [String: Profile?] = [:]
    private let lock = NSLock()

    init(root: URL) { self.root = root }

    func settings(for path: String) -> SchedulerSettings {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 5, parts[0] == LibraryPaths.profiles, parts[2] == "progress" else { return .default }
        lock.lock()
        defer { lock.unlock() }
        let deck = decks[parts[3]] ?? read(DeckManifest.self, LibraryPaths.deckManifest(parts[3]))
        decks[parts[3]] = deck
        let profile = profiles[parts[1]] ?? read(Profile.self, LibraryPaths(user: parts[1]).profile)
        profiles[parts[1]] = profile
        return .forDeck(deck, profile: profile, deckName: parts[3])
    }

    private func read<T: YAMLCodable>(_ type: T.Type, _ path: String) -> T? {
        FileManager.default.contents(atPath: root.appending(path: path).path).flatMap { T.decode($0, path: path).0 }
    }
}
