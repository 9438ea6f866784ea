import Foundation

/// `rote.yaml` at the library root: what makes a folder a Rote library.
public struct LibraryManifest: YAMLCodable {
    /// Content people write and Rote shows: control characters in it are warned of.
    public static var warnsOfControlCharacters: Bool { true }

    /// The file-format version this library is written in.
    public static let currentFormat = 1

    public var format: Int
    public var title: String?
    /// The learner whose progress commands use when `--user` and `ROTE_USER` are not given.
    public var defaultUser: String?
    /// Decks in the order study offers them; decks not listed follow alphabetically.
    public var decks: [String]
    /// `privacy: anonymous`: Rote's commits carry no person's name or e-mail (see
    /// docs/privacy.md). Missing means `standard`.
    public var privacy: Privacy

    /// How much of a person Rote's own commits name.
    public enum Privacy: String, Sendable, Hashable, CaseIterable {
        /// Commits are authored with the git identity (user.name, user.email) when set.
        case standard
        /// Commits are authored `Rote <learner-id@users.rote.invalid>`, whatever git's identity.
        case anonymous
    }

    public init(
        format: Int = LibraryManifest.currentFormat, title: String? = nil, defaultUser: String? = nil,
        decks: [String] = [], privacy: Privacy = .standard
    ) {
        self.format = format
        self.title = title
        self.defaultUser = defaultUser
        self.decks = decks
        self.privacy = privacy
    }

