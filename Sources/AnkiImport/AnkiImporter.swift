public import Foundation
import Git
public import RoteModel
public import RoteStore
import Scheduling

/// Imports an Anki package into a library as one commit: notes become entries, media files
/// are copied beside them, and the review log becomes review events, so each entry's FSRS
/// state is rebuilt by replay and no answer is lost.
///
/// - Standard note types (Basic and the like) become a `vocabulary` deck, cloze note types a
///   `passages` deck; a package with both gets `<name>` and `<name>-cloze`.
/// - A note is one entry. Its cards' reviews all go into the entry's history (a reversed card
///   or a second cloze deletion is studied by Rote as part of the same entry: Rote keeps one
///   memory state per entry and studies a word in both directions, a passage as a whole), so
///   the replayed state counts an answer to any of the note's cards as a review of the entry.
///   The report says how many notes had several cards and how many answers that merged.
/// - Review ids are `anki-<revlog id>`, so importing the same package again — or a later
///   export of the same deck with more reviews — adds only what is new. Entry files that
///   already exist are left as they are, so local edits survive a re-import.
/// - A deck name already used by a deck that did not come from the same Anki deck is refused.
///
/// Every check runs before the first write; the writes and the commit are all or nothing.
public struct AnkiImporter {
    public struct Options: Sendable {
        /// The deck name; default: the Anki deck's name as a slug.
        public var deck: String?
        public var mapping: AnkiFieldMapping
        /// The learner the review history belongs to.
        public var user: String
        /// The most bytes the package may unpack to (see `AnkiPackage.read`).
        public var unpackedLimit: UInt64

        public init(
            deck: String? = nil, mapping: AnkiFieldMapping = AnkiFieldMapping(), user: String,
            unpackedLimit: UInt64 = AnkiPackage.maximumUnpackedSize
        ) {
            self.deck = deck
            self.mapping = mapping
            self.user = user
            self.unpackedLimit = unpackedLimit
        }
    }

    /// What an import did, for the command to print.
    public struct Report: Sendable {
        public struct Deck: Sendable, Equatable {
            public var name: String
            public var kind: DeckKind
            /// False when the deck was there from an earlier import of the same Anki deck.
            public var created: Bool
            public var entriesAdded: Int
            /// Entries already in the library, left untouched.
            public var entriesKept: Int
        }

        public var ankiDeck: String
        public var decks: [Deck] = []
        /// Notes left out, with why.
        public var skipped: [String] = []
        /// Parts of the package left out (a media file that is a link), with why.
        public var warnings: [String] = []
        /// Review events added (not counting ones already imported).
        public var reviewsAdded = 0
        /// Notes with more than one card (a reversed card, several cloze deletions), each
        /// imported as one entry, and the answers to their cards merged into those entries.
        public var multiCardNotes = 0
        public var multiCardReviews = 0
        public var progressFiles = 0
        public var mediaAdded = 0
        public var profileCreated = false
        /// The commit made; nil when there was nothing new.
        public var commit: String?
        /// Every path the import changes, for tests and dry runs.
        public var changes: [String: Data?] = [:]

        /// What was done with notes of several cards, in a sentence; nil when there were none.
        public var multiCardSummary: String? {
            guard multiCardNotes > 0 else { return nil }
            let notes = multiCardNotes == 1 ? "1 note had" : "\(multiCardNotes) notes had"
            return
                "\(notes) several cards (a reversed card, several cloze deletions): each became one entry whose history holds "
                + "all its cards' answers (\(multiCardReviews) answer\(multiCardReviews == 1 ? "" : "s") in all)"
        }
    }

    public let root: URL
    public let now: @Sendable () -> Date

    public init(root: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.root = root
        self.now = now
    }

    /// Reads the package, plans the import against the library, and applies it as one commit
    /// while holding the library lock.
    public func importPackage(at url: URL, options: Options) throws -> Report {
        let package = try AnkiPackage.read(url, limit: options.unpackedLimit)
        let writer = try LibraryTransaction(
            root: root, user: options.user, purpose: "import \(url.lastPathComponent)", now: now)
        defer { withExtendedLifetime(writer) {} }
        let git = writer
        // The deck manifests, the learner's profile, and the entries of the decks the package
        // lands in: never the whole library.
        var report = try plan(package, library: try LibrarySettings(root: root, user: options.user), options: options)
        guard !report.changes.isEmpty else { return report }
        report.commit = try git.apply(
            changes: report.changes,
            message: commitMessage(report, package: package))?.hex
        return report
    }

