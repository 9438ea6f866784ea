package import Foundation
package import RoteModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
package import Darwin
#endif

/// Writes files so that a crash at any moment leaves either the old file or the new one,
/// never a torn mix: write a temporary file beside it, fsync it, rename it over the target,
/// fsync the folder so the rename itself is durable.
package enum AtomicFile {
    package struct WriteError: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        /// The path was refused (a symbolic link or `..` on the way, `requireInside`): the
        /// library's files are at fault and the learner can mend them, not the disk or the system.
        package var refused = false
        package var description: String { "cannot write \(path): \(reason)" }
    }

    package static func write(_ data: Data, to url: URL) throws {
        try data.withUnsafeBytes { try write($0, to: url) }
    }

    /// `durable: false` skips both fsyncs, for a cache: a crash may then lose the new file
    /// or leave it torn (the cache's checksum must catch that), never a mix of two files.
    package static func write(_ bytes: UnsafeRawBufferPointer, to url: URL, durable: Bool = true) throws {
        let stream = try Stream(to: url)
        try stream.write(bytes)
        try stream.commit(durable: durable)
    }

    /// A file written a piece at a time — an export of any size in bounded memory — that
    /// appears at its path whole, or not at all: the pieces go to a temporary file beside it,
    /// renamed over the path by `commit`. A stream dropped before `commit` removes its
    /// temporary file.
    package final class Stream {
        package let url: URL
        private let temporary: URL
        private var descriptor: Int32
        private var buffer: [UInt8] = []
        private static let bufferSize = 1 << 16

        package init(to url: URL) throws {
            self.url = url
            let folder = url.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            temporary = folder.appending(
                path: ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
            descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw WriteError(path: url.path, reason: String(cString: strerror(errno))) }
            buffer.reserveCapacity(Stream.bufferSize)
        }

        deinit {
            if descriptor >= 0 {
                close(descriptor)
                unlink(temporary.path)
            }
        }

        package func write(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= Stream.bufferSize { try flush() }
        }

        package func write(_ bytes: UnsafeRawBufferPointer) throws {
            try flush()
            try writeAll(bytes)
        }

        private func flush() throws {
            guard !buffer.isEmpty else { return }
            try buffer.withUnsafeBytes { try writeAll($0) }
            buffer.removeAll(keepingCapacity: true)
        }

        private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
            guard descriptor >= 0 else { throw WriteError(path: url.path, reason: "the file was already finished") }
            do {
                _ = try FileDescriptor(rawValue: descriptor).writeAll(bytes)
            } catch let error as Errno {
                throw WriteError(path: url.path, reason: String(cString: strerror(error.rawValue)))
            }
        }

        /// Puts the file at its path: flushed, fsynced (unless not `durable`, for a cache:
        /// a crash may then lose the new file or leave it torn, never a mix of two files),
        /// renamed over the path, and the folder fsynced.
        package func commit(durable: Bool = true) throws {
            var failure: String?
            do { try flush() } catch let error as WriteError { failure = error.reason }
            if failure == nil, durable, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
            close(descriptor)
            descriptor = -1
            if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
            if let failure {
                unlink(temporary.path)
                throw WriteError(path: url.path, reason: failure)
            }
            let folder = url.deletingLastPathComponent()
            let folderDescriptor = durable ? open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
            if folderDescriptor >= 0 {
                fsync(folderDescriptor)
                close(folderDescriptor)
            }
        }
    }

    /// Whether a path names a temporary file of an unfinished write (`.<name>.<pid>.<n>.tmp`):
    /// such files are never library content, never committed, and reported by `rote check`.
    package static func isTemporary(path: some StringProtocol) -> Bool {
        let name = path.split(separator: "/").last ?? ""
        return name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// Temporary files of unfinished writes under the library's `corpus/` and `profiles/`,
    /// as library-relative paths, with whether the process that made each one has gone (its
    /// pid is in the name), so the file can never be finished.
    package static func leftovers(in root: URL) -> [(path: String, abandoned: Bool)] {
        var found: [(String, Bool)] = []
        for top in [LibraryPaths.corpus, LibraryPaths.profiles] {
            guard let walker = FileManager.default.enumerator(atPath: root.appending(path: top).path) else { continue }
            while let relative = walker.nextObject() as? String {
                guard isTemporary(path: relative) else { continue }
                found.append(("\(top)/\(relative)", isAbandoned(path: relative)))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// Whether the process that made a temporary file (its pid is in the name) has gone.
    package static func isAbandoned(path: some StringProtocol) -> Bool {
        let parts = (path.split(separator: "/").last ?? "").split(separator: ".")
        guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]) else { return true }
        return !(kill(pid, 0) == 0 || errno == EPERM)
    }

    /// `rote check`'s warning for a temporary file found while listing the library.
    package static func leftoverWarning(_ path: String) -> Diagnostic {
        .warning(
            path, nil,
            isAbandoned(path: path)
                ? "temporary file of a write that was killed before it finished; it is never committed — delete it, or run `rote check --repair`"
                : "temporary file of a write still in progress")
    }

    /// Writes a file of the library at `root`, by its library-relative `path`, refusing a path
    /// that would leave the library: a `..` segment, or any folder on the way (or the file
    /// itself) that is a symbolic link. Content from others (a pulled commit, a publisher's
    /// deck) can hold links, and a write through `profiles/<u>/progress -> /anywhere` would land
    /// outside the library; reading follows links only to files inside it, writing never.
    package static func write(_ data: Data, at path: String, in root: URL) throws {
        try requireInside(path, in: root)
        try write(data, to: root.appending(path: path))
    }

    package static func write(_ text: String, at path: String, in root: URL) throws {
        try write(Data(text.utf8), at: path, in: root)
    }

    /// Removes a library file by the same rule as `write(_:at:in:)`.
    package static func remove(at path: String, in root: URL) throws {
        try requireInside(path, in: root)
        try FileManager.default.removeItem(at: root.appending(path: path))
    }

    /// Throws unless every segment of `path` below `root` is a real folder or file (or does not
    /// exist yet): no `..`, no symbolic link.
    package static func requireInside(_ path: String, in root: URL) throws {
        var current = root.path.hasSuffix("/") ? String(root.path.dropLast()) : root.path
        for segment in path.split(separator: "/") {
            guard segment != "..", segment != "." else {
                throw WriteError(
                    path: path, reason: "the path leaves the library; Rote writes only inside it", refused: true)
            }
            current += "/" + segment
            var info = stat()
            guard lstat(current, &info) == 0 else { return }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                let inside = String(current.dropFirst(root.path.count)).trimmingCharacters(
                    in: CharacterSet(charactersIn: "/"))
                throw WriteError(
                    path: path,
                    reason:
                        "\(inside) is a symbolic link, and Rote never writes through one; replace it with a real \(inside == path ? "file" : "folder") (`rote check` lists links)",
                    refused: true)
            }
        }
    }

    package static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }
}
