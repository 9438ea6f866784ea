public import Foundation
public import Git
public import RoteModel
public import RoteStore

/// `rote consent`: the learner's answer to whether Rote may keep their passage practice
/// (seed 004 §6), and what withdrawing it does — every file of passage practice erased in one
/// commit marked `Rote-Erasure: <user>`, which sync honours as it honours `rote forget`.
public enum PassageConsent {
    /// The trailer that tells an erasure of passage practice from a whole learner's.
    public static let scopeTrailer = SessionCommitMessage.erasureScopeTrailer

    public struct Withdrawal: Sendable {
        /// Progress files deleted, and session files deleted because they held only passages.
        public var deleted: [String]
        /// Session files rewritten without their passage attempts (they held other decks too).
        public var rewritten: [String]
        public var commit: ObjectID?
    }

    /// Records the learner's yes (or, with `granted: false`, no) in their profile, in one
    /// commit. The caller holds the library lock.
    @discardableResult
    package static func record(granted: Bool, user: String, git: LibraryTransaction, now: Date = Date()) throws
        -> Profile.Consent
    {
        var profile = try profile(of: user, git: git)
        let at = Timestamp.wholeSeconds(now)
        profile.recordConsent(
            Profile.passagesConsentTopic, version: Profile.passagesConsentVersion, granted: granted, at: at)
        let subject =
            granted
            ? "Consent: \(user) lets Rote keep passage practice"
            : "Consent: \(user) does not let Rote keep passage practice"
        try git.apply(
            changes: [LibraryPaths(user: user).profile: Data(profile.render().utf8)],
            message: CommitMessage(subject: subject))
        return profile.passagePracticeConsent!
    }

    /// The decks of kind `passages` in the work tree.
    public static func passageDecks(root: URL) -> Set<String> {
        let corpus = root.appending(path: LibraryPaths.corpus)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return Set(
            names.filter { name in
                guard let data = FileManager.default.contents(atPath: corpus.appending(path: "\(name)/deck.yaml").path)
                else { return false }
                return DeckManifest.decode(data, path: LibraryPaths.deckManifest(name)).0?.kind == .passages
            })
    }

    /// Withdraws consent: records the no in the profile and erases the learner's passage
    /// practice — progress files of passage decks, session files that held only passages, and
    /// the passage attempts of sessions that held other decks too (their counts made to match)
    /// — in one erasure commit. All or nothing; the caller holds the library lock.
    package static func withdraw(user: String, git: LibraryTransaction, now: Date = Date()) throws -> Withdrawal {
        var profile = try profile(of: user, git: git)
        let decks = passageDecks(root: git.root)
        let progressFolder = LibraryPaths(user: user).progressFolder + "/"
        var changes: [String: Data?] = [:]
        var deleted: [String] = []
        var rewritten: [String] = []
        // The passage reviews, read before their files go: a mixed session's counts lose them.
        var passageReviews: [String: [ReviewEvent]] = [:]
        let files = try Erasure.files(of: user, git: git)
        for path in files where path.hasPrefix(progressFolder) {
            let deck = path.dropFirst(progressFolder.count).split(separator: "/").first.map(String.init) ?? ""
            guard decks.contains(deck) else { continue }
            if let data = FileManager.default.contents(atPath: git.root.appending(path: path).path),
                let file = ProgressFile.decode(data, path: path).0
            {
                passageReviews[file.entry] = file.reviews
            }
            changes[path] = .some(nil)
            deleted.append(path)
        }
        for path in files where path.hasPrefix(LibraryPaths(user: user).sessionsFolder + "/") && path.hasSuffix(".yaml")
        {
            guard let data = FileManager.default.contents(atPath: git.root.appending(path: path).path),
                let session = SessionFile.decode(data, path: path).0
            else { continue }
            let isPassage = { (entry: String) in decks.contains(String(entry.split(separator: "/").first ?? "")) }
            guard
                session.decks.contains(where: decks.contains)
                    || session.attempts.contains(where: { isPassage($0.entry) })
            else { continue }
            let kept = session.attempts.filter { !isPassage($0.entry) }
            if kept.isEmpty && !session.decks.contains(where: { !decks.contains($0) }) {
                changes[path] = .some(nil)
                deleted.append(path)
                continue
            }
            changes[path] = Data(session.withoutDecks(decks, reviews: passageReviews).render().utf8)
            rewritten.append(path)
        }
        // Withdrawn already, with nothing left to erase: the first answer's time stands.
        if changes.isEmpty, profile.passagePracticeConsent?.granted == false {
            return Withdrawal(deleted: [], rewritten: [], commit: nil)
        }
        profile.recordConsent(
            Profile.passagesConsentTopic, version: Profile.passagesConsentVersion, granted: false,
            at: Timestamp.wholeSeconds(now))
        changes[LibraryPaths(user: user).profile] = Data(profile.render().utf8)
        let count = deleted.count + rewritten.count
        let message = CommitMessage(
            subject: "Withdraw consent: erase \(user)'s passage practice (\(count) file\(count == 1 ? "" : "s"))",
            body: """
                The learner withdrew their consent to Rote keeping passage practice (religious data).
                Its progress files and session attempts are erased; syncing keeps them erased even where
                another clone changed them meanwhile.
                """,
            trailers: [
                .init(SessionCommitMessage.erasureTrailer, user),
                .init(scopeTrailer, SessionCommitMessage.passagesScope),
            ])
        let commit = try git.apply(changes: changes, message: message)
        return Withdrawal(deleted: deleted.sorted(), rewritten: rewritten.sorted(), commit: commit)
    }

