public import Foundation
import Git
import RoteModel
import RoteStore
import Scheduling
import Study

/// What `rote check --repair` did.
public struct RepairReport: Sendable {
    /// One progress file rebuilt from its readable lines.
    public struct Repaired: Sendable {
        public var path: String
        public var reviews: Int
        /// The lines left out, by line number, as they were.
        public var dropped: [(line: Int, text: String)]
        /// Where its old text was kept, when it had never been committed.
        public var keptCopy: URL?
    }

    /// Temporary files of writes that were killed, removed.
    public var removedTemporaryFiles: [String] = []
    public var repaired: [Repaired] = []
    /// The commit of the repaired files, when there were any.
    public var commit: String?
}

extension Library {
    /// Explicit salvage: removes the temporary files killed writes left, and rebuilds every
    /// progress file that does not read from its readable lines (`ProgressRepair`), committed
    /// together. A file never committed has its old text kept under `.git/rote/repaired/`,
    /// since nothing else holds it. Reads every file, under the lock.
    public func repair(now: Date = Date()) throws -> RepairReport {
        try write(purpose: "check --repair") { git in
            var report = RepairReport()
            for leftover in AtomicFile.leftovers(in: root) where leftover.abandoned {
                try FileManager.default.removeItem(at: root.appending(path: leftover.path))
                report.removedTemporaryFiles.append(leftover.path)
            }
            let library = try LibraryLoader(users: .all, includeSessions: true).load(root)
            var changes: [String: Data?] = [:]
            // git's status of the whole library is asked only when there is a file to repair.
            var pending: Set<String>?
            for path in Set(library.errors.map(\.path)).sorted() {
                guard case let .success(.progress(learner, entry)) = LibraryFile.classify(path),
                    let data = FileManager.default.contents(atPath: root.appending(path: path).path)
                else { continue }
                let deck = String(entry.split(separator: "/")[0])
                let settings = SchedulerSettings.forDeck(
                    library.decks[deck], profile: library.profiles[learner], deckName: deck)
                let outcome = ProgressRepair.salvage(data, path: path, entry: entry, settings: settings)
                if pending == nil { pending = Set(try git.pendingPaths()) }
                var keptCopy: URL?
                if pending?.contains(path) == true {
                    // Never committed: its text would be gone from everywhere once rewritten.
                    let copy = root.appending(path: ".git/rote/repaired/\(path).\(Int(now.timeIntervalSince1970))")
                    try AtomicFile.write(data, to: copy)
                    keptCopy = copy
                }
                changes[path] = Data(outcome.file.render().utf8)
                report.repaired.append(
                    .init(
                        path: path, reviews: outcome.reviews, dropped: outcome.dropped.map { ($0.0, $0.1) },
                        keptCopy: keptCopy))
            }
            guard !changes.isEmpty else { return report }
            let kept = report.repaired.map(\.reviews).reduce(0, +)
            report.commit = try git.apply(
                changes: changes,
                message: CommitMessage(
                    subject:
                        "Repair: \(changes.count) progress file\(changes.count == 1 ? "" : "s") rebuilt from their readable lines (\(kept) review\(kept == 1 ? "" : "s") kept)"
                ))?.hex
            return report
        }
    }
}
