/// How well a review went, on FSRS's and Anki's four-point scale.
public enum Grade: Int, Sendable, Hashable, CaseIterable, Comparable {
    case again = 1
    case hard = 2
    case good = 3
    case easy = 4

    /// The word used in files and on the command line.
    public var name: String {
        switch self {
        case .again: "again"
        case .hard: "hard"
        case .good: "good"
        case .easy: "easy"
        }
    }

    /// Parses `again|hard|good|easy` or `1`–`4`.
    public init?(name: String) {
        switch name.lowercased() {
        case "again", "1": self = .again
        case "hard", "2": self = .hard
        case "good", "3": self = .good
        case "easy", "4": self = .easy
        default: return nil
        }
    }

    public static func < (lhs: Grade, rhs: Grade) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// In JSON a grade is its name (`"good"`), as in files; a number 1–4 reads too.
extension Grade: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self), let grade = Grade(rawValue: number) {
            self = grade
            return
        }
        let name = try container.decode(String.self)
        guard let grade = Grade(name: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a grade is again, hard, good or easy, not '\(name)'")
        }
        self = grade
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
