import Foundation
import RoteModel
import Testing

/// Draws for generating test data, on RoteModel's seeded generator (SplitMix64, Steele, Lea &
/// Flood 2014), so every property-test case can be replayed from its seed and index, on any
/// machine, in any Swift version.
///
/// The standard library's `SystemRandomNumberGenerator` cannot be seeded, and its
/// `Int.random(in:using:)` algorithm may change between releases; the helpers below use only
/// `next()` and plain arithmetic, so a failing case stays reproducible.
extension SeededGenerator {
    /// A number in `0..<count` (count > 0). The modulo bias is below 2⁻⁵⁰ for the small
    /// ranges tests use, which does not matter for test data.
    mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// A number in the closed range.
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// True with the given probability (0…1).
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    /// A lowercase UUID-shaped id, as Rote writes review ids.
    mutating func uuid() -> String {
        let hex = Array("0123456789abcdef")
        let digits = (0..<32).map { _ in hex[below(16)] }
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return groups.joined(separator: "-")
    }

    /// The elements in a random order (Fisher–Yates).
    mutating func shuffled<Element>(_ elements: [Element]) -> [Element] {
        var result = elements
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, below(index + 1))
            index -= 1
        }
        return result
    }
}

/// Runs `body` over `count` generated cases for one seed; stops at the first case whose
/// body returns false, so a broken property reports one readable case instead of hundreds.
func forAllCases(
    seed: UInt64, count: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (_ random: inout SeededGenerator, _ index: Int) -> Bool
) {
    for index in 0..<count {
        // Each case gets its own generator, so a failure replays with `seed` and `index`
        // alone, however the cases before it drew.
        var random = SeededGenerator(seed: seed &* 1_000_003 &+ UInt64(index))
        if !body(&random, index) {
            Issue.record("property failed at seed \(seed), case \(index)", sourceLocation: sourceLocation)
            return
        }
    }
}

/// Seeds for the property tests: each runs `casesPerSeed` cases, so every property sees
/// 4 × 250 = 1 000 random cases, and Swift Testing runs the seeds in parallel.
let propertySeeds: [UInt64] = [1, 2, 3, 4]
let casesPerSeed = 250
