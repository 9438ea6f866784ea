import Foundation
import RoteModel
import RoteSync
import Scheduling
import Testing

/// The moment every generated history starts from; all times are whole seconds after it.
let epoch = Timestamp.parse("2026-11-01T00:00:00Z")!

/// The moment `seconds` after `epoch`.
func afterEpoch(_ seconds: Int) -> Date { epoch.addingTimeInterval(TimeInterval(seconds)) }

func bytes(_ text: String) -> Data { Data(text.utf8) }

/// The merged text, or nil for a conflict.
func mergedText(_ outcome: MergeOutcome) -> String? {
    guard case .merged(let data) = outcome else { return nil }
    return String(decoding: data, as: UTF8.self)
}

// MARK: - Progress histories

/// One generated sync situation for a progress file: a common base and three devices that
/// each studied (and maybe changed the status) offline since.
struct ProgressScenario {
    var settings: SchedulerSettings
    var entry: String
    /// nil when the devices created the file independently (no common base).
    var base: ProgressFile?
    var devices: [ProgressFile]

    var baseData: Data? { base.map { bytes($0.render()) } }
    var deviceData: [Data] { devices.map { bytes($0.render()) } }
}

enum ProgressGenerator {
    static let entries = ["english-a1/run", "kjv/mat-5-44", "alphabet/a", "math/algebra/expand_brackets"]

    /// Settings every device shares in one scenario; fuzz on and off and both schedulers, since
    /// the replayed `state` must be identical whatever the merge order with each of them.
    static let settingsChoices: [SchedulerSettings] = [
        .default,
        SchedulerSettings.default.withFuzzing(false),
        try! SchedulerSettings(scheduler: .sm2),
    ]

    /// A random situation. Times are drawn from a narrow window so that equal timestamps
    /// (two reviews in the same second, two status changes at the same time) are common.
    static func scenario(_ random: inout SeededGenerator, devices deviceCount: Int = 3) -> ProgressScenario {
        let settings = random.pick(settingsChoices)
        let entry = random.pick(entries)
        let hasBase = !random.chance(0.15)
        var baseReviews: [ReviewEvent] = []
        if hasBase {
            for _ in 0..<random.int(0...3) {
                baseReviews.append(review(&random, existing: baseReviews, window: 0...10 * 86_400))
            }
        }
        let baseStatus = status(&random)
        let base = hasBase ? canonical(entry, baseStatus, baseReviews, settings) : nil
        var devices: [ProgressFile] = []
        for _ in 0..<deviceCount {
            var reviews = baseReviews
            // Rarely, a device's file lacks a review the base had (edited by hand): the merge
            // must still not lose it, because another side has it.
            if !reviews.isEmpty, random.chance(0.08) { reviews.remove(at: random.below(reviews.count)) }
            // Rarely, one review's content was edited while its id stayed: every merge order
            // must still keep the same copy.
            if !reviews.isEmpty, random.chance(0.08) {
                let index = random.below(reviews.count)
                reviews[index].grade = random.pick(Grade.allCases)
                if random.chance(0.5) { reviews[index].ms = random.int(500...9_000) }
            }
            for _ in 0..<random.int(0...3) {
                reviews.append(review(&random, existing: reviews, window: 5 * 86_400...20 * 86_400))
            }
            // Sometimes the device undid a review (`rote undo`), at one of few times so two
            // devices' marks tie: every merge order must keep it undone.
            if !reviews.isEmpty, random.chance(0.2) {
                reviews[random.below(reviews.count)].undone = afterEpoch(random.pick([21, 22]) * 86_400)
            }
            let deviceStatus = random.chance(0.35) ? status(&random) : baseStatus
            devices.append(canonical(entry, deviceStatus, reviews, settings))
        }
        return ProgressScenario(settings: settings, entry: entry, base: base, devices: devices)
    }

    static func review(_ random: inout SeededGenerator, existing: [ReviewEvent], window: ClosedRange<Int>)
        -> ReviewEvent
    {
        let at = !existing.isEmpty && random.chance(0.25) ? random.pick(existing).at : afterEpoch(random.int(window))
        return ReviewEvent(
            id: random.uuid(), at: at, grade: random.pick(Grade.allCases),
            ms: random.chance(0.8) ? random.int(300...12_000) : nil,
            device: random.chance(0.8) ? random.pick(["laptop", "desktop", "phone"]) : nil)
    }

