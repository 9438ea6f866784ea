/// One step of an alignment.
enum AlignmentStep: UInt8 {
    case match, substitute, missing, extra
}

/// Word-level Levenshtein alignment over word ids.
///
/// A recitation usually differs from its passage in a few places, so the cost table is first
/// filled only in a band of `k` cells either side of the diagonal (Ukkonen's cut-off): an
/// alignment costing `c` never strays more than `c` cells from it, so a result of at most `k`
/// is exact. A larger result `r` is still an alignment, so the best costs at most `r`: the
/// next try uses `k = r` (at least double), which is sure to hold it. `k` starts from a lower
/// bound on the cost (typed words the passage lacks, passage words the typing lacks, the
/// difference in length), so a text with nothing in common goes straight to the whole table.
enum RecallAligner {
    static let infinity = Int32.max / 4

    /// Aligns `typed` with `expected`, appending the steps in reading order to `ops`, and
    /// returns how many expected words the alignment covers (all of them unless `prefix`,
    /// where the alignment may stop early: the cheapest end, the furthest on a tie).
    ///
    /// `lowerBound` is a cost the alignment cannot be below. Walking back prefers a match,
    /// then an extra word, then a missing one, then a wrong one, so ties keep the most words
    /// correct.
    static func align(
        _ expected: ArraySlice<Int32>, _ typed: ArraySlice<Int32>, prefix: Bool, lowerBound: Int,
        into ops: inout [AlignmentStep]
    ) -> Int {
        let n = expected.count
        let m = typed.count
        if m == 0 {
            if !prefix { for _ in 0..<n { ops.append(.missing) } }
            return prefix ? 0 : n
        }
        if n == 0 {
            for _ in 0..<m { ops.append(.extra) }
            return 0
        }
        let e = Array(expected)
        let t = Array(typed)
        var k = max(16, 2 * lowerBound + 8)
        while 2 * k + 1 < n + 1 {
            let band = Band(e, t, k: k, prefix: prefix)
            if let covered = band.alignment(into: &ops) { return covered }
            // The band's own best is an alignment too, so the true cost is at most that: a band
            // that wide is sure to hold it. (Doubling instead could fill the table many times
            // over for a scrambled text.)
            let found = band.bestCost
            k = found < RecallAligner.infinity ? max(Int(found), 2 * k) : 2 * k
        }
        return Band(e, t, k: max(n, m), prefix: prefix).alignment(into: &ops)!
    }

    /// The cost table restricted to `|i − j| ≤ k` (typed word `i`, expected word `j`); cells
    /// outside it are infinite. With `k ≥ max(n, m)` it is the whole table, kept `n + 1` wide.
    struct Band {
        let e: [Int32], t: [Int32]
        let n: Int, m: Int, k: Int
        let prefix: Bool
        /// Row `i` holds columns `i − k ... i + k` at `i · width + j − i + k`, or, when the band
        /// is the whole table, columns `0...n` at `i · width + j`.
        let width: Int
        let whole: Bool
        var table: [Int32]

        init(_ e: [Int32], _ t: [Int32], k: Int, prefix: Bool) {
            self.e = e
            self.t = t
            n = e.count
            m = t.count
            self.k = k
            self.prefix = prefix
            whole = k >= max(n, m)
            width = whole ? n + 1 : 2 * k + 1
            table = [Int32](repeating: RecallAligner.infinity, count: (m + 1) * width)
            fill()
        }

        /// Where cell `(i, j)` lives, or nil outside the band.
        @inline(__always) func slot(_ i: Int, _ j: Int) -> Int? {
            if whole { return i * width + j }
            let offset = j - i + k
            return offset >= 0 && offset < width ? i * width + offset : nil
        }

        @inline(__always) func cost(_ i: Int, _ j: Int) -> Int32 {
            guard j >= 0, j <= n, let slot = slot(i, j) else { return RecallAligner.infinity }
            return table[slot]
        }

