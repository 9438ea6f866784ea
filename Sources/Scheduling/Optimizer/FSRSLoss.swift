import Foundation

/// FSRS-6's memory model as fsrs-rs trains it, in double precision, with exact gradients.
///
/// The forward pass is fsrs-rs's `step` (the model its optimizer fits and its `evaluate`
/// scores): the first review sets stability `w[G−1]` and difficulty `w4 − e^(w5·(G−1)) + 1`; a
/// review on the same day as the one before uses the short-term formula; otherwise again uses
/// the forget formula (capped at `S / e^(w17·w18)`) and the other grades the recall formula;
/// difficulty moves by linear damping and mean reversion. Stability stays in 0.001…36 500 and
/// difficulty in 1…10. These are the formulas of `FSRS` (py-fsrs) in a different order of
/// operations, plus fsrs-rs's upper stability bound.
///
/// Gradients are hand-derived reverse mode ("backpropagation through time" over one card):
/// a forward pass keeps what each step chose (which branch, which clamp was active), then a
/// backward pass walks the card from its last review to its first, carrying ∂loss/∂S and
/// ∂loss/∂D. Clamps pass the gradient when the value is inside or on the bound and stop it
/// outside, as Burn and PyTorch do and fsrs-rs's analytic gradients copy. One pass over a card
/// gives the loss of every item in it, because each item's prediction is the card's state
/// just before that review.
struct FSRSLoss {
    static let minimumStability = 0.001
    static let maximumStability = 36_500.0
    static let minimumProbability = 1e-7
    static let maximumProbability = 1 - 1e-7

    let w: [Double]
    /// `−w20`.
    let decay: Double
    /// `0.9^(1/decay) − 1`: `R(S, S) = 0.9`.
    let factor: Double
    /// ∂factor/∂decay.
    let factorByDecay: Double
    let expW8: Double
    /// `e^(w17·w18)`, the divisor of the post-lapse cap.
    let forgetCapDivisor: Double
    /// The initial difficulty of an easy first answer, unclamped: the mean-reversion target.
    let easyDifficulty: Double
    let exp3W5: Double
    /// `e^(w17·(G − 3 + w18))` by grade (index G − 1).
    let shortTermFactor: (Double, Double, Double, Double)

    init(_ w: [Double]) {
        self.w = w
        decay = -w[20]
        let c = log(0.9)
        factor = exp(c / decay) - 1
        factorByDecay = exp(c / decay) * (-c / (decay * decay))
        expW8 = exp(w[8])
        forgetCapDivisor = exp(w[17] * w[18])
        exp3W5 = exp(3 * w[5])
        easyDifficulty = w[4] - exp3W5 + 1
        shortTermFactor = (
            exp(w[17] * (-2 + w[18])), exp(w[17] * (-1 + w[18])), exp(w[17] * w[18]), exp(w[17] * (1 + w[18]))
        )
    }

    @inline(__always)
    static func clamp(_ x: Double, _ low: Double, _ high: Double) -> Double { min(max(x, low), high) }

    /// 1 when the gradient passes a clamp to [low, high] (inside or on a bound), else 0.
    @inline(__always)
    static func passes(_ x: Double, _ low: Double, _ high: Double) -> Bool { x >= low && x <= high }

    @inline(__always)
    func retrievability(days t: Double, stability s: Double) -> Double {
        pow(1 + factor * t / s, decay)
    }

    @inline(__always)
    func initialDifficulty(_ rating: Int) -> Double {
        w[4] - exp(w[5] * Double(rating - 1)) + 1
    }

    @inline(__always)
    func shortTerm(_ rating: Int) -> Double {
        switch rating {
        case 1: shortTermFactor.0
        case 2: shortTermFactor.1
        case 3: shortTermFactor.2
        default: shortTermFactor.3
        }
    }

    // MARK: - Forward only

    /// The state after a card's first review.
    @inline(__always)
    func initialState(_ rating: Int) -> (s: Double, d: Double) {
        (
            Self.clamp(w[rating - 1], Self.minimumStability, Self.maximumStability),
            Self.clamp(initialDifficulty(rating), 1, 10)
        )
    }

