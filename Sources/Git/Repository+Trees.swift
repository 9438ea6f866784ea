internal import CLibGit2
package import Foundation

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
    package func buildTree(from base: Tree?, changes: [String: Data?]) throws -> Tree {
        if let base, let tree = try updatedTree(base, changes: changes) { return tree }
        return try buildTreeThroughIndex(from: base, changes: changes)
    }

    /// The general way: the whole base tree read into an in-memory index, changed, written.
    /// Its cost grows with the size of the tree (a 155 000-file library: hundreds of ms).
    func buildTreeThroughIndex(from base: Tree?, changes: [String: Data?]) throws -> Tree {
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

    /// The same tree through `git_tree_create_updated`, which rewrites only the trees on the
    /// changed paths, so its cost grows with the change, not the library. Returns nil for the
    /// shapes that function does not handle (a file where a folder was or the reverse, a
    /// folder deleted and written into at once); `buildTree` then takes the general way.
    func updatedTree(_ base: Tree, changes: [String: Data?]) throws -> Tree? {
        let paths = changes.keys.sorted()
        let deleted = paths.filter { changes[$0]! == nil }
        for folder in deleted where paths.contains(where: { $0.hasPrefix(folder + "/") }) { return nil }
        var updates: [(action: git_tree_update_t, id: ObjectID, mode: UInt32, path: String)] = []
        var folders = Set<String>()
        for path in paths {
            var ancestor = path
            while let slash = ancestor.lastIndex(of: "/") {
                ancestor = String(ancestor[..<slash])
                guard folders.insert(ancestor).inserted else { break }
                if let kind = base.entryKind(atPath: ancestor), kind != GIT_FILEMODE_TREE.rawValue { return nil }
            }
            let existing = base.entryKind(atPath: path)
            if let contents = changes[path]! {
                if existing == GIT_FILEMODE_TREE.rawValue { return nil }
                updates.append(
                    (GIT_TREE_UPDATE_UPSERT, try writeBlob(contents), existing ?? GIT_FILEMODE_BLOB.rawValue, path))
            } else if existing != nil {
                updates.append((GIT_TREE_UPDATE_REMOVE, ObjectID(git_oid()), 0, path))
            }
        }
        if updates.isEmpty { return base }
        let cPaths = updates.map { strdup($0.path)! }
        defer { for path in cPaths { free(path) } }
        var raw = updates.enumerated().map { number, update in
            git_tree_update(
                action: update.action, id: update.id.raw, filemode: git_filemode_t(update.mode), path: cPaths[number])
        }
        var oid = git_oid()
        try check("writing the changed trees") { git_tree_create_updated(&oid, pointer, base.pointer, raw.count, &raw) }
        return try tree(ObjectID(oid))
    }

    /// The content of a blob (`git_blob_lookup` + `git_blob_rawcontent`).
    package func blob(_ id: ObjectID) throws -> Data {
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
    package func changedPaths(from old: Tree?, to new: Tree) throws -> [String] {
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
