public import Foundation

/// `profiles/<user>/progress/<deck>/<entry>.yaml`: one learner's history with one entry.
///
/// `reviews` is the truth — a grow-only set keyed by id, one flow mapping per line so a review
/// adds one line to a diff. `state` is derived by replay, written for readers, never merged.
public struct ProgressFile: YAMLCodable {
    public enum Status: String, Sendable, CaseIterable, Codable {
        case active, suspended, ignored
    }

    /// Where a passage stands on seed 004's acquisition ladder, saved after every rung so a
    /// stopped session resumes there. The latest `at` wins a merge.
    public struct LadderPosition: Sendable, Equatable {
        /// `read1`, `read2`, `reflect`, `cloze1`, `cloze2`, `cloze3`, `recite` or `review`.
        public var level: String
        /// cloze2: clause indexes already removed and recalled.
        public var covered: [Int]
        /// Rung attempts so far.
        public var attempts: Int
        public var at: Date

        public init(level: String, covered: [Int] = [], attempts: Int = 0, at: Date) {
            self.level = level
            self.covered = covered
            self.attempts = attempts
            self.at = at
        }

        public static let levels = ["read1", "read2", "reflect", "cloze1", "cloze2", "cloze3", "recite", "review"]
    }

    /// The learner's own words on what a passage means (seed 004's `semanticReflection`),
    /// written only when they consented (profile `consent.reflections`). The latest `at` wins.
    public struct Reflection: Sendable, Equatable {
        public var text: String
        public var at: Date

        public init(text: String, at: Date) {
            self.text = text
            self.at = at
        }
    }

    public var entry: String
    public var status: Status
    /// When `status` last changed; the later one wins when two devices disagree.
    public var statusAt: Date?
    /// `rote reset`: reviews at or before this time stay as history but no longer schedule
    /// the entry, which is new again. A merge keeps the later reset.
    public var resetAt: Date?
    public var ladder: LadderPosition?
    public var reflection: Reflection?
    public var state: MemoryState?
    /// In replay order (time, then id).
    public var reviews: [ReviewEvent]

    public init(
        entry: String, status: Status = .active, statusAt: Date? = nil, resetAt: Date? = nil,
        ladder: LadderPosition? = nil,
        reflection: Reflection? = nil, state: MemoryState? = nil, reviews: [ReviewEvent] = []
    ) {
        self.entry = entry
        self.status = status
        self.statusAt = statusAt
        self.resetAt = resetAt
        self.ladder = ladder
        self.reflection = reflection
        self.state = state
        self.reviews = reviews
    }

    /// The reviews that schedule the entry: those after the last reset (all without one),
    /// leaving out those `rote undo` marked `undone` and practice reviews.
    public var scheduledReviews: [ReviewEvent] {
        guard resetAt != nil || reviews.contains(where: { $0.undone != nil || $0.practice }) else { return reviews }
        return reviews.filter { review in
            review.undone == nil && !review.practice && resetAt.map { review.at > $0 } ?? true
        }
    }

