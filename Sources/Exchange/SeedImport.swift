public import Foundation
import RoteModel
public import RoteStore

/// `rote import FILE.json`: the skills seed's JSON (seed 001 — domains, skills, questions with
/// UUIDs, slugs, payloads and publish flags) mapped onto a skills deck:
///
///     corpus/<deck>/<domain slug>/domain.yaml
///     corpus/<deck>/<domain slug>/<skill slug>/skill.yaml
///     corpus/<deck>/<domain slug>/<skill slug>/<question slug>.yaml
///
/// The seed's rules: hard violations (a required field missing or null, a wrong type, a
/// payload that is not valid JSON or not the question type's shape, a duplicate slug or UUID,
/// a slug outside `^[a-z0-9_]+$`, a publish flag the publish rules forbid) block the import
/// and are all listed with their JSON path; missing optional fields are warnings.
public struct SeedImporter: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Adds what is new; an item already in the deck (same place, same UUID) is kept as it is.
        case append
        /// Adds what is new and rewrites items already in the deck with the file's version.
        case override
    }

    public var deck: String
    public var mode: Mode
    /// Replace characters outside `^[a-z0-9_]+$` with `_` instead of blocking.
    public var fixSlugs: Bool
    /// The file's name, for messages.
    public var file: String
    /// Title of the deck when the import creates it.
    public var deckTitle: String?

    public init(deck: String, mode: Mode = .append, fixSlugs: Bool = false, file: String, deckTitle: String? = nil) {
        self.deck = deck
        self.mode = mode
        self.fixSlugs = fixSlugs
        self.file = file
        self.deckTitle = deckTitle
    }

    /// The underscore form of a slug: lower-case, every run of other characters as one `_`.
    public static func fixedSlug(_ slug: String) -> String {
        var out = ""
        for scalar in slug.lowercased().unicodeScalars {
            if scalar.isASCII, (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "_" {
                out.unicodeScalars.append(scalar)
            } else if !out.hasSuffix("_") {
                out += "_"
            }
        }
        while out.hasPrefix("_") { out.removeFirst() }
        while out.hasSuffix("_") { out.removeLast() }
        return out
    }

    // MARK: - Records as read from the file

    struct DomainRecord {
        var path: String
        var slug: String
        var value: SkillDomain
    }

    struct SkillRecord {
        var path: String
        var slug: String
        var domainID: String
        var value: Skill
    }

    struct QuestionRecord {
        var path: String
        var slug: String
        var skillID: String
        var value: SkillQuestion
    }

    /// Plans the import of `data` into `library`. Nothing is written.
    public func plan(_ data: Data, library: LoadedLibrary) -> ImportPlan {
        ImportPlan.made(deck: deck, file: file) { fill(data, library: library, &$0, &$1) }
    }

    private func fill(_ data: Data, library: LoadedLibrary, _ plan: inout ImportPlan, _ log: inout DiagnosticLog) {
        if let problem = Slug.lengthProblem(deck, from: "the deck name") {
            log.error("", "\(problem); choose a shorter one with --deck")
            return
        }
        guard Slug.isValidSegment(deck) else {
            log.error(
                "",
                "deck name '\(deck)' is not a valid folder name; use lowercase letters, digits, _ . - (e.g. --deck algebra)"
            )
            return
        }
        if let existing = library.decks[deck], existing.kind != .skills {
            log.error(
                "",
                "deck '\(deck)' already exists as a \(existing.kind.rawValue) deck (\(LibraryPaths.deckManifest(deck))); a seed file holds skills — choose another name with --deck"
            )
            return
        }
        let document: JSONValue
        switch JSONValue.parse(data) {
        case let .success(value): document = value
        case let .failure(problem):
            log.error(problem.location, "not valid JSON: \(problem.message)")
            return
        }
        guard case let .object(top) = document, !["domains", "skills", "questions"].filter({ top[$0] != nil }).isEmpty
        else {
            let found: String
            if case let .object(top) = document {
                found =
                    top.isEmpty ? "an empty object" : "an object with keys " + top.keys.sorted().joined(separator: ", ")
            } else {
                found = document.kind
            }
            log.error(
                "",
                "not the skills seed format (seed 001): expected an object with \"domains\", \"skills\" and \"questions\" arrays, found \(found)"
            )
            return
        }
        for key in top.keys.sorted() where !["domains", "skills", "questions"].contains(key) {
            log.warning(key, "unknown key '\(key)' (ignored); a seed file holds domains, skills and questions")
        }

        var domains: [DomainRecord] = []
        var skills: [SkillRecord] = []
        var questions: [QuestionRecord] = []
        for (index, item) in records(top, "domains", &log).enumerated() {
            var record = Record(path: "domains[\(index)]", value: item, log: log)
            if let domain = readDomain(&record, kind: "domain") { domains.append(domain) }
            log = record.finish()
        }
        for (index, item) in records(top, "skills", &log).enumerated() {
            var record = Record(path: "skills[\(index)]", value: item, log: log)
            let domainID = record.uuid("domain_id", required: true)
            if let domain = readDomain(&record, kind: "skill"), let domainID {
                skills.append(
                    SkillRecord(path: domain.path, slug: domain.slug, domainID: domainID, value: domain.value))
            }
            log = record.finish()
        }
        for (index, item) in records(top, "questions", &log).enumerated() {
            var record = Record(path: "questions[\(index)]", value: item, log: log)
            if let question = readQuestion(&record) { questions.append(question) }
            log = record.finish()
        }
        if domains.isEmpty, skills.isEmpty, questions.isEmpty, !log.hasErrors {
            log.error("", "the file holds no domains, skills or questions; nothing to import")
        }
        place(domains: domains, skills: skills, questions: questions, library: library, plan: &plan, log: &log)
        return
    }

    private func records(_ top: [String: JSONValue], _ key: String, _ log: inout DiagnosticLog) -> [JSONValue] {
        guard let value = top[key] else { return [] }
        guard case let .array(items) = value else {
            log.error(key, "'\(key)' must be an array of objects, found \(value.kind)")
            return []
        }
        return items
    }

    /// A slug as the seed's rule wants it, or nil (with an error) when it breaks the rule.
    private func slug(_ record: inout Record) -> String? {
        guard let slug = record.string("slug", required: true) else { return nil }
        if let problem = Slug.lengthProblem(slug, from: "the slug") {
            record.error("slug", "\(problem); give it a shorter slug")
            return nil
        }
        if Slug.isValidSkillSlug(slug) { return slug }
        let fixed = SeedImporter.fixedSlug(slug)
        if fixed.isEmpty {
            record.error(
                "slug",
                "slug '\(slug)' breaks the rule ^[a-z0-9_]+$ and has no letters or digits to keep; give it a slug such as 'basics'"
            )
            return nil
        }
        if fixSlugs {
            record.warning("slug", "slug '\(slug)' breaks the rule ^[a-z0-9_]+$; imported as '\(fixed)' (--fix-slugs)")
            return fixed
        }
        record.error(
            "slug",
            "slug '\(slug)' breaks the rule ^[a-z0-9_]+$; use '\(fixed)', or run the import with --fix-slugs to use it")
        // The import is blocked already; the fixed form lets the rest be checked as well, so
        // one run lists every problem instead of a cascade of unresolved references.
        return fixed
    }

    /// The fields domains and skills share.
    private func readDomain(_ record: inout Record, kind: String) -> DomainRecord? {
        let uuid = record.uuid("id", required: false)
        if uuid == nil, !record.has("id") {
            record.warning(
                "id", "missing optional field 'id' (a UUID); without it a later import cannot recognise this \(kind)")
        }
        let slug = slug(&record)
        let title = record.string("title", required: true)
        let description = record.string("description", required: false)
        if kind == "skill", description == nil, !record.has("description") {
            record.warning("description", "missing optional field 'description'")
        }
        let sortOrder = record.optionalInt("sort_order", defaultNote: "0")
        let published = record.optionalBool("is_published", defaultNote: "false")
        record.ignore(["created_utc_ms", "updated_utc_ms", "created_at", "updated_at"])
        guard let slug, let title else { return nil }
        if title.trimmingCharacters(in: .whitespaces).isEmpty {
            record.error("title", "'title' is empty; it is required")
            return nil
        }
        return DomainRecord(
            path: record.path, slug: slug,
            value: SkillDomain(
                uuid: uuid, title: title, description: description, sortOrder: sortOrder ?? 0,
                published: published ?? false))
    }

    private func readQuestion(_ record: inout Record) -> QuestionRecord? {
        let uuid = record.uuid("id", required: false)
        if uuid == nil, !record.has("id") {
            record.warning(
                "id", "missing optional field 'id' (a UUID); without it a later import cannot recognise this question")
        }
        let skillID = record.uuid("skill_id", required: true)
        let slug = slug(&record)
        let type = record.string("type", required: true)
        let sortOrder = record.optionalInt("sort_order", defaultNote: "0")
        let published = record.optionalBool("is_published", defaultNote: "false")
        record.ignore(["created_utc_ms", "updated_utc_ms", "created_at", "updated_at"])
        let explanation = readExplanation(&record)
        let payload = readPayload(&record, type: type)
        if let slug, slug == "skill" || slug == "domain" {
            record.error(
                "slug", "a question cannot be called '\(slug)': \(slug).yaml describes its folder; choose another slug")
            return nil
        }
        guard let slug, let skillID, let payload else { return nil }
        return QuestionRecord(
            path: record.path, slug: slug, skillID: skillID,
            value: SkillQuestion(
                uuid: uuid, payload: payload, explanation: explanation, sortOrder: sortOrder ?? 0,
                published: published ?? false))
    }

    /// The explanation as text: a string, `{"body": "…"}`, or either as JSON text.
    private func readExplanation(_ record: inout Record) -> String? {
        guard var value = record.value("explanation") else {
            record.warning("explanation", "missing optional field 'explanation'; learners see it after answering")
            return nil
        }
        if case let .string(text) = value, text.trimmingCharacters(in: .whitespaces).hasPrefix("{") {
            guard case let .success(parsed) = JSONValue.parse(Data(text.utf8)) else {
                record.error("explanation", "explanation is not valid JSON (it starts with '{')")
                return nil
            }
            value = parsed
        }
        switch value {
        case let .string(text): return text
        case let .object(fields):
            if case let .string(body)? = fields["body"] { return body }
            record.warning("explanation", "explanation has no \"body\" text; left out")
            return nil
        default:
            record.error("explanation", "explanation must be text or an object with \"body\", found \(value.kind)")
            return nil
        }
    }

    private func readPayload(_ record: inout Record, type: String?) -> SkillQuestion.Payload? {
        guard var value = record.value("payload", required: true) else { return nil }
        if case let .string(text) = value {
            switch JSONValue.parse(Data(text.utf8)) {
            case let .success(parsed): value = parsed
            case let .failure(problem):
                record.error(
                    "payload",
                    "payload is not valid JSON"
                        + (problem.location.isEmpty ? "" : " (\(problem.location) of the payload text)")
                        + ": \(problem.message)")
                return nil
            }
        }
        guard case .object = value else {
            record.error("payload", "payload must be an object, found \(value.kind)")
            return nil
        }
        guard let type else { return nil }
        guard ["mcq_single", "reorder_steps"].contains(type) else {
            record.error("type", "type '\(type)' is not a question type; use mcq_single or reorder_steps")
            return nil
        }
        var body = Record(path: record.path + ".payload", value: value, log: record.log)
        defer { record.log = body.finish() }
        let payload: SkillQuestion.Payload
        switch type {
        case "mcq_single":
            let prompt = body.string("prompt", required: true)
            let choices = body.strings("choices")
            let solution = body.int("solution_index")
            guard let prompt, let choices, let solution else { return nil }
            payload = .mcqSingle(prompt: prompt, choices: choices, solutionIndex: solution)
        case "reorder_steps":
            let prompt = body.string("prompt", required: false)
            let steps = body.strings("steps")
            let solution = body.ints("solution")
            guard let steps, let solution else { return nil }
            payload = .reorderSteps(prompt: prompt, steps: steps, solution: solution)
        default:
            return nil
        }
        // The payload's own rules (choices, indexes, permutations) are the YAML codec's: the
        // question is written and read back, so what is imported is what `rote check` accepts.
        let written = SkillQuestion(payload: payload, explanation: "", published: false).render()
        for problem in SkillQuestion.decode(written, path: "").1 where problem.severity == .error {
            body.error("", problem.message)
        }
        return body.log.hasErrors(under: body.path) ? nil : payload
    }
}
