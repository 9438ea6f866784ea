public import Foundation
public import RoteModel

/// SM-2's knobs, with Anki's defaults.
///
/// Learning and relearning steps and the maximum interval are shared with FSRS and live in
/// `SchedulerSettings`; these are the ones only SM-2 has.
public struct SM2Settings: Sendable, Hashable {
    /// Days after the last learning step (Anki's "graduating interval").
    public var graduatingInterval: Int
    /// Days when a learning entry is answered easy.
    public var easyInterval: Int
    /// Ease an entry starts its review life with (2.5 = 250 %).
    public var startingEase: Double
    /// The ease never falls below this.
    public var minimumEase: Double
    /// Hard multiplies the interval by this (at least +1 day).
    public var hardMultiplier: Double
    /// Easy multiplies good's growth by this.
    public var easyBonus: Double
    /// A lapse keeps this fraction of the interval (Anki's "new interval", 0 by default).
    public var newIntervalMultiplier: Double
    /// A lapse's interval is at least this many days.
    public var minimumLapseInterval: Int

    /// Ease change per grade, in thousandths, as Anki applies it to review answers:
    /// −0.20, −0.15, 0, +0.15.
    public static func easeDeltaPermille(_ grade: Grade) -> Int {
        switch grade {
        case .again: -200
        case .hard: -150
        case .good: 0
        case .easy: 150
        }
    }

    public init(
        graduatingInterval: Int = 1, easyInterval: Int = 4, startingEase: Double = 2.5,
        minimumEase: Double = 1.3, hardMultiplier: Double = 1.2, easyBonus: Double = 1.3,
        newIntervalMultiplier: Double = 0, minimumLapseInterval: Int = 1
    ) {
        self.graduatingInterval = graduatingInterval
        self.easyInterval = easyInterval
        self.startingEase = startingEase
        self.minimumEase = minimumEase
        self.hardMultiplier = hardMultiplier
        self.easyBonus = easyBonus
        self.newIntervalMultiplier = newIntervalMultiplier
        self.minimumLapseInterval = minimumLapseInterval
    }

    /// Anki's defaults: 1 d graduating, 4 d easy, ease 2.5 (floor 1.3), hard ×1.2, easy ×1.3,
    /// lapse keeps 0 % of the interval with a 1-day minimum.
    public static let anki = SM2Settings()

    func validate() throws(SchedulerSettingsError) {
        func fail(_ message: String) -> SchedulerSettingsError { SchedulerSettingsError(.sm2, message) }
        guard graduatingInterval >= 1, easyInterval >= 1, minimumLapseInterval >= 1 else {
            throw fail("SM-2 graduating, easy and minimum lapse intervals must be at least 1 day")
        }
        guard minimumEase >= 1, startingEase >= minimumEase, startingEase.isFinite else {
            throw fail(
                "SM-2 starting ease \(startingEase) must be finite and at least the minimum ease \(minimumEase) (≥ 1)")
        }
        guard hardMultiplier > 0, easyBonus >= 1, newIntervalMultiplier >= 0,
            hardMultiplier.isFinite, easyBonus.isFinite, newIntervalMultiplier.isFinite
        else {
            throw fail("SM-2 multipliers must be finite: hard > 0, easy bonus ≥ 1, new interval ≥ 0")
        }
    }
}

