internal import CLibGit2
package import Foundation

/// The three versions of a file that both sides of a merge changed.
package struct MergeDriverInput: Sendable {
    /// The path in the merged tree (our side's path when a rename is involved).
    package var path: String
    /// The content at the merge base, nil when the file is new on both sides.
    package var ancestor: Data?
    /// Our side's content, nil when we deleted the file.
    package var ours: Data?
    /// Their side's content, nil when they deleted the file.
    package var theirs: Data?

    package init(path: String, ancestor: Data?, ours: Data?, theirs: Data?) {
        self.path = path
        self.ancestor = ancestor
        self.ours = ours
        self.theirs = theirs
    }
}

/// What a merge driver decided for one file.
package enum MergeDriverResult: Sendable, Equatable {
    /// The merged content, written to the result as is.
    case merged(Data)
    /// Leave the file conflicted (`GIT_EMERGECONFLICT`), for the caller to resolve.
    case conflict
    /// Let libgit2 run its line-based text merge instead (`GIT_PASSTHROUGH`).
    case defaultMerge
}

/// Custom merge drivers that run inside libgit2's merges (`git2/sys/merge.h`): a path whose
/// `merge` attribute names a registered driver (`profiles/*/progress/** merge=rote-progress` in
/// `.gitattributes`) is merged by the driver's Swift handler whenever both sides changed it.
///
/// ```swift
/// try MergeDriver.register(name: "rote-progress") { input in
///     .merged(ProgressMerge.merge(input.ancestor, input.ours, input.theirs))
/// }
/// ```
package enum MergeDriver {
    package typealias Handler = @Sendable (MergeDriverInput) -> MergeDriverResult

    /// Registers `handler` as the driver `name` for this process (`git_merge_driver_register`,
    /// once per name); registering the same name again replaces the handler. The built-in
    /// names "text", "binary" and "union" cannot be taken. Handlers run on the thread that
    /// merges and must not call back into the repository being merged.
    package static func register(name: String, handler: @escaping Handler) throws {
        LibGit.ensureInitialized()
        try MergeDriverRegistry.shared.register(name: name, scope: nil, handler: handler)
    }

    /// Registers `handler` as the driver `name` for merges in `repository` only, ahead of
    /// any process-wide handler of that name: two libraries merged at once in one process
    /// (an app with two libraries, parallel syncs) each get their own, with their own
    /// settings. Registering again for the same repository replaces it.
    package static func register(name: String, for repository: Repository, handler: @escaping Handler) throws {
        LibGit.ensureInitialized()
        try MergeDriverRegistry.shared.register(name: name, scope: repository.registryScope, handler: handler)
    }
}

extension Repository {
    /// The repository as libgit2 names it to a merge driver (`git_repository_path`), the key
    /// of its drivers.
    var registryScope: String { String(cString: git_repository_path(pointer)) }
}

/// The handlers by driver name, and the `git_merge_driver` structs libgit2 holds on to (they
/// live for the rest of the process, as libgit2 requires).
final class MergeDriverRegistry: @unchecked Sendable {
    static let shared = MergeDriverRegistry()

    private let lock = NSLock()
    /// Handlers by driver name, then by repository (`git_repository_path`; "" for every
    /// repository).
    private var handlers: [String: [String: MergeDriver.Handler]] = [:]
    private var drivers: [String: UnsafeMutablePointer<git_merge_driver>] = [:]

    func register(name: String, scope: String?, handler: @escaping MergeDriver.Handler) throws {
        lock.lock()
        defer { lock.unlock() }
        if drivers[name] == nil {
            let driver = UnsafeMutablePointer<git_merge_driver>.allocate(capacity: 1)
            driver.initialize(
                to: git_merge_driver(
                    version: UInt32(GIT_MERGE_DRIVER_VERSION), initialize: nil, shutdown: nil, apply: applyMergeDriver))
            let result = git_merge_driver_register(name, driver)
            if result < 0 {
                driver.deallocate()
                throw GitError.last(result, "registering merge driver \(name)")
            }
            drivers[name] = driver
        }
        handlers[name, default: [:]][scope ?? ""] = handler
    }

    /// The handler for merges in the repository `scope`, else the process-wide one.
    func handler(named name: String, scope: String) -> MergeDriver.Handler? {
        lock.lock()
        defer { lock.unlock() }
        return handlers[name]?[scope] ?? handlers[name]?[""]
    }
}

/// libgit2's `apply` callback for every registered driver: finds the handler by the driver
/// name libgit2 passes and the repository being merged, reads the three blobs, and hands back the handler's verdict.
private let applyMergeDriver: git_merge_driver_apply_fn = { _, pathOut, modeOut, mergedOut, driverName, source in
    guard let pathOut, let modeOut, let mergedOut, let driverName, let source,
        let repository = git_merge_driver_source_repo(source),
        let handler = MergeDriverRegistry.shared.handler(
            named: String(cString: driverName), scope: String(cString: git_repository_path(repository)))
    else { return GIT_PASSTHROUGH.rawValue }
    let ancestor = git_merge_driver_source_ancestor(source)
    let ours = git_merge_driver_source_ours(source)
    let theirs = git_merge_driver_source_theirs(source)
    guard let named = ours ?? theirs ?? ancestor else { return GIT_PASSTHROUGH.rawValue }

    func contents(_ entry: UnsafePointer<git_index_entry>?) -> Data?? {
        guard let entry else { return .some(nil) }
        var blob: OpaquePointer?
        var oid = entry.pointee.id
        guard git_blob_lookup(&blob, repository, &oid) == 0 else { return nil }
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let bytes = git_blob_rawcontent(blob) else { return .some(Data()) }
        return .some(Data(bytes: bytes, count: size))
    }
    guard let ancestorData = contents(ancestor), let oursData = contents(ours), let theirsData = contents(theirs) else {
        return GIT_ERROR.rawValue  // libgit2 recorded why the blob could not be read
    }
    let input = MergeDriverInput(
        path: String(cString: named.pointee.path), ancestor: ancestorData, ours: oursData, theirs: theirsData)
    switch handler(input) {
    case .merged(let data):
        let stored = data.withUnsafeBytes { bytes in git_buf_set(mergedOut, bytes.baseAddress, bytes.count) }
        if stored < 0 { return GIT_ERROR.rawValue }
        pathOut.pointee = named.pointee.path
        modeOut.pointee = mergedMode(
            ancestor: ancestor?.pointee.mode, ours: ours?.pointee.mode, theirs: theirs?.pointee.mode)
        return 0
    case .conflict:
        return GIT_EMERGECONFLICT.rawValue
    case .defaultMerge:
        return GIT_PASSTHROUGH.rawValue
    }
}

/// The merged file's mode: a mode change on one side wins, as in libgit2's own text driver.
private func mergedMode(ancestor: UInt32?, ours: UInt32?, theirs: UInt32?) -> UInt32 {
    switch (ours, theirs) {
    case let (ours?, theirs?): return ours == ancestor ? theirs : ours
    case let (ours?, nil): return ours
    case let (nil, theirs?): return theirs
    case (nil, nil): return ancestor ?? GIT_FILEMODE_BLOB.rawValue
    }
}
