import Foundation
import Git

/// A commit promised but not yet made: `rote serve` answers a write once its files are durable
/// and commits behind the answer (`LibraryGitPool(defersCommits:)`). Before the answer the
/// commit is written, whole, to `.git/rote/pending-commits/<number>-<tag>.commit` — every
/// changed path with the bytes it gets (or its removal), the message, the learner and the time
/// — so a crash before the commit loses nothing: the next writer of the library, in this
/// process or any other (`LibraryTransaction`, `rote sync`), commits every pending commit, oldest
/// first, before it does anything else, with the same message, author and date.
///
/// The commit is made from the journal's bytes, not from the work tree, so a later write to
/// the same file, already on disk, does not slip into an earlier commit: once the journals
/// are committed the log is exactly what committing each write at once would have made.
struct PendingCommit: Sendable, Equatable {
    var changes: [String: Data?]
    var message: String
    var user: String
    var date: Date

    static let folder = ".git/rote/pending-commits"
    /// Seconds since 1970 a journal's date may hold: years 0000 to 9999, what a timestamp of
    /// Rote's files can say (`Timestamp`). Excludes NaN and the infinities.
    static let committableSeconds = -62_167_219_200.0...253_402_300_799.0
    static let header = "rote pending commit 1\n"

    /// A header line, then length-prefixed fields (paths and bytes may hold anything), then
    /// `end`: `user <n>`, `date <seconds>`, `message <n>`, and per path `file <n> <path>` or
    /// `remove <path>`, each length followed by a newline and that many bytes and a newline.
    func encoded() -> Data {
        var out = Data(Self.header.utf8)
        func field(_ name: String, _ bytes: Data) {
            out.append(Data("\(name) \(bytes.count)\n".utf8))
            out.append(bytes)
            out.append(0x0A)
        }
        field("user", Data(user.utf8))
        out.append(Data("date \(date.timeIntervalSince1970)\n".utf8))
        field("message", Data(message.utf8))
        for path in changes.keys.sorted() {
            if let bytes = changes[path] ?? nil {
                out.append(Data("file \(bytes.count) \(path)\n".utf8))
                out.append(bytes)
                out.append(0x0A)
            } else {
                out.append(Data("remove \(path)\n".utf8))
            }
        }
        out.append(Data("end\n".utf8))
        return out
    }

    /// The journal `data` holds, or nil when it is not one whole journal.
    static func decode(_ data: Data) -> PendingCommit? {
        let bytes = [UInt8](data)
        var at = 0
        func line() -> String? {
            guard let end = bytes[at...].firstIndex(of: 0x0A) else { return nil }
            defer { at = end + 1 }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }
        func take(_ count: Int) -> Data? {
            // Compared with what is left, not as `at + count`: a length near Int.max would overflow.
            guard count >= 0, count < bytes.count - at, bytes[at + count] == 0x0A else { return nil }
            defer { at += count + 1 }
            return Data(bytes[at..<(at + count)])
        }
        guard line().map({ $0 + "\n" }) == header else { return nil }
        var result = PendingCommit(changes: [:], message: "", user: "", date: Date(timeIntervalSince1970: 0))
        var sawUser = false
        var sawDate = false
        var sawMessage = false
        while let next = line() {
            let parts = next.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            switch parts[0] {
            case "user" where parts.count == 2:
                guard let count = Int(parts[1]), let value = take(count) else { return nil }
                result.user = String(decoding: value, as: UTF8.self)
                sawUser = true
            case "date" where parts.count == 2:
                // Only a time a commit can carry: `nan`, `inf` or `1e300` parse as Doubles, and
                // a commit dated by one cannot be made (git's time is whole seconds in an Int64).
                guard let seconds = Double(parts[1]), Self.committableSeconds.contains(seconds) else { return nil }
                result.date = Date(timeIntervalSince1970: seconds)
                sawDate = true
            case "message" where parts.count == 2:
                guard let count = Int(parts[1]), let value = take(count) else { return nil }
                result.message = String(decoding: value, as: UTF8.self)
                sawMessage = true
            case "file" where parts.count == 3:
                guard let count = Int(parts[1]), let value = take(count) else { return nil }
                result.changes[parts[2]] = .some(value)
            case "remove":
                let path = String(next.dropFirst("remove ".count))
                guard !path.isEmpty else { return nil }
                result.changes[path] = .some(nil)
            case "end":
                return sawUser && sawDate && sawMessage && at == bytes.count ? result : nil
            default:
                return nil
            }
        }
        return nil
    }

    /// Deletes the temporary files (`AtomicFile`, `.<journal>.<pid>.<n>.tmp`) of journals whose
    /// writer was killed before their rename: the write was never answered, and nothing else
    /// would ever remove them, as the folder is outside the work tree git's status scans. A
    /// live writer's file stays. Returns their library paths.
    @discardableResult
    static func removeAbandonedTemporaryFiles(in root: URL) -> [String] {
        let folder = root.appending(path: Self.folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let abandoned = names.filter { AtomicFile.isTemporary(path: $0) && AtomicFile.isAbandoned(path: $0) }.sorted()
        for name in abandoned { try? FileManager.default.removeItem(at: folder.appending(path: name)) }
        return abandoned.map { "\(Self.folder)/\($0)" }
    }

    /// The pending commits of the library at `root`, oldest first (by their number).
    static func journals(in root: URL) -> [URL] {
        let folder = root.appending(path: Self.folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".commit") }.sorted().map {
            folder.appending(path: $0)
        }
    }
}

extension LibraryGit {
    /// Commits every pending commit (`PendingCommit`) left in the library, oldest first, each
    /// with its own message, learner and date, and removes its journal once it is in.
    /// `committed` is called after each. A journal whose commit already landed (a kill between
    /// the commit and the removal) adds nothing, as its tree is already HEAD's. Returns how
    /// many journals there were. Called under the library's lock, before anything is read.
    @discardableResult
    func commitPendingJournals(committed: (() -> Void)? = nil) throws -> Int {
        PendingCommit.removeAbandonedTemporaryFiles(in: root)
        let journals = PendingCommit.journals(in: root)
        for url in journals {
            let name = "\(PendingCommit.folder)/\(url.lastPathComponent)"
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw LibraryError(
                    .unreadable,
                    "cannot read \(name), a commit a `rote serve` promised; check its permissions, then run the command again"
                )
            }
            guard let pending = PendingCommit.decode(data) else {
                throw LibraryError(
                    .unreadable,
                    "\(name) is not a pending commit this Rote can read (its files are in the work tree); move it out of .git/rote/pending-commits and run `rote sync` to commit the files, then run the command again"
                )
            }
            let author = try CommitAuthor.signature(
                in: repository, privacy: privacy, user: pending.user, at: pending.date)
            _ = try commit(changes: pending.changes, message: pending.message, author: author)
            try FileManager.default.removeItem(at: url)
            committed?()
        }
        return journals.count
    }

    /// True when HEAD's tree has a file at `path`.
    func isCommitted(_ path: String) throws -> Bool {
        try repository.headCommit()?.tree().entryID(atPath: path) != nil
    }

    /// What every writer does first: undoes a write killed half-way (`recoverInterruptedApply`),
    /// then commits the commits a `rote serve` promised (`commitPendingJournals`).
    func recoverInterruptedWrites() throws {
        try recoverInterruptedApply()
        try commitPendingJournals()
    }
}
