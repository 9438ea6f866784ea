public import Foundation

/// `profiles/<user>/sessions/<yyyy>/<mm>/<id>.yaml`: one finished study session and every
/// answer given in it (seed 000's session history and question attempts). Immutable once
/// written; its unique name means two devices' sessions never collide.
public struct SessionFile: YAMLCodable {
    public enum Kind: String, Sendable, CaseIterable {
        case learning, review, mixed
    }

    public struct Attempt: Sendable, Equatable {
        public var entry: String
        /// Question id within the entry (vocabulary), or the exercise name (`cloze-1`, `recall`).
        public var question: String
        public var answer: String
        public var correct: Bool
        public var at: Date
        public var ms: Int

        public init(entry: String, question: String, answer: String, correct: Bool, at: Date, ms: Int) {
            self.entry = entry
            self.question = question
            self.answer = answer
            self.correct = correct
            self.at = at
            self.ms = ms
        }
    }

    public var id: String
    public var user: String
    public var device: String?
    public var kind: Kind
    public var startedAt: Date
    public var endedAt: Date?
    public var decks: [String]
    /// Reviews per grade, and entries seen for the first time.
    public var again: Int, hard: Int, good: Int, easy: Int, new: Int
    public var attempts: [Attempt]
    /// The skill the session was about (`math/algebra/linear_equations`), when it studied one.
    public var skill: String?
    /// The share of attempts answered right, 0…1 (seed 001's session `score`); nil without
    /// attempts.
    public var score: Double?

    /// Right answers over all answers, rounded to three places; nil for none.
    /// Ladder steps a passage's practice records though they ask nothing (reading it twice,
    /// reflecting on it; never the reflection's text): they show the practice, and are no
    /// answer to count.
    public static let stepsWithoutAnswer: Set<String> = ["read1", "read2", "reflect"]

    /// The attempts that answered something.
    public var answers: [Attempt] { attempts.filter { !Self.stepsWithoutAnswer.contains($0.question) } }

    /// The passages whose acquisition ladder this session practised: attempts at a rung.
    /// `review` is the ladder's top, not a rung, and the question every `rote review` records.
    public var passagesPractised: Int {
        Set(
            attempts.lazy.filter { $0.question != "review" && ProgressFile.LadderPosition.levels.contains($0.question) }
                .map(\.entry)
        ).count
    }

    public static func score(of attempts: [Attempt]) -> Double? {
        guard !attempts.isEmpty else { return nil }
        return (Double(attempts.filter(\.correct).count) / Double(attempts.count) * 1000).rounded() / 1000
    }

    /// Counts one review under its grade.
    public mutating func count(_ grade: Grade) {
        switch grade {
        case .again: again += 1
        case .hard: hard += 1
        case .good: good += 1
        case .easy: easy += 1
        }
    }

    /// Reviews of every grade.
    public var reviews: Int { again + hard + good + easy }

    public init(
        id: String, user: String, device: String? = nil, kind: Kind = .mixed, startedAt: Date, endedAt: Date? = nil,
        decks: [String] = [], again: Int = 0, hard: Int = 0, good: Int = 0, easy: Int = 0, new: Int = 0,
        attempts: [Attempt] = []
    ) {
        self.id = id
        self.user = user
        self.device = device
        self.kind = kind
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.decks = decks
        self.again = again
        self.hard = hard
        self.good = good
        self.easy = easy
        self.new = new
        self.attempts = attempts
    }

    public init?(reading reader: inout MappingReader) {
        let id = reader.string("id", required: true)
        let user = reader.string("user", required: true)
        device = reader.string("device")
        let kindText = reader.string("type") ?? Kind.mixed.rawValue
        let startedAt = reader.date("started_at", required: true)
        endedAt = reader.date("ended_at")
        decks = reader.strings("decks") ?? []
        again = 0
        hard = 0
        good = 0
        easy = 0
        new = 0
        if var counts = reader.mapping("counts") {
            again = counts.int("again") ?? 0
            hard = counts.int("hard") ?? 0
            good = counts.int("good") ?? 0
            easy = counts.int("easy") ?? 0
            new = counts.int("new") ?? 0
            reader.absorb(counts)
        }
        skill = reader.string("skill")
        score = reader.double("score")
        attempts = []
        for (index, node) in (reader.list("attempts") ?? []).enumerated() {
            guard var item = reader.item(node, "attempts", index) else { continue }
            let entry = item.string("entry", required: true)
            let question = item.string("question", required: true)
            let answer = item.string("answer") ?? ""
            let correct = item.bool("correct", required: true)
            let at = item.date("at", required: true)
            let ms = item.int("ms") ?? 0
            if let entry, let question, let correct, let at {
                attempts.append(
                    Attempt(entry: entry, question: question, answer: answer, correct: correct, at: at, ms: ms))
            }
            reader.absorb(item)
        }
        guard let id, let user, let startedAt else { return nil }
        self.id = id
        self.user = user
        self.startedAt = startedAt
        if let kind = Kind(rawValue: kindText) {
            self.kind = kind
        } else {
            reader.error("type", "unknown session type '\(kindText)'; use learning, review or mixed")
            self.kind = .mixed
        }
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("id", .string(id))
        map.add("user", .string(user))
        map.add("device", device)
        map.add("type", .string(kind.rawValue))
        map.add("started_at", .date(startedAt))
        map.add("ended_at", endedAt)
        map.add("decks", strings: decks)
        map.add("skill", skill)
        map.add("score", score)
        map.add(
            "counts",
            .map(
                [
                    ("again", .int(again)), ("hard", .int(hard)), ("good", .int(good)), ("easy", .int(easy)),
                    ("new", .int(new)),
                ], flow: true))
        map.add(
            "attempts",
            .list(
                attempts.map { attempt in
                    .map(
                        [
                            ("entry", .string(attempt.entry)), ("question", .string(attempt.question)),
                            ("answer", .string(attempt.answer)),
                            ("correct", .bool(attempt.correct)), ("at", .date(attempt.at)), ("ms", .int(attempt.ms)),
                        ], flow: true)
                }, flow: false))
        return map.build()
    }
}

extension SessionFile: Codable {
    /// In JSON (a saved study session) a session file is its YAML text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let file = SessionFile.decode(text, path: "session.yaml").0 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a session file that does not read"))
        }
        self = file
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(render())
    }
}
