public import Foundation

/// `profiles/<user>/profile.yaml`: a learner's settings, consent and adaptive state.
public struct Profile: YAMLCodable {
    public var user: String
    public var name: String?
    public var createdAt: Date?
    /// When any field last changed; decides both-changed keys in a merge.
    public var updatedAt: Date?
    public var settings: Settings
    /// Estimated vocabulary size (seed 002's lexical rank).
    public var lexicalRank: Int?
    /// Topic → weight (seed 002's interest vector), in file order.
    public var interests: [(String, Double)]
    /// Deck → its share of a session's new entries (`new_shares`), in file order; a deck not
    /// named has the share 1, and 0 keeps a deck's new entries out of a session of all decks.
    public var newShares: [(String, Double)]
    /// Words the learner never wants to study (seed 002's triage).
    public var ignoredWords: [String]
    public var consent: [Consent]
    /// Rolling share of `easy` grades (seed 002).
    public var easyRatingVelocity: Double?
    /// Daily-matrix cycles completed (seed 002).
    public var cycleCount: Int?
    /// The version of each deck this learner last saw, by deck name (seed 003's content
    /// version): when a deck's `version` differs, its upgrade rule runs for this learner and
    /// the new version is stamped here. Sorted by deck name.
    public var deckVersions: [(String, String)]
    /// FSRS-6 parameters fitted to this learner's reviews of one deck (`rote optimize --deck`),
    /// by deck name, sorted; they take precedence over `settings.fsrsParameters` for that deck.
    public var deckFSRSParameters: [(String, [Double])]
    /// The learner's scheduling choices for one deck (`deck_settings`), by deck name, sorted;
    /// each set value takes the place of `settings`' and the deck's own.
    public var deckSettings: [(String, SchedulingChoices)]

    /// One recorded answer to a consent question (seed 004: reflections are religious data).
    public struct Consent: Sendable, Equatable {
        public var topic: String
        public var granted: Bool
        public var at: Date
        /// Version of the consent text the learner answered.
        public var version: String

        public init(topic: String, granted: Bool, at: Date, version: String) {
            self.topic = topic
            self.granted = granted
            self.at = at
            self.version = version
        }
    }

    public struct Settings: Sendable, Equatable {
        public var dailyGoal: Int?
        public var newPerDay: Int?
        public var reviewsPerDay: Int?
        /// Seed 004's working-set budget: entries in acquisition at once.
        public var workingSet: Int?
        /// The learner's retention, maximum interval, steps and leech rule for every deck;
        /// a deck's own `deck_settings` take their place (`SchedulingChoices`).
        public var scheduling = SchedulingChoices()
        public var desiredRetention: Double? {
            get { scheduling.desiredRetention }
            set { scheduling.desiredRetention = newValue }
        }
        public var maximumInterval: Int? {
            get { scheduling.maximumInterval }
            set { scheduling.maximumInterval = newValue }
        }
        public var fuzz: Bool?
        /// Whether the fuzz of each answer picks among its days by how many reviews each day
        /// already holds (`load_balance`), the choice recorded in the review (`Fuzz.Draw`).
        public var loadBalance: Bool?
        /// Weekdays kept light when the workload is balanced (`easy_days`).
        public var easyDays = EasyDays()
        public var typedAnswers: Bool?
        /// An entry's audio plays by itself when its card or question is shown.
        public var autoplayAudio: Bool?
        public var nativeLanguage: String?
        public var targetLanguage: String?
        public var leftHanded: Bool?
        public var haptics: Bool?
        public var lastLetter: String?
        /// FSRS-6's 21 weights fitted to this learner's reviews (`rote optimize`); nil for the
        /// defaults. Bounds are checked where the scheduler is built (`rote check` reports them).
        public var fsrsParameters: [Double]?
        /// Learning and relearning steps in seconds (`learning_steps: [0, 10, 45]`, minutes,
        /// in the file); they take the place of a deck's own, nil for the deck's or the default.
        public var learningSteps: [Double]? {
            get { scheduling.learningSteps }
            set { scheduling.learningSteps = newValue }
        }
        public var relearningSteps: [Double]? {
            get { scheduling.relearningSteps }
            set { scheduling.relearningSteps = newValue }
        }

