import Foundation
import RoteModel
import RoteStore
import Study

extension Library {
    /// The session files of every learner in the library (`profiles/*/sessions/`), or of
    /// `user` only; files that do not read are left out (`rote check` names them).
    public func sessionFiles(of user: String? = nil) -> [SessionFile] {
        let users: [String]
        if let user {
            users = [user]
        } else {
            let folder = root.appending(path: "profiles")
            users = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { Slug.isValidUser($0) }.sorted()
        }
        let loader = LibraryLoader(users: .all, includeSessions: true)
        let decks = decks, root = root
        return loader.listFiles(root, under: users.map { "profiles/\($0)/sessions" }).0.compactMap { path -> SessionFile? in
            guard case let .session(_, session)? = loader.parse(root: root, path: path, decks: decks)?.value else { return nil }
            return session
        }
    }

    /// Question statistics (times used, average success rate) over every learner's sessions,
    /// for the entries whose id is `prefix` or starts with `prefix/` (all with nil).
    public func questionStatistics(under prefix: String? = nil) -> [String: [String: QuestionStatistics]] {
        QuestionStatistics.tally(sessionFiles()) { id in
            guard let prefix else { return true }
            return id == prefix || id.hasPrefix(prefix + "/")
        }
    }
}
