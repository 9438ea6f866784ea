package import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
import RoteModel
#endif

/// One growing buffer that file after file is read into, for passes over thousands of files
/// whose bytes are not kept: no allocation, and no fresh pages to fault in, per file. The
/// folder of the last file stays open, and files are opened by name relative to it: the
/// kernel walks one component, not the whole path, for a file beside the last.
package final class ReadBuffer {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var folder: [UInt8] = []
    private var folderDescriptor: Int32 = -1

    package init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
        if folderDescriptor >= 0 { close(folderDescriptor) }
    }

    /// The whole file at `path` (relative to `root`), its bytes valid until the next read,
    /// and its stat, taken before reading; nil when it cannot be opened, is over the size
    /// limit, or comes up short (`LibraryLoader.read` then says which).
    package func read(root: String, path: String) -> (bytes: UnsafeRawBufferPointer, info: stat)? {
        var path = path
        let descriptor = path.withUTF8 { path -> Int32 in
            let slash = path.lastIndex(of: UInt8(ascii: "/"))
            let folderBytes = UnsafeBufferPointer(rebasing: path[..<(slash ?? 0)])
            if folderDescriptor < 0 || !folder.elementsEqual(folderBytes) {
                if folderDescriptor >= 0 { close(folderDescriptor) }
                folder = Array(folderBytes)
                folderDescriptor = open(
                    root + "/" + String(decoding: folderBytes, as: UTF8.self), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard folderDescriptor >= 0 else { return -1 }
            }
            let name = UnsafeBufferPointer(rebasing: path[(slash.map { $0 + 1 } ?? 0)...])
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { text in
                for (offset, byte) in name.enumerated() { text[offset] = CChar(bitPattern: byte) }
                text[name.count] = 0
                return openat(folderDescriptor, text.baseAddress!, O_RDONLY | O_CLOEXEC)
            }
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        guard size <= YAMLSource.maximumFileSize else { return nil }
        if size > capacity {
            storage.deallocate()
            capacity = Swift.max(size, capacity * 2)
            storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }
        var filled = 0
        while filled < size {
            guard
                let count = try? FileDescriptor(rawValue: descriptor).read(
                    into: UnsafeMutableRawBufferPointer(start: storage + filled, count: size - filled)),
                count > 0
            else { return nil }
            filled += count
        }
        return (UnsafeRawBufferPointer(start: storage, count: size), info)
    }
}
