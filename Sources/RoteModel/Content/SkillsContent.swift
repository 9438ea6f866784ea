import Foundation
import Yams

/// `corpus/<deck>/<domain>/domain.yaml`: a subject area of a skills deck (the skills seed).
public struct SkillDomain: YAMLCodable {
    /// Content people write and Rote shows: control characters in it are warned of.
    public static var warnsOfControlCharacters: Bool { true }

    /// UUID from the seed data, kept stable across imports.
    public var uuid: String?
    public var title: String
    public var description: String?
    public var sortOrder: Int
    public var published: Bool

    public init(
        uuid: String? = nil, title: String, description: String? = nil, sortOrder: Int = 0, published: Bool = false
    ) {
        self.uuid = uuid
        self.title = title
        self.description = description
        self.sortOrder = sortOrder
        self.published = published
    }

    public init?(reading reader: inout MappingReader) {
        uuid = reader.string("id")
        let title = reader.string("title", required: true)
        description = reader.string("description")
        sortOrder = reader.int("sort_order") ?? 0
        published = reader.bool("published") ?? false
        if uuid == nil {
            reader.warning(
                "title", "missing optional field 'id' (a UUID); imports and sync use it to recognise the domain")
        }
        guard let title else { return nil }
        self.title = title
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("id", uuid)
        map.add("title", .string(title))
        map.add("description", description)
        map.add("sort_order", .int(sortOrder))
        map.add("published", .bool(published))
        return map.build()
    }
}

/// `corpus/<deck>/<domain>/<skill>/skill.yaml`: one skill and its publish flag. Same fields as
/// a domain.
public typealias Skill = SkillDomain

/// A question of a skill: `mcq_single` or `reorder_steps` with the seed's payloads.
public struct SkillQuestion: YAMLCodable {
    /// Content people write and Rote shows: control characters in it are warned of.
    public static var warnsOfControlCharacters: Bool { true }

    public enum Payload: Sendable, Equatable {
        /// One correct choice among several.
        case mcqSingle(prompt: String, choices: [String], solutionIndex: Int)
        /// Steps shown shuffled; `solution` lists step indexes in the right order.
        case reorderSteps(prompt: String?, steps: [String], solution: [Int])

        public var typeName: String {
            switch self {
            case .mcqSingle: "mcq_single"
            case .reorderSteps: "reorder_steps"
            }
        }
    }

    public var uuid: String?
    public var payload: Payload
    public var explanation: String?
    public var sortOrder: Int
    public var published: Bool

    public init(
        uuid: String? = nil, payload: Payload, explanation: String? = nil, sortOrder: Int = 0, published: Bool = false
    ) {
        self.uuid = uuid
        self.payload = payload
        self.explanation = explanation
        self.sortOrder = sortOrder
        self.published = published
    }

    public init?(reading reader: inout MappingReader) {
        uuid = reader.string("id")
        let type = reader.string("type", required: true)
        explanation = reader.string("explanation")
        if explanation == nil {
            reader.warning("type", "missing optional field 'explanation'; learners see it after answering")
        }
        sortOrder = reader.int("sort_order") ?? 0
        published = reader.bool("published") ?? false
        if uuid == nil {
            reader.warning("type", "missing optional field 'id' (a UUID); imports use it to recognise the question")
        }
        guard var body = reader.mapping("payload", required: true), let type else { return nil }
        defer { reader.absorb(body) }
        switch type {
        case "mcq_single":
            let prompt = body.string("prompt", required: true)
            let choices = body.strings("choices", required: true)
            let solution = body.int("solution_index", required: true)
            guard let prompt, let choices, let solution else { return nil }
            if choices.count < 2 {
                body.error("choices", "mcq_single needs at least 2 choices, found \(choices.count)")
                return nil
            }
            if !choices.indices.contains(solution) {
                body.error("solution_index", "solution_index \(solution) is not a choice (0…\(choices.count - 1))")
                return nil
            }
            if Set(choices).count != choices.count {
                body.error("choices", "mcq_single choices repeat; each choice must be different")
                return nil
            }
            payload = .mcqSingle(prompt: prompt, choices: choices, solutionIndex: solution)
        case "reorder_steps":
            let prompt = body.string("prompt")
            let steps = body.strings("steps", required: true)
            let solution = body.ints("solution", required: true)
            guard let steps, let solution else { return nil }
            if steps.count < 2 {
                body.error("steps", "reorder_steps needs at least 2 steps, found \(steps.count)")
                return nil
            }
            if solution.sorted() != Array(0..<steps.count) {
                body.error(
                    "solution", "solution \(solution) must list every step index 0…\(steps.count - 1) exactly once")
                return nil
            }
            payload = .reorderSteps(prompt: prompt, steps: steps, solution: solution)
        default:
            reader.error("type", "unknown question type '\(type)'; use mcq_single or reorder_steps")
            return nil
        }
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("id", uuid)
        map.add("type", .string(payload.typeName))
        var body = YAMLMapBuilder()
        switch payload {
        case let .mcqSingle(prompt, choices, solution):
            body.add("prompt", .string(prompt))
            body.add("choices", .strings(choices))
            body.add("solution_index", .int(solution))
        case let .reorderSteps(prompt, steps, solution):
            body.add("prompt", prompt)
            body.add("steps", .strings(steps, flow: false))
            body.add("solution", .list(solution.map(YAMLValue.int), flow: true))
        }
        map.add("payload", body.build())
        map.add("explanation", explanation)
        map.add("sort_order", .int(sortOrder))
        map.add("published", .bool(published))
        return map.build()
    }
}