        public init() {}

        package static let keys = [
            "daily_goal", "new_per_day", "reviews_per_day", "working_set", "desired_retention", "maximum_interval",
            "fuzz", "load_balance", "easy_days", "typed_answers", "autoplay_audio", "native_language",
            "target_language", "left_handed", "haptics",
            "last_letter",
            "fsrs_parameters", "learning_steps", "relearning_steps", "leech_threshold", "leech_action",
        ]
    }

    public init(user: String, name: String? = nil, createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.user = user
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.settings = Settings()
        self.interests = []
        self.newShares = []
        self.ignoredWords = []
        self.consent = []
        self.deckVersions = []
        self.deckFSRSParameters = []
        self.deckSettings = []
    }

    /// The learner's choices for `deck` alone (empty when none).
    public func schedulingChoices(for deck: String?) -> SchedulingChoices {
        deck.flatMap { name in deckSettings.first { $0.0 == name }?.1 } ?? SchedulingChoices()
    }

    /// Records the learner's choices for `deck` (empty removes them), keeping the list sorted.
    public mutating func setSchedulingChoices(_ choices: SchedulingChoices, for deck: String) {
        deckSettings.removeAll { $0.0 == deck }
        if !choices.isEmpty { deckSettings.append((deck, choices)) }
        deckSettings.sort { $0.0 < $1.0 }
    }

    /// The fitted FSRS parameters that schedule `deck` for this learner: the deck's own, else
    /// the learner's, else nil (the defaults).
    public func fsrsParameters(for deck: String?) -> [Double]? {
        deck.flatMap { name in deckFSRSParameters.first { $0.0 == name }?.1 } ?? settings.fsrsParameters
    }

    /// Records `parameters` for `deck` (nil removes them), keeping the list sorted by deck.
    public mutating func setFSRSParameters(_ parameters: [Double]?, for deck: String) {
        deckFSRSParameters.removeAll { $0.0 == deck }
        if let parameters { deckFSRSParameters.append((deck, parameters)) }
        deckFSRSParameters.sort { $0.0 < $1.0 }
    }

    /// A list of exactly 21 numbers (FSRS-6's w0…w20), or nil with an error at its line.
    static func fsrsParameters(_ reader: inout MappingReader, _ key: String, label: String) -> [Double]? {
        guard let items = reader.list(key) else { return nil }
        let numbers = items.compactMap { $0.float ?? $0.int.map(Double.init) }
        guard numbers.count == items.count, numbers.count == 21, numbers.allSatisfy(\.isFinite) else {
            reader.error(
                key,
                "\(label) must be a list of the 21 FSRS-6 parameters w0…w20 (as `rote optimize` writes them), found \(items.count) item\(items.count == 1 ? "" : "s")\(numbers.count == items.count ? "" : " not all numbers"); remove the line for the defaults"
            )
            return nil
        }
        return numbers
    }

    /// `deck`'s share of a session's new entries: its `new_shares` weight, else 1.
    public func newShare(of deck: String) -> Double { newShares.first { $0.0 == deck }?.1 ?? 1 }

    /// The version of `deck` this learner last saw, if recorded.
    public func seenVersion(of deck: String) -> String? { deckVersions.first { $0.0 == deck }?.1 }

    /// Records `version` as seen for `deck`, keeping the list sorted by deck name.
    public mutating func setSeenVersion(_ version: String, of deck: String) {
        deckVersions.removeAll { $0.0 == deck }
        deckVersions.append((deck, version))
        deckVersions.sort { $0.0 < $1.0 }
    }

