import Dispatch
import Foundation
import Git
import Parallelism
package import RoteModel
import RoteStore
import StudyData

/// Building, patching and saving the index.
extension LibraryLaunch {
    // MARK: Building

    static func readSettings(root: URL, user: String, decks names: [String]) -> ([String: DeckManifest], Profile?) {
        (LibrarySettings.readDecks(names, root: root), LibrarySettings.readProfile(of: user, root: root))
    }

    /// The index built from the files (`LaunchRows.read`) and saved.
    static func rebuild(root: URL, user: String, reason: String) throws -> LibraryLaunch {
        let (rows, library) = try LaunchRows.read(root: root, user: user)
        // The bytes are written while they are checked: an index that failed its checks would
        // fail them again when read, and be rebuilt.
        let file = LaunchIndex.encode(rows)
        releaseInBackground(consume rows)
        let (index, _) = try inParallel(
            { try LaunchIndex(storage: file) },
            {
                save(file.reader.bytes(0, file.reader.count), root: root, user: user)
            })
        return LibraryLaunch(
            root: root, user: user, index: index, decks: library.decks, profile: library.profiles[user],
            source: .rebuilt(reason: reason))
    }

    /// The index patched with the files that changed, and saved.
    func refreshed(with check: FileCheck) throws -> LibraryLaunch {
        let schedulers = DeckSchedulers(decks: decks, profile: profile)
        guard schedulers.fingerprint == index.settings.schedulers else {
            return try LibraryLaunch.rebuild(root: root, user: user, reason: "the decks' scheduler settings changed")
        }
        let settings: LaunchRows.Settings
        switch self.settings(after: check) {
        case let .success(changed): settings = changed
        case let .failure(reason): return try LibraryLaunch.rebuild(root: root, user: user, reason: reason.description)
        }
        // Most changes go into the delta: progress files, stamps, entries — an edit the index
        // does not see (a translation, an example) only moves the file's stamp; a new rank or
        // new forms mask the old row and add the new one — and settings files whose change
        // the index does not see (a deck's version, a profile's limits). New settings (ignored
        // words, deck order), or a delta grown too big, fold into a new base.
        if settings == index.settings, let overlay = overlaid(with: check, schedulers: schedulers),
            overlay.count <= Overlay.limit(entries: index.baseEntryCount)
        {
            let index = self.index.with(overlay: overlay)
            if let url = LibraryLaunch.cacheURL(root: root, user: user) {
                let bytes = overlay.encode(base: index)
                bytes.withUnsafeBytes { LibraryLaunch.save($0, to: LibraryLaunch.deltaURL(url)) }
            }
            return LibraryLaunch(
                root: root, user: user, index: index, decks: decks, profile: profile,
                source: .refreshed(files: check.changes.count))
        }
        var rows = index.rows()
        let reordered = rows.settings.decks != settings.decks
        rows.settings = settings
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        var entryPositions = Dictionary(
            rows.entries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var removedEntries = Set<Int>()
        var addedEntries: [EntryRow] = []
        var filePositions = Dictionary(
            rows.files.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        var records: [FileRecord?] = rows.files
        for change in check.changes {
            // Settings files were read by `settings(after:)`; here only their records change.
            if change.role == .entry || change.role == .progress, change.stamp == nil || change.bytes != nil {
                guard case let .success(kind) = LibraryFile.classify(change.path) else {
                    return try LibraryLaunch.rebuild(root: root, user: user, reason: "\(change.path) changed")
                }
                let value = change.bytes.flatMap { loader.parse($0, path: change.path, kind: kind, decks: decks).value }
                switch kind {
                case let .entry(deck, id):
                    // Skills questions and letters depend on other files (skills, domains,
                    // tracing attempts); only a full load settles them.
                    guard let deckKind = decks[deck]?.kind, deckKind == .vocabulary || deckKind == .passages else {
                        return try LibraryLaunch.rebuild(root: root, user: user, reason: "\(change.path) changed")
                    }
                    if let position = entryPositions.removeValue(forKey: id) { removedEntries.insert(position) }
                    addedEntries.removeAll { $0.id == id }
                    if case let .entry(entry)? = value {
                        addedEntries.append(EntryRow(entry: entry, published: true, locked: false))
                    }
                case let .progress(_, id):
                    if case let .progress(_, file)? = value {
                        rows.progress[id] = ProgressSummary(file, schedulers: schedulers)
                    } else {
                        rows.progress[id] = nil
                    }
                default:
                    return try LibraryLaunch.rebuild(root: root, user: user, reason: "\(change.path) changed")
                }
            }
            let record = change.stamp.map {
                FileRecord(path: change.path, role: change.role, stamp: $0, blob: change.blob)
            }
            if let position = filePositions[change.path] {
                records[position] = record
            } else if let record {
                filePositions[change.path] = records.count
                records.append(record)
            }
        }
        if !removedEntries.isEmpty || !addedEntries.isEmpty || reordered {
            let kept =
                rows.entries.enumerated().filter { !removedEntries.contains($0.offset) }.map(\.element) + addedEntries
            rows.entries = LibraryLoader.sortedInStudyOrder(kept, deckOrder: rows.settings.decks) {
                ($0.deck, $0.sortKey, $0.id)
            }
        }
        // Records stay in path order; only added files need sorting in.
        rows.files =
            records.count == rows.files.count
            ? records.compactMap { $0 } : records.compactMap { $0 }.sorted { $0.path < $1.path }
        let index = try LaunchIndex(rows: rows)
        LibraryLaunch.save(index, root: root, user: user)
        return LibraryLaunch(
            root: root, user: user, index: index, decks: decks, profile: profile,
            source: .refreshed(files: check.changes.count))
    }

    /// What the index is built with after the settings files that changed — the learner's
    /// profile (ignored words), `rote.yaml` (deck order), a vocabulary or passages deck's
    /// `deck.yaml` (nothing the index keeps, unless its kind changes) — or why only a full
    /// load settles a change: a file that does not read or is gone, a deck added or of
    /// another kind, letters or skills configuration (unlock rules, published skills).
    func settings(after check: FileCheck) -> Result<LaunchRows.Settings, RebuildReason> {
        var settings = index.settings
        for change in check.changes where change.role == .configuration && (change.bytes != nil || change.stamp == nil)
        {
            let reason = RebuildReason(description: "\(change.path) changed")
            guard let bytes = change.bytes else { return .failure(reason) }
            if change.path == LibraryPaths(user: user).profile {
                guard let profile = Profile.decode(bytes, path: change.path).0, profile.user == user else {
                    return .failure(reason)
                }
                settings.ignoredWords = Set(profile.ignoredWords.map(LibraryIndex.normalize)).sorted()
            } else if change.path == LibraryLocation.manifestName {
                guard let manifest = LibraryManifest.decode(bytes, path: change.path).0 else { return .failure(reason) }
                // As `LoadedLibrary.deckOrder`: listed decks first, then the rest by name.
                let kinds = Dictionary(zip(settings.decks, settings.deckKinds), uniquingKeysWith: { first, _ in first })
                let listed = manifest.decks.filter { kinds[$0] != nil }.reduce(into: [String]()) {
                    if !$0.contains($1) { $0.append($1) }
                }
                settings.decks = listed + kinds.keys.filter { !listed.contains($0) }.sorted()
                settings.deckKinds = settings.decks.map { kinds[$0]! }
            } else if case let .success(.deckManifest(deck)) = LibraryFile.classify(change.path),
                let number = settings.decks.firstIndex(of: deck)
            {
                guard let manifest = DeckManifest.decode(bytes, path: change.path).0,
                    manifest.kind.rawValue == settings.deckKinds[number],
                    manifest.kind == .vocabulary || manifest.kind == .passages
                else { return .failure(reason) }
            } else {
                return .failure(reason)
            }
        }
        return .success(settings)
    }

    /// Why the index must be built again from the files: a file changed, there is none yet,
    /// or its bytes are not a usable index (`LaunchIndex.Invalid`).
    package struct RebuildReason: RoteError {
        package enum Code: String, RoteErrorCode {
            package typealias Failure = RebuildReason
            case rebuildNeeded
        }
        package var code: Code { .rebuildNeeded }
        /// What changed, or what is missing, so that the index is built again from the files.
        package let message: String

        init(description: String) { message = description }
    }

    /// The id of an entry file whose row the overlay can replace: vocabulary and passages
    /// (skills questions and letters depend on other files: only a full load settles them),
    /// in a deck the index knows.
    private func patchableEntry(_ path: String) -> (deck: String, id: String)? {
        guard case let .success(.entry(deck, id)) = LibraryFile.classify(path), index.settings.decks.contains(deck),
            let kind = decks[deck]?.kind, kind == .vocabulary || kind == .passages
        else { return nil }
        return (deck, id)
    }

    /// The row an entry file's bytes give, as a full load would build it; nil when they do
    /// not read as an entry.
    private func entryRow(path: String, bytes: Data) -> EntryRow? {
        guard case let .success(kind) = LibraryFile.classify(path),
            case let .entry(entry)? = LibraryLoader(users: .only(user), includeSessions: false).parse(
                bytes, path: path, kind: kind, decks: decks
            ).value
        else { return nil }
        return EntryRow(entry: entry, published: true, locked: false)
    }

    /// The overlay with these changes to progress files, entries and stamps; nil when a
    /// change needs a new base.
    func overlaid(with check: FileCheck, schedulers: DeckSchedulers) -> Overlay? {
        var overlay = index.overlay
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        var entryIDs: [String: String] = [:]
        var progressIDs: [String: String] = [:]
        // Each changed entry file read once: most edits (a translation, an example) leave
        // its row as the index has it, and only its stamp moves.
        var rows: [String: EntryRow] = [:]
        for change in check.changes where change.bytes != nil || change.stamp == nil {
            switch change.role {
            case .configuration:
                continue  // read by `settings(after:)`; only its record changes here
            case .entry:
                guard let (_, id) = patchableEntry(change.path) else { return nil }
                entryIDs[change.path] = id
                if let bytes = change.bytes { rows[change.path] = entryRow(path: change.path, bytes: bytes) }
            case .progress:
                guard case let .success(.progress(_, id)) = LibraryFile.classify(change.path) else { return nil }
                progressIDs[change.path] = id
            case .folder:
                continue
            }
        }
        // One pass over the base's entries serves both the live references and the rows an
        // undone edit may come back to.
        let ids = Set(entryIDs.values).union(progressIDs.values)
        let baseNumbers = index.baseEntryNumbers(of: ids)
        let references = index.entryReferences(of: ids, baseNumbers: baseNumbers)
        for (path, id) in entryIDs {
            if let reference = references[id], let row = rows[path], row == index.entryRow(reference: reference) {
                entryIDs[path] = nil
            }
        }
        // Entries first: a new entry's progress file may come in the same change. A changed
        // entry keeps its progress; a removed one's goes with its id to the orphans.
        let newIDs = Set(
            entryIDs.values.filter { id in
                references[id] == nil && overlay.addedEntries[id] == nil && overlay.orphanProgress[id] == nil
            })
        let baseProgress = index.baseProgress(of: newIDs)
        for change in check.changes {
            guard let id = entryIDs[change.path] else { continue }
            var progress: ProgressSummary??
            if let existing = overlay.addedEntries.removeValue(forKey: id) {
                progress = .some(existing.progress)
            } else if let reference = references[id], reference < index.baseEntryCount,
                !overlay.removedEntries.contains(reference)
            {
                overlay.removedEntries.insert(reference)
                overlay.progress[reference] = nil
                progress = .some(index.progress(reference: reference))
            } else if let orphan = overlay.orphanProgress.removeValue(forKey: id) {
                progress = .some(orphan)
            }
            let row = rows[change.path]
            if let row, let number = baseNumbers[id], row == index.entryRow(reference: number) {
                // Back to the row the base has (an edit undone): the base entry again.
                overlay.removedEntries.remove(number)
                let known = progress ?? baseProgress[id]
                if known != index.progressRow(reference: number).map(index.summary(row:)) {
                    overlay.progress[number] = .some(known)
                }
            } else if let row {
                overlay.addedEntries[id] = Overlay.AddedEntry(row: row, progress: progress ?? baseProgress[id])
            } else if let progress {
                overlay.orphanProgress[id] = .some(progress)
            }
        }
        for change in check.changes {
            if let id = progressIDs[change.path] {
                var summary: ProgressSummary?
                if let bytes = change.bytes,
                    case let .progress(_, file)? = loader.parse(
                        bytes, path: change.path, kind: .progress(user: user, entry: id), decks: decks
                    ).value
                {
                    summary = ProgressSummary(file, schedulers: schedulers)
                }
                if overlay.addedEntries[id] != nil {
                    overlay.addedEntries[id]?.progress = summary
                } else if let reference = references[id], reference < index.baseEntryCount,
                    !overlay.removedEntries.contains(reference)
                {
                    overlay.progress[reference] = .some(summary)
                } else {
                    overlay.orphanProgress[id] = .some(summary)
                }
            }
            let record = change.stamp.map {
                FileRecord(path: change.path, role: change.role, stamp: $0, blob: change.blob)
            }
            if let number = change.baseRecord {
                overlay.files[number] = .some(record)
            } else {
                overlay.addedFiles.removeAll { $0.path == change.path }
                if let record { overlay.addedFiles.append(record) }
            }
        }
        overlay.settle(base: index)
        return overlay
    }

    /// Writes a new base index beside git's files and drops the delta that applied to the
    /// old one.
    static func save(_ index: LaunchIndex, root: URL, user: String) {
        save(index.bytes, root: root, user: user)
    }

    static func save(_ bytes: UnsafeRawBufferPointer, root: URL, user: String) {
        guard let url = cacheURL(root: root, user: user) else { return }
        save(bytes, to: url)
        unlink(deltaURL(url).path)
    }

    /// Temp file and rename, without fsync: a cache lost in a crash is rebuilt, and a torn
    /// one fails its checksum. A cache that cannot be written is only slower next time.
    static func save(_ bytes: UnsafeRawBufferPointer, to url: URL) {
        try? AtomicFile.write(bytes, to: url, durable: false)
    }
}
