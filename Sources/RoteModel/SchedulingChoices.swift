public import Foundation

/// What a learner does with an entry that has become a leech.
public enum LeechAction: String, Sendable, Hashable, CaseIterable {
    /// Tell the learner, list it (`rote list --leeches`), and keep studying it.
    case tag
    /// Tell the learner and suspend it on the lapse that makes it a leech.
    case suspend
}

/// The scheduling values a deck's author (`deck.yaml`), a learner (`settings:` in their
/// profile) or a learner for one deck (`deck_settings.<deck>`) may set; nil leaves a value to
/// the next layer down.
///
/// The three places read and write the same keys with the same checks, and
/// `SchedulerSettings.forDeck` lays them over each other: the learner's choice for the deck,
/// then the learner's own, then the deck's, then the default (`docs/scheduling.md`, "Which
/// settings schedule a deck").
public struct SchedulingChoices: Sendable, Hashable {
    public var desiredRetention: Double?
    /// In whole days.
    public var maximumInterval: Int?
    /// In seconds (minutes in the file).
    public var learningSteps: [Double]?
    public var relearningSteps: [Double]?
    /// Lapses that make an entry a leech; 0 turns leeches off.
    public var leechThreshold: Int?
    public var leechAction: LeechAction?

    public init(
        desiredRetention: Double? = nil, maximumInterval: Int? = nil, learningSteps: [Double]? = nil,
        relearningSteps: [Double]? = nil, leechThreshold: Int? = nil, leechAction: LeechAction? = nil
    ) {
        self.desiredRetention = desiredRetention
        self.maximumInterval = maximumInterval
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.leechThreshold = leechThreshold
        self.leechAction = leechAction
    }

    /// The file keys, in the order they are written.
    public static let keys = [
        "desired_retention", "maximum_interval", "learning_steps", "relearning_steps", "leech_threshold",
        "leech_action",
    ]

    /// The retentions Rote schedules for: below 0.7 forgetting outweighs the reviews saved,
    /// above 0.99 intervals stop growing.
    public static let retentionRange = 0.7...0.99

    /// True when nothing is set.
    public var isEmpty: Bool { self == SchedulingChoices() }

    /// These values, each nil one taken from `lower`.
    public func over(_ lower: SchedulingChoices) -> SchedulingChoices {
        SchedulingChoices(
            desiredRetention: desiredRetention ?? lower.desiredRetention,
            maximumInterval: maximumInterval ?? lower.maximumInterval,
            learningSteps: learningSteps ?? lower.learningSteps,
            relearningSteps: relearningSteps ?? lower.relearningSteps,
            leechThreshold: leechThreshold ?? lower.leechThreshold,
            leechAction: leechAction ?? lower.leechAction)
    }

    /// Reads the keys from `reader` (deck.yaml's top level, a profile's `settings` or one
    /// deck's `deck_settings`); a value out of range is reported at its line and left unset.
    public init(reading reader: inout MappingReader) {
        desiredRetention = reader.double("desired_retention")
        maximumInterval = reader.int("maximum_interval")
        learningSteps = reader.minuteSteps("learning_steps")
        relearningSteps = reader.minuteSteps("relearning_steps")
        leechThreshold = reader.int("leech_threshold")
        if let retention = desiredRetention, !Self.retentionRange.contains(retention) {
            reader.error(
                "desired_retention",
                "\(reader.label("desired_retention")) \(YAMLValue.format(retention)) is outside 0.70…0.99; write a share such as 0.9, or remove the line for the default (0.9)"
            )
            desiredRetention = nil
        }
        if let days = maximumInterval, days < 1 {
            reader.error(
                "maximum_interval",
                "\(reader.label("maximum_interval")) is \(days), but it must be at least 1; write a positive whole number, or remove the line for the default (36500 days)"
            )
            maximumInterval = nil
        }
        if let lapses = leechThreshold, lapses < 0 {
            reader.error(
                "leech_threshold",
                "\(reader.label("leech_threshold")) is \(lapses), but it must be 0 (no leeches) or a number of lapses such as 8"
            )
            leechThreshold = nil
        }
        if let text = reader.string("leech_action") {
            if let action = LeechAction(rawValue: text) {
                leechAction = action
            } else {
                reader.error(
                    "leech_action",
                    "\(reader.label("leech_action")) '\(text)' is not one of: \(LeechAction.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
        }
    }

    /// Adds the set keys to `map`, in `keys`' order.
    package func add(to map: inout YAMLMapBuilder) {
        map.add("desired_retention", desiredRetention)
        map.add("maximum_interval", maximumInterval)
        map.add("learning_steps", learningSteps.map(YAMLValue.minuteSteps))
        map.add("relearning_steps", relearningSteps.map(YAMLValue.minuteSteps))
        map.add("leech_threshold", leechThreshold)
        map.add("leech_action", leechAction?.rawValue)
    }
}