    public init?(reading reader: inout MappingReader) {
        let entry = reader.string("entry", required: true)
        let statusText = reader.string("status") ?? Status.active.rawValue
        statusAt = reader.date("status_at")
        resetAt = reader.date("reset_at")
        if var values = reader.mapping("ladder") {
            let level = values.string("level", required: true)
            let covered = values.ints("covered") ?? []
            let attempts = values.int("attempts") ?? 0
            let at = values.date("at", required: true)
            if let level, !LadderPosition.levels.contains(level) {
                values.error(
                    "level", "unknown ladder level '\(level)'; use \(LadderPosition.levels.joined(separator: ", "))")
            } else if let level, let at {
                ladder = LadderPosition(level: level, covered: covered, attempts: attempts, at: at)
            }
            reader.absorb(values)
        }
        if var values = reader.mapping("reflection") {
            let text = values.string("text", required: true)
            let at = values.date("at", required: true)
            if let text, let at { reflection = Reflection(text: text, at: at) }
            reader.absorb(values)
        }
        if var state = reader.mapping("state") {
            self.state = ProgressFile.readState(&state)
            reader.absorb(state)
        }
        reviews = []
        var seen = Set<String>()
        for (index, node) in (reader.list("reviews") ?? []).enumerated() {
            guard var item = reader.item(node, "reviews", index) else { continue }
            let id = item.string("id", required: true)
            let at = item.date("at", required: true)
            let gradeText = item.string("grade", required: true)
            let ms = item.int("ms")
            let device = item.string("device")
            let synthetic = item.string("synthetic")
            let undone = item.date("undone")
            let practice = item.bool("practice") ?? false
            var balancedInterval = item.int("balanced_interval")
            if let days = balancedInterval, days < 1 {
                item.error("balanced_interval", "balanced_interval must be a whole number of days, 1 or more")
                balancedInterval = nil
            }
            if let id, let at, let gradeText {
                if let grade = Grade(name: gradeText) {
                    if seen.insert(id).inserted {
                        reviews.append(
                            ReviewEvent(
                                id: id, at: at, grade: grade, ms: ms, device: device, synthetic: synthetic,
                                undone: undone, practice: practice, balancedInterval: balancedInterval))
                    } else {
                        item.warning("id", "review id \(id) appears twice; the copy is ignored")
                    }
                } else {
                    item.error("grade", "unknown grade '\(gradeText)'; use again, hard, good or easy")
                }
            }
            reader.absorb(item)
        }
        reviews.sort(by: ReviewEvent.replayOrder)
        guard let entry else { return nil }
        self.entry = entry
        if let status = Status(rawValue: statusText) {
            self.status = status
        } else {
            reader.error("status", "unknown status '\(statusText)'; use active, suspended or ignored")
            self.status = .active
        }
    }

    static func readState(_ reader: inout MappingReader) -> MemoryState? {
        let phaseText = reader.string("phase", required: true)
        let due = reader.date("due", required: true)
        let state = MemoryState(
            phase: .learning, step: reader.int("step"), stability: reader.double("stability"),
            difficulty: reader.double("difficulty"), ease: reader.double("ease"), interval: reader.double("interval"),
            due: due ?? .distantPast, reps: reader.int("reps") ?? 0, lapses: reader.int("lapses") ?? 0,
            lastReview: reader.date("last_review"))
        guard let phaseText, due != nil else { return nil }
        guard let phase = MemoryState.Phase(rawValue: phaseText) else {
            reader.error("phase", "unknown phase '\(phaseText)'; use learning, review or relearning")
            return nil
        }
        var result = state
        result.phase = phase
        return result
    }

    static func stateValue(_ state: MemoryState) -> YAMLValue {
        var map = YAMLMapBuilder()
        map.add("phase", .string(state.phase.rawValue))
        map.add("step", state.step)
        map.add("stability", state.stability)
        map.add("difficulty", state.difficulty)
        map.add("ease", state.ease)
        map.add("interval", state.interval)
        map.add("due", .date(state.due))
        map.add("reps", .int(state.reps))
        map.add("lapses", .int(state.lapses))
        map.add("last_review", state.lastReview)
        return map.build(flow: true)
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("entry", .string(entry))
        map.add("status", .string(status.rawValue))
        map.add("status_at", statusAt)
        map.add("reset_at", resetAt)
        if let ladder {
            var values = YAMLMapBuilder()
            values.add("level", .string(ladder.level))
            values.add("covered", .list(ladder.covered.map(YAMLValue.int), flow: true))
            values.add("attempts", .int(ladder.attempts))
            values.add("at", .date(ladder.at))
            map.add("ladder", values.build(flow: true))
        }
        if let reflection {
            map.add(
                "reflection", .map([("text", .string(reflection.text)), ("at", .date(reflection.at))], flow: false))
        }
        if let state { map.add("state", ProgressFile.stateValue(state)) }
        map.add(
            "reviews",
            .list(
                reviews.sorted(by: ReviewEvent.replayOrder).map { review in
                    var item = YAMLMapBuilder()
                    item.add("id", .string(review.id))
                    item.add("at", .date(review.at))
                    item.add("grade", .string(review.grade.name))
                    item.add("ms", review.ms)
                    item.add("device", review.device)
                    item.add("synthetic", review.synthetic)
                    item.add("undone", review.undone)
                    if review.practice { item.add("practice", .bool(true)) }
                    item.add("balanced_interval", review.balancedInterval)
                    return item.build(flow: true)
                }, flow: false))
        return map.build()
    }
}
