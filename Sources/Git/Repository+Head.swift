internal import CLibGit2
import Foundation

extension Repository {
    /// Points HEAD at a local branch (`git_repository_set_head`), e.g. `refs/heads/main`.
    package func setHead(_ reference: String) throws {
        try check("pointing HEAD at \(reference)") { git_repository_set_head(pointer, reference) }
    }

    /// After cloning a remote whose HEAD names a branch that does not exist (a bare
    /// repository made with `git init --bare` points HEAD at `master` even when only `main`
    /// was pushed), picks the remote's `main` — or its only branch — creates the local branch,
    /// points HEAD at it and checks it out. Returns the branch chosen, or nil when HEAD was fine
    /// or the remote has no branches.
    @discardableResult
    package func adoptRemoteBranchIfHeadIsUnborn(remote: String = "origin") throws -> String? {
        guard try headCommit() == nil else { return nil }
        let candidates = ["main", "master"]
        var chosen: (String, ObjectID)?
        for name in candidates {
            if let id = try reference(named: "refs/remotes/\(remote)/\(name)") {
                chosen = (name, id)
                break
            }
        }
        guard let (branch, id) = chosen else { return nil }
        try setReference(named: "refs/heads/\(branch)", to: id, message: "rote clone: track \(remote)/\(branch)")
        try setHead("refs/heads/\(branch)")
        let config = try config()
        try config.set("branch.\(branch).remote", to: remote)
        try config.set("branch.\(branch).merge", to: "refs/heads/\(branch)")
        try checkoutHead(force: true)
        return branch
    }
}
