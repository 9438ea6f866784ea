import Foundation
public import Git
import RoteModel
import RoteStore

/// Files of an erased learner that the other side of a merge made before it saw the erasure.
public struct ErasureDrop: Sendable, Equatable {
    public var user: String
    /// True for `rote consent withdraw` (passage practice), false for `rote forget` (everything).
    public var passagesOnly: Bool
    /// Files taken out of the merge or put back as the erasing side has them.
    public var files: Int

    public var text: String {
        let what = passagesOnly ? "passage practice file" : "file"
        let erased = passagesOnly ? "erased passage practice of \(user)" : "erased learner \(user)"
        return
            "dropped \(files) \(what)\(files == 1 ? "" : "s") of the \(erased) that another device had made before it synced"
    }
}

extension ErasureRule {
    /// One erasure commit's learner and scope.
    struct Mark: Hashable {
        var user: String
        var passagesOnly: Bool
    }

    /// The erasures made on one side of a merge since the merge base: the commits reachable
    /// from `tip` and not from `other`, each mark with the trees its erasure commits left.
    static func marks(on tip: ObjectID, hiding other: ObjectID, in repository: Repository) throws -> [Mark: [Tree]] {
        var marks: [Mark: [Tree]] = [:]
        for commit in try repository.log(from: tip, hiding: other) {
            guard let user = SessionCommitMessage.trailer(SessionCommitMessage.erasureTrailer, in: commit.message),
                Slug.isValidUser(user)
            else { continue }
            let scope = SessionCommitMessage.trailer(SessionCommitMessage.erasureScopeTrailer, in: commit.message)
            marks[Mark(user: user, passagesOnly: scope == SessionCommitMessage.passagesScope), default: []]
                .append(try commit.tree())
        }
        // Erasing everything covers erasing the passages.
        return marks.filter { !$0.key.passagesOnly || marks[Mark(user: $0.key.user, passagesOnly: false)] == nil }
    }

    /// The rule that keeps an erasure: when one side erased a learner (or their passage
    /// practice) since the merge base, the merged files of that learner (or of their passage
    /// practice) are exactly what that side has — whatever the other side made or changed
    /// before it saw the erasure is dropped, new files included, which no per-file merge can
    /// see. An erasing side that studied again after erasing keeps that. A file an erasure
    /// commit left in place was not erased by it, and merges by the file's own rule (a plain
    /// deletion still loses to a change). When both sides made the same erasure, each side's
    /// files came after its own erasure, and the merge stands.
    static func enforce(
        on merged: Tree, ours: Commit, theirs: Commit, in repository: Repository
    ) throws -> (tree: Tree, drops: [ErasureDrop]) {
        let oursMarks = try marks(on: ours.id, hiding: theirs.id, in: repository)
        let theirsMarks = try marks(on: theirs.id, hiding: ours.id, in: repository)
        guard !oursMarks.isEmpty || !theirsMarks.isEmpty else { return (merged, []) }
        var changes: [String: Data?] = [:]
        var drops: [ErasureDrop] = []
        for (marks, erasing, otherMarks) in [(oursMarks, ours, theirsMarks), (theirsMarks, theirs, oursMarks)] {
            for (mark, erasures) in marks.sorted(by: {
                ($0.key.user, $0.key.passagesOnly ? 1 : 0) < ($1.key.user, $1.key.passagesOnly ? 1 : 0)
            }) {
                if otherMarks[mark] != nil || otherMarks[Mark(user: mark.user, passagesOnly: false)] != nil {
                    continue
                }
                let erasing = Erasing(now: try erasing.tree(), erasures: erasures)
                let before = changes.count
                if mark.passagesOnly {
                    try dropPassages(of: mark.user, merged: merged, erasing: erasing, in: repository, into: &changes)
                } else {
                    try restore(
                        LibraryPaths(user: mark.user).folder, merged: merged, erasing: erasing, in: repository,
                        into: &changes)
                }
                if changes.count > before {
                    drops.append(
                        ErasureDrop(user: mark.user, passagesOnly: mark.passagesOnly, files: changes.count - before))
                }
            }
        }
        guard !changes.isEmpty else { return (merged, []) }
        return (try repository.buildTree(from: merged, changes: changes), drops)
    }

