public import Foundation
public import RoteModel

/// The five mastery levels of the vocabulary app, by confidence: starting 0–29, learning
/// 30–59, getting there 60–79, strong 80–89, mastered 90–100.
public enum MasteryLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    case starting
    case learning
    case gettingThere = "getting_there"
    case strong
    case mastered

    /// The confidence values (0…100) that fall in this level.
    public var confidenceRange: ClosedRange<Int> {
        switch self {
        case .starting: 0...29
        case .learning: 30...59
        case .gettingThere: 60...79
        case .strong: 80...89
        case .mastered: 90...100
        }
    }

    /// The level a confidence falls in; values outside 0…100 are clamped.
    public init(confidence: Int) {
        let value = min(max(confidence, 0), 100)
        self = Self.allCases.first { $0.confidenceRange.contains(value) } ?? .starting
    }

    public static func < (lhs: MasteryLevel, rhs: MasteryLevel) -> Bool {
        lhs.confidenceRange.lowerBound < rhs.confidenceRange.lowerBound
    }
}

/// How well a learner knows an entry right now: a confidence from 0 to 100 and its level.
///
/// The rule, chosen so each part means something a learner can feel:
///
///     confidence = round(100 × R × (0.7 × min(1, S / 30) + 0.3 × passes / 10))
///
/// - `R`, retrievability now: how likely recall is today. It multiplies everything, so an
///   entry left far past due loses confidence however well it was once known.
/// - `S / 30`, stability against a month (FSRS stability, or the SM-2 interval, in days):
///   knowledge that lasts. Mastery needs memory that survives about a month.
/// - `passes / 10`, answers other than again among the last 10: a steady record. Fewer than
///   10 reviews count the missing ones as not yet passed, so confidence is earned over time.
///
/// A new entry (no reviews) has confidence 0. One good answer gives about 8 (starting); an
/// entry with a month's stability and ten passes in a row, reviewed on time, gives 90–100
/// (mastered).
package struct Mastery: Sendable, Hashable {
    package let confidence: Int
    package let level: MasteryLevel

    /// Stability that counts as lasting knowledge, in days.
    package static let stabilityHorizonDays = 30.0
    /// How many recent grades count.
    package static let recentWindow = 10
    package static let stabilityWeight = 0.7
    package static let recentWeight = 0.3

    /// Confidence from a state's retrievability and stability at `now` and the most recent
    /// grades (oldest first; only the last `recentWindow` count).
    package init(state: MemoryState?, recentGrades: some Collection<Grade>, at now: Date, scheduler: Scheduler) {
        guard let state, !recentGrades.isEmpty else {
            self.init(confidence: 0)
            return
        }
        let recall = scheduler.retrievability(of: state, at: now)
        let stability = state.stability ?? state.interval ?? 0
        let lasting = min(1, max(0, stability) / Self.stabilityHorizonDays)
        let passes = recentGrades.suffix(Self.recentWindow).filter { $0 != .again }.count
        let record = Double(passes) / Double(Self.recentWindow)
        let blend = Self.stabilityWeight * lasting + Self.recentWeight * record
        self.init(confidence: Int((100 * recall * blend).rounded()))
    }

    /// Confidence of an entry from its review events: replays them and takes their grades.
    package init(events: [ReviewEvent], entryID: String, at now: Date, scheduler: Scheduler) {
        let ordered = events.sorted(by: ReviewEvent.replayOrder).filter { $0.at <= now }
        self.init(
            state: scheduler.replay(ordered, entryID: entryID), recentGrades: ordered.map(\.grade),
            at: now, scheduler: scheduler)
    }

    /// A confidence (clamped to 0…100) and its level.
    package init(confidence: Int) {
        self.confidence = min(max(confidence, 0), 100)
        self.level = MasteryLevel(confidence: self.confidence)
    }
}
