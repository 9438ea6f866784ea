package import Foundation
import RoteModel

/// The merge driver for `profiles/*/profile.yaml`: a key-wise three-way merge.
///
/// Each field — and each key inside `settings`, each topic's weight in `interests`, each
/// topic's answer in `consent` — is merged on its own: a value changed on one side only is
/// taken from that side; a value changed on both sides to different things is taken from the
/// side with the later `updated_at` (a missing one is older than any time). Set-valued keys
/// (`ignored_words`, and which topics `interests` holds) keep the adds and removes of both
/// sides: (base ∪ added by ours ∪ added by theirs) − removed by ours − removed by theirs.
/// The result's `updated_at` is the later of the two.
///
/// Topics in `interests` and `consent` come out sorted, as `ignored_words` always are. Their
/// order carries no meaning, and any order taken from the sides would depend on which device
/// merged first (two devices inserting topics at different places have no common order), so
/// devices would not end with the same bytes.
///
/// Both sides that decode without errors always merge; one that does not is a conflict (see
/// `YAMLCodable.decodeForMerge`), as is the case for progress files. A missing base (both
/// devices created the file) is an empty one, and so is a base that cannot be read: with
/// nothing to compare against, every difference counts as changed on both sides.
///
/// The merge is symmetric byte for byte and merging its result again changes nothing.
/// Because `updated_at` is one time for the whole file, not one per key, a key changed on two
/// devices goes to the device that changed *anything* last; three devices merged in
/// different orders can therefore end differently when two of them changed the same key.
/// They always agree on keys that at most one device changed and on set-valued keys.
package enum ProfileMerge {
    /// Merges three versions of one profile into its canonical text.
    package static func merge(base: Data?, ours: Data, theirs: Data, path: String = "profile.yaml") -> MergeOutcome {
        // An unreadable base loses nothing of either side; it only makes more keys "changed".
        let baseProfile = base.flatMap { Profile.decode($0, path: path).0 }
        let result = Profile.decodeForMerge(ours, side: .ours, path: path).flatMap { ours in
            Profile.decodeForMerge(theirs, side: .theirs, path: path).map { theirs in
                merge(base: baseProfile, ours: ours, theirs: theirs).render()
            }
        }
        return MergeOutcome(result)
    }

    /// The merge of decoded versions; `base` nil means an empty profile.
    static func merge(base: Profile?, ours: Profile, theirs: Profile) -> Profile {
        let pick = KeyMerger(ours: ours.updatedAt, theirs: theirs.updatedAt)
        let user = pick.value(base?.user, ours.user, theirs.user, text: { $0 }) ?? ours.user
        var merged = Profile(user: user)
        merged.name = pick.value(base?.name, ours.name, theirs.name, text: { $0 })
        merged.createdAt = pick.value(base?.createdAt, ours.createdAt, theirs.createdAt, text: Timestamp.format)
        merged.updatedAt = isBefore(ours.updatedAt, theirs.updatedAt) ? theirs.updatedAt : ours.updatedAt
        merged.settings = mergeSettings(base?.settings ?? Profile.Settings(), ours.settings, theirs.settings, pick)
        merged.lexicalRank = pick.value(base?.lexicalRank, ours.lexicalRank, theirs.lexicalRank, text: String.init)
        merged.interests = mergeWeights(base?.interests ?? [], ours.interests, theirs.interests, pick)
        merged.newShares = mergeWeights(base?.newShares ?? [], ours.newShares, theirs.newShares, pick)
        merged.ignoredWords = mergeSet(base?.ignoredWords ?? [], ours.ignoredWords, theirs.ignoredWords).sorted()
        merged.consent = mergeConsent(base?.consent ?? [], ours.consent, theirs.consent, pick)
        merged.easyRatingVelocity = pick.value(
            base?.easyRatingVelocity, ours.easyRatingVelocity, theirs.easyRatingVelocity, text: YAMLValue.format)
        merged.cycleCount = pick.value(base?.cycleCount, ours.cycleCount, theirs.cycleCount, text: String.init)
        merged.deckVersions = mergeDeckVersions(base?.deckVersions ?? [], ours.deckVersions, theirs.deckVersions, pick)
        merged.deckFSRSParameters = mergeDeckParameters(
            base?.deckFSRSParameters ?? [], ours.deckFSRSParameters, theirs.deckFSRSParameters, pick)
        merged.deckSettings = mergeDeckSettings(
            base?.deckSettings ?? [], ours.deckSettings, theirs.deckSettings, pick)
        return merged
    }

    static func mergeSettings(
        _ base: Profile.Settings, _ ours: Profile.Settings, _ theirs: Profile.Settings, _ pick: KeyMerger
    ) -> Profile.Settings {
        func int(_ key: KeyPath<Profile.Settings, Int?>) -> Int? {
            pick.value(base[keyPath: key], ours[keyPath: key], theirs[keyPath: key], text: String.init)
        }
        func double(_ key: KeyPath<Profile.Settings, Double?>) -> Double? {
            pick.value(base[keyPath: key], ours[keyPath: key], theirs[keyPath: key], text: YAMLValue.format)
        }
        func bool(_ key: KeyPath<Profile.Settings, Bool?>) -> Bool? {
            pick.value(base[keyPath: key], ours[keyPath: key], theirs[keyPath: key], text: { $0 ? "true" : "false" })
        }
        func string(_ key: KeyPath<Profile.Settings, String?>) -> String? {
            pick.value(base[keyPath: key], ours[keyPath: key], theirs[keyPath: key], text: { $0 })
        }
        var merged = Profile.Settings()
        merged.dailyGoal = int(\.dailyGoal)
        merged.newPerDay = int(\.newPerDay)
        merged.reviewsPerDay = int(\.reviewsPerDay)
        merged.workingSet = int(\.workingSet)
        merged.scheduling = mergeChoices(base.scheduling, ours.scheduling, theirs.scheduling, pick)
        merged.fuzz = bool(\.fuzz)
        merged.loadBalance = bool(\.loadBalance)
        // The week's shares are one choice, as a list of steps is.
        merged.easyDays =
            pick.value(
                base.easyDays, ours.easyDays, theirs.easyDays,
                text: { $0.shares.map(YAMLValue.format).joined(separator: ",") }) ?? EasyDays()
        merged.typedAnswers = bool(\.typedAnswers)
        merged.autoplayAudio = bool(\.autoplayAudio)
        merged.nativeLanguage = string(\.nativeLanguage)
        merged.targetLanguage = string(\.targetLanguage)
        merged.leftHanded = bool(\.leftHanded)
        merged.haptics = bool(\.haptics)
        merged.lastLetter = string(\.lastLetter)
        // One fit is one value: two devices' fits are never mixed weight by weight.
        merged.fsrsParameters = pick.value(
            base.fsrsParameters, ours.fsrsParameters, theirs.fsrsParameters, text: parameterText)
        return merged
    }

    /// Scheduling choices key-wise: a list of steps is one value, as a fit is.
    static func mergeChoices(
        _ base: SchedulingChoices, _ ours: SchedulingChoices, _ theirs: SchedulingChoices, _ pick: KeyMerger
    ) -> SchedulingChoices {
        SchedulingChoices(
            desiredRetention: pick.value(
                base.desiredRetention, ours.desiredRetention, theirs.desiredRetention, text: YAMLValue.format),
            maximumInterval: pick.value(
                base.maximumInterval, ours.maximumInterval, theirs.maximumInterval, text: String.init),
            learningSteps: pick.value(
                base.learningSteps, ours.learningSteps, theirs.learningSteps, text: parameterText),
            relearningSteps: pick.value(
                base.relearningSteps, ours.relearningSteps, theirs.relearningSteps, text: parameterText),
            leechThreshold: pick.value(
                base.leechThreshold, ours.leechThreshold, theirs.leechThreshold, text: String.init),
            leechAction: pick.value(base.leechAction, ours.leechAction, theirs.leechAction, text: \.rawValue))
    }

    /// Each deck's choices key-wise, decks as a set; sorted by deck name. A deck whose
    /// choices merge to nothing is left out, as the profile's reader does.
    static func mergeDeckSettings(
        _ base: [(String, SchedulingChoices)], _ ours: [(String, SchedulingChoices)],
        _ theirs: [(String, SchedulingChoices)], _ pick: KeyMerger
    ) -> [(String, SchedulingChoices)] {
        let baseChoices = Dictionary(base, uniquingKeysWith: { first, _ in first })
        let oursChoices = Dictionary(ours, uniquingKeysWith: { first, _ in first })
        let theirsChoices = Dictionary(theirs, uniquingKeysWith: { first, _ in first })
        let decks = mergeSet(base.map(\.0), ours.map(\.0), theirs.map(\.0))
        return decks.sorted().compactMap { deck in
            let merged = mergeChoices(
                baseChoices[deck] ?? SchedulingChoices(), oursChoices[deck] ?? SchedulingChoices(),
                theirsChoices[deck] ?? SchedulingChoices(), pick)
            return merged.isEmpty ? nil : (deck, merged)
        }
    }

    /// Names (interests' topics, `new_shares`' decks) as a set (adds and removes of both
    /// sides), each kept name's weight key-wise.
    ///
    /// A name removed on one side and re-weighted on the other is removed: the set rule
    /// decides membership before any weight is looked at.
    static func mergeWeights(
        _ base: [(String, Double)], _ ours: [(String, Double)], _ theirs: [(String, Double)], _ pick: KeyMerger
    ) -> [(String, Double)] {
        let baseWeights = Dictionary(base, uniquingKeysWith: { first, _ in first })
        let oursWeights = Dictionary(ours, uniquingKeysWith: { first, _ in first })
        let theirsWeights = Dictionary(theirs, uniquingKeysWith: { first, _ in first })
        let topics = mergeSet(base.map(\.0), ours.map(\.0), theirs.map(\.0))
        return topics.sorted().compactMap { topic in
            pick.value(baseWeights[topic], oursWeights[topic], theirsWeights[topic], text: YAMLValue.format)
                .map { (topic, $0) }
        }
    }

    /// Each deck's seen version key-wise (a deck changed on both sides goes to the later
    /// `updated_at`), decks as a set; sorted by deck name.
    static func mergeDeckVersions(
        _ base: [(String, String)], _ ours: [(String, String)], _ theirs: [(String, String)], _ pick: KeyMerger
    ) -> [(String, String)] {
        let baseVersions = Dictionary(base, uniquingKeysWith: { first, _ in first })
        let oursVersions = Dictionary(ours, uniquingKeysWith: { first, _ in first })
        let theirsVersions = Dictionary(theirs, uniquingKeysWith: { first, _ in first })
        let decks = mergeSet(base.map(\.0), ours.map(\.0), theirs.map(\.0))
        return decks.sorted().compactMap { deck in
            pick.value(baseVersions[deck], oursVersions[deck], theirsVersions[deck], text: { $0 }).map { (deck, $0) }
        }
    }

    /// Each deck's fitted parameters key-wise, decks as a set; sorted by deck name.
    static func mergeDeckParameters(
        _ base: [(String, [Double])], _ ours: [(String, [Double])], _ theirs: [(String, [Double])], _ pick: KeyMerger
    ) -> [(String, [Double])] {
        let baseFits = Dictionary(base, uniquingKeysWith: { first, _ in first })
        let oursFits = Dictionary(ours, uniquingKeysWith: { first, _ in first })
        let theirsFits = Dictionary(theirs, uniquingKeysWith: { first, _ in first })
        let decks = mergeSet(base.map(\.0), ours.map(\.0), theirs.map(\.0))
        return decks.sorted().compactMap { deck in
            pick.value(baseFits[deck], oursFits[deck], theirsFits[deck], text: parameterText).map { (deck, $0) }
        }
    }

    /// Parameters as written, for breaking an `updated_at` tie.
    static func parameterText(_ values: [Double]) -> String {
        values.map(YAMLValue.format).joined(separator: ", ")
    }

    /// Each topic's answer key-wise; a removed answer is a change like any other.
    ///
    /// Consent is not a set: withdrawing an answer on one device while another device
    /// re-answers it is decided by `updated_at`, like every other both-sides change.
    static func mergeConsent(
        _ base: [Profile.Consent], _ ours: [Profile.Consent], _ theirs: [Profile.Consent], _ pick: KeyMerger
    ) -> [Profile.Consent] {
        func byTopic(_ answers: [Profile.Consent]) -> [String: Profile.Consent] {
            Dictionary(answers.map { ($0.topic, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let (baseAnswers, oursAnswers, theirsAnswers) = (byTopic(base), byTopic(ours), byTopic(theirs))
        let answers = Dictionary(
            uniqueKeysWithValues: Set(oursAnswers.keys).union(theirsAnswers.keys).compactMap { topic in
                pick.value(
                    baseAnswers[topic], oursAnswers[topic], theirsAnswers[topic],
                    text: { answer in
                        "\(answer.granted) \(Timestamp.format(answer.at)) \(answer.version)"
                    }
                ).map { (topic, $0) }
            })
        return answers.keys.sorted().compactMap { answers[$0] }
    }

    /// (base ∪ added by ours ∪ added by theirs) − removed by ours − removed by theirs.
    static func mergeSet(_ base: [String], _ ours: [String], _ theirs: [String]) -> Set<String> {
        let (base, ours, theirs) = (Set(base), Set(ours), Set(theirs))
        let added = ours.subtracting(base).union(theirs.subtracting(base))
        let removed = base.subtracting(ours).union(base.subtracting(theirs))
        return base.union(added).subtracting(removed)
    }
}

/// Decides one key of a three-way merge, given which side wrote the profile last.
struct KeyMerger: Sendable {
    /// Which side changed the profile last; nil when both `updated_at` are equal.
    let later: MergeSide?

    init(ours: Date?, theirs: Date?) {
        later = ours == theirs ? nil : (isBefore(ours, theirs) ? .theirs : .ours)
    }

    /// The merged value of one key; nil means absent.
    ///
    /// - Parameter text: the value as written, for breaking an `updated_at` tie: the value
    ///   whose text sorts last wins (any value over an absent one), a rule that does not care
    ///   which side is which, so the merge stays symmetric.
    func value<Value: Equatable>(_ base: Value?, _ ours: Value?, _ theirs: Value?, text: (Value) -> String) -> Value? {
        if ours == theirs { return ours }
        if ours == base { return theirs }
        if theirs == base { return ours }
        switch later {
        case .ours: return ours
        case .theirs: return theirs
        case nil: return isBefore(ours.map(text), theirs.map(text)) ? theirs : ours
        }
    }
}
