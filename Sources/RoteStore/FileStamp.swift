package import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How a file looked when the index last read it: git's own test for "unchanged" (size,
/// modification and change times, inode), and the blob it held when that is known.
package struct FileStamp: Sendable, Equatable {
    package var size: UInt64
    package var modified: Int64
    package var changed: Int64
    package var inode: UInt64

    package init(size: UInt64, modified: Int64, changed: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
    }

    package init(_ info: stat) {
        size = UInt64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
    }

    /// The stamp of the file at `path` as it is now; nil when it cannot be read.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// Whether the open file `descriptor` is a regular file (not a folder, device or pipe).
    package static func isRegularFile(descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// A stamp no file has, for a file that must be read again next time.
    package static let unknown = FileStamp(size: UInt64.max, modified: 0, changed: 0, inode: 0)

    /// Nanoseconds after a file changes during which its stamp is not trusted: file times
    /// tick coarsely, so a file changed again within the window could keep the same stamp
    /// (git calls such a stamp racy). The launch index and `rote check` read such a file again
    /// next time. Two seconds, which covers every file system's time granularity (FAT's is
    /// two seconds). Tests that want stamps trusted at once bind it to 0 for their task
    /// (TestSupport's `.settledFileStamps` trait); it is read once when a check starts.
    @TaskLocal package static var racyWindow: Int64 = 2_000_000_000
}
