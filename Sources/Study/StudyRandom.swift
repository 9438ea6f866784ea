import RoteModel

/// Shuffles and draws with a documented algorithm, so a seed gives the same session on every
/// toolchain (the standard library's `shuffle(using:)` does not promise its draw sequence).
package enum StudyRandom {
    /// A uniform index in `0..<count` (`count` > 0). Modulo bias is below 2⁻⁵⁰ for the small
    /// counts study uses.
    package static func index(below count: Int, using generator: inout some RandomNumberGenerator) -> Int {
        precondition(count > 0, "cannot draw from an empty range")
        return Int(generator.next() % UInt64(count))
    }

    /// Fisher–Yates from the last position down: position `i` swaps with `index(below: i + 1)`.
    package static func shuffled<Element>(_ items: [Element], using generator: inout some RandomNumberGenerator)
        -> [Element]
    {
        var items = items
        var position = items.count - 1
        while position > 0 {
            let other = index(below: position + 1, using: &generator)
            if other != position { items.swapAt(position, other) }
            position -= 1
        }
        return items
    }
}
