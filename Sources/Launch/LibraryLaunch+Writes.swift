package import Foundation
import Git
import RoteModel
import RoteStore

extension LibraryLaunch {
    /// Records Rote's own writes (library path → the bytes written, nil for a removal) in the
    /// index's delta as they are committed, so the next launch's check finds those files as
    /// the index has them and reads nothing again — the case after every session and review,
    /// which is what lets `rote study` show a plan from the index before its check is done.
    ///
    /// The files are stamped now, and their stamps trusted although they are young: a file
    /// written under the library's lock is known byte for byte, and an edit by anything else
    /// afterwards moves its stamp (a new inode when an editor replaces it, else its size or
    /// nanosecond times), which the next check catches. Their folders are stamped again too.
    /// Only the learner's progress files are recorded: they are what sessions and reviews
    /// write, and what the delta takes without more reading. Anything else (a profile, a
    /// manifest, content) is left to the next check, which may have to fold or rebuild the
    /// index — a cost that belongs to the next launch, not to the command that wrote.
    /// Returns the launch with the writes recorded (saved, as any refresh is).
    package func recording(writes: [String: Data?]) throws -> LibraryLaunch {
        var check = FileCheck()
        var folders = Set<String>()
        let progress = LibraryPaths(user: user).progressFolder + "/"
        for (path, bytes) in writes.sorted(by: { $0.key < $1.key })
        where path.hasPrefix(progress) && FileRecord.role(of: path) == .progress {
            var info = stat()
            let present = stat(root.path + "/" + path, &info) == 0
            // What is on disk now must be what was written; anything else is left to the check.
            let onDisk = present ? FileManager.default.contents(atPath: root.path + "/" + path) : nil
            guard onDisk == bytes else { continue }
            check.changes.append(
                FileCheck.Change(
                    path: path, role: FileRecord.role(of: path), stamp: present ? FileStamp(info) : nil, bytes: bytes,
                    blob: bytes.map { data in data.withUnsafeBytes { ObjectID.blob(hashing: $0) } },
                    baseRecord: index.baseRecordNumber(of: path)))
            var folder = path
            while let slash = folder.dropLast().lastIndex(of: "/") {
                folder = String(folder[...slash])
                folders.insert(folder)
            }
        }
        guard !check.changes.isEmpty else { return self }
        for folder in folders.sorted() {
            guard let number = index.baseRecordNumber(of: folder) else { continue }
            var info = stat()
            let stamp = stat(root.path + "/" + folder, &info) == 0 ? FileStamp(info) : nil
            check.changes.append(
                FileCheck.Change(path: folder, role: .folder, stamp: stamp, bytes: nil, blob: nil, baseRecord: number))
        }
        return try refreshed(with: check)
    }
}

extension LaunchIndex {
    /// The number of the base's record of `path`, by binary search (records are sorted by path).
    func baseRecordNumber(of path: String) -> Int? {
        var low = 0
        var high = fileCount
        var wanted = path
        return wanted.withUTF8 { target -> Int? in
            let target = UnsafeRawBufferPointer(target)
            while low < high {
                let middle = (low + high) / 2
                let (bytes, _) = fileStamp(middle)
                let common = min(bytes.count, target.count)
                var order = common == 0 ? 0 : memcmp(bytes.baseAddress!, target.baseAddress!, common)
                if order == 0 { order = bytes.count < target.count ? -1 : bytes.count > target.count ? 1 : 0 }
                if order == 0 { return middle }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }
}
