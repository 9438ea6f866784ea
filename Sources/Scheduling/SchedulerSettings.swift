public import Foundation
public import RoteModel

/// Everything a replay depends on besides the review events: the deck's and user's choices.
///
/// Replay is a pure function of events and these settings, so two devices with the same
/// settings reach the same state. Defaults equal py-fsrs 6.3.2's `Scheduler()` defaults
/// (retention 0.9, learning steps 1m 10m, relearning 10m, maximum interval 36500 days, fuzz
/// on) and Anki's defaults for SM-2. The only initialiser validates, so a value of this type
/// is always usable.
///
/// ```swift
/// let settings = try SchedulerSettings(scheduler: SchedulerKind(name: deck.scheduler ?? "fsrs"),
///                                      desiredRetention: profile.desiredRetention)
/// ```
public struct SchedulerSettings: Sendable, Hashable {
    /// The algorithm.
    public let scheduler: SchedulerKind
    /// FSRS-6 weights (unused by SM-2).
    public let parameters: FSRSParameters
    /// The recall probability FSRS schedules for, strictly between 0 and 1 (unused by SM-2).
    public let desiredRetention: Double
    /// Delays in seconds between answers while a new entry is learned.
    public let learningSteps: [TimeInterval]
    /// Delays in seconds after a review-phase entry is forgotten.
    public let relearningSteps: [TimeInterval]
    /// The longest interval in whole days.
    public let maximumInterval: Int
    /// Whether review intervals get the deterministic fuzz (see `Fuzz`).
    public let enableFuzzing: Bool
    /// Lapses at which an entry counts as a leech (Anki's 8); 0 turns leeches off.
    public let leechThreshold: Int
    /// What becomes of a leech: told and listed, or also suspended.
    public let leechAction: LeechAction
    /// SM-2's own knobs (unused by FSRS).
    public let sm2: SM2Settings

    public static let defaultDesiredRetention = 0.9
    public static let defaultLearningSteps: [TimeInterval] = [60, 600]
    public static let defaultRelearningSteps: [TimeInterval] = [600]
    public static let defaultMaximumInterval = 36_500
    public static let defaultLeechThreshold = 8

    /// py-fsrs's defaults, FSRS scheduler, fuzz on.
    public static let `default` = SchedulerSettings(
        scheduler: .fsrs, parameters: .default, desiredRetention: defaultDesiredRetention,
        learningSteps: defaultLearningSteps, relearningSteps: defaultRelearningSteps,
        maximumInterval: defaultMaximumInterval, enableFuzzing: true,
        leechThreshold: defaultLeechThreshold, leechAction: .tag, sm2: .anki)

    /// Builds settings from plain values; every `nil` takes the default.
    ///
    /// This is the one way in, for deck.yaml, profile.yaml and JSON lines alike, so every
    /// source is checked the same way: parameters against py-fsrs's count and bounds,
    /// retention strictly inside 0…1, steps 0 or more and finite, maximum interval ≥ 1 day.
    public init(
        scheduler: SchedulerKind? = nil,
        parameters: [Double]? = nil,
        desiredRetention: Double? = nil,
        learningSteps: [TimeInterval]? = nil,
        relearningSteps: [TimeInterval]? = nil,
        maximumInterval: Int? = nil,
        enableFuzzing: Bool? = nil,
        leechThreshold: Int? = nil,
        leechAction: LeechAction? = nil,
        sm2: SM2Settings? = nil
    ) throws(SchedulerSettingsError) {
        let checkedParameters = try parameters.map { values throws(SchedulerSettingsError) in
            try FSRSParameters(values)
        }
        let retention = desiredRetention ?? Self.defaultDesiredRetention
        guard retention > 0, retention < 1 else {
            throw SchedulerSettingsError(
                .desiredRetention, "desired retention \(retention) must be between 0 and 1, e.g. 0.9")
        }
        let learning = learningSteps ?? Self.defaultLearningSteps
        let relearning = relearningSteps ?? Self.defaultRelearningSteps
        for (name, steps) in [("learning", learning), ("relearning", relearning)] {
            // 0 is a step: the entry is due again at once (seed 000's 0 → 10 → 45 minutes).
            if let bad = steps.first(where: { !($0 >= 0 && $0.isFinite) }) {
                throw SchedulerSettingsError(
                    .steps, "\(name) step \(bad) must be 0 or more seconds, e.g. 600")
            }
        }
        let maximum = maximumInterval ?? Self.defaultMaximumInterval
        guard maximum >= 1 else {
            throw SchedulerSettingsError(
                .maximumInterval, "maximum interval \(maximum) must be at least 1 day")
        }
        let leech = leechThreshold ?? Self.defaultLeechThreshold
        guard leech >= 0 else {
            throw SchedulerSettingsError(
                .sm2, "leech threshold \(leech) must be 0 (off) or a number of lapses")
        }
        let sm2Settings = sm2 ?? .anki
        try sm2Settings.validate()
        self.init(
            scheduler: scheduler ?? .fsrs, parameters: checkedParameters ?? .default,
            desiredRetention: retention, learningSteps: learning, relearningSteps: relearning,
            maximumInterval: maximum, enableFuzzing: enableFuzzing ?? true,
            leechThreshold: leech, leechAction: leechAction ?? .tag, sm2: sm2Settings)
    }

    private init(
        scheduler: SchedulerKind, parameters: FSRSParameters, desiredRetention: Double,
        learningSteps: [TimeInterval], relearningSteps: [TimeInterval], maximumInterval: Int,
        enableFuzzing: Bool, leechThreshold: Int, leechAction: LeechAction, sm2: SM2Settings
    ) {
        self.scheduler = scheduler
        self.parameters = parameters
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
        self.enableFuzzing = enableFuzzing
        self.leechThreshold = leechThreshold
        self.leechAction = leechAction
        self.sm2 = sm2
    }

    /// The same settings with fuzz switched on or off.
    ///
    /// Comparisons with py-fsrs need fuzz off; everything else is unchanged and already valid.
    public func withFuzzing(_ enabled: Bool) -> SchedulerSettings {
        SchedulerSettings(
            scheduler: scheduler, parameters: parameters, desiredRetention: desiredRetention,
            learningSteps: learningSteps, relearningSteps: relearningSteps,
            maximumInterval: maximumInterval, enableFuzzing: enabled,
            leechThreshold: leechThreshold, leechAction: leechAction, sm2: sm2)
    }
}
