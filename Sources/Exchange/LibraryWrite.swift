import Foundation
import LibGit
import RoteModel
import RoteStore
import RoteSync

/// Writes a set of library files and commits them as one commit, all or nothing: if any write
/// or the commit fails, every file is put back as it was. The caller holds the library lock
/// (`LibraryLock`) from before it read the library until this returns.
public enum LibraryWrite {
    public struct Refused: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// Applies `changes` (path → bytes, nil deletes) to the work tree and commits them with
    /// `message`. Refuses when one of those paths has uncommitted edits, which it would
    /// otherwise overwrite. Returns the commit (nil when nothing changed).
    @discardableResult
    public static func apply(_ changes: [String: Data?], root: URL, git: LibraryGit, message: String) throws -> ObjectID? {
        let pending = Set(try git.pendingPaths())
        let touched = changes.keys.filter { path in pending.contains(path) || pending.contains { $0.hasPrefix(path + "/") } }.sorted()
        if !touched.isEmpty {
            throw Refused(message: "\(touched.prefix(3).joined(separator: ", "))\(touched.count > 3 ? " and \(touched.count - 3) more" : "") \(touched.count == 1 ? "has" : "have") uncommitted changes that this would overwrite; commit them (`rote sync` or `git commit`) or discard them, then run it again")
        }
        var originals: [(URL, Data?)] = []
        do {
            for (path, data) in changes.sorted(by: { $0.key < $1.key }) {
                let url = root.appending(path: path)
                originals.append((url, FileManager.default.contents(atPath: url.path)))
                if let data {
                    try AtomicFile.write(data, to: url)
                } else if FileManager.default.fileExists(atPath: url.path) {
                    try FileManager.default.removeItem(at: url)
                    removeEmptyFolders(above: url, root: root)
                }
            }
            return try git.commit(changes: changes, message: message)
        } catch {
            for (url, data) in originals.reversed() {
                if let data {
                    try? AtomicFile.write(data, to: url)
                } else {
                    try? FileManager.default.removeItem(at: url)
                    removeEmptyFolders(above: url, root: root)
                }
            }
            throw error
        }
    }

    /// Removes folders left empty by a deletion, up to (not including) `corpus/` or `profiles/`.
    static func removeEmptyFolders(above file: URL, root: URL) {
        var folder = file.deletingLastPathComponent().standardizedFileURL
        let stop = Set(["corpus", "profiles"].map { root.appending(path: $0).standardizedFileURL.path } + [root.standardizedFileURL.path])
        while !stop.contains(folder.path), folder.path.hasPrefix(root.standardizedFileURL.path),
            let items = try? FileManager.default.contentsOfDirectory(atPath: folder.path), items.isEmpty
        {
            try? FileManager.default.removeItem(at: folder)
            folder = folder.deletingLastPathComponent()
        }
    }

    /// Trailers every Rote commit carries.
    public static func trailers(git: LibraryGit) -> String {
        "\(SessionCommitMessage.deviceTrailer): \(git.device)\n\(SessionCommitMessage.userTrailer): \(git.user)\n"
    }
}
