public import Foundation
import Git
public import RoteModel
import RoteStore

/// A commit that changed an entry's file or the learner's progress file for it.
public struct EntryCommit: Sendable, Equatable {
    public let id: String
    public let date: Date
    public let summary: String
    /// `content`, `progress`, or both.
    public let touched: [String]
}

extension Library {
    /// The commits, newest first among the last `limit`, that changed `entry`'s file or the
    /// learner's progress file for it (`rote history`).
    public func commits(touching entry: Entry, limit: Int = 5000) throws -> [EntryCommit] {
        try LibraryError.surfacing {
            let repository = try Repository.open(at: root)
            guard let head = try repository.headCommit() else { return [] }
            let progressPath = paths.progress(entry.id)
            let changedPaths = ChangedPathsCache.of(root: root)
            var found: [EntryCommit] = []
            for commit in try repository.log(from: head.id, limit: limit) {
                let touchedPaths: [String]
                switch try changedPaths.paths(of: commit, in: repository) {
                case .some(let changed):
                    touchedPaths = [entry.path, progressPath].filter(changed.contains)
                case .many:
                    let tree = try commit.tree()
                    let parentTree = try commit.parents().first?.tree()
                    touchedPaths = [entry.path, progressPath].filter {
                        tree.entryID(atPath: $0) != parentTree?.entryID(atPath: $0)
                    }
                }
                let touched = touchedPaths.map { LibraryPaths.isContent($0) ? "content" : "progress" }
                guard !touched.isEmpty else { continue }
                found.append(
                    EntryCommit(id: commit.id.hex, date: commit.authorTime, summary: commit.summary, touched: touched))
            }
            return found
        }
    }

    /// Fills the changed-paths cache for the last `limit` commits, so the first entry page or
    /// `rote history` after new commits arrived does not compare their trees while someone waits.
    public func rememberChangedPaths(limit: Int = 2000) throws {
        try LibraryError.surfacing {
            let repository = try Repository.open(at: root)
            guard let head = try repository.headCommit() else { return }
            let changedPaths = ChangedPathsCache.of(root: root)
            for commit in try repository.log(from: head.id, limit: limit) {
                _ = try changedPaths.paths(of: commit, in: repository)
            }
        }
    }
}