    public init?(reading reader: inout MappingReader) {
        guard let format = reader.int("format", required: true) else { return nil }
        if format > LibraryManifest.currentFormat {
            reader.error(
                "format",
                "library format \(format) is newer than this rote understands (\(LibraryManifest.currentFormat)); update rote"
            )
            return nil
        }
        self.format = format
        title = reader.string("title")
        defaultUser = reader.string("default_user")
        if let user = defaultUser, !Slug.isValidUser(user) {
            reader.error(
                "default_user", "default_user '\(user)' is not a valid user name (lowercase letters, digits, _ . -)")
            defaultUser = nil
        }
        decks = reader.strings("decks") ?? []
        privacy = .standard
        if let value = reader.string("privacy") {
            if let known = Privacy(rawValue: value) {
                privacy = known
            } else {
                reader.error(
                    "privacy",
                    "privacy '\(value)' is not one of: \(Privacy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("format", .int(format))
        map.add("title", title)
        map.add("default_user", defaultUser)
        map.add("decks", strings: decks)
        if privacy != .standard { map.add("privacy", privacy.rawValue) }
        return map.build()
    }
}

/// The four kinds of deck Rote studies.
public enum DeckKind: String, Sendable, Hashable, CaseIterable {
    case vocabulary, passages, letters, skills
}

/// Which algorithm schedules a deck: `scheduler: fsrs` (the default) or `scheduler: sm2` in
/// deck.yaml.
public enum SchedulerKind: String, Sendable, Hashable, CaseIterable {
    case fsrs, sm2

    /// Parses the name as written in deck.yaml, ignoring case.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }
}

/// `corpus/<deck>/deck.yaml`: what a deck is, where it came from, how it is studied.
public struct DeckManifest: YAMLCodable {
    /// Content people write and Rote shows: control characters in it are warned of.
    public static var warnsOfControlCharacters: Bool { true }

    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Vocabulary by `rank`, batch by batch.
        case rank
        /// By each entry's `order` field (then id).
        case listed
    }

    /// Letters decks: what unlocks the next letter.
    public struct UnlockRule: Sendable, Hashable {
        public var mode: String
        public var minScore: Int
        public var passes: Int

        public init(mode: String = "memory", minScore: Int = 80, passes: Int = 2) {
            self.mode = mode
            self.minScore = minScore
            self.passes = passes
        }
    }

    /// Where a publisher deck came from (`rote deck add`), and the publisher's commit imported
    /// last: the base of the next `rote deck update`'s three-way merge.
    public struct Upstream: Sendable, Hashable {
        /// The publisher's git repository, as given to `rote deck add`.
        public var url: String
        /// The deck's folder inside that repository; nil for the repository's root.
        public var path: String?
        /// The tag or branch followed; nil for the publisher's default branch.
        public var ref: String?
        /// The publisher commit imported last (40 hex digits).
        public var commit: String
        /// The publisher's deck version at that commit.
        public var version: String

        public init(url: String, path: String? = nil, ref: String? = nil, commit: String, version: String) {
            self.url = url
            self.path = path
            self.ref = ref
            self.commit = commit
            self.version = version
        }

        public var yamlValue: YAMLValue {
            var map = YAMLMapBuilder()
            map.add("url", .string(url))
            map.add("path", path)
            map.add("ref", ref)
            map.add("commit", .string(commit))
            map.add("version", .string(version))
            return map.build()
        }
    }

    /// The Anki deck a deck was imported from (`rote import FILE.apkg`): importing the same
    /// Anki deck again adds what is new instead of refusing the name.
    public struct AnkiOrigin: Sendable, Hashable {
        public var deckID: Int
        public var deckName: String

        public init(deckID: Int, deckName: String) {
            self.deckID = deckID
            self.deckName = deckName
        }
    }

    public var kind: DeckKind
    public var title: String
    public var description: String?
    /// `source` is the language studied, `target` the learner's language (for translations).
    public var sourceLanguage: String?
    public var targetLanguage: String?
    /// Semantic version of the deck's content, e.g. `1.2.0`.
    public var version: String
    public var license: String?
    public var source: String?
    public var scheduler: SchedulerKind
    /// The author's retention, maximum interval, steps and leech rule for this deck; a
    /// learner's profile may set its own (`SchedulingChoices`).
    public var scheduling = SchedulingChoices()
    /// `learning_steps` / `relearning_steps` in minutes in deck.yaml, kept in seconds; nil for
    /// the default.
    public var learningSteps: [Double]? {
        get { scheduling.learningSteps }
        set { scheduling.learningSteps = newValue }
    }
    public var relearningSteps: [Double]? {
        get { scheduling.relearningSteps }
        set { scheduling.relearningSteps = newValue }
    }
    public var order: Order
    public var unlock: UnlockRule?
    public var anki: AnkiOrigin?
    public var upstream: Upstream?

    public init(
        kind: DeckKind, title: String, description: String? = nil, sourceLanguage: String? = nil,
        targetLanguage: String? = nil, version: String = "1.0.0", license: String? = nil, source: String? = nil,
        scheduler: SchedulerKind = .fsrs, order: Order = .listed, unlock: UnlockRule? = nil,
        anki: AnkiOrigin? = nil, upstream: Upstream? = nil
    ) {
        self.anki = anki
        self.upstream = upstream
        self.kind = kind
        self.title = title
        self.description = description
        self.sourceLanguage = sourceLanguage
        self.targetLanguage = targetLanguage
        self.version = version
        self.license = license
        self.source = source
        self.scheduler = scheduler
        self.order = order
        self.unlock = unlock
    }

    public init?(reading reader: inout MappingReader) {
        let kindText = reader.string("kind", required: true)
        let title = reader.string("title", required: true)
        let version = reader.string("version", required: true)
        description = reader.string("description")
        if var languages = reader.mapping("languages") {
            sourceLanguage = languages.string("source")
            targetLanguage = languages.string("target")
            reader.absorb(languages)
        }
        license = reader.string("license")
        source = reader.string("source")
        let schedulerText = reader.string("scheduler") ?? SchedulerKind.fsrs.rawValue
        scheduling = SchedulingChoices(reading: &reader)
        let orderText = reader.string("order") ?? Order.listed.rawValue
        if var rule = reader.mapping("unlock") {
            unlock = UnlockRule(
                mode: rule.string("mode") ?? "memory", minScore: rule.int("min_score") ?? 80,
                passes: rule.int("passes") ?? 2)
            reader.absorb(rule)
        }
        if var origin = reader.mapping("anki") {
            if let id = origin.int("deck_id", required: true), let name = origin.string("deck", required: true) {
                anki = AnkiOrigin(deckID: id, deckName: name)
            }
            reader.absorb(origin)
        }
        if var source = reader.mapping("upstream") {
            let url = source.string("url", required: true)
            let path = source.string("path")
            let ref = source.string("ref")
            let commit = source.string("commit", required: true)
            let version = source.string("version", required: true)
            if let commit, commit.count != 40 || !commit.allSatisfy(\.isHexDigit) {
                source.error("commit", "upstream.commit '\(commit)' is not a 40-digit git commit id")
            } else if let url, let commit, let version {
                upstream = Upstream(url: url, path: path, ref: ref, commit: commit, version: version)
            }
            reader.absorb(source)
        }
        guard let kindText, let title, let version else { return nil }
        guard let kind = DeckKind(rawValue: kindText) else {
            reader.error(
                "kind",
                "unknown deck kind '\(kindText)'; use one of \(DeckKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
            return nil
        }
        guard SemanticVersion(version) != nil else {
            reader.error("version", "version '\(version)' is not a semantic version like 1.2.0")
            return nil
        }
        self.kind = kind
        self.title = title
        self.version = version
        if let scheduler = SchedulerKind(rawValue: schedulerText) {
            self.scheduler = scheduler
        } else {
            reader.error("scheduler", "unknown scheduler '\(schedulerText)'; use fsrs or sm2")
            self.scheduler = .fsrs
        }
        if let order = Order(rawValue: orderText) {
            self.order = order
        } else {
            reader.error("order", "unknown order '\(orderText)'; use rank or listed")
            self.order = .listed
        }
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("kind", .string(kind.rawValue))
        map.add("title", .string(title))
        map.add("description", description)
        var languages = YAMLMapBuilder()
        languages.add("source", sourceLanguage)
        languages.add("target", targetLanguage)
        map.add("languages", languages.build(flow: true))
        map.add("version", .string(version))
        map.add("license", license)
        map.add("source", source)
        map.add("scheduler", .string(scheduler.rawValue))
        scheduling.add(to: &map)
        map.add("order", .string(order.rawValue))
        if let unlock {
            map.add(
                "unlock",
                .map(
                    [
                        ("mode", .string(unlock.mode)), ("min_score", .int(unlock.minScore)),
                        ("passes", .int(unlock.passes)),
                    ], flow: true))
        }
        if let anki {
            map.add("anki", .map([("deck_id", .int(anki.deckID)), ("deck", .string(anki.deckName))], flow: true))
        }
        if let upstream { map.add("upstream", upstream.yamlValue) }
        return map.build()
    }
}

/// A `MAJOR.MINOR.PATCH` version, compared numerically.
package struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var major: Int, minor: Int, patch: Int

    package init?(_ text: String) {
        let core = text.split(separator: "-", maxSplits: 1).first ?? ""
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2]),
            major >= 0, minor >= 0, patch >= 0
        else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    package static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    package var description: String { "\(major).\(minor).\(patch)" }
}
