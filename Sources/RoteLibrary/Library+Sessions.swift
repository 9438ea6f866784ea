import Foundation
import Parallelism
public import RoteModel
import RoteStore
public import Study

extension Library {
    /// The session files of every learner in the library (`profiles/*/sessions/`), or of
    /// `user` only; files that do not read are left out (`rote check` names them). With
    /// `mentioning`, only sessions whose text holds it (an entry id) are parsed: the rest are
    /// read as bytes and skipped, so `rote show` of one entry stays quick on a long history.
    public func sessionFiles(of user: String? = nil, mentioning text: String? = nil) -> [SessionFile] {
        let users: [String]
        if let user {
            users = [user]
        } else {
            let folder = root.appending(path: LibraryPaths.profiles)
            users = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
                Slug.isValidUser($0)
            }.sorted()
        }
        let loader = LibraryLoader(users: .all, includeSessions: true)
        let root = root
        let needle = text.map { Data($0.utf8) }
        return loader.listFiles(root, under: users.map { LibraryPaths(user: $0).sessionsFolder }).0.concurrentMap {
            path -> SessionFile? in
            guard let data = FileManager.default.contents(atPath: root.appending(path: path).path) else { return nil }
            if let needle, data.range(of: needle) == nil { return nil }
            return SessionFile.decode(data, path: path).0
        }.compactMap { $0 }
    }

    /// Question statistics (times used, average success rate) over every learner's sessions,
    /// for the entries whose id is `prefix` or starts with `prefix/` (all with nil).
    public func questionStatistics(under prefix: String? = nil) -> [String: [String: QuestionStatistics]] {
        QuestionStatistics.tally(sessionFiles(mentioning: prefix)) { id in
            guard let prefix else { return true }
            return id == prefix || id.hasPrefix(prefix + "/")
        }
    }
}