    /// A status and when it was set: from few times, so ties happen; sometimes no time at all.
    static func status(_ random: inout SeededGenerator) -> (ProgressFile.Status, Date?) {
        (
            random.pick(ProgressFile.Status.allCases),
            random.chance(0.2) ? nil : afterEpoch(random.pick([3_600, 7_200, 10_800]) * random.int(1...3))
        )
    }

    /// The file a device would write: reviews in replay order, `state` a fresh replay.
    static func canonical(
        _ entry: String, _ status: (ProgressFile.Status, Date?), _ reviews: [ReviewEvent], _ settings: SchedulerSettings
    ) -> ProgressFile {
        let sorted = reviews.sorted(by: ReviewEvent.replayOrder)
        return ProgressFile(
            entry: entry, status: status.0, statusAt: status.1,
            state: Scheduler(settings: settings).replay(sorted.filter { $0.undone == nil }, entryID: entry),
            reviews: sorted)
    }
}

// MARK: - Profiles

/// One generated sync situation for a profile: a base (or none) and devices that each edited
/// some keys and set `updated_at` when they did.
struct ProfileScenario {
    var base: Profile?
    var devices: [Profile]

    var baseData: Data? { base.map { bytes($0.render()) } }
    var deviceData: [Data] { devices.map { bytes($0.render()) } }
}

enum ProfileGenerator {
    static let topics = ["family", "school", "sport", "food", "travel", "music"]
    static let words = ["the", "a", "of", "and", "to", "in", "is"]
    static let consentTopics = ["reflections", "audio", "sharing"]

    /// A random situation. Values come from small pools, so two devices often change a key to
    /// the same value, and `updated_at` from a few hours, so ties are common.
    ///
    /// - Parameter exclusiveKeys: when true, every scalar key (and every interest weight and
    ///   consent answer) is changed by at most one device — the case in which three devices
    ///   converge whatever the merge order (see `ProfileMerge`).
    static func scenario(_ random: inout SeededGenerator, devices deviceCount: Int = 3, exclusiveKeys: Bool = false)
        -> ProfileScenario
    {
        let hasBase = !random.chance(0.15)
        let base = hasBase ? randomProfile(&random) : nil
        let start = base ?? Profile(user: "ana")
        var devices: [Profile] = []
        // With exclusive keys, each key belongs to one device (or none) chosen up front.
        var owners: [String: Int] = [:]
        func mayChange(_ key: String, _ device: Int, _ random: inout SeededGenerator) -> Bool {
            guard exclusiveKeys else { return true }
            if owners[key] == nil { owners[key] = random.below(deviceCount + 1) }
            return owners[key] == device
        }
        for device in 0..<deviceCount {
            var profile = start
            for field in scalarFields where mayChange(field.name, device, &random) && random.chance(0.25) {
                field.randomize(&profile, &random)
            }
            // Interests: remove, re-weight, add.
            var interests = profile.interests
            interests.removeAll { _ in random.chance(0.15) }
            for index in interests.indices
            where mayChange("interest." + interests[index].0, device, &random) && random.chance(0.2) {
                interests[index].1 = random.pick(weights)
            }
            for topic in topics where !interests.contains(where: { $0.0 == topic }) && random.chance(0.15) {
                if exclusiveKeys, !mayChange("interest." + topic, device, &random) { continue }
                interests.append((topic, random.pick(weights)))
            }
            profile.interests = interests
            var ignored = profile.ignoredWords
            ignored.removeAll { _ in random.chance(0.15) }
            for word in words where !ignored.contains(word) && random.chance(0.15) { ignored.append(word) }
            profile.ignoredWords = ignored
            for topic in consentTopics where mayChange("consent." + topic, device, &random) && random.chance(0.2) {
                profile.consent.removeAll { $0.topic == topic }
                if random.chance(0.8) { profile.consent.append(consent(topic, &random)) }
            }
            let baseUpdated = start.updatedAt ?? epoch
            profile.updatedAt =
                random.chance(0.05) ? nil : baseUpdated.addingTimeInterval(TimeInterval(3_600 * random.int(1...3)))
            devices.append(canonical(profile))
        }
        return ProfileScenario(base: base, devices: devices)
    }

    static func randomProfile(_ random: inout SeededGenerator) -> Profile {
        var profile = Profile(user: "ana", createdAt: epoch, updatedAt: epoch)
        for field in scalarFields where random.chance(0.5) { field.randomize(&profile, &random) }
        profile.interests = random.shuffled(topics).prefix(random.int(0...3)).map { ($0, random.pick(weights)) }
        profile.ignoredWords = Array(random.shuffled(words).prefix(random.int(0...3)))
        profile.consent = consentTopics.filter { _ in random.chance(0.4) }.map { consent($0, &random) }
        return canonical(profile)
    }

