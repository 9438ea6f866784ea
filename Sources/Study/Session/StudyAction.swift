public import RoteModel

/// What a learner does at a study screen. Every screen takes `undo`, `suspend`, `ignore` and
/// `quit`; the rest are answers to the screen on show (`StudyScreen`), and an answer that does
/// not fit the screen is refused with `StudySession.ActionError`.
///
/// In JSON an action is one key: `{"proceed": true}`, `{"choose": 2}` (counting from 0),
/// `{"type": "run"}`, `{"order": [1, 0, 2]}`, `{"hint": "Jesus"}`, `{"consent": true}`,
/// `{"grade": "hard"}`, or `{"command": "undo"}`.
public enum StudyAction: Sendable, Equatable {
    /// Go on: past a card or a read rung, to the next answer, or accepting the proposed grade.
    case proceed
    /// A choice, by its place among the screen's choices, from 0.
    case choose(Int)
    /// A typed answer: a word, the missing words, a whole recitation, a reflection (empty
    /// skips it).
    case type(String)
    /// Steps in the order the learner put them, by their places on the screen, from 0.
    case order([Int])
    /// While reciting: the whole recitation typed so far, asking for the word that follows it.
    case hint(String)
    /// The answer to a consent question.
    case consent(Bool)
    /// A grade, the proposed one or another.
    case grade(Grade)
    case command(SessionCommand)
}

extension StudyAction: Codable {
    private enum Keys: String, CodingKey { case proceed, choose, type, order, hint, consent, grade, command }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "an action has one key: proceed, choose, type, order, hint, consent, grade or command"))
        }
        switch key {
        case .proceed: self = .proceed
        case .choose: self = .choose(try container.decode(Int.self, forKey: .choose))
        case .type: self = .type(try container.decode(String.self, forKey: .type))
        case .order: self = .order(try container.decode([Int].self, forKey: .order))
        case .hint: self = .hint(try container.decode(String.self, forKey: .hint))
        case .consent: self = .consent(try container.decode(Bool.self, forKey: .consent))
        case .grade: self = .grade(try container.decode(Grade.self, forKey: .grade))
        case .command:
            let name = try container.decode(String.self, forKey: .command)
            guard let command = SessionCommand(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .command, in: container, debugDescription: "a command is undo, suspend, ignore or quit")
            }
            self = .command(command)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .proceed: try container.encode(true, forKey: .proceed)
        case let .choose(index): try container.encode(index, forKey: .choose)
        case let .type(text): try container.encode(text, forKey: .type)
        case let .order(positions): try container.encode(positions, forKey: .order)
        case let .hint(text): try container.encode(text, forKey: .hint)
        case let .consent(granted): try container.encode(granted, forKey: .consent)
        case let .grade(grade): try container.encode(grade, forKey: .grade)
        case let .command(command): try container.encode(command.rawValue, forKey: .command)
        }
    }
}
