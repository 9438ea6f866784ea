public import Foundation
public import Git
public import RoteModel
import StarterCorpus

/// Creates a new library: a git repository holding `rote.yaml`, `.gitattributes`, the starter
/// decks and a profile for its first learner, committed as one first commit (through libgit2).
public struct LibraryCreator {
    public var user: String
    public var now: Date
    /// `.anonymous` writes `privacy: anonymous` into rote.yaml: Rote's commits are then
    /// authored by Rote under the learner's id (`CommitAuthor`).
    public var privacy: LibraryManifest.Privacy
    /// The learner's own language and the one they learn (`native_language`,
    /// `target_language` in the profile), e.g. `ar` and `en`; they decide which side of a
    /// vocabulary card is the prompt.
    public var nativeLanguage: String?
    public var targetLanguage: String?

    public init(user: String, privacy: LibraryManifest.Privacy = .standard, now: Date = Date()) {
        self.user = user
        self.privacy = privacy
        self.now = Timestamp.wholeSeconds(now)
    }

    /// Whether `code` looks like a language code: a BCP 47 primary subtag of 2–3 lower-case
    /// letters, with optional subtags (`ar`, `en`, `pt-BR`, `zh-Hant`).
    public static func isLanguageCode(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLowercase })
        else { return false }
        return parts.dropFirst().allSatisfy {
            (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// A random learner id for an anonymous library: `learner-` and 10 hex digits. It names
    /// no one; the learner may keep it for good.
    public static func anonymousLearnerID() -> String {
        "learner-" + DeviceIdentity.randomHex(digits: 10)
    }

    /// The decks shipped with Rote, by folder name, in study order.
    public static var starterDeckNames: [String] {
        let names = Set(StarterDecks.files.compactMap { $0.path.split(separator: "/").first.map(String.init) })
        let preferred = ["english-a1", "kjv", "red-letter", "alphabet", "math"]
        return preferred.filter(names.contains) + names.subtracting(preferred).sorted()
    }

    /// Creates the library at `root` (which must not exist yet, or be an empty folder) and
    /// returns the first commit's id.
    @discardableResult
    public func create(at root: URL) throws -> ObjectID {
        guard Slug.isValidUser(user) else {
            throw LibraryError(
                .invalidUser,
                "'\(user)' is not a valid learner name; use lowercase letters, digits, _ . - (e.g. --user jane)")
        }
        let manager = FileManager.default
        if manager.fileExists(atPath: root.path) {
            let contents = (try? manager.contentsOfDirectory(atPath: root.path)) ?? []
            if LibraryLocation.isLibrary(root) {
                throw LibraryError(
                    .alreadyExists, "\(root.path) is already a Rote library; use it with `rote -C \(root.path) …`")
            }
            if !contents.isEmpty {
                throw LibraryError(
                    .alreadyExists, "\(root.path) exists and is not empty; choose a new folder for the library")
            }
        }
        let repository: Repository
        do {
            repository = try Repository.create(at: root)
        } catch let error as GitError {
            throw LibraryError(
                .gitFailure, "cannot create a git repository at \(root.path): \(error.message)", cause: error)
        }
        var paths: [String] = []
        func write(_ path: String, _ text: String) throws {
            try AtomicFile.write(text, to: root.appending(path: path))
            paths.append(path)
        }
        let decks = LibraryCreator.starterDeckNames
        try write(
            LibraryLocation.manifestName,
            LibraryManifest(title: "My Rote library", defaultUser: user, decks: decks, privacy: privacy).render())
        try write(".gitattributes", MergeRules.gitAttributes)
        for file in StarterDecks.files { try write(LibraryPaths.content(file.path), file.text) }
        var profile = Profile(user: user, createdAt: now, updatedAt: now)
        profile.settings.newPerDay = 10
        profile.settings.reviewsPerDay = 200
        profile.settings.dailyGoal = 20
        profile.settings.nativeLanguage = nativeLanguage
        profile.settings.targetLanguage = targetLanguage
        // The learner starts having seen the starter decks' versions, so a later version of
        // one runs its upgrade rule (see ContentVersions).
        for file in StarterDecks.files where file.path.hasSuffix("/deck.yaml") {
            if let deck = DeckManifest.decode(file.text, path: file.path).0 {
                profile.setSeenVersion(deck.version, of: String(file.path.dropLast("/deck.yaml".count)))
            }
        }
        try write(LibraryPaths(user: user).profile, profile.render())

        do {
            let index = try repository.index()
            for path in paths { try index.add(path: path) }
            try index.write()
            let tree = try index.writeTree()
            try CommitAuthor.configureGit(repository, root: root)
            let signature = try CommitAuthor.signature(in: repository, privacy: privacy, user: user, at: now)
            return try repository.createCommit(
                tree: tree, parents: [],
                message:
                    "Create Rote library with \(decks.count) starter decks\n\nDecks: \(decks.joined(separator: ", "))\nRote-User: \(user)\n",
                author: signature, committer: signature)
        } catch let error as GitError {
            throw LibraryError(
                .gitFailure, "cannot make the first commit in \(root.path): \(error.message)", cause: error)
        }
    }
}