    /// The profile in the form the merge writes: topics of `interests` and `consent` sorted
    /// (`render` already sorts `ignored_words`).
    static func canonical(_ profile: Profile) -> Profile {
        var result = profile
        result.interests.sort { $0.0 < $1.0 }
        result.consent.sort { $0.topic < $1.topic }
        return result
    }

    static let weights = [0.2, 0.4, 0.6, 0.85]

    static func consent(_ topic: String, _ random: inout SeededGenerator) -> Profile.Consent {
        Profile.Consent(
            topic: topic, granted: random.chance(0.5), at: afterEpoch(3_600 * random.int(0...3)),
            version: random.pick(["1", "2"]))
    }

    /// A scalar key of the profile: how to read it as text (nil = absent) and how to set it
    /// to a random value from a small pool (which may be its current value).
    struct Field {
        let name: String
        let text: (Profile) -> String?
        let randomize: (inout Profile, inout SeededGenerator) -> Void
    }

    static func field<Value>(
        _ name: String, _ key: WritableKeyPath<Profile, Value?>, _ pool: [Value?], text: @escaping (Value) -> String
    ) -> Field {
        Field(name: name, text: { $0[keyPath: key].map(text) }, randomize: { $0[keyPath: key] = $1.pick(pool) })
    }

    static func setting<Value>(
        _ name: String, _ key: WritableKeyPath<Profile.Settings, Value?>, _ pool: [Value?],
        text: @escaping (Value) -> String
    ) -> Field {
        let settings: WritableKeyPath<Profile, Profile.Settings> = \.settings
        return field("settings." + name, settings.appending(path: key), pool, text: text)
    }

    /// Every scalar key (computed: its closures hold key paths, which are not `Sendable`).
    static var scalarFields: [Field] {
        [
            Field(name: "user", text: { $0.user }, randomize: { $0.user = $1.pick(["ana", "ana", "ana-m"]) }),
            field("name", \.name, ["Ana", "Ana María", "Bo", nil], text: { $0 }),
            field("created_at", \.createdAt, [epoch, afterEpoch(60), nil], text: Timestamp.format),
            field("lexical_rank", \.lexicalRank, [100, 400, 1_200, nil], text: String.init),
            field("easy_rating_velocity", \.easyRatingVelocity, [0.1, 0.3, 0.55, nil], text: YAMLValue.format),
            field("cycle_count", \.cycleCount, [1, 4, 9, nil], text: String.init),
            setting("daily_goal", \.dailyGoal, [10, 20, 30, nil], text: String.init),
            setting("new_per_day", \.newPerDay, [5, 8, 10, nil], text: String.init),
            setting("reviews_per_day", \.reviewsPerDay, [100, 200, nil], text: String.init),
            setting("working_set", \.workingSet, [3, 5, nil], text: String.init),
            setting("desired_retention", \.desiredRetention, [0.8, 0.85, 0.9, nil], text: YAMLValue.format),
            setting("maximum_interval", \.maximumInterval, [365, 36_500, nil], text: String.init),
            setting("fuzz", \.fuzz, [true, false, nil], text: { "\($0)" }),
            setting("typed_answers", \.typedAnswers, [true, false, nil], text: { "\($0)" }),
            setting("native_language", \.nativeLanguage, ["ar", "fr", nil], text: { $0 }),
            setting("target_language", \.targetLanguage, ["en", "de", nil], text: { $0 }),
            setting("left_handed", \.leftHanded, [true, false, nil], text: { "\($0)" }),
            setting("haptics", \.haptics, [true, false, nil], text: { "\($0)" }),
            setting("last_letter", \.lastLetter, ["alphabet/a", "alphabet/c", nil], text: { $0 }),
            setting(
                "fsrs_parameters", \.fsrsParameters, [fitA, fitB, nil],
                text: { $0.map(YAMLValue.format).joined(separator: ", ") }),
        ]
    }

    /// Two fits `rote optimize` might write on two devices.
    static let fitA = [
        0.4, 1.2, 3.1, 9.5, 6.2, 0.8, 2.9, 0.01, 1.7, 0.15, 0.8, 1.5, 0.06, 0.27, 1.6, 0.55, 1.9, 0.5, 0.1, 0.06, 0.2,
    ]
    static var fitB: [Double] {
        var fit = fitA
        fit[20] = 0.3
        fit[0] = 0.25
        return fit
    }
}

/// The 6 orders of three devices.
let permutations3 = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