/// SM-2 as Anki's v3 scheduler runs it, for decks whose deck.yaml says `scheduler: sm2`.
///
/// Rules (defaults in brackets):
/// - Learning: steps [1m 10m]. Again → first step; hard → stays, waiting the mean of the first
///   two steps on the first step (or 1.5× a lone step, at most +1 day), else the current
///   step; good → next step, graduating to review after the last with the graduating interval
///   [1 d]; easy → graduates at once with the easy interval [4 d]. Ease starts at [2.5].
/// - Review, on time or late (`late` = whole days past due): hard → `ivl × 1.2`, at least
///   `ivl + 1`; good → `(ivl + late/2) × ease`, at least hard + 1; easy →
///   `(ivl + late) × ease × 1.3`, at least good + 1. Intervals use the ease *before* this
///   answer; then the ease moves −0.15 (hard), 0 (good), +0.15 (easy), never below 1.3.
/// - Review, early (before due, Anki's early-review rule): hard →
///   `max(elapsed × 1.2, ivl × 0.6)`, good → `max(elapsed × ease, ivl)`, easy → good's
///   `× (1.3 − 0.15)`, no minimums beyond 1 day and no fuzz.
/// - Lapse (again in review): ease −0.20 (floor 1.3), lapses +1, new interval
///   `max(1, ivl × 0)` = 1 day, then relearning steps [10m]; good after the last relearning
///   step returns to review with that interval, easy with one day more.
/// - Intervals never exceed the maximum interval.
///
/// Interval arithmetic is single precision and rounds half away from zero, as Anki's Rust
/// code does, so intervals near x.5 round the way Anki rounds them (45 days × ease 1.3 is
/// 58.499996 in `Float` and gives 58, as in Anki; in `Double` it would be 58.5 and give 59).
/// Days late count whole 24-hour periods, like FSRS here, where Anki counts calendar days.
package struct SM2: Sendable {
    package let settings: SchedulerSettings

    private let startingEasePermille: Int
    private let minimumEasePermille: Int
    private let hardMultiplier: Float
    private let easyBonus: Float
    private let newIntervalMultiplier: Float

    package init(settings: SchedulerSettings) {
        self.settings = settings
        startingEasePermille = Self.permille(settings.sm2.startingEase)
        minimumEasePermille = Self.permille(settings.sm2.minimumEase)
        hardMultiplier = Float(settings.sm2.hardMultiplier)
        easyBonus = Float(settings.sm2.easyBonus)
        newIntervalMultiplier = Float(settings.sm2.newIntervalMultiplier)
    }

    /// A never-reviewed entry: learning, step 0, starting ease.
    var newCard: Card { Card(nil, startingEasePermille: startingEasePermille) }

    /// The state after answering `grade` at `time`, from `state` (nil for a new entry).
    ///
    /// `fuzz` is the draw in `0..<1` for this review (see `Fuzz.unit`), or nil for no fuzz;
    /// ignored when the settings turn fuzz off.
    package func next(after state: MemoryState?, grade: Grade, at time: Date, fuzz: Double? = nil) -> MemoryState {
        var card = Card(state, startingEasePermille: startingEasePermille)
        review(&card, grade: grade, at: time.timeIntervalSince1970, fuzz: fuzz)
        return card.memoryState
    }

    /// An estimate of recall probability for an SM-2 entry: FSRS's default forgetting curve
    /// with the interval as stability, so recall is 90 % when the entry falls due.
    ///
    /// SM-2 has no memory model; this proxy lets study order and mastery treat both
    /// schedulers alike. 0 for an entry never reviewed.
    package func retrievability(of state: MemoryState, at time: Date) -> Double {
        guard let last = state.lastReview else { return 0 }
        let days = max(0, FSRS.wholeDays(from: last.timeIntervalSince1970, to: time.timeIntervalSince1970))
        return pow(1 + Self.defaultCurveFactor * Double(days) / max(state.interval ?? 0, 1), Self.defaultCurveDecay)
    }

    private static let defaultCurveDecay = -FSRSParameters.defaultValues[20]
    private static let defaultCurveFactor = pow(0.9, 1 / defaultCurveDecay) - 1

    func review(_ card: inout Card, grade: Grade, at now: Double, fuzz: Double?) {
        let elapsed = card.lastReview.map { max(0, FSRS.wholeDays(from: $0, to: now)) } ?? 0
        let fuzz = settings.enableFuzzing ? fuzz : nil
        var delay: Double
        switch card.phase {
        case .learning:
            delay = answerLearning(&card, grade: grade, fuzz: fuzz)
        case .relearning:
            delay = answerRelearning(&card, grade: grade, fuzz: fuzz)
        case .review:
            delay = answerReview(&card, grade: grade, elapsed: elapsed, fuzz: fuzz)
        }
        if card.phase == .review {
            card.step = nil
            delay = Double(card.interval) * 86_400
        }
        card.due = now + delay
        card.lastReview = now
        card.reps += 1
    }

    /// Learning steps; returns the step delay in seconds (ignored once graduated).
    private func answerLearning(_ card: inout Card, grade: Grade, fuzz: Double?) -> Double {
        let steps = settings.learningSteps
        let sm2 = settings.sm2
        func graduate(easy: Bool) -> Double {
            card.phase = .review
            card.easePermille = startingEasePermille
            card.interval =
                easy
                ? constrain(Float(sm2.easyInterval), minimum: sm2.graduatingInterval + 1, fuzz: fuzz)
                : constrain(Float(sm2.graduatingInterval), minimum: 1, fuzz: fuzz)
            return 0
        }
        guard !steps.isEmpty else { return graduate(easy: grade == .easy) }
        let step = min(card.step ?? 0, steps.count - 1)
        switch grade {
        case .again:
            card.step = 0
            return steps[0]
        case .hard:
            card.step = step
            return Self.hardDelay(steps, step: step)
        case .good:
            guard step + 1 < steps.count else { return graduate(easy: false) }
            card.step = step + 1
            return steps[step + 1]
        case .easy:
            return graduate(easy: true)
        }
    }

    /// Relearning steps after a lapse; the review interval was set by the lapse.
    private func answerRelearning(_ card: inout Card, grade: Grade, fuzz: Double?) -> Double {
        let steps = settings.relearningSteps
        guard !steps.isEmpty else {
            card.phase = .review
            return 0
        }
        let step = min(card.step ?? 0, steps.count - 1)
        switch grade {
        case .again:
            card.step = 0
            card.interval = lapseInterval(card.interval, fuzz: fuzz)
            return steps[0]
        case .hard:
            card.step = step
            return Self.hardDelay(steps, step: step)
        case .good:
            guard step + 1 < steps.count else {
                card.phase = .review
                return 0
            }
            card.step = step + 1
            return steps[step + 1]
        case .easy:
            card.phase = .review
            card.interval = min(card.interval + 1, settings.maximumInterval)
            return 0
        }
    }

    /// A review-phase answer: new interval from the old ease, then the ease moves.
    private func answerReview(_ card: inout Card, grade: Grade, elapsed: Int, fuzz: Double?) -> Double {
        let newEase = max(card.easePermille + SM2Settings.easeDeltaPermille(grade), minimumEasePermille)
        guard grade != .again else {
            card.lapses += 1
            card.easePermille = newEase
            card.interval = lapseInterval(card.interval, fuzz: fuzz)
            if let first = settings.relearningSteps.first {
                card.phase = .relearning
                card.step = 0
                return first
            }
            return 0
        }
        let (hard, good, easy) = passingIntervals(
            scheduled: card.interval, elapsed: elapsed, ease: Float(card.easePermille) / 1000, fuzz: fuzz)
        card.interval = grade == .hard ? hard : grade == .good ? good : easy
        card.easePermille = newEase
        return 0
    }

    /// Hard, good and easy intervals for a review-phase entry; each bounds the next.
    func passingIntervals(scheduled: Int, elapsed: Int, ease: Float, fuzz: Double?) -> (Int, Int, Int) {
        let current = max(Float(scheduled), 1)
        let daysLate = elapsed - scheduled
        if daysLate < 0 {
            // Early review: grow from the time actually elapsed, never below the old interval.
            let elapsedDays = Float(elapsed)
            let hard = constrain(
                max(elapsedDays * hardMultiplier, current * (hardMultiplier / 2)), minimum: 0, fuzz: nil)
            let good = constrain(max(elapsedDays * ease, current), minimum: 0, fuzz: nil)
            let reducedBonus = easyBonus - (easyBonus - 1) / 2
            let easy = constrain(max(elapsedDays * ease, current) * reducedBonus, minimum: 0, fuzz: nil)
            return (hard, good, easy)
        }
        let late = Float(daysLate)
        let hard = constrain(current * hardMultiplier, minimum: hardMultiplier <= 1 ? 0 : scheduled + 1, fuzz: fuzz)
        let good = constrain(
            (current + late / 2) * ease, minimum: hardMultiplier <= 1 ? scheduled + 1 : hard + 1, fuzz: fuzz)
        let easy = constrain((current + late) * ease * easyBonus, minimum: good + 1, fuzz: fuzz)
        return (hard, good, easy)
    }

    /// The interval after a lapse: `max(minimum lapse interval, ivl × new-interval multiplier)`.
    func lapseInterval(_ scheduled: Int, fuzz: Double?) -> Int {
        constrain(
            max(Float(scheduled), 1) * newIntervalMultiplier, minimum: settings.sm2.minimumLapseInterval, fuzz: fuzz)
    }

    /// Rounds (half away from zero) or fuzzes an interval, then keeps it within
    /// `minimum`…maximum interval and at least 1 day.
    func constrain(_ interval: Float, minimum: Int, fuzz: Double?) -> Int {
        let maximum = max(settings.maximumInterval, 1)
        let minimum = min(max(minimum, 1), maximum)
        if let fuzz {
            return Fuzz.interval(Double(interval), unit: fuzz, minimum: minimum, maximum: maximum)
        }
        let rounded = interval.rounded()
        // NaN takes the maximum too, rather than trapping in `Int(_:)`.
        guard rounded < Float(maximum) else { return maximum }
        return max(Int(rounded), minimum)
    }

    /// Anki's hard delay: on the first step the mean of the first two steps (whole seconds,
    /// rounded to whole days past a day) or 1.5× a lone step but at most a day more; later
    /// steps repeat.
    static func hardDelay(_ steps: [TimeInterval], step: Int) -> TimeInterval {
        guard step == 0 else { return steps[step] }
        if steps.count >= 2 {
            let mean = ((steps[0] + steps[1]) / 2).rounded(.down)
            return mean > 86_400 ? (mean / 86_400).rounded() * 86_400 : mean
        }
        return min((steps[0] * 1.5).rounded(.down), steps[0] + 86_400)
    }

    /// The ease in thousandths; an ease read from a file is clamped first (`Int(_:)` traps on
    /// NaN and past Int's range), to within ± a million: far past any ease SM-2 reaches.
    static func permille(_ ease: Double) -> Int {
        let value = (ease * 1000).rounded()
        return value.isNaN ? 0 : Int(min(max(value, -1_000_000_000), 1_000_000_000))
    }
}

