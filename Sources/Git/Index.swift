internal import CLibGit2
package import Foundation

/// A git index (`git_index`): either the repository's staging index (`Repository.index()`),
/// or an in-memory one holding a merge result (`Repository.mergeCommits`) that may have
/// conflicts to resolve before `writeTree()`. Only the staging index can `write()` to disk.
package final class Index {
    let pointer: OpaquePointer
    private let repository: Repository

    init(pointer: OpaquePointer, repository: Repository) {
        self.pointer = pointer
        self.repository = repository
    }

    deinit { git_index_free(pointer) }

    /// Stages one work-tree file by its path relative to the work tree (`git_index_add_bypath`).
    package func add(path: String) throws {
        try check("staging \(path)") { git_index_add_bypath(pointer, path) }
    }

    /// Removes one path from the index (`git_index_remove_bypath`).
    package func remove(path: String) throws {
        try check("unstaging \(path)") { git_index_remove_bypath(pointer, path) }
    }

    /// Number of entries (`git_index_entrycount`).
    package var count: Int { git_index_entrycount(pointer) }

    /// Writes the index file to disk (`git_index_write`).
    package func write() throws {
        try check("writing the git index") { git_index_write(pointer) }
    }

    /// Writes the content as a tree into the repository and returns it
    /// (`git_index_write_tree_to`, which also serves in-memory indexes). Fails with
    /// `GIT_EUNMERGED` while conflicts remain.
    package func writeTree() throws -> Tree {
        var oid = git_oid()
        try check("writing a tree from the index") { git_index_write_tree_to(&oid, pointer, repository.pointer) }
        return try repository.tree(ObjectID(oid))
    }

    /// Replaces the whole content with `tree` (`git_index_read_tree`). With `write()` after
    /// it, this makes the staging index match a commit without touching the work tree.
    package func read(_ tree: Tree) throws {
        try check("reading tree \(tree.id) into the index") { git_index_read_tree(pointer, tree.pointer) }
    }

    /// Stores `contents` as a blob and stages it at `path` (slash-separated, relative to the
    /// top), creating or replacing the entry and settling any conflict there
    /// (`git_blob_create_from_buffer` + `git_index_add`). An existing entry keeps its mode.
    package func add(_ contents: Data, at path: String) throws {
        let blob = try repository.writeBlob(contents)
        var mode = GIT_FILEMODE_BLOB.rawValue
        if let existing = git_index_get_bypath(pointer, path, 0) {
            mode = existing.pointee.mode
        } else if let conflict = try conflict(at: path), let side = conflict.oursMode ?? conflict.theirsMode {
            mode = side
        }
        try removeConflict(at: path)
        var entry = git_index_entry()
        entry.mode = mode
        entry.id = blob.raw
        entry.file_size = UInt32(truncatingIfNeeded: contents.count)
        try path.withCString { cPath in
            entry.path = cPath
            try check("staging \(path)") { git_index_add(pointer, &entry) }
        }
    }

    /// Re-reads the index file if another process changed it since it was loaded
    /// (`git_index_read` without force).
    package func reloadIfChanged() throws {
        try check("reading the git index") { git_index_read(pointer, 0) }
    }

    /// Points the entry at `path` to the blob `id`, which holds `contents`. When the work-tree
    /// file at `workTree/path` holds exactly those bytes the entry takes the file's stat data,
    /// so `git status` sees it clean without hashing it; otherwise the stat data stays empty
    /// and git compares contents, as it must. (Reading a whole tree into the index instead
    /// would drop the stat data of every file, and the next status would hash the library.)
    package func stage(_ contents: Data, id: ObjectID, at path: String, workTree: URL) throws {
        var entry = git_index_entry()
        entry.mode = git_index_get_bypath(pointer, path, 0)?.pointee.mode ?? GIT_FILEMODE_BLOB.rawValue
        entry.id = id.raw
        entry.file_size = UInt32(truncatingIfNeeded: contents.count)
        let file = workTree.appending(path: path).path
        var info = stat()
        if lstat(file, &info) == 0, Int(info.st_size) == contents.count,
            FileManager.default.contents(atPath: file) == contents
        {
            entry.ctime = git_index_time(
                seconds: Int32(truncatingIfNeeded: info.st_ctim.tv_sec), nanoseconds: UInt32(info.st_ctim.tv_nsec))
            entry.mtime = git_index_time(
                seconds: Int32(truncatingIfNeeded: info.st_mtim.tv_sec), nanoseconds: UInt32(info.st_mtim.tv_nsec))
            entry.dev = UInt32(truncatingIfNeeded: info.st_dev)
            entry.ino = UInt32(truncatingIfNeeded: info.st_ino)
            entry.uid = info.st_uid
            entry.gid = info.st_gid
        }
        try removeConflict(at: path)
        try path.withCString { cPath in
            entry.path = cPath
            try check("staging \(path)") { git_index_add(pointer, &entry) }
        }
    }

    /// What the index knows of one file: its blob and the stat data it was staged with
    /// (read for every file at once by `IndexStamps`).
    package struct Stamp: Sendable, Equatable {
        package let id: ObjectID
        package let size: UInt32
        package let modifiedSeconds: Int32
        package let modifiedNanoseconds: UInt32
        package let inode: UInt32
    }

    /// Removes every entry under the folder `path` (`git_index_remove_directory`).
    package func removeDirectory(_ path: String) throws {
        try check("unstaging \(path)/") { git_index_remove_directory(pointer, path, 0) }
    }

    /// True while any path has conflict entries (`git_index_has_conflicts`).
    package var hasConflicts: Bool { git_index_has_conflicts(pointer) != 0 }

    /// Every conflicted path with the blob each side had there (`git_index_conflict_iterator`).
    /// A side that deleted the file has nil, which is how a modify/delete conflict shows.
    package func conflicts() throws -> [IndexConflict] {
        var iterator: OpaquePointer?
        try check("listing conflicts") { git_index_conflict_iterator_new(&iterator, pointer) }
        defer { git_index_conflict_iterator_free(iterator) }
        var conflicts: [IndexConflict] = []
        while true {
            var ancestor: UnsafePointer<git_index_entry>?
            var ours: UnsafePointer<git_index_entry>?
            var theirs: UnsafePointer<git_index_entry>?
            let result = git_index_conflict_next(&ancestor, &ours, &theirs, iterator)
            if result == GIT_ITEROVER.rawValue { break }
            if result < 0 { throw GitError.last(result, "listing conflicts") }
            conflicts.append(IndexConflict(ancestor: ancestor, ours: ours, theirs: theirs))
        }
        return conflicts
    }

    /// Settles the conflict at `path` with the chosen content, or by deleting the file when
    /// `contents` is nil.
    package func resolveConflict(at path: String, with contents: Data?) throws {
        if let contents {
            try add(contents, at: path)
        } else {
            try removeConflict(at: path)
            try remove(path: path)
        }
    }

    /// The conflict at one path, nil when there is none (`git_index_conflict_get`).
    private func conflict(at path: String) throws -> IndexConflict? {
        var ancestor: UnsafePointer<git_index_entry>?
        var ours: UnsafePointer<git_index_entry>?
        var theirs: UnsafePointer<git_index_entry>?
        let result = git_index_conflict_get(&ancestor, &ours, &theirs, pointer, path)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        if result < 0 { throw GitError.last(result, "reading the conflict at \(path)") }
        return IndexConflict(ancestor: ancestor, ours: ours, theirs: theirs)
    }

    /// Drops the conflict entries at `path`, if any (`git_index_conflict_remove`).
    private func removeConflict(at path: String) throws {
        let result = git_index_conflict_remove(pointer, path)
        if result < 0 && result != GIT_ENOTFOUND.rawValue {
            throw GitError.last(result, "clearing the conflict at \(path)")
        }
    }
}

