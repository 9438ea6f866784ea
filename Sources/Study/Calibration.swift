import Foundation
import RoteModel

/// Seed 002's vocabulary calibration: an adaptive test (CAT, item response theory) that
/// estimates a learner's lexical rank — how far down a frequency list they know the words.
///
/// The model (documented in `docs/scheduling.md`, "Calibration"):
///
/// - The learner's ability is θ = ln(lexical rank); a word's difficulty is b = ln(its rank).
/// - A learner knows a word with probability P(θ, b) = 1 / (1 + e^(−a·(θ − b))), a = 6
///   (a one-parameter logistic model in log rank: from rank 0.69·r to 1.44·r the chance
///   falls from 90% to 10%).
/// - Answers slip: a "do you know it?" answer says the opposite of what the learner knows
///   with probability ε = 0.05; a four-way meaning check is right when the word is known (less
///   the slip) or, unknown, by a lucky guess (¼).
/// - The estimate is Bayesian on a grid of θ: a flat prior over ln 1 … ln(the deck's largest
///   rank × 1.25), multiplied by each answer's likelihood. The rank reported is e^(posterior
///   mean of θ); the standard error is the posterior standard deviation of the rank itself.
/// - Each question asks the unasked word with the most Fisher information at the current
///   estimate (the rank nearest e^θ, for this model). Every fourth question is a meaning
///   check. A learner who claims words and then fails their checks is over-claiming, so
///   the slip rate of their "known" claims is raised to the share of failed checks (at most
///   0.45): their claims then count for little and the checks decide.
/// - It stops when the posterior standard deviation of θ is at most 0.15 (after at least
///   eight questions), or after 40 questions, or when no word is left to ask.
///
/// Pure: no clock, no files; randomness (distractors, where the right choice goes) comes
/// from a seeded generator, so a seed replays a test exactly.
public struct Calibration: Sendable {
    /// One word the test may ask about.
    public struct Item: Sendable, Equatable {
        public var id: String
        public var word: String
        public var rank: Int
        /// The right meaning for a check; nil when the entry has none (never checked).
        public var translation: String?

        public init(id: String, word: String, rank: Int, translation: String?) {
            self.id = id
            self.word = word
            self.rank = rank
            self.translation = translation
        }
    }

    public struct Question: Sendable, Equatable {
        public enum Ask: Sendable, Equatable {
            case known
            /// Four meanings; `answer` is the right one's position (0-based).
            case choice(choices: [String], answer: Int)
        }

        /// 1-based.
        public var number: Int
        public var item: Item
        public var ask: Ask
    }

    public enum Answer: Sendable, Equatable {
        case known, unknown
        /// The chosen position, 0-based.
        case choice(Int)
    }

    public struct Estimate: Sendable, Equatable {
        public var lexicalRank: Int
        /// The posterior standard deviation of the rank.
        public var standardError: Double
        /// The posterior standard deviation of ln(rank): the stopping rule's measure.
        public var logStandardError: Double
        public var questions: Int

        public init(lexicalRank: Int, standardError: Double, logStandardError: Double, questions: Int) {
            self.lexicalRank = lexicalRank
            self.standardError = standardError
            self.logStandardError = logStandardError
            self.questions = questions
        }
    }

    public static let discrimination = 6.0
    public static let slip = 0.05
    public static let guess = 0.25
    public static let maximumQuestions = 40
    public static let minimumQuestions = 8
    public static let stoppingLogError = 0.15
    /// Every `checkEvery`-th question is a meaning check.
    public static let checkEvery = 4

    public let items: [Item]
    /// ln(rank) of each item, in `items` order.
    let difficulties: [Double]
    let grid: [Double]
    var logPosterior: [Double]
    var asked = Set<Int>()
    var pending: (question: Question, index: Int)?
    var random: SeededGenerator
    public private(set) var answered = 0
    var checks = 0, failedChecks = 0
    /// Answers so far, to re-weigh claims when the over-claiming rate changes.
    var history: [(index: Int, answer: Answer, isCheck: Bool, correct: Bool)] = []

