/// A seeded random number generator (SplitMix64) for reproducible sessions.
///
/// Study code never reaches for a global random source: every shuffle takes a generator as a
/// parameter, so a session built from the same seed shows the same options in the same order
/// — in tests, and when a crashed session is rebuilt from its snapshot.
///
/// ```swift
/// var random = SeededGenerator(seed: 42)
/// let options = StudyRandom.shuffled(["a", "b", "c"], using: &random)
/// ```
package struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// A generator seeded from text (an entry id, a session id) through `StableHash`.
    package init(seed parts: String...) { state = StableHash.fnv1a(parts) }

    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        return StableHash.mix(state)
    }
}

/// A hash that is the same on every device and in every process: FNV-1a 64 over UTF-8 bytes,
/// finished with SplitMix64's mixer.
///
/// Swift's `Hasher` is seeded per process, so anything derived from it (which words a cloze
/// blanks, say) would change from run to run; this one never does.
package enum StableHash {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of `parts`, with a 0x1F separator after each so ("ab", "c") ≠ ("a", "bc").
    package static func fnv1a(_ parts: [String]) -> UInt64 {
        var hash = offsetBasis
        for part in parts {
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* prime }
            hash = (hash ^ 0x1f) &* prime
        }
        return mix(hash)
    }

    /// SplitMix64's finaliser: spreads every input bit over the whole word.
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
