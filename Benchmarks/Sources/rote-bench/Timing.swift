/// Wall-clock timing for the benchmarks: one measurement, and the median of several.
enum Timing {
    /// Seconds `work` took, keeping its result alive so the optimiser cannot drop the work.
    static func seconds<T>(_ work: () -> T) -> Double {
        let clock = ContinuousClock()
        var result: T?
        let elapsed = clock.measure { result = work() }
        withExtendedLifetime(result) {}
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// The median of `runs` measurements.
    static func median(_ runs: Int, _ measure: () -> Double) -> Double {
        let values = (0..<runs).map { _ in measure() }.sorted()
        return values.count % 2 == 1
            ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2
    }

    /// Seconds `work` took, with its result: for work that throws or whose result is needed.
    static func measure<T>(_ work: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let clock = ContinuousClock()
        var result: T?
        let elapsed = try clock.measure { result = try work() }
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, result!)
    }

    /// The median of measurements already taken; NaN when there are none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
