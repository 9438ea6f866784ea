public import Foundation
import RoteModel

/// Seed 002's daily matrix: one word family (a root) a day and six satellite words around it.
///
/// Roots are data: a vocabulary entry names the head word of its family with `root:` (`root:
/// act` for action, actor, active; a head word names itself), and the families are those
/// fields gathered, root → words. The day's root is `epochDay % rootCount` over the roots in
/// name order, where epochDay counts days from 1970-01-01 to the learner's calendar date: the
/// same on every device, offline, with no state to sync. The six satellites are the family's
/// other words nearest the learner's lexical rank (distance in log rank), then — for a small
/// family — the words of other families nearest it, ties by id. Pure and deterministic.
public enum DailyMatrix {
    public struct Word: Sendable, Equatable {
        public var id: String
        public var word: String
        public var rank: Int?
        public var root: String

        public init(id: String, word: String, rank: Int?, root: String) {
            self.id = id
            self.word = word
            self.rank = rank
            self.root = root
        }
    }

    public struct Day: Sendable, Equatable {
        public var epochDay: Int
        /// The root's head word.
        public var root: String
        /// The root's own entry, when a deck holds its head word.
        public var rootWord: Word?
        /// Every word of the family, by rank.
        public var family: [Word]
        /// Six words at most (fewer only when the decks hold fewer besides the root).
        public var satellites: [Word]
        public var rootCount: Int
    }

    public static let satelliteCount = 6

    /// Days from 1970-01-01 to the calendar date `date` falls on in `timeZone`.
    public static func epochDay(of date: Date, timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var parts = calendar.dateComponents([.year, .month, .day], from: date)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        parts.timeZone = calendar.timeZone
        let midnight = calendar.date(from: parts)!.timeIntervalSince1970
        return Int((midnight / 86_400).rounded(.down))
    }

    static func byRank(_ lhs: Word, _ rhs: Word) -> Bool {
        (lhs.rank ?? .max, lhs.id) < (rhs.rank ?? .max, rhs.id)
    }

    /// The matrix of `epochDay` for a learner at `lexicalRank` (nil: centred on the root's own
    /// rank); nil when no word has a root.
    public static func day(_ epochDay: Int, words: [Word], lexicalRank: Int?) -> Day? {
        // Only the chosen family is gathered: a large library has as many roots as words.
        let roots = Set(words.map(\.root)).sorted()
        guard !roots.isEmpty else { return nil }
        let count = roots.count
        let chosenRoot = roots[((epochDay % count) + count) % count]
        let chosen = (root: chosenRoot, words: words.filter { $0.root == chosenRoot }.sorted(by: byRank))
        let rootWord = chosen.words.first { $0.word.lowercased() == chosen.root }
        // Kept as the Int it was read as: `Int(Double(Int.max))` traps, and a profile may say it.
        let centreRank = lexicalRank ?? rootWord?.rank ?? chosen.words.first?.rank ?? 1
        let centre = Double(centreRank)
        func distance(_ word: Word) -> Double {
            abs(log(Double(max(1, word.rank ?? centreRank))) - log(max(1, centre)))
        }
        func nearer(_ lhs: Word, _ rhs: Word) -> Bool {
            let (a, b) = (distance(lhs), distance(rhs))
            return a != b ? a < b : lhs.id < rhs.id
        }
        var satellites = chosen.words.filter { $0.id != rootWord?.id }.sorted(by: nearer)
        if satellites.count < satelliteCount {
            let others = words.filter { $0.root != chosen.root }.sorted(by: nearer)
            satellites += others.prefix(satelliteCount - satellites.count)
        }
        return Day(
            epochDay: epochDay, root: chosen.root, rootWord: rootWord, family: chosen.words,
            satellites: Array(satellites.prefix(satelliteCount)), rootCount: count)
    }
}
