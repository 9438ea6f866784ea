import Foundation
import Git
import Parallelism
import RoteModel
import RoteStore
import StudyData

extension LaunchRows {
    /// Rows for `user` read straight from the library's files — what a cold launch builds —
    /// with the parsed library of what else it read (deck manifests, the profile, and every
    /// entry that is not a word). The same rows as a full load gives, at less cost:
    /// - files are read on eight threads a core, each into one buffer it reuses;
    /// - a vocabulary entry is read only as far as its headline (`VocabularyEntry.headline`),
    ///   unless it is in shapes only Yams reads, when it is decoded in full;
    /// - a progress file in Rote's canonical form is summarised as it is read, without
    ///   building its reviews (`ProgressSummary.canonical`); any other is decoded in full;
    /// - sessions, other learners' files and cross-file checks are left out.
    /// The files in scope are listed before any is read, and each is stamped (fstat on the
    /// open file) before its bytes are read, so one that changes meanwhile is read again
    /// next time; blob ids come from git's index where its stat data matches.
    static func read(root: URL, user: String) throws -> (rows: LaunchRows, library: LoadedLibrary) {
        let started = FileCheck.racyFrom()
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        // The scope is listed before anything is read, so that a file that appears later is
        // not recorded unread, with git's index read beside it; the loader takes the scope's
        // files as its listing, classifies them and reads the manifests.
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        let (scope, gitStamps) = inParallel(
            { FileCheck.scope(root: root.path, user: user) },
            {
                (try? Repository.open(at: root)).map { IndexStamps(gitDirectory: $0.gitDirectory) } ?? IndexStamps()
            })
        let (listedLibrary, files) = try loader.list(
            root, listed: scope.paths.filter { $0.utf8.last != UInt8(ascii: "/") })
        let decks = listedLibrary.decks
        let libraryRoot = listedLibrary.root
        let rootPath = listedLibrary.root.path
        // Progress digests replay each file with its deck's scheduler, which the profile sets.
        let schedulers = DeckSchedulers(decks: decks, profile: LibrarySettings.readProfile(of: user, root: libraryRoot))

        enum Read: Sendable {
            case word(EntryRow)
            case progress(String, ProgressSummary)
            case other(LibraryLoader.ParseResult)
        }
        // Eight threads a core: a core whose thread waits for the disk has others to run.
        let threads = 8 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        let reads = files.concurrentMap(threads: threads, state: { ReadBuffer() }) {
            buffer, file -> (read: Read, stamp: FileStamp?) in
            let (path, kind) = file
            guard let (bytes, info) = buffer.read(root: rootPath, path: path) else {
                // Unreadable, too large or cut short: the general reader says which.
                var problems: [Diagnostic] = []
                let result = loader.read(libraryRoot, path, &problems).map {
                    loader.parse($0, path: path, kind: kind, decks: decks)
                }
                return (.other(result ?? LibraryLoader.ParseResult(value: nil, problems: problems)), nil)
            }
            let stamp = FileStamp(info)
            switch kind {
            case let .entry(deck, id) where decks[deck]?.kind == .vocabulary:
                if let headline = VocabularyEntry.headline(bytes: bytes) {
                    return (.word(EntryRow(id: id, deck: deck, path: path, headline: headline)), stamp)
                }
            case let .progress(_, entry):
                if let (named, summary) = ProgressSummary.canonical(bytes: bytes, schedulers: schedulers),
                    named == entry
                {
                    return (.progress(entry, summary), stamp)
                }
            default: break
            }
            let result = loader.parse(Data(bytes), path: path, kind: kind, decks: decks)
            if case let .progress(_, file)? = result.value {
                return (.progress(file.entry, ProgressSummary(file, schedulers: schedulers)), stamp)
            }
            return (.other(result), stamp)
        }
        // What the reads give, and the records of the files read, side by side.
        let ((entries, progress, library), records) = inParallel(
            { () -> ([EntryRow], [String: ProgressSummary], LoadedLibrary) in
                var library = listedLibrary
                var entries: [EntryRow] = []
                var progress: [String: ProgressSummary] = [:]
                let progressFiles = files.withUnsafeBufferPointer { files in
                    files.reduce(0) { count, file in if case .progress = file.1 { count + 1 } else { count } }
                }
                entries.reserveCapacity(reads.count - progressFiles)
                progress.reserveCapacity(progressFiles)
                for (read, _) in reads {
                    switch read {
                    case let .word(row): entries.append(row)
                    case let .progress(entry, summary): progress[entry] = summary
                    case let .other(result): LibraryLoader.collect(result, into: &library)
                    }
                }
                let locked = library.lockedLetters(user: user)
                entries += library.entries.map {
                    EntryRow(entry: $0, published: library.isPublished($0), locked: locked.contains($0.id))
                }
                entries = LibraryLoader.sortedInStudyOrder(entries, deckOrder: library.deckOrder) {
                    ($0.deck, $0.sortKey, $0.id)
                }
                return (entries, progress, library)
            },
            {
                // The paths listed and the files read, met in one pass: the files are the
                // loader's pick of the listed paths, in their order, so each is found by equality
                // (the same strings: no comparison of their text). A file read has its stamp and role.
                var read = [(stamp: FileStamp?, role: FileRecord.Role)?](repeating: nil, count: scope.paths.count)
                var next = 0
                for (index, path) in scope.paths.enumerated() {
                    guard next < files.count, files[next].0 == path else { continue }
                    defer { next += 1 }
                    switch files[next].1 {
                    case .entry: read[index] = (reads[next].stamp, .entry)
                    case .progress: read[index] = (reads[next].stamp, .progress)
                    default: read[index] = (reads[next].stamp, .configuration)
                    }
                }
                return LaunchRows.records(
                    root: rootPath, scope: scope, read: read, since: started, gitStamps: gitStamps)
            })
        // Hundreds of thousands of paths and stamps, freed on another thread.
        releaseInBackground(consume reads)
        releaseInBackground(consume gitStamps)
        releaseInBackground(consume files)
        let deckOrder = library.deckOrder
        let settings = Settings(
            user: user, root: library.root.path, decks: deckOrder,
            deckKinds: deckOrder.map { library.decks[$0]?.kind.rawValue ?? "" },
            ignoredWords: Set((library.profiles[user]?.ignoredWords ?? []).map(LibraryIndex.normalize)).sorted(),
            schedulers: schedulers.fingerprint)
        let rows = LaunchRows(settings: settings, entries: entries, progress: progress, files: records)
        return (rows, library)
    }
}
