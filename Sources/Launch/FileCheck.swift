import Dispatch
import Foundation
import Git
import Parallelism
import RoteStore

/// What changed in a library since its launch index was made: every recorded file is
/// stat'ed (on every core) and compared with its stamp, and every folder whose stamp moved
/// is listed again for added files. A file whose stamp moved but whose bytes still hash to
/// the recorded blob only gets its new stamp.
struct FileCheck: Sendable {
    struct Change: Sendable {
        var path: String
        var role: FileRecord.Role
        /// The new stamp; nil when the file or folder is gone.
        var stamp: FileStamp?
        /// The new bytes when the file must be read again; nil for a folder, a removed file
        /// or one whose bytes did not change.
        var bytes: Data?
        var blob: ObjectID?
        /// The record's number in the base index, for a file the base has.
        var baseRecord: Int?
    }

    var changes: [Change] = []

    var isEmpty: Bool { changes.isEmpty }

    static func run(root: URL, user: String, records index: LaunchIndex) -> FileCheck {
        let started = racyFrom()
        var moved = movedRecords(root: root.path, index: index)
        // Records the overlay changed or added are few: stat'ed by path.
        let overlaid =
            index.overlay.files.compactMap { number, record in record.map { ($0, Optional(number)) } }
            + index.overlay.addedFiles.map { ($0, Int?.none) }
        for (record, number) in overlaid {
            var info = stat()
            if stat(root.path + "/" + record.path, &info) != 0 || FileStamp(info) != record.stamp {
                moved.append((record, number))
            }
        }
        var check = FileCheck()
        var recorded: RecordedPaths?
        let stamps = moved.map { record, _ -> FileStamp? in
            var info = stat()
            return stat(root.path + "/" + record.path, &info) == 0 ? FileStamp(info) : nil
        }
        let gone = zip(moved, stamps).filter { $0.1 == nil }.map(\.0.0.path)
        let movedFolders = moved.filter { $0.0.role == .folder }.map(\.0.path)
        let children = movedFolders.count <= 8 ? recordedChildren(of: movedFolders, in: index) : [:]
        for ((record, number), found) in zip(moved, stamps) {
            guard let found else {
                check.changes.append(
                    Change(path: record.path, role: record.role, stamp: nil, bytes: nil, blob: nil, baseRecord: number))
                continue
            }
            let stamp = settled(found, since: started)
            if record.role == .folder {
                check.changes.append(
                    Change(path: record.path, role: .folder, stamp: stamp, bytes: nil, blob: nil, baseRecord: number))
                // A folder's stamp moves when a file in it is renamed over (as git and most
                // editors write) as well as when one is added. Names now = recorded − gone +
                // added, so when the count of names is the recorded count less those gone,
                // nothing was added and the folder need not be looked through name by name.
                if let recordedCount = children[record.path],
                    let listed = countPaths(root: root.path, user: user, folder: record.path),
                    listed == recordedCount - gone.filter({ isChild($0, of: record.path) }).count
                {
                    continue
                }
                if recorded == nil { recorded = RecordedPaths(index) }
                let known = recorded!
                for (path, added) in listFolder(
                    root: root.path, user: user, folder: record.path, skipping: { known.contains($0) })
                where !known.contains(path) {
                    check.changes.append(
                        read(
                            root: root.path, path: path, stamp: settled(added, since: started), known: nil,
                            baseRecord: nil))
                }
            } else {
                check.changes.append(
                    read(root: root.path, path: record.path, stamp: stamp, known: record.blob, baseRecord: number))
            }
        }
        return check
    }

    /// A file's change: its bytes when they differ from the blob it held.
    private static func read(root: String, path: String, stamp: FileStamp, known: ObjectID?, baseRecord: Int?) -> Change
    {
        let role = path.hasSuffix("/") ? FileRecord.Role.folder : FileRecord.role(of: path)
        guard role != .folder else {
            return Change(path: path, role: role, stamp: stamp, bytes: nil, blob: nil, baseRecord: baseRecord)
        }
        guard let bytes = FileManager.default.contents(atPath: root + "/" + path) else {
            return Change(path: path, role: role, stamp: nil, bytes: nil, blob: nil, baseRecord: baseRecord)
        }
        let blob = bytes.withUnsafeBytes { ObjectID.blob(hashing: $0) }
        let unchanged = known == blob
        // A racy stamp keeps no blob: the bytes may change again within the stamp's tick.
        return Change(
            path: path, role: role, stamp: stamp, bytes: unchanged ? nil : bytes, blob: stamp == .unknown ? nil : blob,
            baseRecord: baseRecord)
    }

