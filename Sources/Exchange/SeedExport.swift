package import Foundation
package import RoteModel
import RoteStore

/// `rote export --deck SKILLS --format json`: a skills deck in the skills seed's JSON (seed
/// 001) — `domains`, `skills` and `questions` with their UUIDs, slugs, payloads, explanations,
/// sort orders and publish flags — which `rote import FILE --deck NAME` reads back.
///
/// A domain, skill or question without a UUID gets one made from its place in the deck (the
/// same every time), since the seed's skills and questions refer to their parents by UUID.
package enum SeedExport {
    /// The seed JSON of `deck` under `root`: its domains and skills from their folders'
    /// `domain.yaml` and `skill.yaml`, its questions from `entries` (the deck's, in study order).
    package static func json(deck: String, manifest: DeckManifest?, root: URL, entries: [Entry]) throws -> String {
        guard let manifest else { throw LibraryError(.notFound, "no deck '\(deck)'") }
        guard manifest.kind == .skills else {
            throw LibraryError(
                .wrongKind,
                "deck '\(deck)' is a \(manifest.kind.rawValue) deck; the seed JSON format holds skills decks (use --format csv or tsv)"
            )
        }
        let corpus = root.appending(path: LibraryPaths.content(deck))
        func folders(_ url: URL) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { name in
                var isFolder: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(atPath: url.appending(path: name).path, isDirectory: &isFolder)
                    && isFolder.boolValue
            }.sorted()
        }
        func read(_ url: URL, _ path: String) throws -> SkillDomain? {
            guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
            let (value, problems) = SkillDomain.decode(data, path: path)
            guard let value else {
                let first = problems.first { $0.severity == .error }.map { "\n\($0.description)" } ?? ""
                throw LibraryError(
                    .unreadable,
                    "\(path) does not read, so the deck cannot be exported whole; fix it (`rote check`) and export again\(first)"
                )
            }
            return value
        }
        var domains: [JSONValue] = []
        var skills: [JSONValue] = []
        var questions: [JSONValue] = []
        var skillIDs: [String: String] = [:]
        for domainSlug in folders(corpus) {
            let domainPath = LibraryPaths.domain("\(deck)/\(domainSlug)")
            guard let domain = try read(root.appending(path: domainPath), domainPath) else { continue }
            let domainID = domain.uuid ?? stableUUID("\(deck)/\(domainSlug)")
            domains.append(record(domain, id: domainID, slug: domainSlug, parent: nil))
            for skillSlug in folders(corpus.appending(path: domainSlug)) {
                let skillPath = LibraryPaths.skill("\(deck)/\(domainSlug)/\(skillSlug)")
                guard let skill = try read(root.appending(path: skillPath), skillPath) else { continue }
                let skillID = skill.uuid ?? stableUUID("\(deck)/\(domainSlug)/\(skillSlug)")
                skillIDs["\(deck)/\(domainSlug)/\(skillSlug)"] = skillID
                skills.append(record(skill, id: skillID, slug: skillSlug, parent: ("domain_id", domainID)))
            }
        }
        for entry in entries {
            guard case let .question(question) = entry.content else { continue }
            let parts = entry.id.split(separator: "/").map(String.init)
            guard parts.count == 4, let skillID = skillIDs[parts.dropLast().joined(separator: "/")] else { continue }
            var fields: [String: JSONValue] = [
                "id": .string(question.uuid ?? stableUUID(entry.id)), "skill_id": .string(skillID),
                "slug": .string(parts[3]),
                "type": .string(question.payload.typeName), "sort_order": .number(Double(question.sortOrder)),
                "is_published": .bool(question.published),
            ]
            switch question.payload {
            case let .mcqSingle(prompt, choices, solution):
                fields["payload"] = .object([
                    "prompt": .string(prompt), "choices": .array(choices.map(JSONValue.string)),
                    "solution_index": .number(Double(solution)),
                ])
            case let .reorderSteps(prompt, steps, solution):
                var payload: [String: JSONValue] = [
                    "steps": .array(steps.map(JSONValue.string)),
                    "solution": .array(solution.map { .number(Double($0)) }),
                ]
                if let prompt { payload["prompt"] = .string(prompt) }
                fields["payload"] = .object(payload)
            }
            if let explanation = question.explanation {
                fields["explanation"] = .object(["body": .string(explanation)])
            }
            questions.append(.object(fields))
        }
        let document = JSONValue.object([
            "domains": .array(domains), "skills": .array(skills), "questions": .array(questions),
        ])
        return document.serialized(pretty: true) + "\n"
    }

    static func record(_ item: SkillDomain, id: String, slug: String, parent: (key: String, id: String)?) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id), "slug": .string(slug), "title": .string(item.title),
            "sort_order": .number(Double(item.sortOrder)),
            "is_published": .bool(item.published),
        ]
        // Present even when empty: the seed's description is optional, and null says "none".
        fields["description"] = item.description.map(JSONValue.string) ?? .null
        if let parent { fields[parent.key] = .string(parent.id) }
        return .object(fields)
    }

    /// A version-4-shaped UUID made from `key` (FNV-1a, twice), the same on every run.
    static func stableUUID(_ key: String) -> String {
        func hash(_ seed: UInt64) -> UInt64 {
            var value = seed
            for byte in key.utf8 {
                value ^= UInt64(byte)
                value = value &* 0x100_0000_01b3
            }
            return value
        }
        var bytes =
            withUnsafeBytes(of: hash(0xcbf2_9ce4_8422_2325).bigEndian, Array.init)
            + withUnsafeBytes(of: hash(0x8422_2325_cbf2_9ce4).bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
            hex.dropFirst(20),
        ]
        return parts.joined(separator: "-")
    }
}
