internal import CLibGit2
package import Foundation

/// A commit object (`git_commit`).
package final class Commit {
    let pointer: OpaquePointer
    // Keeps the repository alive while the commit is in use.
    private let repository: Repository

    init(pointer: OpaquePointer, repository: Repository) {
        self.pointer = pointer
        self.repository = repository
    }

    deinit { git_commit_free(pointer) }

    package var id: ObjectID { ObjectID(git_commit_id(pointer).pointee) }

    /// The full message (`git_commit_message`).
    package var message: String { String(cString: git_commit_message(pointer)) }

    /// The first line of the message (`git_commit_summary`).
    package var summary: String { git_commit_summary(pointer).map { String(cString: $0) } ?? "" }

    /// The committer's time (`git_commit_time`); the same as `committerTime`.
    package var time: Date { Date(timeIntervalSince1970: TimeInterval(git_commit_time(pointer))) }

    /// When the commit was made (`git_commit_committer`).
    package var committerTime: Date {
        Date(timeIntervalSince1970: TimeInterval(git_commit_committer(pointer).pointee.when.time))
    }

    /// When the change was first written (`git_commit_author`); differs from the committer
    /// time after a rebase or cherry-pick.
    package var authorTime: Date {
        Date(timeIntervalSince1970: TimeInterval(git_commit_author(pointer).pointee.when.time))
    }

    /// The trailers at the end of the message, e.g. `Rote-Session: 2026-11-21-abc`, in order
    /// (`git_message_trailers`).
    package func trailers() throws -> [Trailer] {
        var array = git_message_trailer_array()
        try check("reading the trailers of commit \(id)") { git_message_trailers(&array, git_commit_message(pointer)) }
        defer { git_message_trailer_array_free(&array) }
        return (0..<array.count).map { index in
            Trailer(
                key: String(cString: array.trailers[index].key), value: String(cString: array.trailers[index].value))
        }
    }

    package var authorName: String { String(cString: git_commit_author(pointer).pointee.name) }
    package var authorEmail: String { String(cString: git_commit_author(pointer).pointee.email) }

    package var parentCount: Int { Int(git_commit_parentcount(pointer)) }

    /// The commit's tree (`git_commit_tree`).
    package func tree() throws -> Tree {
        var handle: OpaquePointer?
        try check("reading the tree of commit \(id)") { git_commit_tree(&handle, pointer) }
        return Tree(pointer: handle!)
    }

    /// The parent commits (`git_commit_parent`).
    package func parents() throws -> [Commit] {
        try (0..<UInt32(parentCount)).map { index in
            var handle: OpaquePointer?
            try check("reading parent \(index) of commit \(id)") { git_commit_parent(&handle, pointer, index) }
            return Commit(pointer: handle!, repository: repository)
        }
    }
}

@available(*, unavailable)
extension Commit: Sendable {}

/// One `Key: value` trailer of a commit message.
package struct Trailer: Hashable, Sendable {
    package var key: String
    package var value: String

    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// A tree object (`git_tree`).
package final class Tree {
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) { self.pointer = pointer }

    deinit { git_tree_free(pointer) }

    package var id: ObjectID { ObjectID(git_tree_id(pointer).pointee) }

    /// Number of direct entries (`git_tree_entrycount`).
    package var count: Int { git_tree_entrycount(pointer) }

    /// The blob or subtree id at a slash-separated path, nil when absent
    /// (`git_tree_entry_bypath`).
    package func entryID(atPath path: String) -> ObjectID? {
        var entry: OpaquePointer?
        guard git_tree_entry_bypath(&entry, pointer, path) == 0, let entry else { return nil }
        defer { git_tree_entry_free(entry) }
        return ObjectID(git_tree_entry_id(entry).pointee)
    }

    /// The file mode at a path (0o100644, 0o100755, 0o120000, 0o040000 for a folder), nil
    /// when absent.
    package func entryKind(atPath path: String) -> UInt32? {
        var entry: OpaquePointer?
        guard git_tree_entry_bypath(&entry, pointer, path) == 0, let entry else { return nil }
        defer { git_tree_entry_free(entry) }
        return git_tree_entry_filemode(entry).rawValue
    }
}

@available(*, unavailable)
extension Tree: Sendable {}

/// An author or committer signature (`git_signature`).
package final class Signature {
    let pointer: UnsafeMutablePointer<git_signature>

    /// `git_signature_new` with the date's UTC offset 0. A date git cannot hold (NaN, an
    /// infinity, beyond whole seconds in an Int64: a date read from a damaged file) is an
    /// error, not a crash.
    package init(name: String, email: String, date: Date) throws {
        LibGit.ensureInitialized()
        guard let seconds = git_time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else {
            throw GitError(
                code: GIT_EINVALID.rawValue,
                message: "the date \(date.timeIntervalSince1970) is not a time a commit can have",
                operation: "making a signature for \(name) <\(email)>")
        }
        var handle: UnsafeMutablePointer<git_signature>?
        try check("making a signature for \(name) <\(email)>") {
            git_signature_new(&handle, name, email, seconds, 0)
        }
        pointer = handle!
    }

    /// Takes ownership of a signature libgit2 allocated.
    init(owning pointer: UnsafeMutablePointer<git_signature>) {
        self.pointer = pointer
    }

    deinit { git_signature_free(pointer) }

    package var name: String { String(cString: pointer.pointee.name) }
    package var email: String { String(cString: pointer.pointee.email) }
}

@available(*, unavailable)
extension Signature: Sendable {}
