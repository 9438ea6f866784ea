public import Foundation
import RoteModel
public import Scheduling

/// A learner's practice of one skill of a skills deck, the counts beside seed 001's
/// `skill_progress` (`SkillProgress`, the share of questions last answered right): how many
/// of its questions were answered and how many right, when last, and how well the skill is
/// known. Derived from the reviews of the skill's questions each time it is asked for — an
/// answer is one review, a wrong one graded `again` — and never stored.
public struct SkillPractice: Sendable, Equatable {
    /// Questions answered (reviews of the skill's questions).
    public var attempts = 0
    /// Of those, answered right (graded other than again).
    public var correct = 0
    /// The last answer's time.
    public var lastPractised: Date?
    /// The sum of the answered questions' confidences (`Mastery`).
    public var confidenceSum = 0
    /// The skill's questions, answered or not (set from the deck; at least those answered).
    public var questions = 0

    public init() {}

    /// Right answers ÷ answers; nil before the first.
    public var accuracy: Double? { attempts == 0 ? nil : Double(correct) / Double(attempts) }
    /// The mean confidence over all the skill's questions, an unanswered one counting 0.
    public var confidence: Int { questions == 0 ? 0 : Int((Double(confidenceSum) / Double(questions)).rounded()) }
    /// The mastery level of that confidence.
    public var mastery: MasteryLevel { MasteryLevel(confidence: confidence) }

    /// Adds one question's reviews.
    mutating func add(grades: some Collection<Grade>, last: Date?, confidence: Int) {
        attempts += grades.count
        correct += grades.filter { $0 != .again }.count
        if let last, last > (lastPractised ?? .distantPast) { lastPractised = last }
        confidenceSum += confidence
        questions += 1
    }

    mutating func add(_ other: SkillPractice) {
        attempts += other.attempts
        correct += other.correct
        if let last = other.lastPractised, last > (lastPractised ?? .distantPast) { lastPractised = last }
        confidenceSum += other.confidenceSum
        questions += other.questions
    }

    /// The skill of a question id in a skills deck: the id without its last segment
    /// (`math/algebra/linear_equations/one_step` → `math/algebra/linear_equations`).
    public static func skill(ofQuestion id: String) -> String? {
        guard let slash = id.lastIndex(of: "/") else { return nil }
        let skill = String(id[..<slash])
        return skill.split(separator: "/").count >= 3 ? skill : nil
    }

    /// One line: `12 attempts · 10 right (83%) · last 2026-11-21 10:00 · mastery learning (42)`.
    public func summary(formatDate: (Date) -> String) -> String {
        guard attempts > 0 else { return "not practised yet · \(questions) question\(questions == 1 ? "" : "s")" }
        let percent = Int(((accuracy ?? 0) * 100).rounded())
        return "\(attempts) attempt\(attempts == 1 ? "" : "s") · \(correct) right (\(percent)%)"
            + (lastPractised.map { " · last \(formatDate($0))" } ?? "")
            + " · mastery \(mastery.rawValue.replacingOccurrences(of: "_", with: " ")) (\(confidence)) over \(questions) question\(questions == 1 ? "" : "s")"
    }
}
