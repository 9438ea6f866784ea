import Foundation
import LibGit
import RoteStore

extension LibraryGit {
    /// Writes `changes` (library path → new bytes, nil to delete) into the work tree and
    /// commits them as one commit: all or nothing. Each file is written atomically; should a
    /// write or the commit fail, every file already written is put back as it was, so the
    /// library is left exactly as before and the error is rethrown. Returns the commit, or nil
    /// when the changes match what is already committed.
    ///
    /// Callers hold the `LibraryLock` and have checked everything they can before calling, so
    /// a failure here means the disk or git failed, not the input. With
    /// `protectingUncommittedEdits`, a path (or folder) with edits not yet committed is refused
    /// (`SyncError.Code.uncommittedChanges`) rather than overwritten — for imports, which
    /// rewrite content a person may be editing.
    @discardableResult
    public func apply(changes: [String: Data?], message: String, protectingUncommittedEdits: Bool = false) throws -> ObjectID? {
        if protectingUncommittedEdits {
            let pending = Set(try pendingPaths())
            let touched = changes.keys.filter { path in pending.contains(path) || pending.contains { $0.hasPrefix(path + "/") } }.sorted()
            if !touched.isEmpty {
                throw SyncError(.uncommittedChanges, "\(touched.prefix(3).joined(separator: ", "))\(touched.count > 3 ? " and \(touched.count - 3) more" : "") \(touched.count == 1 ? "has" : "have") uncommitted changes that this would overwrite; commit them (`rote sync` or `git commit`) or discard them, then run it again")
            }
        }
        // A git lock in the way fails the whole operation before any file is written.
        try explainStaleLocks()
        // Every path is checked before any file is written: a symbolic link on the way out of
        // the library fails the whole operation, not its second half.
        for path in changes.keys { try AtomicFile.requireInside(path, in: root) }
        var previous: [(path: String, data: Data?)] = []
        do {
            for path in changes.keys.sorted() {
                let url = root.appending(path: path)
                let old = FileManager.default.contents(atPath: url.path)
                let new = changes[path] ?? nil
                if old == new { continue }
                previous.append((path, old))
                if let new {
                    try AtomicFile.write(new, to: url)
                } else if old != nil {
                    try FileManager.default.removeItem(at: url)
                    removeEmptyFolders(above: url)
                }
            }
            return try commit(changes: changes, message: message)
        } catch {
            for (path, data) in previous.reversed() {
                let url = root.appending(path: path)
                if let data {
                    try? AtomicFile.write(data, to: url)
                } else {
                    try? FileManager.default.removeItem(at: url)
                    removeEmptyFolders(above: url)
                }
            }
            throw error
        }
    }

    /// Removes folders left empty by a deletion, up to (not including) the library root.
    private func removeEmptyFolders(above file: URL) {
        var folder = file.deletingLastPathComponent().standardizedFileURL
        let top = root.standardizedFileURL.path
        while folder.path.hasPrefix(top + "/"), (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: folder)
            folder = folder.deletingLastPathComponent()
        }
    }
}
