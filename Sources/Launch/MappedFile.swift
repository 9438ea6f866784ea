import Foundation

/// A file mapped read-only into memory; unmapped when the last index using it goes.
final class MappedFile: @unchecked Sendable {
    let reader: ByteReader
    private let length: Int

    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return nil }
        length = Int(info.st_size)
        guard let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            return nil
        }
        reader = ByteReader(base: UnsafeRawPointer(address), count: length)
    }

    /// `length` bytes that `build` writes in memory (a fresh build), owned the same way.
    init(building length: Int, _ build: (UnsafeMutableRawBufferPointer) -> Void) {
        self.length = length
        let address = UnsafeMutableRawPointer.allocate(byteCount: max(length, 1), alignment: 16)
        build(UnsafeMutableRawBufferPointer(start: address, count: length))
        reader = ByteReader(base: UnsafeRawPointer(address), count: length)
        owned = true
    }

    private var owned = false

    deinit {
        if owned {
            UnsafeMutableRawPointer(mutating: reader.base).deallocate()
        } else {
            munmap(UnsafeMutableRawPointer(mutating: reader.base), length)
        }
    }
}
