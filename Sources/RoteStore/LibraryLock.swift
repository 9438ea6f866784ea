package import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The library's write lock: one process at a time changes a library. It is an advisory
/// `flock` on `.git/rote/lock`, so the kernel releases it when the holder dies — a crashed
/// process never leaves a stale lock behind. The holder's pid and command are written into
/// the file so a second process can say who holds it.
package final class LibraryLock: @unchecked Sendable {
    package struct Busy: Error, CustomStringConvertible {
        /// The holder's note: `pid 4242: rote sync`.
        package let holder: String
        /// What is locked, for the message: "this library", "the mirror of https://…".
        package var resource = "this library"

        package init(holder: String, resource: String = "this library") {
            self.holder = holder
            self.resource = resource
        }

        /// The holder's process id, from its note.
        package var pid: Int32? {
            guard holder.hasPrefix("pid ") else { return nil }
            return Int32(holder.dropFirst(4).prefix { $0 != ":" })
        }

        /// What the holder is doing, from its note: `sync`, `study`, `ignore`.
        package var purpose: String? {
            guard let range = holder.range(of: ": rote ") else { return nil }
            return String(holder[range.upperBound...])
        }

        /// True when the holder is this very process — a `rote serve` whose own writer (a
        /// study session, a write in progress) or queue of commits holds the library: then
        /// there is no other process to name, wait for or stop.
        package var heldByThisProcess: Bool { pid == getpid() }

        package var description: String {
            if heldByThisProcess {
                return
                    "this same rote process is already using \(resource) (rote \(purpose ?? "write")); try again once that is done"
            }
            return "another rote process is using \(resource) (\(holder)); wait for it to finish, or stop it"
        }
    }

    private let descriptor: Int32
    package let url: URL

    /// Takes the library's lock or throws `Busy` at once (no waiting).
    package convenience init(root: URL, purpose: String) throws {
        try self.init(file: root.appending(path: ".git/rote/lock"), resource: "this library", purpose: purpose)
    }

    /// Takes the lock held in `file` (created with its folder if missing) or throws `Busy` at
    /// once. `resource` names what the lock guards in the busy message. Used for the library
    /// and for device-local state beside it that processes not holding the library's lock
    /// also change (a publisher's mirror).
    package init(file: URL, resource: String, purpose: String) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // No stored property is set until the lock is held: once they all are, a throw runs
        // `deinit`, which would truncate and close this number again — by then another
        // thread's file.
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AtomicFile.WriteError(path: file.path, reason: String(cString: strerror(errno)))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            close(descriptor)
            throw Busy(holder: holder.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown process", resource: resource)
        }
        let note = "pid \(getpid()): rote \(purpose)\n"
        ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        self.descriptor = descriptor
        url = file
    }

    deinit {
        ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
