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
}