extension SM2 {
    /// An interval read from a file as whole days, clamped (`Int(_:)` traps on NaN and past
    /// Int's range) to within ± a million years, past any maximum interval.
    static func wholeDays(_ days: Double) -> Int {
        let value = days.rounded()
        return value.isNaN ? 0 : Int(min(max(value, -365_000_000), 365_000_000))
    }

    /// The mutable card replay works on; ease in thousandths as Anki stores it, so repeated
    /// ±0.15 steps never drift.
    struct Card {
        var phase: MemoryState.Phase = .learning
        var step: Int? = 0
        var easePermille: Int
        var interval = 0
        var due = 0.0
        var lastReview: Double? = nil
        var reps = 0
        var lapses = 0

        init(_ state: MemoryState?, startingEasePermille: Int) {
            easePermille = startingEasePermille
            guard let state else { return }
            phase = state.phase
            step = state.step ?? (state.phase == .review ? nil : 0)
            if let ease = state.ease { easePermille = SM2.permille(ease) }
            interval = SM2.wholeDays(state.interval ?? 0)
            due = state.due.timeIntervalSince1970
            lastReview = state.lastReview?.timeIntervalSince1970
            reps = state.reps
            lapses = state.lapses
        }

        var memoryState: MemoryState {
            MemoryState(
                phase: phase, step: step, ease: Double(easePermille) / 1000, interval: Double(interval),
                due: Date(timeIntervalSince1970: due), reps: reps, lapses: lapses,
                lastReview: lastReview.map(Date.init(timeIntervalSince1970:)))
        }
    }
}