    /// The learner's profile, read in full (a profile that does not read is never rewritten).
    static func profile(of user: String, git: LibraryTransaction) throws -> Profile {
        guard Slug.isValidUser(user) else {
            throw LibraryError(.invalidUser, "'\(user)' is not a learner name (lowercase letters, digits, _ . -)")
        }
        guard let profile = try ReadBeforeRewrite.read(Profile.self, at: LibraryPaths(user: user).profile, in: git.root)
        else {
            throw LibraryError(.notFound, "no learner '\(user)' in this library (\(LibraryPaths(user: user).profile))")
        }
        return profile
    }

    /// Rewrites history so that no commit holds the learner's passage practice: no progress
    /// file of a passage deck, and every session file a withdrawal rewrote or deleted as it is
    /// now. Refused while the learner's consent stands (there is practice still to erase).
    package static func purgeHistory(user: String, git: LibraryTransaction) async throws -> Erasure.PurgeReport {
        let profile = try profile(of: user, git: git)
        guard profile.passagePracticeConsent?.granted == false else {
            throw LibraryError(
                .outOfOrder,
                "\(user) has not withdrawn consent to keeping passage practice; run `rote consent withdraw` first")
        }
        var paths = passageDecks(root: git.root).sorted().map { "\(LibraryPaths(user: user).progressFolder)/\($0)" }
        let repository = git.repository
        if let head = try repository.headCommit() {
            for commit in try repository.log(from: head.id)
            where SessionCommitMessage.trailer(scopeTrailer, in: commit.message) == SessionCommitMessage.passagesScope
                && SessionCommitMessage.trailer(SessionCommitMessage.erasureTrailer, in: commit.message) == user
            {
                let parent = try commit.parents().first?.tree()
                for path in try repository.changedPaths(from: parent, to: try commit.tree())
                where path.hasPrefix(LibraryPaths(user: user).sessionsFolder + "/") {
                    paths.append(path)
                }
            }
        }
        return try await Erasure.purgeHistory(paths: paths, reason: "rote consent withdraw --purge-history", git: git)
    }

    /// How to take the erased passage practice out of history too, printed after a withdrawal.
    public static func purgeAdvice(user: String) -> String {
        """
        Older commits still hold your passage practice. To remove it from history as well run
          rote consent withdraw --purge-history
        which rewrites this clone's history so that no commit holds those files (then force-push,
        and re-clone other copies; it explains first). To erase everything of \(user), history
        included: rote forget \(user) --purge-history.
        """
    }
}