    /// A test over `items` (words with a rank; at least one). Items without a translation are
    /// only asked as "do you know it?".
    public init(items: [Item], seed: UInt64) {
        self.items = items.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.id < $1.id }
        difficulties = self.items.map { log(Double(max(1, $0.rank))) }
        let top = log(Double(max(2, (self.items.last?.rank ?? 2))) * 1.25)
        let points = 400
        grid = (0..<points).map { top * Double($0) / Double(points - 1) }
        logPosterior = Array(repeating: 0, count: points)
        random = SeededGenerator(seed: seed)
        current = Self.summary(grid: grid, logPosterior: logPosterior, questions: 0)
    }

    /// The chance a learner of ability θ knows a word of difficulty b.
    static func knows(_ theta: Double, _ difficulty: Double) -> Double {
        1 / (1 + exp(-discrimination * (theta - difficulty)))
    }

    /// The slip rate of "known" claims: ε, raised by failed checks (over-claiming).
    var claimSlip: Double {
        guard checks > 0 else { return Self.slip }
        return min(0.45, max(Self.slip, Double(failedChecks) / Double(checks)))
    }

    /// The likelihood of an answer at each grid point.
    func likelihood(of answer: Answer, index: Int, isCheck: Bool, correct: Bool) -> [Double] {
        let difficulty = difficulties[index]
        return grid.map { theta in
            let p = Self.knows(theta, difficulty)
            if isCheck {
                let right = p * (1 - Self.slip) + (1 - p) * Self.guess
                return correct ? right : 1 - right
            }
            switch answer {
            case .known: return p * (1 - claimSlip) + (1 - p) * claimSlip
            default: return p * Self.slip + (1 - p) * (1 - Self.slip)
            }
        }
    }

    /// Rebuilds the posterior from every answer (the over-claiming rate may have changed).
    mutating func refit() {
        var posterior = Array(repeating: 0.0, count: grid.count)
        for asked in history {
            let values = likelihood(
                of: asked.answer, index: asked.index, isCheck: asked.isCheck, correct: asked.correct)
            for point in grid.indices { posterior[point] += log(max(values[point], 1e-300)) }
        }
        logPosterior = posterior
        current = Self.summary(grid: grid, logPosterior: posterior, questions: answered)
    }

    /// The estimate as of the last answer.
    public var estimate: Estimate { current }
    var current: Estimate

    static func summary(grid: [Double], logPosterior: [Double], questions: Int) -> Estimate {
        let top = logPosterior.max() ?? 0
        let raw = logPosterior.map { exp($0 - top) }
        let total = raw.reduce(0, +)
        let weights = raw.map { $0 / total }
        let meanTheta = zip(grid, weights).reduce(0) { $0 + $1.0 * $1.1 }
        let varianceTheta = zip(grid, weights).reduce(0) { $0 + ($1.0 - meanTheta) * ($1.0 - meanTheta) * $1.1 }
        let meanRank = zip(grid, weights).reduce(0) { $0 + exp($1.0) * $1.1 }
        let varianceRank = zip(grid, weights).reduce(0) { $0 + (exp($1.0) - meanRank) * (exp($1.0) - meanRank) * $1.1 }
        return Estimate(
            lexicalRank: max(1, Int(exp(meanTheta).rounded())),
            standardError: (varianceRank.squareRoot() * 10).rounded() / 10,
            logStandardError: varianceTheta.squareRoot(), questions: questions)
    }

    /// Whether the stopping rule holds: precise enough, or out of questions or words.
    public var isFinished: Bool {
        if answered >= Self.maximumQuestions || asked.count >= items.count { return true }
        return answered >= Self.minimumQuestions && estimate.logStandardError <= Self.stoppingLogError
    }

    /// The next question, or nil when the test is over. Asking again before an answer gives
    /// the same question.
    public mutating func nextQuestion() -> Question? {
        if let pending { return pending.question }
        guard !isFinished else { return nil }
        let theta = log(Double(current.lexicalRank))
        let number = answered + 1
        let wantsCheck = number % Self.checkEvery == 0
        // The most informative unasked word: for this model, the difficulty nearest θ.
        var best: Int?
        var bestDistance = Double.infinity
        for (index, item) in items.enumerated() where !asked.contains(index) {
            if wantsCheck, item.translation == nil { continue }
            let distance = abs(difficulties[index] - theta)
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        var isCheck = wantsCheck
        if best == nil, wantsCheck {
            isCheck = false
            for index in items.indices where !asked.contains(index) {
                let distance = abs(difficulties[index] - theta)
                if distance < bestDistance { (best, bestDistance) = (index, distance) }
            }
        }
        guard let index = best else { return nil }
        let item = items[index]
        var ask = Question.Ask.known
        if isCheck, let right = item.translation {
            let others = Array(Set(items.compactMap(\.translation).filter { $0 != right })).sorted()
            if others.count >= 3 {
                let distractors = StudyRandom.shuffled(others, using: &random).prefix(3)
                let choices = StudyRandom.shuffled([right] + distractors, using: &random)
                ask = .choice(choices: choices, answer: choices.firstIndex(of: right)!)
            }
        }
        let question = Question(number: number, item: item, ask: ask)
        pending = (question, index)
        return question
    }

    public enum AnswerError: Error, Equatable {
        case noQuestion
        case wrongKind
    }

    /// Takes the answer to the pending question.
    public mutating func answer(_ answer: Answer) throws(AnswerError) {
        guard let (question, index) = pending else { throw .noQuestion }
        let isCheck: Bool
        var correct = false
        switch (question.ask, answer) {
        case (.known, .known), (.known, .unknown): isCheck = false
        case let (.choice(choices, right), .choice(chosen)):
            guard choices.indices.contains(chosen) else { throw .wrongKind }
            isCheck = true
            correct = chosen == right
            checks += 1
            if !correct { failedChecks += 1 }
        default: throw .wrongKind
        }
        pending = nil
        asked.insert(index)
        answered += 1
        history.append((index, answer, isCheck, correct))
        refit()
    }
}

/// A learner simulated for testing calibration: knows every word up to a hidden rank, and
/// slips (answers the opposite) with a fixed chance; unknown meanings are guessed.
public struct SimulatedLearner: Sendable {
    public var trueRank: Int
    public var slip: Double
    var random: SeededGenerator

    public init(trueRank: Int, slip: Double = 0.05, seed: UInt64) {
        self.trueRank = trueRank
        self.slip = slip
        random = SeededGenerator(seed: seed)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double(random.next() >> 11) / Double(1 << 53) < probability
    }

    public mutating func answer(_ question: Calibration.Question) -> Calibration.Answer {
        let knows = question.item.rank <= trueRank
        let slipped = chance(slip)
        switch question.ask {
        case .known:
            return (knows != slipped) ? .known : .unknown
        case let .choice(choices, right):
            if knows, !slipped { return .choice(right) }
            return .choice(StudyRandom.index(below: choices.count, using: &random))
        }
    }
}
