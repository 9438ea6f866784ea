import Foundation
package import Git
import Parallelism
package import RoteModel
package import RoteStore
package import StudyData

/// One entry as the launch index keeps it: enough to plan, order and look words up, not its
/// content (a card's file is read when the card is shown).
package struct EntryRow: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        case vocabulary, passage, letter, question
    }

    package var id: String
    package var deck: String
    package var path: String
    package var kind: Kind
    package var rank: Int?
    package var sortKey: Int
    package var published: Bool
    package var locked: Bool
    /// The lemma, normalised, for the learner's ignored words; nil for other kinds.
    package var headword: String?
    /// Every normalised form a reader may meet, the lemma first, each once.
    package var forms: [String]
    /// The entry's line in a list (`Entry.gloss`).
    package var gloss: String
    /// A vocabulary entry's word family (`root:`), trimmed and lower-cased; nil when none.
    package var root: String?
    /// A vocabulary entry's topics: its examples' `context`s, each once.
    package var topics: [String]

    /// The topics as the index stores them: one string, joined by the ASCII unit separator
    /// (which a topic name has no use for).
    var joinedTopics: String { topics.joined(separator: "\u{1F}") }
    static func topics(joined: String) -> [String] { joined.split(separator: "\u{1F}").map(String.init) }

    package init(entry: Entry, published: Bool, locked: Bool) {
        let kind: Kind
        switch entry.content {
        case let .vocabulary(word):
            self.init(id: entry.id, deck: entry.deck, path: entry.path, headline: VocabularyEntry.Headline(word))
            self.published = published
            self.locked = locked
            return
        case .passage: kind = .passage
        case .letter: kind = .letter
        case .question: kind = .question
        }
        self.init(
            id: entry.id, deck: entry.deck, path: entry.path, kind: kind, rank: nil, sortKey: entry.sortKey,
            published: published, locked: locked,
            headword: nil, forms: [], gloss: entry.gloss)
    }

    /// A vocabulary entry's row from its headline (vocabulary is always published, never
    /// locked).
    init(id: String, deck: String, path: String, headline: VocabularyEntry.Headline) {
        // A word has a handful of forms: a list searched in place beats a set.
        var forms: [String] = []
        forms.reserveCapacity(headline.forms.count + 1)
        for form in [headline.word] + headline.forms {
            let key = LibraryIndex.normalize(form)
            if !key.isEmpty, !forms.contains(key) { forms.append(key) }
        }
        self.init(
            id: id, deck: deck, path: path, kind: .vocabulary, rank: headline.rank, sortKey: headline.rank ?? Int.max,
            published: true, locked: false,
            headword: LibraryIndex.normalize(headline.word), forms: forms, gloss: headline.gloss,
            root: headline.root.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap {
                $0.isEmpty ? nil : $0
            },
            topics: headline.topics)
    }

    init(
        id: String, deck: String, path: String, kind: Kind, rank: Int?, sortKey: Int, published: Bool, locked: Bool,
        headword: String?, forms: [String],
        gloss: String, root: String? = nil, topics: [String] = []
    ) {
        self.id = id
        self.deck = deck
        self.path = path
        self.kind = kind
        self.rank = rank
        self.sortKey = sortKey
        self.published = published
        self.locked = locked
        self.headword = headword
        self.forms = forms
        self.gloss = gloss
        self.root = root
        self.topics = topics
    }
}

package struct FileRecord: Sendable, Equatable {
    /// What a change to the file means for the index.
    package enum Role: UInt8, Sendable {
        /// Manifests, the profile, skills and letter files: a change rebuilds the index.
        case configuration
        /// An entry file: re-read just it.
        case entry
        /// The learner's progress file: re-read just it.
        case progress
        /// A folder: when its stamp changes a file was added or removed in it.
        case folder
    }

    package var path: String
    package var role: Role
    package var stamp: FileStamp
    /// The git blob the file held, when known; a file whose stamp changed but whose bytes
    /// still hash to this blob is not read again.
    package var blob: ObjectID?

    package init(path: String, role: Role, stamp: FileStamp, blob: ObjectID?) {
        self.path = path
        self.role = role
        self.stamp = stamp
        self.blob = blob
    }

    static func role(of path: String) -> Role {
        switch LibraryFile.classify(path) {
        case .success(.entry): return .entry
        case .success(.progress): return .progress
        default: return .configuration
        }
    }
}

