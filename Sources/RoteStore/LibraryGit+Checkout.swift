import Foundation
import Git

/// Moving the work tree and the branch to a commit that already exists (a sync's merge or
/// fast-forward), so that a process killed half-way is finished by the next one.
///
/// libgit2's checkout writes files in place, one after another: a sync killed during it left
/// some files new, some old, one perhaps half written, and the branch where it was. The next
/// command took the new files for the learner's own pending changes and committed them —
/// a half-written progress file with them, which the next merge could only leave with conflict
/// markers (found by the fault-injection test). A journal now names the move before it starts;
/// whoever takes the lock next finishes it from the objects, which are all in place already.
extension LibraryGit {
    var checkoutJournalURL: URL { root.appending(path: ".git/rote/checkout-journal") }

    /// Checks out `target`'s tree over `head`'s and moves the branch to `target`, journaled.
    func moveBranchAndWorkTree(from head: Commit, to target: Commit, message: String) throws {
        // A git lock left by a killed process (an `index.lock` from a killed review) would
        // fail the checkout; one no live process holds is removed first, as a commit does.
        try explainStaleLocks()
        try AtomicFile.write("\(head.id.hex)\n\(target.id.hex)\n\(message)\n", to: checkoutJournalURL)
        try interruption?("checkout journal written")
        try repository.checkoutTree(try target.tree(), baseline: try head.tree())
        try interruption?("work tree checked out")
        try repository.setReference(named: "refs/heads/\(branch)", to: target.id, message: message, expected: head.id)
        try? FileManager.default.removeItem(at: checkoutJournalURL)
    }

    /// Finishes a move a killed process left: when the branch is still where the move started,
    /// every path the move changes is written from `target` (a work-tree file there is the
    /// half-done checkout's, since a sync commits pending work before it merges) and the branch
    /// is moved; otherwise the journal is stale and goes. Called under the library's lock.
    func recoverInterruptedCheckout() throws {
        guard let text = try? String(contentsOf: checkoutJournalURL, encoding: .utf8) else { return }
        defer { try? FileManager.default.removeItem(at: checkoutJournalURL) }
        let lines = text.split(separator: "\n", maxSplits: 2).map(String.init)
        guard lines.count >= 2, let from = ObjectID(hex: lines[0]), let to = ObjectID(hex: lines[1]),
            let head = try repository.headCommit(), head.id == from, let target = try? repository.commit(to)
        else { return }
        try explainStaleLocks()
        let changed = try repository.changedPaths(from: try head.tree(), to: try target.tree())
        if !changed.isEmpty { try repository.checkoutTree(try target.tree(), paths: changed, force: true) }
        try repository.setReference(
            named: "refs/heads/\(branch)", to: to,
            message: (lines.count > 2 ? lines[2] : "rote sync") + " (finished after an interruption)", expected: from)
        LibraryNotices.send("rote: finished a sync that was interrupted while it updated the files")
    }
}
