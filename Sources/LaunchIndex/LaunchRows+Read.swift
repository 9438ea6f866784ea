import Foundation
import LibGit
import RoteModel
import RoteStore
import Study

extension LaunchRows {
    /// Rows for `user` read straight from the library's files — what a cold launch builds —
    /// with the parsed library of what else it read (deck manifests, the profile, and every
    /// entry that is not a word). The same rows as a full load gives, at less cost:
    /// - a vocabulary entry is read only as far as its headline (`VocabularyEntry.headline`),
    ///   unless it is in shapes only Yams reads, when it is decoded in full;
    /// - a progress file becomes its summary as soon as it is read;
    /// - sessions, other learners' files and cross-file checks are left out.
    /// The files are stamped before they are read, so one changed meanwhile is read again
    /// next time, and their blob ids come from git's index where its stat data matches.
    static func read(root: URL, user: String) throws -> (rows: LaunchRows, library: LoadedLibrary) {
        let started = FileCheck.now()
        var snapshot = FileCheck.snapshot(root: root.path, user: user)
        for (path, stamp) in snapshot where FileCheck.isRacy(stamp, since: started) { snapshot[path] = .unknown }
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        var (library, files) = try loader.list(root)
        let decks = library.decks, libraryRoot = library.root

        enum Read: Sendable {
            case word(EntryRow)
            case progress(String, ProgressSummary)
            case other(LibraryLoader.ParseResult)
        }
        let reads = files.concurrentMap { path, kind -> Read in
            var problems: [Diagnostic] = []
            guard let data = loader.read(libraryRoot, path, &problems) else { return .other(LibraryLoader.ParseResult(value: nil, problems: problems)) }
            if case let .entry(deck, id) = kind, decks[deck]?.kind == .vocabulary, let headline = VocabularyEntry.headline(data) {
                return .word(EntryRow(id: id, deck: deck, path: path, headline: headline))
            }
            let result = loader.parse(data, path: path, kind: kind, decks: decks)
            if case let .progress(_, file)? = result.value { return .progress(file.entry, ProgressSummary(file)) }
            return .other(result)
        }
        var entries: [EntryRow] = []
        var progress: [String: ProgressSummary] = [:]
        for read in reads {
            switch read {
            case let .word(row): entries.append(row)
            case let .progress(entry, summary): progress[entry] = summary
            case let .other(result): LibraryLoader.collect(result, into: &library)
            }
        }
        let locked = SessionPlanner.lockedLetters(library: library, user: user)
        entries += library.entries.map { EntryRow(entry: $0, published: SessionPlanner.isPublished($0, library: library), locked: locked.contains($0.id)) }
        let deckOrder = library.deckOrder
        entries = LibraryLoader.sortedInStudyOrder(entries, deckOrder: deckOrder) { ($0.deck, $0.sortKey, $0.id) }

        let settings = Settings(
            user: user, root: library.root.path, decks: deckOrder, deckKinds: deckOrder.map { library.decks[$0]?.kind.rawValue ?? "" },
            ignoredWords: Set((library.profiles[user]?.ignoredWords ?? []).map(LibraryIndex.normalize)).sorted())
        let gitStamps = (try? Repository.open(at: library.root).index().stamps()) ?? [:]
        var roles: [String: FileRecord.Role] = [:]
        roles.reserveCapacity(files.count)
        for (path, kind) in files {
            switch kind {
            case .entry: roles[path] = .entry
            case .progress: roles[path] = .progress
            default: roles[path] = .configuration
            }
        }
        let records = records(snapshot: snapshot, gitStamps: gitStamps, roles: roles)
        let rows = LaunchRows(settings: settings, entries: entries, progress: progress, files: records)
        return (rows, library)
    }
}
