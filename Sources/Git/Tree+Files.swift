internal import CLibGit2
import Foundation

/// One file of a tree: its full slash-separated path and blob id.
package struct TreeFile: Hashable, Sendable {
    package var path: String
    package var id: ObjectID

    package init(path: String, id: ObjectID) {
        self.path = path
        self.id = id
    }
}

extension Tree {
    /// Every file (blob) in the tree and its sub-trees, in git's path order
    /// (`git_tree_walk`, pre-order). Submodule entries are left out.
    package func files() throws -> [TreeFile] {
        var files: [TreeFile] = []
        _ = try withUnsafeMutablePointer(to: &files) { list in
            try check("listing the files of tree \(id)") {
                git_tree_walk(
                    pointer, GIT_TREEWALK_PRE,
                    { root, entry, payload in
                        guard let entry, let payload, git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return 0 }
                        let folder = root.map { String(cString: $0) } ?? ""
                        let name = String(cString: git_tree_entry_name(entry))
                        payload.assumingMemoryBound(to: [TreeFile].self).pointee.append(
                            TreeFile(path: folder + name, id: ObjectID(git_tree_entry_id(entry).pointee)))
                        return 0
                    }, list)
            }
        }
        return files
    }
}
