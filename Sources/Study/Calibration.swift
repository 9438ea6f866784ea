import Foundation
public import RoteModel

/// Seed 002's vocabulary calibration: an adaptive test (CAT, item response theory) that
/// estimates a learner's lexical rank — how far down a frequency list they know the words.
///
/// The model (documented in `docs/scheduling.md`, "Calibration"):
///
/// - The learner's ability is θ = ln(lexical rank); a word's difficulty is b = ln(its rank).
/// - A learner knows a word with probability P(θ, b) = 1 / (1 + e^(−a·(θ − b))), a = 6
///   (a one-parameter logistic model in log rank: from rank 0.69·r to 1.44·r the chance
///   falls from 90% to 10%).
/// - Answers slip and guess. "Do you know it?" says "unknown" of a known word with ε = 0.05,
///   and "known" of an unknown word with the learner's over-claiming rate c. A four-way
///   meaning check is right with P·(1 − ε) + (1 − P)·¼: a known meaning can be missed, an
///   unknown one is guessed.
/// - c is estimated with θ: the posterior is over (c, θ), c among `overClaimRates` (0.05, an
///   honest learner's slip; 0.5; 0.9, one who claims nearly every word), with a prior of 90%
///   on the honest rate. One failed check is then weighed against everything else the
///   learner said instead of being taken as proof of over-claiming; a learner who claims
///   words and keeps failing their checks moves the posterior to a high c, where claims
///   count for little and the checks decide.
/// - The estimate is Bayesian on a grid of θ: a flat prior over ln 1 … ln(the deck's largest
///   rank × 1.25), multiplied by each answer's likelihood. The rank reported is e^(posterior
///   mean of θ); the standard error is the posterior standard deviation of the rank itself.
/// - Each question asks, among the unasked words nearest seven quantiles of the posterior
///   of θ, the one whose answer tells the most about (c, θ) (mutual information). Asking
///   only at the estimate lets an early slip pull it away and leaves the region it left
///   unasked; candidates across the posterior re-probe that region while it holds weight,
///   and a check is placed where it tells an over-claimer from an honest learner. Every
///   fourth question is a meaning check.
/// - It stops when the posterior standard deviation of θ is at most 0.15 (after at least
///   eight questions) and none of the last three answers had less than a 20% chance under
///   the posterior (it does not end on an estimate its latest answers contradict), or after
///   40 questions, or when no word is left to ask.
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
    /// The chance a known word is disowned or its meaning missed.
    public static let slip = 0.05
    public static let guess = 0.25
    /// The over-claiming rates c the posterior weighs: the chance of "known" for a word the
    /// learner does not know. The first is an honest learner's (the slip).
    public static let overClaimRates = [slip, 0.5, 0.9]
    /// The prior weight of the honest rate; the others share the rest equally.
    public static let honestPrior = 0.9
    public static let maximumQuestions = 40
    public static let minimumQuestions = 8
    public static let stoppingLogError = 0.15
    /// The test does not stop while one of the last `recentAnswers` answers had less than
    /// `surprisingChance` under the posterior.
    public static let recentAnswers = 3
    public static let surprisingChance = 0.2
    /// Where in the posterior of θ the candidates for the next question are looked for.
    static let candidateQuantiles = [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95]
    /// Every `checkEvery`-th question is a meaning check.
    public static let checkEvery = 4
    static let gridPoints = 200

    public let items: [Item]
    /// ln(rank) of each item, in `items` order (ascending).
    let difficulties: [Double]
    let grid: [Double]
    /// The posterior over (c, θ), normalised: one row of `grid.count` points per rate of
    /// `overClaimRates`.
    var posterior: [Double]
    /// The distinct translations, sorted: the pool of distractors.
    let meanings: [String]
    var asked: [Bool]
    var pending: (question: Question, index: Int)?
    var random: SeededGenerator
    public private(set) var answered = 0
    /// Answers so far, for the stopping rule's look at the last few.
    var history: [Response] = []

    /// One answer as the model sees it: which word, whether it was a check, and whether the
    /// learner said "known" or chose the right meaning.
    struct Response {
        var index: Int
        var isCheck: Bool
        var yes: Bool
    }

    /// A test over `items` (words with a rank; at least one). Items without a translation are
    /// only asked as "do you know it?".
    public init(items: [Item], seed: UInt64) {
        self.items = items.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.id < $1.id }
        difficulties = self.items.map { log(Double(max(1, $0.rank))) }
        let top = log(Double(max(2, (self.items.last?.rank ?? 2))) * 1.25)
        let points = Self.gridPoints
        grid = (0..<points).map { top * Double($0) / Double(points - 1) }
        var posterior: [Double] = []
        for rate in Self.overClaimRates.indices {
            let prior =
                rate == 0 ? Self.honestPrior : (1 - Self.honestPrior) / Double(Self.overClaimRates.count - 1)
            posterior += Array(repeating: prior / Double(points), count: points)
        }
        self.posterior = posterior
        asked = Array(repeating: false, count: self.items.count)
        meanings = Array(Set(self.items.compactMap(\.translation))).sorted()
        random = SeededGenerator(seed: seed)
        current = Self.summary(grid: grid, posterior: posterior, questions: 0)
    }

    /// The most words a test chooses among. A 100 000-word library needs no more to place a
    /// learner (at this size, neighbouring words are less than 0.6% apart in rank), and each
    /// word asked about is one entry file to read before the first question.
    public static let bankLimit = 2_000

    /// Which of `ranks` a test asks about: all of them when there are at most `limit`, else
    /// the first of each of `limit` equal steps of log rank, so the bank covers every level as
    /// evenly as the test's model sees them. Indices into `ranks`, in rank order.
    public static func bank(ranks: [Int], limit: Int = bankLimit) -> [Int] {
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        guard order.count > limit, let first = order.first, let last = order.last else { return order }
        let low = log(Double(max(1, ranks[first])))
        let span = log(Double(max(1, ranks[last]))) - low
        guard span > 0 else { return Array(order.prefix(limit)) }
        var chosen: [Int] = []
        var lastStep = -1
        for index in order {
            let step = min(limit - 1, Int((log(Double(max(1, ranks[index]))) - low) / span * Double(limit)))
            if step > lastStep {
                chosen.append(index)
                lastStep = step
            }
        }
        return chosen
    }

    /// The chance a learner of ability θ knows a word of difficulty b.
    static func knows(_ theta: Double, _ difficulty: Double) -> Double {
        1 / (1 + exp(-discrimination * (theta - difficulty)))
    }

    /// The chance of a right answer to a check, or of "known" to a claim, given the chance
    /// `p` that the word is known and the rate `over` of claiming an unknown word.
    static func chanceOfYes(_ p: Double, isCheck: Bool, over: Double) -> Double {
        isCheck ? p * (1 - slip) + (1 - p) * guess : p * (1 - slip) + (1 - p) * over
    }

    /// The chance of `yes` to item `index` at each point of the posterior, row by row.
    func likelihood(index: Int, isCheck: Bool, yes: Bool) -> [Double] {
        let known = grid.map { Self.knows($0, difficulties[index]) }
        var values: [Double] = []
        values.reserveCapacity(posterior.count)
        for over in Self.overClaimRates {
            for p in known {
                let chance = Self.chanceOfYes(p, isCheck: isCheck, over: over)
                values.append(yes ? chance : 1 - chance)
            }
        }
        return values
    }

    /// The estimate as of the last answer.
    public var estimate: Estimate { current }
    var current: Estimate

    /// The posterior of θ alone.
    static func marginal(_ posterior: [Double], points: Int) -> [Double] {
        var weights = Array(repeating: 0.0, count: points)
        for point in posterior.indices { weights[point % points] += posterior[point] }
        return weights
    }

    static func summary(grid: [Double], posterior: [Double], questions: Int) -> Estimate {
        let weights = marginal(posterior, points: grid.count)
        var meanTheta = 0.0
        var meanRank = 0.0
        for point in grid.indices {
            meanTheta += grid[point] * weights[point]
            meanRank += exp(grid[point]) * weights[point]
        }
        var varianceTheta = 0.0
        var varianceRank = 0.0
        for point in grid.indices {
            varianceTheta += (grid[point] - meanTheta) * (grid[point] - meanTheta) * weights[point]
            varianceRank += (exp(grid[point]) - meanRank) * (exp(grid[point]) - meanRank) * weights[point]
        }
        return Estimate(
            lexicalRank: max(1, Int(exp(meanTheta).rounded())),
            standardError: (varianceRank.squareRoot() * 10).rounded() / 10,
            logStandardError: varianceTheta.squareRoot(), questions: questions)
    }

    /// The chance the posterior gives an answer.
    func chance(of response: Response) -> Double {
        let values = likelihood(index: response.index, isCheck: response.isCheck, yes: response.yes)
        var total = 0.0
        for point in posterior.indices { total += posterior[point] * values[point] }
        return total
    }

    /// Whether one of the last few answers is one the posterior finds unlikely: a slip, or a
    /// sign the estimate is wrong. Either way, more questions should tell which.
    var isContradicted: Bool {
        history.suffix(Self.recentAnswers).contains { chance(of: $0) < Self.surprisingChance }
    }

    /// Whether the stopping rule holds: precise enough and not contradicted by the last
    /// answers, or out of questions or words.
    public var isFinished: Bool {
        if answered >= Self.maximumQuestions || answered >= items.count { return true }
        return answered >= Self.minimumQuestions && estimate.logStandardError <= Self.stoppingLogError
            && !isContradicted
    }

    /// The unasked word (with a translation, for a check) whose log rank is nearest `theta`.
    func nearestUnasked(to theta: Double, needsTranslation: Bool) -> Int? {
        // Items are in rank order: walk out from where θ falls.
        var upper = 0
        var end = difficulties.count
        while upper < end {
            let middle = (upper + end) / 2
            if difficulties[middle] < theta { upper = middle + 1 } else { end = middle }
        }
        var lower = upper - 1
        func usable(_ index: Int) -> Bool { !asked[index] && (!needsTranslation || items[index].translation != nil) }
        while lower >= 0, !usable(lower) { lower -= 1 }
        while upper < items.count, !usable(upper) { upper += 1 }
        switch (lower >= 0, upper < items.count) {
        case (false, false): return nil
        case (true, false): return lower
        case (false, true): return upper
        case (true, true): return theta - difficulties[lower] <= difficulties[upper] - theta ? lower : upper
        }
    }

    /// The most informative of the unasked words nearest the posterior's quantiles: the one
    /// whose answer has the most mutual information with (c, θ).
    func mostInformative(isCheck: Bool) -> Int? {
        let points = grid.count
        let weights = Self.marginal(posterior, points: points)
        var candidates: [Int] = []
        var cumulative = 0.0
        var quantiles = Self.candidateQuantiles[...]
        for point in grid.indices {
            cumulative += weights[point]
            while let quantile = quantiles.first, cumulative >= quantile || point == points - 1 {
                quantiles.removeFirst()
                if let index = nearestUnasked(to: grid[point], needsTranslation: isCheck),
                    !candidates.contains(index)
                {
                    candidates.append(index)
                }
            }
        }
        guard candidates.count > 1 else { return candidates.first }
        func entropy(_ p: Double) -> Double {
            let q = min(max(p, 1e-12), 1 - 1e-12)
            return -(q * log(q) + (1 - q) * log(1 - q))
        }
        var best: Int?
        var bestInformation = -Double.infinity
        for index in candidates {
            let known = grid.map { Self.knows($0, difficulties[index]) }
            var chance = 0.0
            var expectedEntropy = 0.0
            for (row, over) in Self.overClaimRates.enumerated() {
                for point in grid.indices {
                    let weight = posterior[row * points + point]
                    guard weight > 1e-12 else { continue }
                    let yes = Self.chanceOfYes(known[point], isCheck: isCheck, over: over)
                    chance += weight * yes
                    expectedEntropy += weight * entropy(yes)
                }
            }
            let information = entropy(chance) - expectedEntropy
            if information > bestInformation { (best, bestInformation) = (index, information) }
        }
        return best
    }

    /// The next question, or nil when the test is over. Asking again before an answer gives
    /// the same question.
    public mutating func nextQuestion() -> Question? {
        if let pending { return pending.question }
        guard !isFinished else { return nil }
        let number = answered + 1
        var isCheck = number % Self.checkEvery == 0
        var best = mostInformative(isCheck: isCheck)
        if best == nil, isCheck {
            isCheck = false
            best = mostInformative(isCheck: false)
        }
        guard let index = best else { return nil }
        let item = items[index]
        var ask = Question.Ask.known
        if isCheck, let right = item.translation {
            let others = meanings.filter { $0 != right }
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

    /// An answer the calibration cannot take: a caller's mistake, not the learner's.
    public struct AnswerError: RoteError, Equatable {
        public enum Code: String, RoteErrorCode {
            public typealias Failure = AnswerError
            /// No question is waiting for an answer.
            case noQuestion
            /// The answer is of another kind than the question asks (a choice to a yes/no).
            case wrongKind
        }
        public let code: Code
        public static let noQuestion = AnswerError(code: .noQuestion)
        public static let wrongKind = AnswerError(code: .wrongKind)

        public var message: String {
            switch code {
            case .noQuestion: "no calibration question is waiting for an answer; ask the next question first"
            case .wrongKind: "that answer does not fit the question asked; answer its choices, or known or not"
            }
        }
    }

    /// Takes the answer to the pending question.
    public mutating func answer(_ answer: Answer) throws(AnswerError) {
        guard let (question, index) = pending else { throw .noQuestion }
        let response: Response
        switch (question.ask, answer) {
        case (.known, .known), (.known, .unknown):
            response = Response(index: index, isCheck: false, yes: answer == .known)
        case let (.choice(choices, right), .choice(chosen)):
            guard choices.indices.contains(chosen) else { throw .wrongKind }
            response = Response(index: index, isCheck: true, yes: chosen == right)
        default: throw .wrongKind
        }
        pending = nil
        asked[index] = true
        answered += 1
        history.append(response)
        // Every likelihood is at least the slip (0.05), so 40 answers cannot underflow.
        let values = likelihood(index: index, isCheck: response.isCheck, yes: response.yes)
        var total = 0.0
        for point in posterior.indices {
            posterior[point] *= values[point]
            total += posterior[point]
        }
        for point in posterior.indices { posterior[point] /= total }
        current = Self.summary(grid: grid, posterior: posterior, questions: answered)
    }
}

/// A learner simulated for testing calibration: knows every word up to a hidden rank and
/// slips with a fixed chance. A slipped "do you know it?" answer says the opposite; a slipped
/// meaning check picks one of the wrong meanings; the meaning of an unknown word is guessed
/// among all four.
package struct SimulatedLearner: Sendable {
    package var trueRank: Int
    package var slip: Double
    var random: SeededGenerator

    package init(trueRank: Int, slip: Double = 0.05, seed: UInt64) {
        self.trueRank = trueRank
        self.slip = slip
        random = SeededGenerator(seed: seed)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double(random.next() >> 11) / Double(1 << 53) < probability
    }

    package mutating func answer(_ question: Calibration.Question) -> Calibration.Answer {
        let knows = question.item.rank <= trueRank
        let slipped = chance(slip)
        switch question.ask {
        case .known:
            return (knows != slipped) ? .known : .unknown
        case let .choice(choices, right):
            guard knows else { return .choice(StudyRandom.index(below: choices.count, using: &random)) }
            if !slipped { return .choice(right) }
            let wrong = StudyRandom.index(below: choices.count - 1, using: &random)
            return .choice(wrong < right ? wrong : wrong + 1)
        }
    }
}