    public init?(reading reader: inout MappingReader) {
        let user = reader.string("user", required: true)
        name = reader.string("name")
        createdAt = reader.date("created_at")
        updatedAt = reader.date("updated_at")
        settings = Settings()
        if var values = reader.mapping("settings") {
            settings.dailyGoal = values.int("daily_goal")
            settings.newPerDay = values.int("new_per_day")
            settings.reviewsPerDay = values.int("reviews_per_day")
            settings.workingSet = values.int("working_set")
            settings.fuzz = values.bool("fuzz")
            settings.loadBalance = values.bool("load_balance")
            settings.easyDays = EasyDays(reading: &values, key: "easy_days") ?? EasyDays()
            settings.typedAnswers = values.bool("typed_answers")
            settings.autoplayAudio = values.bool("autoplay_audio")
            settings.nativeLanguage = values.string("native_language")
            settings.targetLanguage = values.string("target_language")
            settings.leftHanded = values.bool("left_handed")
            settings.haptics = values.bool("haptics")
            settings.lastLetter = values.string("last_letter")
            settings.fsrsParameters = Profile.fsrsParameters(
                &values, "fsrs_parameters", label: "settings.fsrs_parameters")
            // Zero or less would plan no study at all: a typo, never a choice, so check says so.
            for (key, path, fallback) in [
                ("new_per_day", \Settings.newPerDay, "10"), ("reviews_per_day", \Settings.reviewsPerDay, "200"),
                ("working_set", \Settings.workingSet, "no cap"),
            ] as [(String, WritableKeyPath<Settings, Int?>, String)] {
                guard let value = settings[keyPath: path], value < 1 else { continue }
                values.error(
                    key,
                    "settings.\(key) is \(value), but it must be at least 1; write a positive whole number, or remove the line for the default (\(fallback))"
                )
                settings[keyPath: path] = nil
            }
            settings.scheduling = SchedulingChoices(reading: &values)
            reader.absorb(values)
        }
        lexicalRank = reader.int("lexical_rank")
        interests = []
        if var values = reader.mapping("interests") {
            for topic in values.keys {
                if let weight = values.double(topic) { interests.append((topic, weight)) }
            }
            reader.absorb(values)
        }
        newShares = []
        if var values = reader.mapping("new_shares") {
            for deck in values.keys {
                guard let share = values.double(deck) else { continue }
                guard share >= 0, share.isFinite else {
                    values.error(
                        deck,
                        "new_shares.\(deck) is \(YAMLValue.format(share)), but a share is 0 or more; write 0 to keep this deck's new entries out of a session of all decks, or remove the line for the share 1"
                    )
                    continue
                }
                newShares.append((deck, share))
            }
            reader.absorb(values)
        }
        ignoredWords = reader.strings("ignored_words") ?? []
        consent = []
        if var values = reader.mapping("consent") {
            for topic in values.keys {
                guard var answer = values.mapping(topic) else { continue }
                let granted = answer.bool("granted", required: true)
                let at = answer.date("at", required: true)
                let version = answer.string("version", required: true)
                if let granted, let at, let version {
                    consent.append(Consent(topic: topic, granted: granted, at: at, version: version))
                }
                values.absorb(answer)
            }
            reader.absorb(values)
        }
        easyRatingVelocity = reader.double("easy_rating_velocity")
        cycleCount = reader.int("cycle_count")
        deckVersions = (reader.stringMap("deck_versions") ?? []).sorted { $0.0 < $1.0 }
        deckFSRSParameters = []
        if var decks = reader.mapping("deck_fsrs_parameters") {
            for deck in decks.keys {
                if let parameters = Profile.fsrsParameters(&decks, deck, label: "deck_fsrs_parameters.\(deck)") {
                    deckFSRSParameters.append((deck, parameters))
                }
            }
            reader.absorb(decks)
            deckFSRSParameters.sort { $0.0 < $1.0 }
        }
        deckSettings = []
        if var decks = reader.mapping("deck_settings") {
            for deck in decks.keys {
                guard var values = decks.mapping(deck) else { continue }
                let choices = SchedulingChoices(reading: &values)
                decks.absorb(values)
                if !choices.isEmpty { deckSettings.append((deck, choices)) }
            }
            reader.absorb(decks)
            deckSettings.sort { $0.0 < $1.0 }
        }
        guard let user else { return nil }
        self.user = user
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("user", .string(user))
        map.add("name", name)
        map.add("created_at", createdAt)
        map.add("updated_at", updatedAt)
        var values = YAMLMapBuilder()
        values.add("daily_goal", settings.dailyGoal)
        values.add("new_per_day", settings.newPerDay)
        values.add("reviews_per_day", settings.reviewsPerDay)
        values.add("working_set", settings.workingSet)
        values.add("desired_retention", settings.desiredRetention)
        values.add("maximum_interval", settings.maximumInterval)
        values.add("fuzz", settings.fuzz)
        values.add("load_balance", settings.loadBalance)
        values.add("easy_days", settings.easyDays.yamlValue)
        values.add("typed_answers", settings.typedAnswers)
        values.add("autoplay_audio", settings.autoplayAudio)
        values.add("native_language", settings.nativeLanguage)
        values.add("target_language", settings.targetLanguage)
        values.add("left_handed", settings.leftHanded)
        values.add("haptics", settings.haptics)
        values.add("last_letter", settings.lastLetter)
        values.add("fsrs_parameters", settings.fsrsParameters.map(Profile.parameterList))
        values.add("learning_steps", settings.learningSteps.map(YAMLValue.minuteSteps))
        values.add("relearning_steps", settings.relearningSteps.map(YAMLValue.minuteSteps))
        values.add("leech_threshold", settings.scheduling.leechThreshold)
        values.add("leech_action", settings.scheduling.leechAction?.rawValue)
        map.add("settings", values.build())
        map.add("lexical_rank", lexicalRank)
        map.add("interests", .map(interests.map { ($0.0, .double($0.1)) }, flow: false))
        map.add("new_shares", .map(newShares.map { ($0.0, .double($0.1)) }, flow: false))
        map.add("ignored_words", strings: ignoredWords.sorted())
        map.add(
            "consent",
            .map(
                consent.map { answer in
                    (
                        answer.topic,
                        .map(
                            [
                                ("granted", .bool(answer.granted)), ("at", .date(answer.at)),
                                ("version", .string(answer.version)),
                            ], flow: true)
                    )
                }, flow: false))
        map.add("easy_rating_velocity", easyRatingVelocity)
        map.add("cycle_count", cycleCount)
        map.add("deck_versions", .map(deckVersions.map { ($0.0, .string($0.1)) }, flow: false))
        map.add(
            "deck_fsrs_parameters", .map(deckFSRSParameters.map { ($0.0, Profile.parameterList($0.1)) }, flow: false))
        map.add(
            "deck_settings",
            .map(
                deckSettings.map { deck, choices in
                    var values = YAMLMapBuilder()
                    choices.add(to: &values)
                    return (deck, values.build(flow: true))
                }, flow: false))
        return map.build()
    }

    public static func == (lhs: Profile, rhs: Profile) -> Bool {
        lhs.user == rhs.user && lhs.name == rhs.name && lhs.createdAt == rhs.createdAt && lhs.updatedAt == rhs.updatedAt
            && lhs.settings == rhs.settings && lhs.lexicalRank == rhs.lexicalRank
            && lhs.interests.elementsEqual(rhs.interests, by: ==)
            && lhs.newShares.elementsEqual(rhs.newShares, by: ==)
            && lhs.ignoredWords.sorted() == rhs.ignoredWords.sorted()
            && lhs.consent == rhs.consent && lhs.easyRatingVelocity == rhs.easyRatingVelocity
            && lhs.cycleCount == rhs.cycleCount
            && lhs.deckVersions.elementsEqual(rhs.deckVersions, by: ==)
            && lhs.deckFSRSParameters.elementsEqual(rhs.deckFSRSParameters, by: ==)
            && lhs.deckSettings.elementsEqual(rhs.deckSettings, by: ==)
    }
}

extension Profile {
    /// Parameters as one flow list, so a new fit changes one line of the file.
    static func parameterList(_ values: [Double]) -> YAMLValue {
        .list(values.map(YAMLValue.double), flow: true)
    }
}
