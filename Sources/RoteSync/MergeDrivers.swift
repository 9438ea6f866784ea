import Foundation
import LibGit
import RoteStore
import Scheduling

/// Rote's merge drivers, registered with libgit2 in process under the names `.gitattributes`
/// uses (`rote-progress`, `rote-profile`, `rote-immutable`), and the settings they replay
/// progress with.
public enum MergeDrivers {
    public static func driverName(_ kind: MergeKind) -> String { "rote-\(kind.rawValue)" }

    /// The scheduler settings for a progress path, from the library's decks and the learner's
    /// profile (as they are on this side of the merge).
    public static func settingsResolver(for library: LoadedLibrary) -> @Sendable (String) -> SchedulerSettings {
        let decks = library.decks
        let profiles = library.profiles
        return { path in
            let parts = path.split(separator: "/")
            guard parts.count >= 4 else { return .default }
            return .forDeck(decks[String(parts[3])], profile: profiles[String(parts[1])])
        }
    }

    /// Registers (or re-registers) the three drivers for this process.
    public static func register(settings: @escaping @Sendable (String) -> SchedulerSettings) throws {
        for kind in MergeKind.allCases {
            try MergeDriver.register(name: driverName(kind)) { input in
                guard let ours = input.ours, let theirs = input.theirs else { return .conflict }
                let outcome = SemanticMerge.merge(kind: kind, base: input.ancestor, ours: ours, theirs: theirs, path: input.path, settings: settings(input.path))
                switch outcome {
                case .merged(let data): return .merged(data)
                case .conflict: return .conflict
                }
            }
        }
    }

    /// The lines `rote setup-git` writes into `.git/config`, so plain `git merge`/`git pull`
    /// run the same merges through `rote merge-driver`.
    public static func configure(_ repository: Repository, rotePath: String) throws {
        let config = try repository.config()
        let command = rotePath.contains(" ") ? "\"\(rotePath)\"" : rotePath
        for kind in MergeKind.allCases {
            try config.set("merge.\(driverName(kind)).name", to: "Rote \(kind.rawValue) merge")
            try config.set("merge.\(driverName(kind)).driver", to: "\(command) merge-driver \(kind.rawValue) %O %A %B %P")
        }
    }
}
