import Dispatch
import Foundation
public import RoteModel

/// What studying a deck with FSRS would cost and bring, day by day: fsrs-rs's `simulate` (the
/// simulator behind Anki's workload graph and "optimal retention"), ported so Rote can answer
/// the same questions without Python and on the learner's own numbers.
///
/// The semantics are fsrs-rs 6.6's, field for field: every day, the cards due are reviewed
/// (reviews before new cards), each review recalled with the model's retrievability after the
/// whole days since the last one, then graded hard, good or easy at fixed rates; new cards are
/// met at the first-rating rates and go through the learning steps (and a lapse through the
/// relearning steps) as a Markov chain of ratings. A card that does not fit in the day — over
/// the review or new-card limit, or once the day's cost passes `maxCostPerDay` — waits for the
/// next day. What is memorised on a day is the sum over met cards of their retrievability
/// that day. Only the random source differs (SplitMix64, not ChaCha), so results match fsrs-rs
/// in distribution, not draw for draw: compare means over seeds.
public enum WorkloadSimulator {
    /// fsrs-rs's `SimulatorConfig`, with its `Default` values (`default_simulator_config()`).
    public struct Configuration: Sendable, Equatable {
        /// Cards in the deck, met in order.
        public var deckSize = 10_000
        /// Days simulated.
        public var learnSpan = 365
        /// Seconds of study a day, after which the day's remaining cards wait.
        public var maxCostPerDay = 1_800.0
        public var maxInterval = 36_500.0
        /// Chances of again, hard, good, easy on first sight.
        public var firstRatingProbability: [Double] = [0.24, 0.094, 0.495, 0.171]
        /// Chances of hard, good, easy when recalled.
        public var reviewRatingProbability: [Double] = [0.224, 0.631, 0.145]
        /// New cards a day.
        public var learnLimit = Int.max
        /// Reviews a day.
        public var reviewLimit = Int.max
        /// Whether new cards are met beyond the review limit.
        public var newCardsIgnoreReviewLimit = true
        /// Lapses after which a card is no longer reviewed (nil: never suspended).
        public var suspendAfterLapses: Int? = nil
        /// The next step's rating chances (again, hard, good, easy) after again, hard, good.
        public var learningStepTransitions: [[Double]] = [
            [0.3686, 0.0628, 0.5108, 0.0577],
            [0.0442, 0.4553, 0.4457, 0.0549],
            [0.0519, 0.047, 0.8462, 0.055],
        ]
        public var relearningStepTransitions: [[Double]] = [
            [0.2157, 0.0643, 0.6595, 0.0604],
            [0.05, 0.4638, 0.4475, 0.0387],
            [0.1057, 0.1434, 0.7266, 0.0244],
        ]
        /// Seconds an answer takes, by state (learning, review, relearning) and rating.
        public var stateRatingCosts: [[Double]] = [
            [19.58, 18.79, 13.78, 10.71],
            [19.38, 17.59, 12.38, 8.94],
            [16.44, 15.25, 12.32, 8.03],
        ]
        public var learningStepCount = 2
        public var relearningStepCount = 1
        /// How a card's next day is chosen from its interval. fsrs-rs's is `.exact`, the default,
        /// so the two can be compared; `.fuzz` and `.balanced` are how Rote schedules.
        public var spread = Spread.exact
        /// The weekday of the first simulated day, 0 being Monday: where easy days fall.
        public var firstWeekday = 0

        public init() {}

        /// How the simulation turns an interval into a due day.
        public enum Spread: Sendable, Equatable {
            /// The interval itself, rounded, as fsrs-rs simulates.
            case exact
            /// Rote's fuzz: a day drawn evenly from the interval's fuzz bounds (`Fuzz`).
            case fuzz
            /// The day in the fuzz bounds the load balancer picks from the cards already due
            /// each day, keeping `EasyDays` light (`LoadBalancer`).
            case balanced(EasyDays)
        }

