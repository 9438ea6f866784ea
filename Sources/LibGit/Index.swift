import CLibGit2
import Foundation

/// The staging index (`git_index`).
public final class Index {
    let pointer: OpaquePointer
    private let repository: Repository

    init(pointer: OpaquePointer, repository: Repository) {
        self.pointer = pointer
        self.repository = repository
    }

    deinit { git_index_free(pointer) }

    /// Stages one work-tree file by its path relative to the work tree (`git_index_add_bypath`).
    public func add(path: String) throws {
        try check("staging \(path)") { git_index_add_bypath(pointer, path) }
    }

    /// Removes one path from the index (`git_index_remove_bypath`).
    public func remove(path: String) throws {
        try check("unstaging \(path)") { git_index_remove_bypath(pointer, path) }
    }

    /// Number of entries (`git_index_entrycount`).
    public var count: Int { git_index_entrycount(pointer) }

    /// Writes the index file to disk (`git_index_write`).
    public func write() throws {
        try check("writing the git index") { git_index_write(pointer) }
    }

    /// Writes the staged content as a tree and returns it (`git_index_write_tree`).
    public func writeTree() throws -> Tree {
        var oid = git_oid()
        try check("writing a tree from the index") { git_index_write_tree(&oid, pointer) }
        return try repository.tree(ObjectID(oid))
    }
}

@available(*, unavailable)
extension Index: Sendable {}

/// Git configuration (`git_config`), read-mostly.
public final class Config {
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) { self.pointer = pointer }

    deinit { git_config_free(pointer) }

    /// A string value, nil when unset (`git_config_get_string_buf`).
    public func string(_ name: String) -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        guard git_config_get_string_buf(&buffer, pointer, name) == 0, let text = buffer.ptr else { return nil }
        return String(cString: text)
    }

    /// Sets a string value in the highest-priority writable file, i.e. the repository's
    /// `.git/config` (`git_config_set_string`).
    public func set(_ name: String, to value: String) throws {
        try check("setting git config \(name)") { git_config_set_string(pointer, name, value) }
    }
}

@available(*, unavailable)
extension Config: Sendable {}