/// Everything the launch index is made of, as Swift values: what a cold launch builds from
/// the parsed library and what a refresh patches with the files that changed.
package struct LaunchRows: Sendable {
    package struct Settings: Sendable, Equatable, Codable {
        package var user: String
        package var root: String
        /// Deck names in study order.
        package var decks: [String]
        /// Each deck's kind (`DeckKind` raw value), as `decks` orders them: a deck whose kind
        /// changes reads its entries in another format, so only a full load settles it.
        package var deckKinds: [String]
        /// The learner's ignored words, normalised.
        package var ignoredWords: [String]
        /// The decks' schedulers (`DeckSchedulers.fingerprint`) the progress digests were
        /// replayed with: other settings make every digest stale, so only a full load
        /// settles them.
        package var schedulers: String
    }

    package var settings: Settings
    /// In study order.
    package var entries: [EntryRow]
    package var progress: [String: ProgressSummary]
    /// Sorted by path.
    package var files: [FileRecord]

    /// A record for each path in scope (folders end in `/`), on every core. Its stamp is the
    /// one `scope` took before anything was read, else the one the file got as it was read;
    /// an entry or progress file in scope that was not read appeared after the loader listed
    /// its folder, so it is recorded as unknown and read next time; anything else (a file
    /// the loader does not read) is stat'ed now, and left out if gone. A stamp too recent to
    /// trust (racy) is recorded as unknown. The blob id comes from git's index where git's
    /// stat data matches the stamp.
    static func records(
        root: String, scope: (paths: [String], stamps: [String: FileStamp]),
        read: [(stamp: FileStamp?, role: FileRecord.Role)?], since started: Int64,
        gitStamps: IndexStamps
    ) -> [FileRecord] {
        let paths = scope.paths
        return Array(paths.indices).concurrentMap { index -> FileRecord? in
            let path = paths[index]
            var stamp: FileStamp
            if let early = scope.stamps[path] {
                stamp = early
            } else if let known = read[index]?.stamp {
                stamp = known
            } else if read[index] == nil, FileRecord.role(of: path) != .configuration {
                stamp = .unknown
            } else {
                var info = stat()
                guard stat(root + "/" + path, &info) == 0 else { return nil }
                stamp = FileStamp(info)
            }
            stamp = FileCheck.settled(stamp, since: started)
            if path.hasSuffix("/") { return FileRecord(path: path, role: .folder, stamp: stamp, blob: nil) }
            var blob: ObjectID?
            if let known = gitStamps.stamp(forPath: path), UInt64(known.size) == stamp.size,
                Int64(known.modifiedSeconds) == stamp.modified / 1_000_000_000,
                Int64(known.modifiedNanoseconds) == stamp.modified % 1_000_000_000,
                UInt64(known.inode) == stamp.inode & 0xFFFF_FFFF
            {
                blob = known.id
            }
            return FileRecord(
                path: path, role: read[index]?.role ?? FileRecord.role(of: path), stamp: stamp, blob: blob)
        }.compactMap { $0 }
    }

    /// The status the learner's files give an entry, as `LibraryIndex.status(of:)` does.
    func status(of entry: EntryRow, ignored: Set<String>) -> LibraryIndex.Status {
        LaunchRows.status(headword: entry.headword, progress: progress[entry.id], ignored: ignored)
    }

    /// The status of an entry with this headword and progress.
    static func status(headword: String?, progress: ProgressSummary?, ignored: Set<String>) -> LibraryIndex.Status {
        if let headword, ignored.contains(headword) { return .ignored }
        return progress?.indexStatus ?? .new
    }
}