    /// The records whose files' stamps no longer match, stat'ed from the mapped index on
    /// every core without making a string per file.
    private static func movedRecords(root: String, index: LaunchIndex) -> [(FileRecord, Int?)] {
        let count = index.fileCount
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunk = max(1, (count + workers * 8 - 1) / (workers * 8))
        let chunks = (count + chunk - 1) / chunk
        let found = ParallelSlots<[Int]>(count: chunks)
        let rootBytes = Array(root.utf8) + [UInt8(ascii: "/")]
        DispatchQueue.concurrentPerform(iterations: chunks) { part in
            var buffer = [CChar](repeating: 0, count: 4096)
            var moved: [Int] = []
            // Files of one folder lie together (records are sorted by path), so each is
            // stat'ed by name relative to its open folder: the kernel walks one component,
            // not the whole path, per file.
            var folder: [UInt8] = []
            var folderDescriptor: Int32 = -1
            defer { if folderDescriptor >= 0 { close(folderDescriptor) } }
            buffer.withUnsafeMutableBytes { raw in
                let text = raw.baseAddress!
                for record in (part * chunk)..<min((part + 1) * chunk, count) {
                    if !index.overlay.files.isEmpty, index.overlay.files.index(forKey: record) != nil { continue }
                    let (path, stamp) = index.fileStamp(record)
                    guard rootBytes.count + path.count < raw.count else {
                        moved.append(record)
                        continue
                    }
                    let slash = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                    let name = UnsafeRawBufferPointer(rebasing: path[slash...])
                    var info = stat()
                    var result: Int32
                    if name.isEmpty || slash == 0 {
                        // A folder record, or rote.yaml: by its whole path.
                        rootBytes.withUnsafeBytes { text.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                        (text + rootBytes.count).copyMemory(from: path.baseAddress!, byteCount: path.count)
                        raw[rootBytes.count + path.count] = 0
                        result = stat(text.assumingMemoryBound(to: CChar.self), &info)
                    } else {
                        if !path[..<slash].elementsEqual(folder) {
                            if folderDescriptor >= 0 { close(folderDescriptor) }
                            folder = Array(path[..<slash])
                            let folderPath = String(decoding: rootBytes + folder, as: UTF8.self)
                            folderDescriptor = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                        }
                        name.withUnsafeBytes { text.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                        raw[name.count] = 0
                        result =
                            folderDescriptor < 0
                            ? -1 : fstatat(folderDescriptor, text.assumingMemoryBound(to: CChar.self), &info, 0)
                    }
                    if result != 0 || FileStamp(info) != stamp { moved.append(record) }
                }
            }
            found.set(part, moved)
        }
        return found.takeValues().flatMap { $0 }.map { (index.fileRecord($0), $0) }
    }

    /// Whether the index has a record of a path, asked for every name in a folder listed
    /// again: a hash of each record's path bytes, read in place, confirmed byte for byte.
    struct RecordedPaths {
        let index: LaunchIndex
        /// The base record of each path hash; `shared` holds the rare hashes two paths have.
        var records: [UInt64: Int32] = [:]
        var shared: [UInt64: [Int32]] = [:]
        let added: Set<String>

        init(_ index: LaunchIndex) {
            self.index = index
            records.reserveCapacity(index.fileCount)
            for record in 0..<index.fileCount {
                let hash = IndexHash.form(index.fileStamp(record).0)
                if let first = records.updateValue(Int32(record), forKey: hash) {
                    records[hash] = first
                    shared[hash, default: [first]].append(Int32(record))
                }
            }
            added = Set(index.overlay.addedFiles.map(\.path))
        }

        func contains(_ path: String) -> Bool {
            var path = path
            return path.withUTF8 { contains(UnsafeRawBufferPointer($0)) }
        }

        func contains(_ path: UnsafeRawBufferPointer) -> Bool {
            let hash = IndexHash.form(path)
            func holds(_ record: Int32) -> Bool? {
                let recorded = index.fileStamp(Int(record)).0
                guard recorded.count == path.count, memcmp(recorded.baseAddress!, path.baseAddress!, path.count) == 0
                else { return nil }
                // A record the overlay removed is not recorded any more.
                if let changed = index.overlay.files[Int(record)], changed == nil { return false }
                return true
            }
            if let first = records[hash] {
                if shared.isEmpty || shared[hash] == nil {
                    if let found = holds(first) { return found }
                } else {
                    for record in shared[hash]! { if let found = holds(record) { return found } }
                }
            }
            return !added.isEmpty && added.contains(String(decoding: path, as: UTF8.self))
        }
    }

    // MARK: Listing

    /// Whether `path` is a file or folder right inside `folder` (a path ending in `/`).
    static func isChild(_ path: String, of folder: String) -> Bool {
        guard path.count > folder.count, path.hasPrefix(folder) else { return false }
        let rest = path.utf8.dropFirst(folder.utf8.count).dropLast()
        return !rest.isEmpty && !rest.contains(UInt8(ascii: "/"))
    }

    /// How many files and folders the index records right inside each of `folders` (the
    /// base's records the overlay keeps, and the overlay's added files), read in place.
    static func recordedChildren(of folders: [String], in index: LaunchIndex) -> [String: Int] {
        var counts: [String: Int] = [:]
        let prefixes = folders.map { Array($0.utf8) }
        for record in 0..<index.fileCount {
            if let changed = index.overlay.files[record], changed == nil { continue }
            let path = index.fileStamp(record).0
            for (folder, prefix) in zip(folders, prefixes)
            where path.count > prefix.count && memcmp(path.baseAddress!, prefix, prefix.count) == 0 {
                let rest = path[prefix.count..<(path.count - 1)]
                if !rest.contains(UInt8(ascii: "/")) { counts[folder, default: 0] += 1 }
            }
        }
        for record in index.overlay.addedFiles {
            for folder in folders where isChild(record.path, of: folder) { counts[folder, default: 0] += 1 }
        }
        for folder in folders where counts[folder] == nil { counts[folder] = 0 }
        return counts
    }

    /// How many files and folders in scope are right inside `folder`, counted from readdir's
    /// types without making a string per name; nil when a name is in doubt (a folder whose
    /// name ends in `.yaml`, which a recorded file may have become).
    static func countPaths(root: String, user: String, folder: String) -> Int? {
        guard let directory = opendir(root + "/" + folder) else { return nil }
        defer { closedir(directory) }
        // Whether a YAML file here is in scope depends only on the folder.
        let filesInScope = inScope(folder + "file.yaml", user: user)
        var count = 0
        while let entry = readdir(directory) {
            var isYAML = false
            var hidden = false
            var empty = false
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let length = raw.firstIndex(of: 0) ?? raw.count
                empty = length == 0
                hidden = length > 0 && raw[0] == UInt8(ascii: ".")
                isYAML = length >= 5 && raw[(length - 5)..<length].elementsEqual(".yaml".utf8)
            }
            if empty || hidden { continue }
            var type = Int32(entry.pointee.d_type)
            if type == DT_REG {
                if isYAML, filesInScope { count += 1 }
                continue
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if type != DT_DIR {
                var info = stat()
                guard fstatat(dirfd(directory), name, &info, 0) == 0 else { continue }
                type =
                    (info.st_mode & S_IFMT) == S_IFDIR
                    ? Int32(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? Int32(DT_REG) : Int32(DT_UNKNOWN)
            }
            if type == DT_DIR {
                if isYAML { return nil }
                if inScope(folder + name + "/", user: user) { count += 1 }
            } else if type == DT_REG, isYAML, filesInScope {
                count += 1
            }
        }
        return count
    }

    /// Whether a library path belongs in `user`'s launch index: rote.yaml, everything under
    /// corpus/, and the learner's own folder but for session files (history, not study).
    static func inScope(_ path: String, user: String) -> Bool {
        var hidden = false
        var atStart = true
        for byte in path.utf8 {
            if atStart, byte == UInt8(ascii: ".") {
                hidden = true
                break
            }
            atStart = byte == UInt8(ascii: "/")
        }
        if hidden { return false }
        if path == LibraryLocation.manifestName || LibraryPaths.isContent(path) || path == LibraryPaths.profiles + "/" {
            return true
        }
        let mine = LibraryPaths(user: user).folder + "/"
        return (path == mine || path.hasPrefix(mine)) && !path.hasPrefix(LibraryPaths(user: user).sessionsFolder + "/")
    }

    /// Everything in scope below `folder` (a path ending in `/`), folders included, with
    /// their stamps; files `known` accepts are left out without a stat (a big folder listed
    /// again for one added file holds mostly files the index has).
    static func listFolder(
        root: String, user: String, folder: String, skipping known: (UnsafeRawBufferPointer) -> Bool = { _ in false }
    ) -> [(String, FileStamp)] {
        listPaths(root: root, user: user, folder: folder, skipping: known).compactMap { path in
            var info = stat()
            return stat(root + "/" + path, &info) == 0 ? (path, FileStamp(info)) : nil
        }
    }

    /// The paths in scope below `folder`, folders (ending in `/`) included, by the types
    /// readdir reports: only links and unknown types are stat'ed, and a link is followed by
    /// the loader's rule (`LibraryLoader.link`), so this listing is the one the loader reads.
    static func listPaths(
        root: String, user: String, folder: String, skipping known: (UnsafeRawBufferPointer) -> Bool = { _ in false }
    ) -> [String] {
        var found: [String] = []
        guard let directory = opendir(root + "/" + folder) else { return [] }
        defer { closedir(directory) }
        var subfolders: [String] = []
        // The folder's path with each name after it, to ask `known` without making a string.
        var path = Array(folder.utf8)
        let folderLength = path.count
        // Everything below corpus/ is in scope (hidden names are skipped as they are met), so
        // only the profiles' folders ask, name by name.
        let allInScope = LibraryPaths.isContent(folder)
        while let entry = readdir(directory) {
            let nameLength = withUnsafeBytes(of: entry.pointee.d_name) { name in
                let length = name.firstIndex(of: 0) ?? name.count
                path.replaceSubrange(folderLength..., with: name.prefix(length))
                return length
            }
            guard nameLength > 0, path[folderLength] != UInt8(ascii: ".") else { continue }
            var type = Int32(entry.pointee.d_type)
            let isYAML = path.count >= folderLength + 5 && path.suffix(5).elementsEqual(".yaml".utf8)
            if type == DT_REG, isYAML, path.withUnsafeBytes(known) { continue }
            if type != DT_REG, type != DT_DIR {
                let name = String(decoding: path[folderLength...], as: UTF8.self)
                var info = stat()
                guard fstatat(dirfd(directory), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: type = Int32(DT_DIR)
                case S_IFREG: type = Int32(DT_REG)
                case S_IFLNK where LibraryLoader.link(at: String(decoding: path, as: UTF8.self), root: root) == .file:
                    type = Int32(DT_REG)
                default: continue
                }
            }
            let isFolder = type == DT_DIR
            guard isFolder || (type == DT_REG && isYAML) else { continue }
            if isFolder { path.append(UInt8(ascii: "/")) }
            let relative = String(decoding: path, as: UTF8.self)
            guard allInScope || inScope(relative, user: user) else { continue }
            if !isFolder, relative.utf8.withContiguousStorageIfAvailable({ known(UnsafeRawBufferPointer($0)) }) == true
            {
                continue
            }
            found.append(relative)
            if isFolder { subfolders.append(relative) }
        }
        for subfolder in subfolders { found += listPaths(root: root, user: user, folder: subfolder, skipping: known) }
        return found
    }

    /// Every file and folder in scope, by path in `String` order: what a full load is about
    /// to read, listed before it reads. Stamped here, before anything is read, are what the
    /// reading does not stamp as it reads: the folders, and the manifests the loader reads
    /// while it lists (`rote.yaml`, each `corpus/<deck>/deck.yaml`).
    static func scope(root: String, user: String) -> (paths: [String], stamps: [String: FileStamp]) {
        var info = stat()
        let tops = [LibraryPaths.corpus + "/", LibraryPaths.profiles + "/"].filter { stat(root + "/" + $0, &info) == 0 }
        // Each top folder is listed, sorted and stamped on a core of its own. Joined in the
        // order "corpus/" < "profiles/" < "rote.yaml", the paths stay sorted.
        let listed = tops.concurrentMap { top -> (paths: [String], stamps: [String: FileStamp]) in
            let paths = ([top] + listPaths(root: root, user: user, folder: top)).sorted()
            var stamps: [String: FileStamp] = [:]
            var info = stat()
            for path in paths where path.utf8.last == UInt8(ascii: "/") {
                if stat(root + "/" + path, &info) == 0 { stamps[path] = FileStamp(info) }
                // A deck's manifest, `corpus/<deck>/deck.yaml`, found from its folder.
                if LibraryPaths.isContent(path),
                    path.utf8.dropFirst(7).firstIndex(of: UInt8(ascii: "/"))
                        == path.utf8.index(before: path.utf8.endIndex)
                {
                    let manifest = path + "deck.yaml"
                    if stat(root + "/" + manifest, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                        stamps[manifest] = FileStamp(info)
                    }
                }
            }
            return (paths, stamps)
        }
        let paths = listed.flatMap(\.paths) + [LibraryLocation.manifestName]
        var stamps = listed.reduce(into: [:]) { $0.merge($1.stamps) { first, _ in first } }
        if stat(root + "/" + LibraryLocation.manifestName, &info) == 0 {
            stamps[LibraryLocation.manifestName] = FileStamp(info)
        }
        return (paths, stamps)
    }

    // MARK: Racy stamps

    /// Wall-clock nanoseconds, as file times are kept.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The time from which a file's stamp is racy: `FileStamp.racyWindow` before now. Read
    /// once on the caller's task, before any work spreads over threads.
    static func racyFrom() -> Int64 { now() - FileStamp.racyWindow }

    /// A file changed within the racy window of being stamped could change again with the
    /// same stamp (file times tick coarsely), so such a stamp is not trusted: git calls it
    /// racy. `started` is `racyFrom()` when the check started.
    static func isRacy(_ stamp: FileStamp, since started: Int64) -> Bool {
        max(stamp.modified, stamp.changed) >= started
    }

    static func settled(_ stamp: FileStamp, since started: Int64) -> FileStamp {
        isRacy(stamp, since: started) ? .unknown : stamp
    }
}
