internal import CLibGit2
package import Foundation

extension Repository {
    /// Clones `url` (a path, `file://`, `git://`, `ssh://`, `user@host:path` or `https://`)
    /// into `destination` and checks out the remote's default branch (`git_clone`). The remote
    /// is named "origin".
    package static func clone(
        from url: String, to destination: URL, credentials: Credentials = Credentials(), bare: Bool = false,
        progress: ((TransferProgress) -> Void)? = nil
    ) throws -> Repository {
        LibGit.ensureInitialized()
        let session = RemoteSession(
            credentials: credentials, operation: "cloning \(url) into \(destination.path)", helperDirectory: nil,
            progress: progress)
        var options = git_clone_options()
        try check("preparing clone options") { git_clone_options_init(&options, UInt32(GIT_CLONE_OPTIONS_VERSION)) }
        options.bare = bare ? 1 : 0
        session.install(into: &options.fetch_opts.callbacks)
        var handle: OpaquePointer?
        let result = withExtendedLifetime(session) { git_clone(&handle, url, destination.path, &options) }
        if result < 0 {
            throw session.failure ?? LocalRemote.missingFolderError(url: url, operation: session.operation)
                ?? session.error(result)
        }
        return Repository(pointer: handle!)
    }

    /// The names of the configured remotes (`git_remote_list`).
    package func remoteNames() throws -> [String] {
        var array = git_strarray()
        try check("listing remotes") { git_remote_list(&array, pointer) }
        return takeStrings(&array)
    }

    /// The remote called `name`, nil when there is none (`git_remote_lookup`).
    package func remote(named name: String) throws -> Remote? {
        var handle: OpaquePointer?
        let result = git_remote_lookup(&handle, pointer, name)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        if result < 0 { throw GitError.last(result, "looking up remote \(name)") }
        return Remote(pointer: handle!, repository: self)
    }

    /// Adds a remote with the default fetch refspec `+refs/heads/*:refs/remotes/<name>/*`
    /// (`git_remote_create`). Only the name and URL are written to `.git/config`.
    @discardableResult
    package func addRemote(named name: String, url: String) throws -> Remote {
        var handle: OpaquePointer?
        try check("adding remote \(name) (\(url))") { git_remote_create(&handle, pointer, name, url) }
        return Remote(pointer: handle!, repository: self)
    }
}