        /// Fills the table row by row. Each row is two passes, so the chain from one cell to
        /// the next is a single `min`: first every cell's best from above (diagonal: match or
        /// wrong; straight up: extra), which has no dependency along the row; then the cells
        /// from the left (missing), as a running minimum of `cost − j`.
        mutating func fill() {
            let (n, m, k, width, whole) = (n, m, k, width, whole)
            let infinity = RecallAligner.infinity
            var scratch = [Int32](repeating: 0, count: n + 1)
            table.withUnsafeMutableBufferPointer { cost in
                scratch.withUnsafeMutableBufferPointer { fromAbove in
                    e.withUnsafeBufferPointer { e in
                        t.withUnsafeBufferPointer { t in
                            // Column j of row i sits at base(i) + j: base is i·width for the
                            // whole table, i·width − i + k in a band.
                            let band = whole ? 0 : k
                            for j in 0...min(n, whole ? n : k) { cost[j + band] = Int32(j) }
                            for i in 1...m {
                                let low = whole ? 0 : max(0, i - k)
                                let high = whole ? n : min(n, i + k)
                                guard low <= high else { continue }
                                let base = i * width - (whole ? 0 : i) + band
                                let above = whole ? base - width : base - width + 1
                                let word = t[i - 1]
                                let first = max(low, 1)
                                // (i − 1, j) lies in a band only while j < i + k.
                                let lastWithAbove = whole ? high : min(high, i + k - 1)
                                // Wrapping arithmetic: values stay far below Int32's range
                                // (infinity is a quarter of it), and without overflow checks
                                // the first pass vectorises.
                                var j = first
                                while j <= lastWithAbove {
                                    let diagonal = cost[above &+ j &- 1] &+ (e[j &- 1] == word ? 0 : 1)
                                    fromAbove[j] = min(diagonal, cost[above &+ j] &+ 1)
                                    j &+= 1
                                }
                                if lastWithAbove < high, high >= first {
                                    fromAbove[high] = cost[above &+ high &- 1] &+ (e[high &- 1] == word ? 0 : 1)
                                }
                                var running: Int32
                                if low == 0 {
                                    cost[base] = Int32(i)
                                    running = Int32(i)
                                } else {
                                    running = infinity
                                }
                                j = first
                                while j <= high {
                                    // best(j) − j = min(fromAbove(j) − j, best(j − 1) − (j − 1)).
                                    running = min(running, fromAbove[j] &- Int32(truncatingIfNeeded: j))
                                    cost[base &+ j] = running &+ Int32(truncatingIfNeeded: j)
                                    j &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Where the alignment ends: column `n`, or in prefix mode the cheapest column of the
        /// last row (the furthest of equals).
        var end: Int {
            guard prefix else { return n }
            var best = RecallAligner.infinity
            var column = n
            for candidate in stride(from: min(n, m + k), through: max(0, m - k), by: -1) where cost(m, candidate) < best
            {
                best = cost(m, candidate)
                column = candidate
            }
            return column
        }

        /// The cost of the best alignment inside the band (infinite when none ends in it).
        var bestCost: Int32 { cost(m, end) }

        /// Walks the cheapest alignment back into `ops`; nil when its cost exceeds `k` (so a
        /// cheaper one might lie outside the band).
        func alignment(into ops: inout [AlignmentStep]) -> Int? {
            var j = end
            let total = cost(m, j)
            if !whole, total > k { return nil }
            let covered = j
            var i = m
            var reversed: [AlignmentStep] = []
            reversed.reserveCapacity(m + j)
            while i > 0 || j > 0 {
                let here = cost(i, j)
                if i > 0, j > 0, e[j - 1] == t[i - 1], cost(i - 1, j - 1) == here {
                    reversed.append(.match)
                    i -= 1
                    j -= 1
                } else if i > 0, cost(i - 1, j) + 1 == here {
                    reversed.append(.extra)
                    i -= 1
                } else if j > 0, cost(i, j - 1) + 1 == here {
                    reversed.append(.missing)
                    j -= 1
                } else {
                    reversed.append(.substitute)
                    i -= 1
                    j -= 1
                }
            }
            ops.append(contentsOf: reversed.reversed())
            return covered
        }
    }
}