    /// The state after one later review, from the (clamped) state before it; `r` is the
    /// retrievability after `deltaT` days.
    @inline(__always)
    func next(s: Double, d: Double, deltaT: Double, rating: Int, r: Double) -> (s: Double, d: Double) {
        let newS: Double
        if deltaT == 0 {
            let raw = shortTerm(rating) * pow(s, -w[19])
            newS = s * (rating >= 2 ? max(raw, 1) : raw)
        } else if rating == 1 {
            let raw = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14])
            newS = min(raw, s / forgetCapDivisor)
        } else {
            let hard = rating == 2 ? w[15] : 1
            let easy = rating == 4 ? w[16] : 1
            newS = s * (expW8 * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1) * hard * easy + 1)
        }
        let delta = -w[6] * Double(rating - 3)
        let damped = d + (10 - d) * delta / 9
        let mean = w[7] * (easyDifficulty - damped) + damped
        return (Self.clamp(newS, Self.minimumStability, Self.maximumStability), Self.clamp(mean, 1, 10))
    }

    // MARK: - Loss and gradient

    /// What the backward pass needs from one step of the forward pass: the state before the
    /// review, what the update chose, and the logarithms and powers it computed, so the
    /// backward pass calls no `exp`, `log` or `pow` of its own.
    struct Step {
        var s: Double = 0
        var d: Double = 0
        var r: Double = 0
        /// `ln(1 + factor·t/S)`, the forgetting curve's base.
        var lnBase: Double = 0
        /// The stability before its clamp (for the clamp's gradient).
        var rawS: Double = 0
        /// The difficulty after mean reversion, before its clamp.
        var rawD: Double = 0
        /// Short-term: the multiplier before the floor of 1. Forget: the long-term value.
        /// Recall: the increase `e^w8·(11−D)·S^−w9·(e^((1−R)·w10) − 1)·hard·easy`.
        var raw: Double = 0
        /// Short-term: the multiplier used. Forget: the cap `S / e^(w17·w18)`.
        var used: Double = 0
        /// Short-term and recall: `ln S`. Forget: `ln(S + 1)`.
        var lnS: Double = 0
        /// Recall: `S^−w9`. Forget: `D^−w12`.
        var power: Double = 0
        /// Recall: `e^((1−R)·w10)`. Forget: `(S + 1)^w13`.
        var power2: Double = 0
        /// Forget: `e^((1−R)·w14)`.
        var power3: Double = 0
        var branch: Branch = .recall
        /// Short-term: the floor of 1 was not what decided the multiplier. Forget: the cap
        /// was lower than the long-term value.
        var flag = false
    }

    enum Branch: UInt8 { case shortTerm, forget, recall }

    /// Adds the weighted binary cross-entropy of the card's items (`weights` by review index,
    /// zero for reviews that are not trained on) and its gradient to `loss` and `gradient`.
    ///
    /// `reviews` are the card's reviews to use — a prefix of the card, ending at its last
    /// trained item. `steps` and `gR` are scratch space reused across cards.
    ///
    /// Powers are computed as `exp(y·ln x)`, sharing the logarithm the gradient needs; they
    /// differ from `pow` in the last bits only, which moves no fit.
    func accumulate(
        _ data: FSRSDataset, reviews range: Range<Int>, weights: UnsafeBufferPointer<Double>,
        loss: inout Double, gradient g: inout [Double], steps: inout [Step], gR: inout [Double]
    ) {
        let n = range.count
        guard n > 1 else { return }
        let first = range.lowerBound
        if steps.count < n { steps = [Step](repeating: Step(), count: n) }
        if gR.count < n { gR = [Double](repeating: 0, count: n) }
        let (w9, w10, w12, w13, w14, w19) = (w[9], w[10], w[12], w[13], w[14], w[19])

        // Forward: steps[k] holds the state before review k, its retrievability, and what the
        // update at review k chose.
        let firstRating = Int(data.rating[first])
        var s = Self.clamp(w[firstRating - 1], Self.minimumStability, Self.maximumStability)
        let initialRawD = initialDifficulty(firstRating)
        var d = Self.clamp(initialRawD, 1, 10)
        for k in 1..<n {
            let index = first + k
            let t = data.deltaT[index]
            let rating = Int(data.rating[index])
            let lnBase = log(1 + factor * t / s)
            let r = exp(decay * lnBase)
            var step = Step(s: s, d: d, r: r, lnBase: lnBase)
            let itemWeight = weights[index]
            gR[k] = 0
            if itemWeight != 0 {
                let label = rating > 1 ? 1.0 : 0.0
                let p = Self.clamp(r, Self.minimumProbability, Self.maximumProbability)
                loss -= itemWeight * (label * log(p) + (1 - label) * log(1 - p))
                if r > Self.minimumProbability && r < Self.maximumProbability {
                    gR[k] = -itemWeight * (label / p - (1 - label) / (1 - p))
                }
            }
            if k + 1 < n {
                let newS: Double
                if t == 0 {
                    step.branch = .shortTerm
                    step.lnS = log(s)
                    let raw = shortTerm(rating) * exp(-w19 * step.lnS)
                    step.raw = raw
                    step.flag = !(rating >= 2 && raw < 1)
                    step.used = rating >= 2 ? max(raw, 1) : raw
                    newS = s * step.used
                } else if rating == 1 {
                    step.branch = .forget
                    step.lnS = log(s + 1)
                    step.power = exp(-w12 * log(d))
                    step.power2 = exp(w13 * step.lnS)
                    step.power3 = exp((1 - r) * w14)
                    let raw = w[11] * step.power * (step.power2 - 1) * step.power3
                    let cap = s / forgetCapDivisor
                    step.raw = raw
                    step.used = cap
                    step.flag = cap < raw
                    newS = step.flag ? cap : raw
                } else {
                    step.branch = .recall
                    step.lnS = log(s)
                    step.power = exp(-w9 * step.lnS)
                    step.power2 = exp((1 - r) * w10)
                    let hard = rating == 2 ? w[15] : 1
                    let easy = rating == 4 ? w[16] : 1
                    let increase = expW8 * (11 - d) * step.power * (step.power2 - 1) * hard * easy
                    step.raw = increase
                    newS = s * (increase + 1)
                }
                let delta = -w[6] * Double(rating - 3)
                let damped = d + (10 - d) * delta / 9
                let mean = w[7] * (easyDifficulty - damped) + damped
                step.rawS = newS
                step.rawD = mean
                s = Self.clamp(newS, Self.minimumStability, Self.maximumStability)
                d = Self.clamp(mean, 1, 10)
            }
            steps[k] = step
        }

        // Backward: gS, gD are ∂loss/∂(state after review k).
        var gS = 0.0
        var gD = 0.0
        var k = n - 1
        while k >= 1 {
            let index = first + k
            let step = steps[k]
            let rating = Int(data.rating[index])
            let t = data.deltaT[index]
            let s = step.s
            let d = step.d
            let r = step.r
            var gr = gR[k]
            var gLastS = 0.0
            var gLastD = 0.0
            if k + 1 < n {
                let gNewS = Self.passes(step.rawS, Self.minimumStability, Self.maximumStability) ? gS : 0
                if gNewS != 0 {
                    switch step.branch {
                    case .shortTerm:
                        gLastS += gNewS * step.used
                        if step.flag {
                            let base = gNewS * s * step.raw
                            g[17] += base * (Double(rating) - 3 + w[18])
                            g[18] += base * w[17]
                            g[19] += base * -step.lnS
                            gLastS += base * (-w19 / s)
                        }
                    case .forget:
                        if step.flag {
                            let cap = step.used
                            g[17] += gNewS * cap * -w[18]
                            g[18] += gNewS * cap * -w[17]
                            gLastS += gNewS * cap / s
                        } else {
                            let raw = step.raw
                            let dPower = step.power
                            let power = step.power2
                            let er = step.power3
                            g[11] += gNewS * dPower * (power - 1) * er
                            g[12] += gNewS * raw * -log(d)
                            g[13] += gNewS * w[11] * dPower * er * power * step.lnS
                            g[14] += gNewS * raw * (1 - r)
                            gLastS += gNewS * w[11] * dPower * er * w13 * power / (s + 1)
                            gLastD += gNewS * raw * (-w12 / d)
                            gr += gNewS * raw * -w14
                        }
                    case .recall:
                        let hard = rating == 2 ? w[15] : 1
                        let easy = rating == 4 ? w[16] : 1
                        let sPower = step.power
                        let er = step.power2
                        let e = er - 1
                        let increase = step.raw
                        let gIncrease = gNewS * s
                        // ∂increase/∂(…) without the factor that is differentiated.
                        let common = gIncrease * expW8 * sPower * hard * easy
                        gLastS += gNewS * (increase + 1) + gIncrease * increase * (-w9 / s)
                        gLastD += -common * e
                        gr += common * (11 - d) * (-w10 * er)
                        g[8] += gIncrease * increase
                        g[9] += gIncrease * increase * -step.lnS
                        g[10] += common * (11 - d) * ((1 - r) * er)
                        if rating == 2 { g[15] += gIncrease * expW8 * (11 - d) * sPower * e * easy }
                        if rating == 4 { g[16] += gIncrease * expW8 * (11 - d) * sPower * e * hard }
                    }
                }
                // Difficulty: linear damping, then mean reversion towards the easy initial
                // difficulty, then the clamp.
                let gMean = Self.passes(step.rawD, 1, 10) ? gD : 0
                if gMean != 0 {
                    let delta = -w[6] * Double(rating - 3)
                    let damped = d + (10 - d) * delta / 9
                    g[7] += gMean * (easyDifficulty - damped)
                    g[4] += gMean * w[7]
                    g[5] += gMean * w[7] * -3 * exp3W5
                    let gDamped = gMean * (1 - w[7])
                    g[6] += gDamped * (10 - d) * -Double(rating - 3) / 9
                    gLastD += gDamped * (1 - delta / 9)
                }
            }
            // The forgetting curve R = (1 + factor·t/S)^decay, through S and w20.
            if gr != 0 {
                let base = 1 + factor * t / s
                gLastS += gr * r * decay / base * (-t * factor / (s * s))
                let rByDecay = r * (step.lnBase + decay / base * (t / s * factorByDecay))
                g[20] += -gr * rByDecay
            }
            // The state before review k was clamped when it was made, so it is always inside
            // its bounds and its clamp passes the gradient.
            gS = gLastS
            gD = gLastD
            k -= 1
        }
        // The first review: S = w[G−1], D = w4 − e^(w5·(G−1)) + 1, each clamped.
        if Self.passes(w[firstRating - 1], Self.minimumStability, Self.maximumStability) {
            g[firstRating - 1] += gS
        }
        if gD != 0, Self.passes(initialRawD, 1, 10) {
            let offset = Double(firstRating - 1)
            g[4] += gD
            g[5] += gD * -offset * exp(offset * w[5])
        }
    }
}