        /// What is wrong with these settings, if anything, said so the user can fix it.
        public var problem: String? {
            if deckSize < 1 { return "the deck size must be 1 or more" }
            if learnSpan < 1 { return "the number of days must be 1 or more" }
            if learnLimit < 0 || reviewLimit < 0 { return "the daily limits must be 0 or more" }
            if !(maxCostPerDay >= 0) || !(maxInterval >= 1) {
                return "the daily time and maximum interval must be positive"
            }
            func chances(_ row: [Double], _ count: Int) -> Bool {
                row.count == count && row.allSatisfy { $0 >= 0 && $0.isFinite } && row.reduce(0, +) > 0
            }
            guard chances(firstRatingProbability, 4), chances(reviewRatingProbability, 3),
                learningStepTransitions.count == 3, relearningStepTransitions.count == 3,
                (learningStepTransitions + relearningStepTransitions).allSatisfy({ chances($0, 4) })
            else { return "rating chances must be non-negative, not all zero" }
            guard stateRatingCosts.count == 3,
                stateRatingCosts.allSatisfy({ $0.count == 4 && $0.allSatisfy { $0 >= 0 } })
            else { return "answer times must be 3 rows of 4 non-negative seconds" }
            return nil
        }
    }

    /// One simulated day.
    public struct Day: Sendable, Equatable {
        /// Reviews of cards met before.
        public var reviews = 0
        /// New cards met.
        public var learned = 0
        /// Seconds spent.
        public var cost = 0.0
        /// Sum of every met card's retrievability that day.
        public var memorized = 0.0
        /// Reviews recalled.
        public var correct = 0
        /// Cards met so far, this day included.
        public var introduced = 0
    }

    public struct Result: Sendable, Equatable {
        public var days: [Day]

        /// fsrs-rs's optimal-retention target: seconds spent per card memorised at the end.
        public var costPerMemorized: Double {
            let memorized = days.last?.memorized ?? 0
            return memorized > 0 ? days.reduce(0) { $0 + $1.cost } / memorized : .infinity
        }

        /// How uneven the workload is from day to day: the standard deviation of each day's
        /// reviews from the mean of the week around it (three days either side), over the days
        /// from `first` on. Against the week rather than the whole span, so the slow rise and
        /// fall of a deck's reviews over months does not count as unevenness.
        public func reviewDeviation(from first: Int = 0) -> Double {
            let reviews = days.map { Double($0.reviews) }
            let measured = max(first, 3)..<max(max(first, 3), reviews.count - 3)
            guard measured.count > 1 else { return 0 }
            let squares = measured.reduce(0.0) { total, day in
                let week = reviews[(day - 3)...(day + 3)].reduce(0, +) / 7
                return total + (reviews[day] - week) * (reviews[day] - week)
            }
            return (squares / Double(measured.count)).squareRoot()
        }

        /// The share of reviews recalled, over the days from `first` on.
        public func recallRate(from first: Int = 0) -> Double {
            let kept = days.dropFirst(first)
            let reviews = kept.reduce(0) { $0 + $1.reviews }
            return reviews > 0 ? Double(kept.reduce(0) { $0 + $1.correct }) / Double(reviews) : 0
        }

        /// The day-by-day mean of `results` (same length).
        public static func mean(_ results: [Result]) -> Result {
            guard let first = results.first else { return Result(days: []) }
            let n = Double(results.count)
            var days = [Day](repeating: Day(), count: first.days.count)
            var totals = [(Double, Double, Double, Double, Double, Double)](
                repeating: (0, 0, 0, 0, 0, 0), count: first.days.count)
            for result in results {
                for (index, day) in result.days.enumerated() {
                    totals[index].0 += Double(day.reviews)
                    totals[index].1 += Double(day.learned)
                    totals[index].2 += day.cost
                    totals[index].3 += day.memorized
                    totals[index].4 += Double(day.correct)
                    totals[index].5 += Double(day.introduced)
                }
            }
            for index in days.indices {
                let total = totals[index]
                days[index] = Day(
                    reviews: Int((total.0 / n).rounded()), learned: Int((total.1 / n).rounded()), cost: total.2 / n,
                    memorized: total.3 / n, correct: Int((total.4 / n).rounded()),
                    introduced: Int((total.5 / n).rounded()))
            }
            return Result(days: days)
        }
    }

    /// fsrs-rs's `optimal_retention` bounds: no retention outside them is recommended.
    public static let retentionRange = 0.70...0.95

    /// One run of the simulation, the same for the same arguments.
    public static func simulate(
        parameters: FSRSParameters, desiredRetention: Double, configuration: Configuration, seed: UInt64 = 42
    ) -> Result {
        var run = Run(w: parameters.values, configuration: configuration, seed: seed)
        return run.simulate(desiredRetention: desiredRetention)
    }

