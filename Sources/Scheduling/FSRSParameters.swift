/// The 21 FSRS-6 model weights, checked against py-fsrs 6.3.2's bounds.
///
/// A deck or profile may carry weights fitted by an optimizer; anything outside the bounds
/// py-fsrs accepts would make the formulas misbehave (negative stabilities, divisions by
/// zero), so such weights are refused when settings are built rather than discovered in replay.
public struct FSRSParameters: Sendable, Hashable {
    /// How many weights FSRS-6 has: w0…w20.
    public static let count = 21

    /// py-fsrs 6.3.2's `DEFAULT_PARAMETERS`.
    public static let defaultValues: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]

    /// py-fsrs 6.3.2's `LOWER_BOUNDS_PARAMETERS`, inclusive.
    public static let lowerBounds: [Double] = [
        0.001, 0.001, 0.001, 0.001, 1.0, 0.001, 0.001, 0.001, 0.0, 0.0, 0.001,
        0.001, 0.001, 0.001, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1,
    ]

    /// py-fsrs 6.3.2's `UPPER_BOUNDS_PARAMETERS`, inclusive.
    public static let upperBounds: [Double] = [
        100.0, 100.0, 100.0, 100.0, 10.0, 4.0, 4.0, 0.75, 4.5, 0.8, 3.5,
        5.0, 0.25, 0.9, 4.0, 1.0, 6.0, 2.0, 2.0, 0.8, 0.8,
    ]

    /// The default weights.
    public static let `default` = FSRSParameters(checked: defaultValues)

    /// The weights, w0 first.
    public let values: [Double]

    /// Checks the count and every weight's bounds, as py-fsrs's `_validate_parameters` does.
    ///
    /// The error lists every weight out of bounds, so a bad optimizer output is fixed in one go.
    public init(_ values: [Double]) throws(SchedulerSettingsError) {
        guard values.count == Self.count else {
            throw SchedulerSettingsError(
                .parameterCount,
                "expected \(Self.count) FSRS parameters, got \(values.count)")
        }
        var problems: [String] = []
        for index in values.indices {
            let value = values[index]
            let lower = Self.lowerBounds[index]
            let upper = Self.upperBounds[index]
            if !(lower <= value && value <= upper) {
                problems.append("parameters[\(index)] = \(value) is out of bounds (\(lower)...\(upper))")
            }
        }
        guard problems.isEmpty else {
            throw SchedulerSettingsError(.parameterOutOfBounds, problems.joined(separator: "; "))
        }
        self.values = values
    }

    private init(checked values: [Double]) {
        self.values = values
    }

    /// The weight w`index`.
    public subscript(index: Int) -> Double { values[index] }
}
