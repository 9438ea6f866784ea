import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The library's write lock: one process at a time changes a library. It is an advisory
/// `flock` on `.git/rote/lock`, so the kernel releases it when the holder dies — a crashed
/// process never leaves a stale lock behind. The holder's pid and command are written into
/// the file so a second process can say who holds it.
public final class LibraryLock: @unchecked Sendable {
    public struct Busy: Error, CustomStringConvertible {
        public let holder: String
        public var description: String {
            "another rote process is using this library (\(holder)); wait for it to finish, or stop it"
        }
    }

    private let descriptor: Int32
    public let url: URL

    /// Takes the lock or throws `Busy` at once (no waiting).
    public init(root: URL, purpose: String) throws {
        let folder = root.appending(path: ".git/rote")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appending(path: "lock")
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AtomicFile.WriteError(path: url.path, reason: String(cString: strerror(errno)))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw Busy(holder: holder.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown process")
        }
        let note = "pid \(getpid()): rote \(purpose)\n"
        ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