    /// `simulate` with seeds 42, 43, … (fsrs-rs's choice), in parallel; in seed order.
    public static func simulations(
        parameters: FSRSParameters, desiredRetention: Double, configuration: Configuration, count: Int,
        threads: Int? = nil
    ) -> [Result] {
        var results = [Result?](repeating: nil, count: count)
        let workers = max(1, min(threads ?? ProcessInfo.processInfo.activeProcessorCount, count))
        results.withUnsafeMutableBufferPointer { buffer in
            // Each worker writes only its own slots.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: count, by: workers) {
                    slots[index] = simulate(
                        parameters: parameters, desiredRetention: desiredRetention, configuration: configuration,
                        seed: 42 + UInt64(index))
                }
            }
        }
        return results.map { $0! }
    }

    /// How many simulations fsrs-rs averages per candidate retention: more for short spans,
    /// whose runs vary more.
    public static func sampleSize(learnSpan: Int) -> Int {
        switch learnSpan {
        case ...30: return 180
        case 31..<365:
            let span = Double(learnSpan)
            return Int((16 / (span * span * 8.20e-7 + span * 2.41e-3 + 1.30e-2)).rounded())
        default: return 16
        }
    }

    /// The desired retention in `retentionRange` with the least time per memorised card (mean
    /// over `samples` seeded runs), found as fsrs-rs's `optimal_retention` finds it: Brent's
    /// method (scipy's `brent`), 1% relative tolerance, from the lower bound. Nil when the
    /// search does not settle inside the range.
    public static func optimalRetention(
        parameters: FSRSParameters, configuration: Configuration, samples: Int? = nil, threads: Int? = nil
    ) -> Double? {
        let samples = samples ?? sampleSize(learnSpan: configuration.learnSpan)
        func cost(_ retention: Double) -> Double {
            let runs = simulations(
                parameters: parameters, desiredRetention: retention, configuration: configuration, count: samples,
                threads: threads)
            return runs.reduce(0) { $0 + $1.costPerMemorized } / Double(samples)
        }
        let (lower, upper) = (retentionRange.lowerBound, retentionRange.upperBound)
        let mintol = 1e-10
        let cg = 0.381_966
        let maxiter = 64
        let tol = 0.01
        var (x, v, w) = (lower, lower, lower)
        let fb = cost(lower)
        var (fx, fv, fw) = (fb, fb, fb)
        var (a, b) = (lower, upper)
        var deltax = 0.0
        var rat = 0.0
        var iter = 0
        while iter < maxiter {
            let tol1 = tol * abs(x) + mintol
            let tol2 = 2 * tol1
            let xmid = 0.5 * (a + b)
            if abs(x - xmid) < tol2 - 0.5 * (b - a) { break }
            if abs(deltax) <= tol1 {
                deltax = (x >= xmid ? a : b) - x
                rat = cg * deltax
            } else {
                let tmp1 = (x - w) * (fx - fv)
                var tmp2 = (x - v) * (fx - fw)
                var p = (x - v) * tmp2 - (x - w) * tmp1
                tmp2 = 2 * (tmp2 - tmp1)
                if tmp2 > 0 { p = -p }
                tmp2 = abs(tmp2)
                let previous = deltax
                deltax = rat
                if p > tmp2 * (a - x), p < tmp2 * (b - x), abs(p) < abs(0.5 * tmp2 * previous) {
                    rat = p / tmp2
                    let u = x + rat
                    if u - a < tol2 || b - u < tol2 { rat = xmid - x >= 0 ? tol1 : -tol1 }
                } else {
                    deltax = (x >= xmid ? a : b) - x
                    rat = cg * deltax
                }
            }
            let u = x + (abs(rat) < tol1 ? (rat >= 0 ? tol1 : -tol1) : rat)
            let fu = cost(u)
            if fu > fx {
                if u < x { a = u } else { b = u }
                if fu <= fw || w == x {
                    (v, w) = (w, u)
                    (fv, fw) = (fw, fu)
                } else if fu <= fv || v == x || v == w {
                    v = u
                    fv = fu
                }
            } else {
                if u >= x { a = x } else { b = x }
                (v, w, x) = (w, x, u)
                (fv, fw, fx) = (fw, fx, fu)
            }
            iter += 1
        }
        return iter < maxiter && retentionRange.contains(x) ? x : nil
    }

    /// One simulation's state: cards as parallel arrays, reviews bucketed by due day.
    struct Run {
        let w: [Double]
        let configuration: Configuration
        var random: SeededGenerator
        let decay: Double
        let factor: Double

        init(w: [Double], configuration: Configuration, seed: UInt64) {
            self.w = w
            self.configuration = configuration
            random = SeededGenerator(seed: seed)
            decay = -w[20]
            factor = pow(0.9, 1 / decay) - 1
        }

        mutating func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }

        /// An index drawn with the given weights, as rand's `WeightedIndex` draws it.
        mutating func pick(_ weights: [Double]) -> Int {
            var u = uniform() * weights.reduce(0, +)
            for (index, weight) in weights.enumerated() {
                if u < weight { return index }
                u -= weight
            }
            return weights.count - 1
        }

        func retention(days: Double, stability: Double) -> Double {
            pow(1 + factor * days / stability, decay)
        }

        func initialDifficulty(_ rating: Int) -> Double { w[4] - exp(w[5] * Double(rating - 1)) + 1 }

        func nextDifficulty(_ d: Double, _ rating: Int) -> Double {
            let delta = -w[6] * (Double(rating) - 3)
            let damped = d + (10 - d) / 9 * delta
            return (w[7] * initialDifficulty(4) + (1 - w[7]) * damped).clamped(1, 10)
        }

        func stabilityAfterSuccess(_ s: Double, _ r: Double, _ d: Double, _ rating: Int) -> Double {
            let hard = rating == 2 ? w[15] : 1
            let easy = rating == 4 ? w[16] : 1
            return (s * (exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1) * hard * easy + 1))
                .clamped(0.001, 36_500)
        }

        func stabilityAfterFailure(_ s: Double, _ r: Double, _ d: Double) -> Double {
            let ceiling = s / exp(w[17] * w[18])
            let value = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14])
            return min(value, ceiling).clamped(0.001, 36_500)
        }

        func stabilityShortTerm(_ s: Double, _ rating: Int) -> Double {
            let increase = exp(w[17] * (Double(rating) - 3 + w[18])) * pow(s, -w[19])
            return (s * (rating >= 3 ? max(increase, 1) : increase)).clamped(0.001, 36_500)
        }

        /// The learning or relearning steps after `first` (nil: a lapse, starting from again
        /// unpaid, its review already counted): at most 5 steps, ending on easy or after
        /// `steps` passes in a row.
        mutating func shortTerm(
            s: Double, d: Double, first: Int?, costs: [Double], transitions: [[Double]], steps: Int
        ) -> (Double, Double, Double) {
            var consecutive = 0
            var rating = first ?? 1
            var cost = first.map { costs[$0 - 1] } ?? 0
            var (s, d) = (s, d)
            let needed = rating > 2 ? max(steps - 1, 0) : steps
            for _ in 0..<5 {
                if consecutive >= needed || rating >= 4 { break }
                rating = pick(transitions[rating - 1]) + 1
                s = stabilityShortTerm(s, rating)
                d = nextDifficulty(d, rating)
                cost += costs[rating - 1]
                if rating > 2 { consecutive += 1 } else if rating == 1 { consecutive = 0 }
            }
            return (s.clamped(0.001, 36_500), d.clamped(1, 10), cost)
        }

        mutating func simulate(desiredRetention: Double) -> Result {
            let c = configuration
            let span = c.learnSpan
            var days = [Day](repeating: Day(), count: span)
            var stability: [Double] = []
            var difficulty: [Double] = []
            var lastDate: [Int] = []
            var lapses: [Int] = []
            stability.reserveCapacity(min(c.deckSize, 1 << 20))
            difficulty.reserveCapacity(min(c.deckSize, 1 << 20))
            lastDate.reserveCapacity(min(c.deckSize, 1 << 20))
            lapses.reserveCapacity(min(c.deckSize, 1 << 20))
            var due = [[Int32]](repeating: [], count: span)
            var memorized = [Double](repeating: 0, count: span)
            let maxLapses = c.suspendAfterLapses ?? .max
            let intervalFactor = pow(desiredRetention, 1 / decay) - 1

            // Adds a card's retrievability on every day from its last review up to `end`.
            func remember(_ card: Int, until end: Int) {
                let s = stability[card]
                let last = lastDate[card]
                guard last < end else { return }
                for day in last..<end { memorized[day] += retention(days: Double(day - last), stability: s) }
            }
            let maximumDays = Int(c.maxInterval)
            // A day from the interval's fuzz bounds, as `c.spread` chooses it; `.exact` draws
            // nothing, so it follows fsrs-rs's random stream.
            func spread(_ interval: Double, today: Int) -> Double {
                guard c.spread != .exact, interval >= Fuzz.smallestFuzzedInterval else { return interval }
                let unit = uniform()
                guard case .balanced(let easyDays) = c.spread else {
                    return Double(Fuzz.interval(interval, unit: unit, maximum: maximumDays))
                }
                let window = Fuzz.bounds(forInterval: interval, maximum: maximumDays)
                let chosen = LoadBalancer.pick(in: window, unit: unit) { days in
                    let day = today + days
                    return LoadBalancer.weight(
                        interval: days, load: day < span ? due[day].count : 0,
                        share: easyDays.share(ofWeekday: c.firstWeekday + day))
                }
                return Double(chosen ?? Fuzz.interval(interval, unit: unit, maximum: maximumDays))
            }
            func schedule(_ card: Int, today: Int) {
                let interval = spread(
                    (stability[card] / factor * intervalFactor).rounded().clamped(1, c.maxInterval), today: today)
                lastDate[card] = today
                let next = Double(today) + interval
                if next < Double(span) { due[Int(next)].append(Int32(card)) } else { remember(card, until: span) }
            }

            var met = 0
            for today in 0..<span {
                var reviews = 0
                var learned = 0
                var cost = 0.0
                var correct = 0
                let cards = due[today]
                due[today] = []
                for index in cards.indices {
                    let card = Int(cards[index])
                    if lapses[card] >= maxLapses {
                        remember(card, until: span)
                        continue
                    }
                    if reviews + 1 > c.reviewLimit || cost > c.maxCostPerDay {
                        if today + 1 < span { due[today + 1].append(Int32(card)) } else { remember(card, until: span) }
                        continue
                    }
                    let s = stability[card]
                    let r = retention(days: Double(today - lastDate[card]), stability: s)
                    let forgot = !(uniform() < r)
                    let rating = forgot ? 1 : pick(c.reviewRatingProbability) + 2
                    let newS: Double
                    let newD: Double
                    var answerCost = c.stateRatingCosts[1][rating - 1]
                    if forgot {
                        lapses[card] += 1
                        let relearnt = shortTerm(
                            s: stabilityAfterFailure(s, r, difficulty[card]),
                            d: nextDifficulty(difficulty[card], 1), first: nil, costs: c.stateRatingCosts[2],
                            transitions: c.relearningStepTransitions, steps: c.relearningStepCount)
                        newS = relearnt.0
                        newD = relearnt.1
                        answerCost += relearnt.2
                    } else {
                        correct += 1
                        newS = stabilityAfterSuccess(s, r, difficulty[card], rating)
                        newD = nextDifficulty(difficulty[card], rating)
                    }
                    reviews += 1
                    cost += answerCost
                    remember(card, until: today)
                    stability[card] = newS
                    difficulty[card] = newD
                    schedule(card, today: today)
                }
                // New cards: card i is due on day i / learnLimit, and waits while the day is full.
                while met < c.deckSize, c.learnLimit > 0, met / c.learnLimit <= today {
                    let full =
                        c.newCardsIgnoreReviewLimit
                        ? learned + 1 > c.learnLimit
                        : learned + reviews + 1 > c.reviewLimit || learned + 1 > c.learnLimit
                    if full || cost > c.maxCostPerDay { break }
                    let first = pick(c.firstRatingProbability) + 1
                    let learnt = shortTerm(
                        s: w[first - 1], d: initialDifficulty(first).clamped(1, 10), first: first,
                        costs: c.stateRatingCosts[0], transitions: c.learningStepTransitions, steps: c.learningStepCount
                    )
                    stability.append(learnt.0)
                    difficulty.append(learnt.1)
                    lastDate.append(today)
                    lapses.append(0)
                    learned += 1
                    cost += learnt.2
                    schedule(met, today: today)
                    met += 1
                }
                days[today] = Day(
                    reviews: reviews, learned: learned, cost: cost, memorized: 0, correct: correct, introduced: met)
            }
            for today in 0..<span { days[today].memorized = memorized[today] }
            return Result(days: days)
        }
    }
}

extension Double {
    fileprivate func clamped(_ lower: Double, _ upper: Double) -> Double { Swift.min(Swift.max(self, lower), upper) }
}
