package import Foundation
package import RoteModel

/// A simulated learner whose memory follows FSRS-6 with chosen ("true") parameters, studying
/// with an app that schedules by other parameters — the data for checking that the optimizer
/// recovers what it should, and for benchmarking it against fsrs-rs.
///
/// Every day (but some skipped days) the learner sits down in the morning, answers every entry
/// the app has due that day — learning steps minutes apart within the session — and meets a
/// few new entries. An answer to an entry seen on an earlier day is recalled with the true
/// model's probability `R(t, S)` after `t` whole days, exactly the event the optimizer's model
/// predicts; the grade is again on a miss, else hard, good or easy at fixed rates. The true
/// memory state then moves by FSRS-6 with the true parameters, while the app's state (and so
/// when the entry comes back) moves with the app's settings. Everything is drawn from one
/// seeded generator: the same configuration gives the same histories.
package enum FSRSSimulator {
    package struct Configuration: Sendable {
        /// Entries the learner will meet.
        package var cards = 1_000
        /// The simulation stops once this many reviews have been made…
        package var reviews = 30_000
        /// …or after this many days, whichever comes first (nil: no limit).
        package var days: Int? = nil
        package var newPerDay = 20
        /// The parameters the learner's memory follows.
        package var truth: [Double] = FSRSSimulator.farFromDefaults
        /// What the app schedules with (fuzz on, so intervals vary as in real use).
        package var app: SchedulerSettings = .default
        /// Chance of not studying on a given day.
        package var skipDay = 0.1
        /// Chances of again, hard, good, easy on first sight.
        package var firstGrades: [Double] = [0.25, 0.15, 0.45, 0.15]
        /// Chances of hard, good, easy when recalled.
        package var recalledGrades: [Double] = [0.12, 0.73, 0.15]
        package var seed: UInt64 = 20_261_121
        package var start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

        package init() {}
    }

    /// True parameters far from the defaults (every one moved, several by more than their
    /// spread across Anki users), inside fsrs-rs's bounds.
    package static let farFromDefaults: [Double] = [
        1.2, 3.5, 7.0, 20.0, 7.5, 0.6, 1.5, 0.05, 1.2, 0.3, 1.1, 1.8, 0.15, 0.35, 1.3, 0.4, 2.5, 0.7, 0.25, 0.15, 0.35,
    ]

    /// One review history per entry met, in the order the entries were met.
    package static func histories(_ configuration: Configuration) throws(SchedulerSettingsError) -> [[ReviewEvent]] {
        let truth = FSRS(settings: try SchedulerSettings(parameters: configuration.truth, enableFuzzing: false))
        let app = FSRS(settings: configuration.app)
        let decay = -configuration.truth[20]
        let factor = pow(0.9, 1 / decay) - 1
        var random = SeededGenerator(seed: configuration.seed)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func pick(_ chances: [Double]) -> Int {
            var u = uniform() * chances.reduce(0, +)
            for (index, chance) in chances.enumerated() {
                if u < chance { return index }
                u -= chance
            }
            return chances.count - 1
        }

        var histories: [[ReviewEvent]] = []
        var memory: [FSRS.Card] = []
        var schedule: [FSRS.Card] = []
        var queue = DueQueue()
        var total = 0
        var day = 0
        while total < configuration.reviews && day < (configuration.days ?? .max) {
            let dayStart = configuration.start.timeIntervalSince1970 + Double(day) * 86_400
            day += 1
            if uniform() < configuration.skipDay { continue }
            let dayEnd = dayStart + 86_400
            var cursor = dayStart + 8 * 3_600 + uniform() * 3 * 3_600
            for _ in 0..<min(configuration.newPerDay, configuration.cards - histories.count) {
                queue.push(due: cursor, card: histories.count)
                histories.append([])
                memory.append(FSRS.Card(nil))
                schedule.append(FSRS.Card(nil))
            }
            while total < configuration.reviews, let (due, card) = queue.popFirst(before: dayEnd) {
                // Due later today: answered now, in the morning session; due within the hour
                // (a learning step): answered when it comes up.
                let time = (due > cursor + 3_600 ? cursor : max(cursor, due)).rounded(.down)
                let grade: Grade
                if let last = memory[card].lastReview {
                    let elapsed = time - last
                    let days = FSRS.wholeDays(from: last, to: time)
                    // The optimizer predicts long-term answers from whole days; a same-day
                    // answer only needs a plausible chance, so it uses the exact time.
                    let r =
                        days >= 1
                        ? truth.retrievability(stability: memory[card].stability, elapsedDays: days)
                        : pow(1 + factor * (elapsed / 86_400) / memory[card].stability, decay)
                    grade = uniform() < r ? Grade(rawValue: pick(configuration.recalledGrades) + 2)! : .again
                } else {
                    grade = Grade(rawValue: pick(configuration.firstGrades) + 1)!
                }
                let id = "c\(card)-\(histories[card].count)"
                truth.review(&memory[card], grade: grade, at: time, fuzz: nil)
                app.review(
                    &schedule[card], grade: grade, at: time,
                    fuzz: Fuzz.Draw(unit: Fuzz.unit(entryID: "c\(card)", reviewID: id)))
                histories[card].append(ReviewEvent(id: id, at: Date(timeIntervalSince1970: time), grade: grade))
                total += 1
                queue.push(due: schedule[card].due, card: card)
                cursor = time + 5 + uniform() * 15
            }
        }
        return histories
    }

    /// A binary min-heap of (due time, card).
    struct DueQueue {
        private var heap: [(due: Double, card: Int)] = []

        var isEmpty: Bool { heap.isEmpty }

        mutating func push(due: Double, card: Int) {
            heap.append((due, card))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.less(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        /// The earliest entry if it is due before `time`.
        mutating func popFirst(before time: Double) -> (Double, Int)? {
            guard let first = heap.first, first.due < time else { return nil }
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    let right = left + 1
                    var smallest = parent
                    if left < heap.count, Self.less(heap[left], heap[smallest]) { smallest = left }
                    if right < heap.count, Self.less(heap[right], heap[smallest]) { smallest = right }
                    if smallest == parent { break }
                    heap.swapAt(parent, smallest)
                    parent = smallest
                }
            }
            return (first.due, first.card)
        }

        static func less(_ a: (due: Double, card: Int), _ b: (due: Double, card: Int)) -> Bool {
            a.due != b.due ? a.due < b.due : a.card < b.card
        }
    }
}
