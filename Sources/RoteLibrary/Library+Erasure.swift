public import Exchange
public import Foundation
import Git
public import RoteModel
import RoteStore

/// An erasure a person is about to confirm (`rote forget`, `rote consent withdraw`). It holds
/// the library's lock from when it is prepared until it is dropped, so what the learner was
/// shown and confirmed is what is erased: no other process writes in between, `git gc`
/// included.
public final class PreparedErasure {
    let writer: LibraryTransaction
    /// The learner whose data is erased.
    public let learner: String
    /// The learner's files, in the last commit and in the work tree.
    public let files: [String]

    init(root: URL, learner: String, purpose: String) throws {
        let writer = try LibraryTransaction(root: root, user: learner, purpose: purpose)
        self.writer = writer
        self.learner = learner
        files = try LibraryError.surfacing { try Erasure.files(of: learner, git: writer) }
    }

    /// What rewriting the history will do, and what it leaves to do on the remote and other
    /// clones; `scope` names a part of the learner's data (all of it when nil).
    public func purgeExplanation(scope: String? = nil) -> String {
        Erasure.purgeExplanation(user: learner, git: writer, scope: scope)
    }

    /// Deletes every file of the learner in one commit marked `Rote-Erasure`.
    public func forget() throws -> Erasure.Result {
        try LibraryError.surfacing { try Erasure.forget(learner, git: writer) }
    }

    /// Erases the learner's passage practice and records that they withdrew their consent.
    public func withdrawPassageConsent() throws -> PassageConsent.Withdrawal {
        try LibraryError.surfacing { try PassageConsent.withdraw(user: learner, git: writer) }
    }

    /// Rewrites the history so that no commit holds the learner's files, or with
    /// `passagesOnly` their passage practice.
    public func purgeHistory(passagesOnly: Bool = false) async throws -> Erasure.PurgeReport {
        try await LibraryError.surfacingAsync {
            passagesOnly
                ? try await PassageConsent.purgeHistory(user: learner, git: writer)
                : try await Erasure.purgeHistory(learner, git: writer)
        }
    }

    /// The command that sends the rewritten history to the remote, when the library has one.
    public var forcePushCommand: String? {
        let remotes = (try? writer.repository.remoteNames()) ?? []
        guard let remote = remotes.contains("origin") ? "origin" : remotes.first else { return nil }
        return "git -C \(writer.root.path) push --force \(remote) \(writer.branch)"
    }
}

extension Library {
    /// Takes the library's lock to erase `learner`'s data (this learner's when nil), once the
    /// person confirms; the lock is let go when the value is dropped.
    public func prepareErasure(of learner: String? = nil, purpose: String) throws -> PreparedErasure {
        try PreparedErasure(root: root, learner: learner ?? user, purpose: purpose)
    }

    /// Records whether the learner lets Rote keep their passage practice (seed 004).
    public func recordPassageConsent(granted: Bool, now: Date = Date()) throws -> Profile.Consent {
        try write(purpose: "consent") { git in
            try PassageConsent.record(granted: granted, user: user, git: git, now: now)
        }
    }
}
