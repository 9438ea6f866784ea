public import RoteModel

/// Why scheduler settings were refused: a code to match on and a message that says what to fix.
///
/// Settings come from files people edit (deck.yaml, profile.yaml) and from JSON lines, so the
/// message names the value and the accepted range; the code lets callers branch without
/// parsing text (`catch SchedulerSettingsError.Code.parameterOutOfBounds`).
public struct SchedulerSettingsError: RoteError, Hashable {
    /// What kind of value was wrong. Extensible: new codes may be added.
    public struct Code: RoteErrorCode, RawRepresentable {
        public typealias Failure = SchedulerSettingsError
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not exactly 21 FSRS parameters.
        public static let parameterCount = Code(rawValue: "parameter-count")
        /// An FSRS parameter outside py-fsrs's bounds.
        public static let parameterOutOfBounds = Code(rawValue: "parameter-out-of-bounds")
        /// Desired retention not strictly between 0 and 1.
        public static let desiredRetention = Code(rawValue: "desired-retention")
        /// A learning or relearning step that is not a positive number of seconds.
        public static let steps = Code(rawValue: "steps")
        /// A maximum interval under one day.
        public static let maximumInterval = Code(rawValue: "maximum-interval")
        /// A scheduler name other than `fsrs` or `sm2`.
        public static let unknownScheduler = Code(rawValue: "unknown-scheduler")
        /// An SM-2 setting out of its range.
        public static let sm2 = Code(rawValue: "sm2")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Settings are checked as given; nothing lies underneath.
    public var cause: (any Error)? { nil }
}
