import CLibGit2
import Foundation

extension Repository {
    /// A new tree: `base` (or nothing) with `changes` applied, built in memory from blobs and
    /// trees alone, never from the work tree (`git_index_new` + `git_index_read_tree` +
    /// `git_index_add` / `git_index_remove_bypath` + `git_index_write_tree_to`).
    ///
    /// Keys are slash-separated paths; sub-trees are created, updated and dropped as needed. A
    /// value writes that content (an existing file keeps its mode); nil deletes the file, or
    /// every file under the path when it names a folder. Deleting a missing path does nothing.
    ///
    /// ```swift
    /// let tree = try repository.buildTree(from: head.tree(), changes: [
    ///     "profiles/ana/progress/words/run.yaml": Data(yaml.utf8),
    ///     "profiles/ana/saved/old.yaml": nil,
    /// ])
    /// ```
    public func buildTree(from base: Tree?, changes: [String: Data?]) throws -> Tree {
        var handle: OpaquePointer?
        try check("creating an in-memory index") { git_index_new(&handle) }
        let index = Index(pointer: handle!, repository: self)
        if let base { try index.read(base) }
        for (path, contents) in changes.sorted(by: { $0.key < $1.key }) {
            if let contents {
                try index.add(contents, at: path)
            } else {
                try index.remove(path: path)
                try index.removeDirectory(path)
            }
        }
        return try index.writeTree()
    }

    /// The content of a blob (`git_blob_lookup` + `git_blob_rawcontent`).
    public func blob(_ id: ObjectID) throws -> Data {
        var oid = id.raw
        var handle: OpaquePointer?
        try check("looking up blob \(id)") { git_blob_lookup(&handle, pointer, &oid) }
        defer { git_blob_free(handle) }
        let size = Int(git_blob_rawsize(handle))
        guard size > 0, let bytes = git_blob_rawcontent(handle) else { return Data() }
        return Data(bytes: bytes, count: size)
    }

    /// The paths of files added, modified, deleted or changed in type between two trees,
    /// sorted; `old` nil means the empty tree (`git_diff_tree_to_tree`, no rename detection,
    /// so a rename lists both paths).
    public func changedPaths(from old: Tree?, to new: Tree) throws -> [String] {
        var diff: OpaquePointer?
        try check("comparing tree \(old.map { "\($0.id)" } ?? "(empty)") with \(new.id)") {
            git_diff_tree_to_tree(&diff, pointer, old?.pointer, new.pointer, nil)
        }
        defer { git_diff_free(diff) }
        var paths = Set<String>()
        for position in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, position) else { continue }
            if let path = delta.pointee.old_file.path { paths.insert(String(cString: path)) }
            if let path = delta.pointee.new_file.path { paths.insert(String(cString: path)) }
        }
        return paths.sorted()
    }
}