    /// The files under `folder` (a path), by path, in `tree`; none when it is absent.
    static func files(under folder: String, in tree: Tree, repository: Repository) throws -> [String: ObjectID] {
        guard let id = tree.entryID(atPath: folder), tree.entryKind(atPath: folder) == 0o040000 else { return [:] }
        var files: [String: ObjectID] = [:]
        for file in try repository.tree(id).files() { files[folder + "/" + file.path] = file.id }
        return files
    }

    /// The erasing side of a merge: its tree now, and the trees its erasure commits left.
    struct Erasing {
        var now: Tree
        var erasures: [Tree]

        /// Whether an erasure took `path` away (or never had it): a file every erasure commit
        /// left in place was not erased.
        func erased(_ path: String) -> Bool {
            erasures.contains { $0.entryID(atPath: path) == nil }
        }
    }

    /// Makes every merged file under `folder` that an erasure took away what the erasing side
    /// has now: absent, or its bytes.
    static func restore(
        _ folder: String, merged: Tree, erasing: Erasing, in repository: Repository,
        into changes: inout [String: Data?]
    ) throws {
        let kept = try files(under: folder, in: erasing.now, repository: repository)
        for (path, id) in try files(under: folder, in: merged, repository: repository)
        where kept[path] != id && erasing.erased(path) {
            // updateValue, not a subscript: assigning nil there would drop the deletion.
            changes.updateValue(try kept[path].map(repository.blob), forKey: path)
        }
    }

    /// After `rote consent withdraw`: the learner's progress files of passage decks are what
    /// the erasing side has, and a session file only the other side has loses its passage
    /// attempts (or goes, when it held nothing else), as the withdrawal treated its own.
    static func dropPassages(
        of user: String, merged: Tree, erasing: Erasing, in repository: Repository, into changes: inout [String: Data?]
    ) throws {
        var kinds: [String: Bool] = [:]
        func isPassageDeck(_ deck: String) throws -> Bool {
            if let known = kinds[deck] { return known }
            let path = LibraryPaths.deckManifest(deck)
            let manifest = try merged.entryID(atPath: path).flatMap {
                DeckManifest.decode(try repository.blob($0), path: path).0
            }
            kinds[deck] = manifest?.kind == .passages
            return kinds[deck]!
        }
        let progress = LibraryPaths(user: user).progressFolder
        var passageDecks = Set<String>()
        var passageReviews: [String: [ReviewEvent]] = [:]
        for (path, id) in try files(under: progress, in: merged, repository: repository) {
            let deck = String(path.dropFirst(progress.count + 1).split(separator: "/").first ?? "")
            guard try isPassageDeck(deck) else { continue }
            passageDecks.insert(deck)
            if let file = ProgressFile.decode(try repository.blob(id), path: path).0 {
                passageReviews[file.entry] = file.reviews
            }
        }
        for deck in passageDecks.sorted() {
            try restore("\(progress)/\(deck)", merged: merged, erasing: erasing, in: repository, into: &changes)
        }
        let sessions = LibraryPaths(user: user).sessionsFolder
        for (path, id) in try files(under: sessions, in: merged, repository: repository)
        where erasing.now.entryID(atPath: path) == nil && path.hasSuffix(".yaml") {
            guard let session = SessionFile.decode(try repository.blob(id), path: path).0 else { continue }
            for deck in Set(session.decks + session.attempts.map { String($0.entry.split(separator: "/").first ?? "") })
            where try isPassageDeck(deck) {
                passageDecks.insert(deck)
            }
            guard session.studied(anyOf: passageDecks) else { continue }
            if session.studiedOnly(passageDecks) {
                changes[path] = .some(nil)
            } else {
                changes[path] = Data(session.withoutDecks(passageDecks, reviews: passageReviews).render().utf8)
            }
        }
    }
}