    /// Works out every file the import writes, without writing anything. Throws when the
    /// package cannot be imported as a whole.
    public func plan(_ package: AnkiPackage, library: LibrarySettings, options: Options) throws -> Report {
        let collection = package.collection
        guard Slug.isValidUser(options.user) else {
            throw AnkiImportError(
                .invalidName,
                "'\(options.user)' is not a valid learner name (lowercase letters, digits, _ . -); use --user NAME")
        }
        guard !collection.notes.isEmpty else {
            throw AnkiImportError(.empty, "\(package.fileName) holds no notes; nothing to import")
        }
        let cardsPerDeck = Dictionary(grouping: collection.cards, by: \.deckID).mapValues(\.count)
        let mainDeck = cardsPerDeck.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? 1
        let (ankiDeckName, deckNameHadControls) = AnkiText.withoutControlCharacters(
            collection.decks[mainDeck] ?? "Anki")
        if let name = options.deck, !Slug.isValidSegment(name) {
            throw AnkiImportError(
                .invalidName,
                "--deck '\(name)' is not a valid deck name; use lowercase letters, digits, _ . - (e.g. \(Slug.make(from: name)))"
            )
        }
        let baseName =
            options.deck ?? AnkiImporter.slug(ankiDeckName.replacingOccurrences(of: "::", with: " "), fallback: "anki")
        var report = Report(ankiDeck: ankiDeckName)
        report.warnings = package.warnings

        // Notes → drafts of entries, by kind.
        var drafts: [DeckKind: [Draft]] = [:]
        for note in collection.notes {
            guard let noteType = collection.noteTypes[note.noteTypeID] else {
                report.skipped.append("note \(note.id): its note type \(note.noteTypeID) is missing from the package")
                continue
            }
            let targets = try options.mapping.targets(for: noteType)
            switch AnkiImporter.draft(note, noteType: noteType, targets: targets) {
            case let .success(draft): drafts[draft.kind, default: []].append(draft)
            case let .failure(problem): report.skipped.append("note \(note.id) (\(noteType.name)): \(problem.reason)")
            }
        }
        let cleaned = drafts.values.flatMap { $0 }.filter(\.hadControlCharacters).map(\.note.id).sorted()
        if !cleaned.isEmpty || deckNameHadControls {
            let notes =
                cleaned.prefix(5).map { "note \($0)" }.joined(separator: ", ")
                + (cleaned.count > 5 ? " and \(cleaned.count - 5) more" : "")
            let places = [
                deckNameHadControls ? "the Anki deck's name" : nil,
                cleaned.isEmpty
                    ? nil : "the fields or tags of \(cleaned.count) note\(cleaned.count == 1 ? "" : "s") (\(notes))",
            ]
            report.warnings.append(
                "removed control characters (ESC, BEL and the like, which a terminal obeys rather than shows) from "
                    + places.compactMap { $0 }.joined(separator: " and ")
                    + "; the rest of the text is imported as it was")
        }
        guard !drafts.isEmpty else {
            throw AnkiImportError(
                .empty,
                "\(package.fileName): none of its \(collection.notes.count) notes could be imported:\n  "
                    + report.skipped.prefix(10).joined(separator: "\n  "))
        }
        let kinds = [DeckKind.vocabulary, .passages].filter { drafts[$0] != nil }
        let deckNames: [DeckKind: String] = Dictionary(
            uniqueKeysWithValues: kinds.map { kind in
                (kind, kinds.count > 1 && kind == .passages ? baseName + "-cloze" : baseName)
            })

        // Deck names must be free, or taken by an earlier import of the same Anki deck.
        var manifests: [DeckKind: (DeckManifest, created: Bool)] = [:]
        for kind in kinds {
            let name = deckNames[kind]!
            if let existing = library.decks[name] {
                guard existing.anki?.deckID == Int(mainDeck), existing.kind == kind else {
                    let origin = existing.anki.map { "Anki deck '\($0.deckName)' (id \($0.deckID))" } ?? "elsewhere"
                    throw AnkiImportError(
                        .deckExists,
                        "deck '\(name)' already exists (\(LibraryPaths.deckManifest(name)), \(existing.kind.rawValue) deck '\(existing.title)', from \(origin)), and this package's deck is Anki deck '\(ankiDeckName)' (id \(mainDeck)); nothing was imported — choose another name with --deck NAME"
                    )
                }
                manifests[kind] = (existing, false)
            } else if FileManager.default.fileExists(atPath: root.appending(path: LibraryPaths.content(name)).path) {
                throw AnkiImportError(
                    .deckExists,
                    "\(LibraryPaths.content(name))/ already exists but has no readable deck.yaml; nothing was imported — choose another name with --deck NAME, or fix or remove that folder"
                )
            } else {
                let title = kinds.count > 1 && kind == .passages ? "\(ankiDeckName) (cloze)" : ankiDeckName
                manifests[kind] = (
                    DeckManifest(
                        kind: kind, title: title, description: "Imported from the Anki package \(package.fileName).",
                        source: "Anki deck '\(ankiDeckName)'", order: .listed,
                        anki: .init(deckID: Int(mainDeck), deckName: ankiDeckName)), true
                )
            }
        }

        var changes: [String: Data?] = [:]
        func propose(_ path: String, _ data: Data) {
            if FileManager.default.contents(atPath: root.appending(path: path).path) != data { changes[path] = data }
        }

        // The learner sees the new decks' versions from the start (ContentVersions).
        let newDecks = Dictionary(
            uniqueKeysWithValues: kinds.compactMap { kind in
                manifests[kind]!.created ? (deckNames[kind]!, manifests[kind]!.0.version) : nil
            })
        let profile = library.user == options.user ? library.profile : nil
        if profile == nil {
            var created = Profile(
                user: options.user, createdAt: Timestamp.wholeSeconds(now()), updatedAt: Timestamp.wholeSeconds(now()))
            for (deck, version) in newDecks { created.setSeenVersion(version, of: deck) }
            propose(LibraryPaths(user: options.user).profile, Data(created.render().utf8))
            report.profileCreated = true
        } else if let stamped = ContentVersions.profileSeeing(newDecks, user: options.user, root: root, now: now()) {
            changes[stamped.path] = stamped.data
        }
        let cardsByNote = Dictionary(grouping: collection.cards, by: \.noteID)
        let reviewsByCard = Dictionary(grouping: collection.reviews, by: \.cardID)
        var mediaHome: [String: String] = [:]
        var passageHistoriesLeftOut = 0

        for kind in kinds {
            let name = deckNames[kind]!
            let (manifest, created) = manifests[kind]!
            if created { propose(LibraryPaths.deckManifest(name), Data(manifest.render().utf8)) }
            var deckReport = Report.Deck(name: name, kind: kind, created: created, entriesAdded: 0, entriesKept: 0)
            let settings = SchedulerSettings.forDeck(manifest, profile: profile, deckName: name)
            // Entries already in the deck: found again by their Anki note id, never by a name
            // (a note added in Anki later may have the same word and come first).
            let present = library.entries(inDeck: name)
            let byNote = Dictionary(present.compactMap { entry in entry.content.ankiNote.map { (Int64($0), entry) } }) {
                first, _ in first
            }
            let presentByID = Dictionary(present.map { ($0.id, $0) }) { first, _ in first }
            var taken: Set<String> = Set(present.map { String($0.id.dropFirst(name.count + 1)) }).union(["deck"])
            // Entries imported before `anki_note` existed were named in note order; `legacyTaken`
            // replays that naming to recognise them.
            var legacyTaken: Set<String> = ["deck"]
            for (position, var draft) in drafts[kind]!.enumerated() {
                let legacySlug = AnkiImporter.unusedSlug(draft.slug, in: &legacyTaken)
                let id: String
                if let entry = byNote[draft.note.id] {
                    id = entry.id
                    deckReport.entriesKept += 1
                } else if FileManager.default.fileExists(
                    atPath: root.appending(path: LibraryPaths.entry("\(name)/\(legacySlug)")).path),
                    presentByID["\(name)/\(legacySlug)"].map({ $0.content.ankiNote == nil }) ?? true
                {
                    id = "\(name)/\(legacySlug)"
                    deckReport.entriesKept += 1
                } else {
                    var slug = AnkiImporter.unusedSlug(draft.slug, in: &taken)
                    while FileManager.default.fileExists(
                        atPath: root.appending(path: LibraryPaths.entry("\(name)/\(slug)")).path)
                    {
                        slug = AnkiImporter.unusedSlug(draft.slug, in: &taken)
                    }
                    id = "\(name)/\(slug)"
                    if case var .passage(passage) = draft.content {
                        passage.order = position + 1
                        draft.content = .passage(passage)
                    }
                    propose(LibraryPaths.entry(id), Data(draft.content.render().utf8))
                    deckReport.entriesAdded += 1
                }
                for file in draft.media where mediaHome[file] == nil { mediaHome[file] = name }

                // The history: every answer of every card of the note.
                let cards = cardsByNote[draft.note.id] ?? []
                // Passage practice is kept only with the learner's consent (seed 004 §6): without
                // it a passage comes in as content, and its Anki history stays out.
                if kind == .passages, profile?.keepsPassagePractice != true {
                    if cards.count > 1 { report.multiCardNotes += 1 }
                    if cards.contains(where: { reviewsByCard[$0.id]?.isEmpty == false }) {
                        passageHistoriesLeftOut += 1
                    }
                    continue
                }
                let answered = cards.flatMap { reviewsByCard[$0.id] ?? [] }.compactMap(AnkiImporter.event)
                // A review dated ahead of this clock would replay to a due date no reader accepts.
                let events = answered.filter { !Timestamp.isTooFarAhead($0.at) }
                if events.count < answered.count {
                    report.warnings.append(
                        "left out \(answered.count - events.count) review\(answered.count - events.count == 1 ? "" : "s") of note \(draft.note.id) dated more than a day ahead of this device's clock"
                    )
                }
                if cards.count > 1 {
                    report.multiCardNotes += 1
                    report.multiCardReviews += events.count
                }
                let progressPath = LibraryPaths(user: options.user).progress(id)
                var progress = ProgressFile(entry: id)
                if let data = FileManager.default.contents(atPath: root.appending(path: progressPath).path) {
                    do {
                        progress = try ReadBeforeRewrite.decode(ProgressFile.self, data, at: progressPath)
                    } catch let refusal as LibraryError {
                        throw AnkiImportError(
                            .unreadableLibraryFile,
                            "the imported history cannot be merged into \(progressPath): \(refusal.message)")
                    }
                } else if !cards.isEmpty, cards.allSatisfy({ $0.queue == -1 }) {
                    progress.status = .suspended
                    progress.statusAt = Date(timeIntervalSince1970: TimeInterval(cards.map(\.modified).max() ?? 0))
                }
                let known = Set(progress.reviews.map(\.id))
                let added = events.filter { !known.contains($0.id) }
                if added.isEmpty, progress.status == .active, progress.reviews.isEmpty { continue }
                progress.reviews = (progress.reviews + added).sorted(by: ReviewEvent.replayOrder)
                progress.state = Scheduler.replay(progress.reviews, entryID: id, settings: settings)
                report.reviewsAdded += added.count
                let before = changes.count
                propose(progressPath, Data(progress.render().utf8))
                if changes.count > before { report.progressFiles += 1 }
            }
            report.decks.append(deckReport)
        }
        if passageHistoriesLeftOut > 0 {
            report.warnings.append(
                "left out the Anki history of \(passageHistoriesLeftOut) passage\(passageHistoriesLeftOut == 1 ? "" : "s"): passage practice is religious data, which Rote keeps only with your consent; "
                    + "run `rote consent grant`, then import again to bring it in")
        }

        // Media: beside the entries that use them; files no note names go with the first deck.
        for (file, data) in package.media.sorted(by: { $0.key < $1.key }) {
            guard !file.lowercased().hasSuffix(".yaml"), !file.lowercased().hasSuffix(".yml") else {
                throw AnkiImportError(
                    .unsafePath,
                    "\(package.fileName) holds a media file named '\(file)', which Rote would read as a library file; rename it in Anki's media folder and export again"
                )
            }
            let deck = mediaHome[file] ?? deckNames[kinds[0]]!
            let path = LibraryPaths.content(deck, file)
            if FileManager.default.fileExists(atPath: root.appending(path: path).path) { continue }
            changes[path] = data
            report.mediaAdded += 1
        }
        report.changes = changes
        return report
    }

}

extension EntryContent {
    /// The Anki note an imported vocabulary entry or passage came from.
    var ankiNote: Int? {
        switch self {
        case let .vocabulary(entry): entry.ankiNote
        case let .passage(passage): passage.ankiNote
        case .letter, .question: nil
        }
    }
}
