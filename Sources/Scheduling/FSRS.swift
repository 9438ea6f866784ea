package import Foundation
package import RoteModel

/// FSRS-6 exactly as py-fsrs 6.3.2 computes it: one review at a time, same formulas, same order
/// of floating-point operations, same rounding.
///
/// Matching py-fsrs to the last bit (not just approximately) is what lets the reference vectors
/// in `testdata/fsrs/` check due dates exactly: an interval is `round(x)` of a double, so an
/// approximation could land a review a day apart. Hence `pow(e, x)` where py-fsrs writes
/// `math.e ** x` (CPython calls the same C `pow`), and every formula below keeps py-fsrs's
/// evaluation order. Elapsed time is counted in whole 24-hour periods, as
/// `(review_datetime - card.last_review).days` does; intervals round half to even.
///
/// States: a new entry starts in `learning` at step 0. Learning and relearning walk their
/// steps (again → step 0; hard stays, on the first step waiting the mean of the first two
/// steps or 1.5× a lone step; good → next step, graduating after the last; easy graduates at
/// once). `review` answers update stability and difficulty; again there goes to `relearning`
/// (or stays in review when there are no relearning steps). A second review on the same day
/// uses the short-term stability formula.
package struct FSRS: Sendable {
    package let settings: SchedulerSettings

    // The weights the formulas read per review, unpacked: no array bounds checks in the hot
    // loop. (w4, w5, w8, w17 and w18 only enter through the precomputed terms below.)
    private let w0, w1, w2, w3, w6, w7, w9, w10, w11, w12, w13, w14, w15, w16, w19: Double
    /// `-w20`, py-fsrs's `_DECAY`.
    private let decay: Double
    /// `0.9 ** (1 / decay) - 1`, py-fsrs's `_FACTOR`.
    private let factor: Double
    // Sub-expressions py-fsrs recomputes on every call; each is the same double every time, so
    // computing it once changes no result.
    /// `desired_retention ** (1 / decay) - 1` from `_next_interval`.
    private let retentionTerm: Double
    /// `_initial_difficulty(Easy, clamp=False)`, the mean-reversion target.
    private let easyInitialDifficulty: Double
    /// `e ** w8` from `_next_recall_stability`.
    private let expW8: Double
    /// `e ** (w17 * w18)` from `_next_forget_stability`.
    private let expW17W18: Double
    /// `e ** (w17 * (grade - 3 + w18))` from `_short_term_stability`, by grade.
    private let shortTermFactor: (Double, Double, Double, Double)
    /// `_initial_difficulty(grade, clamp=True)`, by grade.
    private let initialDifficulties: (Double, Double, Double, Double)
    /// `maximum_interval` as a double, for clamping.
    private let maximumIntervalDays: Double

    /// Euler's number as Python's `math.e`.
    static let e = 2.718281828459045
    /// py-fsrs's `STABILITY_MIN`.
    package static let minimumStability = 0.001
    package static let difficultyRange = 1.0...10.0

    package init(settings: SchedulerSettings) {
        self.settings = settings
        let w = settings.parameters.values
        (w0, w1, w2, w3) = (w[0], w[1], w[2], w[3])
        (w6, w7, w9, w10) = (w[6], w[7], w[9], w[10])
        (w11, w12, w13, w14, w15, w16, w19) = (w[11], w[12], w[13], w[14], w[15], w[16], w[19])
        decay = -w[20]
        factor = pow(0.9, 1 / decay) - 1
        retentionTerm = pow(settings.desiredRetention, 1 / decay) - 1
        easyInitialDifficulty = w[4] - pow(Self.e, w[5] * Double(Grade.easy.rawValue - 1)) + 1
        expW8 = pow(Self.e, w[8])
        expW17W18 = pow(Self.e, w[17] * w[18])
        func byGrade(_ value: (Grade) -> Double) -> (Double, Double, Double, Double) {
            (value(.again), value(.hard), value(.good), value(.easy))
        }
        shortTermFactor = byGrade { pow(Self.e, w[17] * (Double($0.rawValue - 3) + w[18])) }
        initialDifficulties = byGrade { Self.clampDifficulty(w[4] - pow(Self.e, w[5] * Double($0.rawValue - 1)) + 1) }
        maximumIntervalDays = Double(settings.maximumInterval)
    }

    // MARK: - One review

    /// The state after answering `grade` at `time`, from `state` (nil for a new entry).
    ///
    /// `fuzz` is this review's draw (see `Fuzz.Draw`), or nil for no fuzz; it only matters when
    /// the answer lands in review, and is ignored when the settings turn fuzz off.
    package func next(after state: MemoryState?, grade: Grade, at time: Date, fuzz: Fuzz.Draw? = nil) -> MemoryState {
        var card = Card(state)
        review(&card, grade: grade, at: time.timeIntervalSince1970, fuzz: fuzz)
        return card.memoryState
    }

    /// py-fsrs's `review_card`, on seconds since 1970.
    func review(_ card: inout Card, grade: Grade, at now: Double, fuzz: Fuzz.Draw?) {
        let elapsedDays = card.lastReview.map { Self.wholeDays(from: $0, to: now) }
        let sameDay = elapsedDays.map { $0 < 1 } ?? false
        let phase = card.phase
        var intervalDays: Int? = nil
        var delay: Double = 0

        switch phase {
        case .learning, .relearning:
            if card.isNew {
                card.stability = initialStability(grade)
                card.difficulty = Self.pick(initialDifficulties, grade)
            } else {
                updateMemory(&card, grade: grade, elapsedDays: elapsedDays, sameDay: sameDay)
            }
            let steps = phase == .learning ? settings.learningSteps : settings.relearningSteps
            let step = card.step ?? 0
            // Also covers a step left over from settings that had more steps.
            if steps.isEmpty || (step >= steps.count && grade != .again) {
                intervalDays = nextInterval(stability: card.stability)
            } else {
                switch grade {
                case .again:
                    card.step = 0
                    delay = steps[0]
                case .hard:
                    if step == 0 && steps.count == 1 {
                        delay = Self.microseconds(steps[0] * 1.5)
                    } else if step == 0 {
                        delay = Self.microseconds((steps[0] + steps[1]) / 2.0)
                    } else {
                        delay = steps[step]
                    }
                case .good:
                    if step + 1 == steps.count {
                        intervalDays = nextInterval(stability: card.stability)
                    } else {
                        card.step = step + 1
                        delay = steps[step + 1]
                    }
                case .easy:
                    intervalDays = nextInterval(stability: card.stability)
                }
            }

        case .review:
            updateMemory(&card, grade: grade, elapsedDays: elapsedDays, sameDay: sameDay)
            if grade == .again {
                card.lapses += 1
            }
            if grade == .again && !settings.relearningSteps.isEmpty {
                card.phase = .relearning
                card.step = 0
                delay = settings.relearningSteps[0]
            } else {
                intervalDays = nextInterval(stability: card.stability)
            }
        }

        if var days = intervalDays {
            card.phase = .review
            card.step = nil
            if let fuzz, settings.enableFuzzing {
                days = Fuzz.interval(Double(days), draw: fuzz, maximum: settings.maximumInterval)
            }
            delay = Double(days) * 86_400
        }
        card.isNew = false
        card.due = now + delay
        card.lastReview = now
        card.reps += 1
    }

    /// Stability and difficulty of a card that has them, as the three branches of
    /// `review_card` update them (same day: short-term formula; else recall or forget).
    private func updateMemory(_ card: inout Card, grade: Grade, elapsedDays: Int?, sameDay: Bool) {
        if sameDay {
            card.stability = shortTermStability(card.stability, grade)
        } else {
            // `get_card_retrievability` is 0 for a card without a last review.
            let r = elapsedDays.map { retrievability(stability: card.stability, elapsedDays: max(0, $0)) } ?? 0
            card.stability = nextStability(
                difficulty: card.difficulty, stability: card.stability, retrievability: r, grade: grade)
        }
        card.difficulty = nextDifficulty(card.difficulty, grade)
    }

    // MARK: - Formulas (py-fsrs names in comments)

    /// The probability of recall `elapsedDays` whole days after the last review
    /// (`get_card_retrievability`): `(1 + FACTOR·t/S) ^ DECAY`.
    func retrievability(stability: Double, elapsedDays: Int) -> Double {
        pow(1 + factor * Double(elapsedDays) / stability, decay)
    }

    /// The probability of recall at `time`; 0 for an entry never reviewed.
    package func retrievability(of state: MemoryState, at time: Date) -> Double {
        guard let last = state.lastReview, let stability = state.stability else { return 0 }
        let days = Self.wholeDays(from: last.timeIntervalSince1970, to: time.timeIntervalSince1970)
        return retrievability(stability: stability, elapsedDays: max(0, days))
    }

    /// Days until recall probability falls to the desired retention, rounded half to even,
    /// clamped to 1…maximum interval (`_next_interval`).
    package func nextInterval(stability: Double) -> Int {
        let days = ((stability / factor) * retentionTerm).rounded(.toNearestOrEven)
        // Written so NaN (a stability no reader should let through) also takes the maximum
        // rather than trapping in `Int(_:)`.
        guard days < maximumIntervalDays else { return settings.maximumInterval }
        return days < 1 ? 1 : Int(days)
    }

    /// `_initial_stability`: w[grade − 1].
    func initialStability(_ grade: Grade) -> Double {
        let s: Double
        switch grade {
        case .again: s = w0
        case .hard: s = w1
        case .good: s = w2
        case .easy: s = w3
        }
        return max(s, Self.minimumStability)
    }

    /// `_short_term_stability`: S · e^(w17·(grade − 3 + w18)) · S^(−w19), the increase at
    /// least 1 for a passing grade.
    func shortTermStability(_ stability: Double, _ grade: Grade) -> Double {
        var increase = Self.pick(shortTermFactor, grade) * pow(stability, -w19)
        if grade != .again {
            increase = max(increase, 1.0)
        }
        return max(stability * increase, Self.minimumStability)
    }

    /// `_next_difficulty`: linear damping `(10 − D)·ΔD/9` with `ΔD = −w6·(grade − 3)`, then
    /// mean reversion `w7·D₀(easy) + (1 − w7)·D′`, clamped to 1…10.
    func nextDifficulty(_ difficulty: Double, _ grade: Grade) -> Double {
        let deltaDifficulty = -(w6 * Double(grade.rawValue - 3))
        let damped = difficulty + (10.0 - difficulty) * deltaDifficulty / 9.0
        return Self.clampDifficulty(w7 * easyInitialDifficulty + (1 - w7) * damped)
    }

    /// `_next_stability`: recall or forget stability, at least `minimumStability`.
    func nextStability(difficulty: Double, stability: Double, retrievability: Double, grade: Grade) -> Double {
        let next =
            grade == .again
            ? nextForgetStability(difficulty: difficulty, stability: stability, retrievability: retrievability)
            : nextRecallStability(
                difficulty: difficulty, stability: stability, retrievability: retrievability, grade: grade)
        return max(next, Self.minimumStability)
    }

    /// `_next_forget_stability`: min(w11·D^(−w12)·((S+1)^w13 − 1)·e^((1−R)·w14), S / e^(w17·w18)).
    func nextForgetStability(difficulty: Double, stability: Double, retrievability: Double) -> Double {
        let longTerm =
            w11 * pow(difficulty, -w12) * (pow(stability + 1, w13) - 1)
            * pow(Self.e, (1 - retrievability) * w14)
        let shortTerm = stability / expW17W18
        return min(longTerm, shortTerm)
    }

    /// `_next_recall_stability`: S·(1 + e^w8·(11 − D)·S^(−w9)·(e^((1−R)·w10) − 1)·hard·easy).
    func nextRecallStability(difficulty: Double, stability: Double, retrievability: Double, grade: Grade) -> Double {
        let hardPenalty = grade == .hard ? w15 : 1
        let easyBonus = grade == .easy ? w16 : 1
        return stability
            * (1 + expW8 * (11 - difficulty) * pow(stability, -w9)
                * (pow(Self.e, (1 - retrievability) * w10) - 1) * hardPenalty * easyBonus)
    }

    @inline(__always)
    static func pick(_ values: (Double, Double, Double, Double), _ grade: Grade) -> Double {
        switch grade {
        case .again: values.0
        case .hard: values.1
        case .good: values.2
        case .easy: values.3
        }
    }

    static func clampDifficulty(_ d: Double) -> Double {
        min(max(d, difficultyRange.lowerBound), difficultyRange.upperBound)
    }

    /// Whole 24-hour periods from `start` to `end`, floored like `timedelta.days`.
    static func wholeDays(from start: Double, to end: Double) -> Int {
        Int(((end - start) / 86_400).rounded(.down))
    }

    /// A step delay rounded to whole microseconds, half to even, as `timedelta` arithmetic does.
    static func microseconds(_ seconds: Double) -> Double {
        (seconds * 1_000_000).rounded(.toNearestOrEven) / 1_000_000
    }
}

extension FSRS {
    /// The mutable card replay works on: `MemoryState` without optionals or dates, so a
    /// review costs no conversions.
    struct Card {
        var phase: MemoryState.Phase = .learning
        var step: Int? = 0
        var isNew = true
        var stability = 0.0
        var difficulty = 0.0
        var due = 0.0
        var lastReview: Double? = nil
        var reps = 0
        var lapses = 0

        init(_ state: MemoryState?) {
            guard let state else { return }
            phase = state.phase
            step = state.step ?? (state.phase == .review ? nil : 0)
            if let s = state.stability, let d = state.difficulty {
                isNew = false
                stability = s
                difficulty = d
            }
            due = state.due.timeIntervalSince1970
            lastReview = state.lastReview?.timeIntervalSince1970
            reps = state.reps
            lapses = state.lapses
        }

        var memoryState: MemoryState {
            MemoryState(
                phase: phase, step: step, stability: isNew ? nil : stability,
                difficulty: isNew ? nil : difficulty, due: Date(timeIntervalSince1970: due),
                reps: reps, lapses: lapses, lastReview: lastReview.map(Date.init(timeIntervalSince1970:)))
        }
    }
}
