internal import CLibGit2
package import Foundation

/// A git repository (`git_repository`). Not thread-safe: use one from one thread at a time.
package final class Repository {
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { git_repository_free(pointer) }

    /// Opens the repository whose work tree or `.git` folder is exactly `url`
    /// (`git_repository_open_ext` with no upward search).
    package static func open(at url: URL) throws -> Repository {
        LibGit.ensureInitialized()
        var handle: OpaquePointer?
        try check("opening git repository at \(url.path)") {
            git_repository_open_ext(&handle, url.path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
        }
        return Repository(pointer: handle!)
    }

    /// Creates a repository with a work tree at `url` whose first branch is `main`
    /// (`git_repository_init_ext`).
    package static func create(at url: URL, initialBranch: String = "main") throws -> Repository {
        LibGit.ensureInitialized()
        var options = git_repository_init_options()
        try check("preparing repository options") {
            git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION))
        }
        options.flags = GIT_REPOSITORY_INIT_MKPATH.rawValue
        var handle: OpaquePointer?
        try initialBranch.withCString { branch in
            options.initial_head = branch
            try check("creating git repository at \(url.path)") {
                git_repository_init_ext(&handle, url.path, &options)
            }
        }
        return Repository(pointer: handle!)
    }

    /// True when `url` is the top of a git work tree (has a `.git` entry).
    package static func isWorkTree(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appending(path: ".git").path)
    }

    /// The work tree folder (`git_repository_workdir`); nil for a bare repository.
    package var workTree: URL? {
        guard let path = git_repository_workdir(pointer) else { return nil }
        return URL(fileURLWithPath: String(cString: path), isDirectory: true)
    }

    /// The `.git` folder (`git_repository_path`).
    package var gitDirectory: URL {
        URL(fileURLWithPath: String(cString: git_repository_path(pointer)), isDirectory: true)
    }

    /// The commit HEAD points at, or nil on an unborn branch (`git_repository_head`).
    package func headCommit() throws -> Commit? {
        var reference: OpaquePointer?
        let result = git_repository_head(&reference, pointer)
        if result == GIT_EUNBORNBRANCH.rawValue || result == GIT_ENOTFOUND.rawValue { return nil }
        if result < 0 { throw GitError.last(result, "reading HEAD") }
        defer { git_reference_free(reference) }
        var object: OpaquePointer?
        try check("resolving HEAD to a commit") { git_reference_peel(&object, reference, GIT_OBJECT_COMMIT) }
        return Commit(pointer: object!, repository: self)
    }

    /// Looks up a commit by id (`git_commit_lookup`).
    package func commit(_ id: ObjectID) throws -> Commit {
        var oid = id.raw
        var handle: OpaquePointer?
        try check("looking up commit \(id)") { git_commit_lookup(&handle, pointer, &oid) }
        return Commit(pointer: handle!, repository: self)
    }

    /// Looks up a tree by id (`git_tree_lookup`).
    package func tree(_ id: ObjectID) throws -> Tree {
        var oid = id.raw
        var handle: OpaquePointer?
        try check("looking up tree \(id)") { git_tree_lookup(&handle, pointer, &oid) }
        return Tree(pointer: handle!)
    }

    /// The repository's index (`git_repository_index`).
    package func index() throws -> Index {
        var handle: OpaquePointer?
        try check("opening the git index") { git_repository_index(&handle, pointer) }
        return Index(pointer: handle!, repository: self)
    }

    /// The repository's configuration, with global and system files layered in
    /// (`git_repository_config`).
    package func config() throws -> Config {
        var handle: OpaquePointer?
        try check("reading git configuration") { git_repository_config(&handle, pointer) }
        return Config(pointer: handle!)
    }

    /// Writes a blob into the object database (`git_blob_create_from_buffer`).
    package func writeBlob(_ data: Data) throws -> ObjectID {
        var oid = git_oid()
        _ = try data.withUnsafeBytes { bytes in
            try check("writing a blob") { git_blob_create_from_buffer(&oid, pointer, bytes.baseAddress, bytes.count) }
        }
        return ObjectID(oid)
    }

    /// The signature for new commits: the user's git identity (`user.name`, `user.email` from
    /// the repository's, global or system config, via `git_signature_default`), else
    /// `fallbackName <fallbackEmail>`. The time is `date`, so tests can fix it.
    package func signature(at date: Date, fallbackName: String, fallbackEmail: String) throws -> Signature {
        var probe: UnsafeMutablePointer<git_signature>?
        var name = fallbackName
        var email = fallbackEmail
        if git_signature_default(&probe, pointer) == 0, let probe {
            name = String(cString: probe.pointee.name)
            email = String(cString: probe.pointee.email)
            git_signature_free(probe)
        }
        return try Signature(name: name, email: email, date: date)
    }

    /// Creates a commit of `tree` with `parents` and moves `updateReference` (e.g. "HEAD") to it
    /// (`git_commit_create`).
    @discardableResult
    package func createCommit(
        tree: Tree, parents: [Commit], message: String, author: Signature, committer: Signature,
        updateReference: String? = "HEAD"
    ) throws -> ObjectID {
        var oid = git_oid()
        var parentPointers: [OpaquePointer?] = parents.map { $0.pointer }
        _ = try parentPointers.withUnsafeMutableBufferPointer { buffer in
            try check("creating commit") {
                git_commit_create(
                    &oid, pointer, updateReference, author.pointer, committer.pointer, "UTF-8", message,
                    tree.pointer, parents.count, buffer.baseAddress)
            }
        }
        return ObjectID(oid)
    }
}

@available(*, unavailable)
extension Repository: Sendable {}
