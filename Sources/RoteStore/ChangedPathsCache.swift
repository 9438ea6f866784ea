package import Foundation
package import Git

/// For each commit, the library paths it changed against its first parent, kept in
/// `.git/rote/changed-paths` so that an entry's history (`rote history`, the web app's entry
/// page) does not compare every commit's trees again. Comparing trees is what costs: at 100k
/// entries one commit's progress folder is a 50 000-entry tree, parsed anew for each commit.
///
/// The file is append-only, one line per commit: its id, then its paths, then `.`, all
/// tab-separated (`<id>\t*\t.` for a commit that changed more than `manyPaths` paths,
/// answered from its trees when asked). Rote's own commits append their line as they are
/// made; any other commit (a merge, a commit from another device or from git) gets its line
/// the first time a history walk meets it. Each line is written by one `write` and starts on
/// a line of its own, so a line cut short by a crash lacks its closing `.` and is ignored,
/// and the file needs no lock: a line written twice says the same thing.
package final class ChangedPathsCache: @unchecked Sendable {
    package enum Paths: Sendable, Equatable {
        case some(Set<String>)
        /// Too many to keep: look in the commit's trees.
        case many
    }

    package static let manyPaths = 2_000
    static let fileName = "changed-paths"

    let file: URL
    private let lock = NSLock()
    private var known: [ObjectID: Paths] = [:]
    /// How much of the file is read into `known`, and which file that was.
    private var readOffset: UInt64 = 0
    private var fileIdentity: (dev_t, ino_t)?

    init(root: URL) {
        file = root.appending(path: ".git/rote/\(Self.fileName)")
    }

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var shared: [String: ChangedPathsCache] = [:]

    /// The cache of the library at `root`, one per process, read up to the file's end.
    package static func of(root: URL) -> ChangedPathsCache {
        let cache = sharedLock.withLock {
            if let cache = shared[root.standardizedFileURL.path] { return cache }
            let cache = ChangedPathsCache(root: root)
            shared[root.standardizedFileURL.path] = cache
            return cache
        }
        cache.readNewLines()
        return cache
    }

    /// Where a commit being made records its paths: this process's cache of the library when
    /// it has one, else one that only appends — a commit never reads the file.
    package static func forRecording(root: URL) -> ChangedPathsCache {
        sharedLock.withLock { shared[root.standardizedFileURL.path] } ?? ChangedPathsCache(root: root)
    }

    /// The paths `commit` changed, from the file or else from its trees (then remembered).
    package func paths(of commit: Commit, in repository: Repository) throws -> Paths {
        if let paths = lock.withLock({ known[commit.id] }) { return paths }
        guard let parent = try commit.parents().first else {
            // A first commit adds every file of the library: listing them (a diff with the
            // empty tree) would cost more memory than looking in its tree when asked.
            record(commit.id, paths: [String](), many: true)
            return .many
        }
        let changed = try repository.changedPaths(from: try parent.tree(), to: commit.tree())
        record(commit.id, paths: changed)
        return lock.withLock { known[commit.id] ?? .many }
    }

    /// Remembers the paths a commit changed, in memory and at the end of the file. A cache
    /// that cannot be written is only slower next time, so a failure is not an error.
    package func record(_ commit: ObjectID, paths: some Collection<String>, many: Bool = false) {
        let entry: Paths = many || paths.count > Self.manyPaths ? .many : .some(Set(paths))
        // Git allows tabs and newlines in paths, but a library's paths never hold them.
        guard paths.allSatisfy({ !$0.contains("\t") && !$0.contains("\n") }) else { return }
        var line = "\n" + commit.hex
        switch entry {
        case .many: line += "\t*"
        case .some: for path in paths.sorted() { line += "\t" + path }
        }
        line += "\t.\n"
        lock.withLock { known[commit] = entry }
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Reads the lines appended since the last read (by this process or another). A file
    /// replaced or cut shorter (removed by hand, say) is read again from the start, and what
    /// was known is forgotten with it.
    func readNewLines() {
        lock.withLock {
            var info = stat()
            let identity = stat(file.path, &info) == 0 ? (info.st_dev, info.st_ino) : nil
            let replaced: Bool
            if let identity {
                replaced = (fileIdentity.map { $0 != identity } ?? false) || UInt64(info.st_size) < readOffset
            } else {
                replaced = fileIdentity != nil
            }
            if replaced {
                known = [:]
                readOffset = 0
            }
            fileIdentity = identity
            guard let handle = try? FileHandle(forReadingFrom: file) else { return }
            defer { try? handle.close() }
            guard let end = try? handle.seekToEnd(), end > readOffset else { return }
            try? handle.seek(toOffset: readOffset)
            guard let data = try? handle.readToEnd() else { return }
            // Only whole lines: a line still being written (or cut short) is read next time.
            guard let lastNewline = data.lastIndex(of: UInt8(ascii: "\n")) else { return }
            let whole = data[data.startIndex...lastNewline]
            readOffset += UInt64(whole.count)
            for line in whole.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                guard fields.count >= 2, fields.last!.elementsEqual(".".utf8),
                    let id = ObjectID(hex: String(decoding: fields[0], as: UTF8.self))
                else { continue }
                let paths = fields.dropFirst().dropLast()
                if paths.count == 1, paths.first!.elementsEqual("*".utf8) {
                    known[id] = .many
                } else {
                    known[id] = .some(Set(paths.map { String(decoding: $0, as: UTF8.self) }))
                }
            }
        }
    }
}