/// One conflicted path of a merge: the blob the common ancestor, our side and their side had
/// there, nil where that side has no file (added on one side only, or deleted).
package struct IndexConflict: Hashable, Sendable {
    package var path: String
    package var ancestor: ObjectID?
    package var ours: ObjectID?
    package var theirs: ObjectID?
    /// File modes (e.g. 0o100644), kept so a resolution keeps an executable bit.
    var oursMode: UInt32?
    var theirsMode: UInt32?

    package init(path: String, ancestor: ObjectID?, ours: ObjectID?, theirs: ObjectID?) {
        self.path = path
        self.ancestor = ancestor
        self.ours = ours
        self.theirs = theirs
    }

    init(
        ancestor: UnsafePointer<git_index_entry>?, ours: UnsafePointer<git_index_entry>?,
        theirs: UnsafePointer<git_index_entry>?
    ) {
        let named = ours ?? theirs ?? ancestor
        path = named.map { String(cString: $0.pointee.path) } ?? ""
        self.ancestor = ancestor.map { ObjectID($0.pointee.id) }
        self.ours = ours.map { ObjectID($0.pointee.id) }
        self.theirs = theirs.map { ObjectID($0.pointee.id) }
        oursMode = ours?.pointee.mode
        theirsMode = theirs?.pointee.mode
    }
}

@available(*, unavailable)
extension Index: Sendable {}

/// Git configuration (`git_config`), read-mostly.
package final class Config {
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) { self.pointer = pointer }

    deinit { git_config_free(pointer) }

    /// A string value, nil when unset (`git_config_get_string_buf`).
    package func string(_ name: String) -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        guard git_config_get_string_buf(&buffer, pointer, name) == 0, let text = buffer.ptr else { return nil }
        return String(cString: text)
    }

    /// Sets a string value in the highest-priority writable file, i.e. the repository's
    /// `.git/config` (`git_config_set_string`).
    package func set(_ name: String, to value: String) throws {
        try check("setting git config \(name)") { git_config_set_string(pointer, name, value) }
    }
}

@available(*, unavailable)
extension Config: Sendable {}
