import Foundation
import RoteModel
import RoteStore

extension SeedImporter {
    /// Resolves references, checks uniqueness against the file and the deck, decides what
    /// each item does (new, replaced, unchanged, kept) and checks the publish rules on the
    /// library as it would be.
    func place(
        domains: [DomainRecord], skills: [SkillRecord], questions: [QuestionRecord], library: LoadedLibrary,
        plan: inout ImportPlan, log: inout DiagnosticLog
    ) {
        // Unique UUIDs across the file, unique slugs per scope.
        var uuids: [String: String] = [:]
        func claim(_ uuid: String?, _ path: String) {
            guard let uuid = uuid?.lowercased() else { return }
            if let first = uuids[uuid] {
                log.error(path + ".id", "id \(uuid) is also used by \(first); ids must be unique")
            } else {
                uuids[uuid] = path
            }
        }
        var slugs: [String: String] = [:]
        func claimSlug(_ scope: String, _ slug: String, _ path: String) {
            if let first = slugs[scope + "/" + slug] {
                log.error(
                    path + ".slug",
                    "duplicate slug '\(slug)': \(first) has it too\(scope.isEmpty ? "" : " in the same parent")")
            } else {
                slugs[scope + "/" + slug] = path
            }
        }
        for domain in domains {
            claim(domain.value.uuid, domain.path)
            claimSlug("", domain.slug, domain.path)
        }

        // Where each domain lives: from the file, or an existing domain of the deck.
        var domainFolder: [String: String] = [:]
        for domain in domains { if let uuid = domain.value.uuid?.lowercased() { domainFolder[uuid] = domain.slug } }
        for (key, domain) in library.domains where key.hasPrefix(deck + "/") {
            if let uuid = domain.uuid?.lowercased(), domainFolder[uuid] == nil {
                domainFolder[uuid] = String(key.dropFirst(deck.count + 1))
            }
        }
        var skillFolder: [String: String] = [:]
        var placedSkills: [(SkillRecord, String)] = []
        for skill in skills {
            claim(skill.value.uuid, skill.path)
            guard let folder = domainFolder[skill.domainID.lowercased()] else {
                log.error(
                    skill.path + ".domain_id",
                    "domain_id \(skill.domainID) matches no domain in the file or in \(LibraryPaths.content(deck))/")
                continue
            }
            claimSlug(folder, skill.slug, skill.path)
            let key = "\(folder)/\(skill.slug)"
            if let uuid = skill.value.uuid?.lowercased() { skillFolder[uuid] = key }
            placedSkills.append((skill, key))
        }
        for (key, skill) in library.skills where key.hasPrefix(deck + "/") {
            if let uuid = skill.uuid?.lowercased(), skillFolder[uuid] == nil {
                skillFolder[uuid] = String(key.dropFirst(deck.count + 1))
            }
        }
        var placedQuestions: [(QuestionRecord, String)] = []
        for question in questions {
            claim(question.value.uuid, question.path)
            guard let folder = skillFolder[question.skillID.lowercased()] else {
                log.error(
                    question.path + ".skill_id",
                    "skill_id \(question.skillID) matches no skill in the file or in \(LibraryPaths.content(deck))/")
                continue
            }
            claimSlug(folder, question.slug, question.path)
            placedQuestions.append((question, "\(folder)/\(question.slug)"))
        }

        // UUIDs already used elsewhere in the library.
        var libraryUUIDs: [String: String] = [:]
        for (key, domain) in library.domains {
            if let uuid = domain.uuid?.lowercased() { libraryUUIDs[uuid] = LibraryPaths.domain(key) }
        }
        for (key, skill) in library.skills {
            if let uuid = skill.uuid?.lowercased() { libraryUUIDs[uuid] = LibraryPaths.skill(key) }
        }
        for entry in library.entries {
            if case let .question(question) = entry.content, let uuid = question.uuid?.lowercased() {
                libraryUUIDs[uuid] = entry.path
            }
        }

        var overlay = library
        var jsonPathOf: [String: String] = [:]
        var counts: [String: Int] = [:]

        /// Decides what happens to one item at `path` whose current value is `existing`.
        func decide(
            _ path: String, jsonPath: String, uuid: String?, existing: (uuid: String?, text: String?)?, render: String
        ) -> Bool {
            jsonPathOf[path] = jsonPath
            if let uuid = uuid?.lowercased(), let other = libraryUUIDs[uuid], other != path {
                log.error(jsonPath + ".id", "id \(uuid) is already used by \(other); ids must be unique in the library")
                return false
            }
            guard let existing else {
                if FileManager.default.fileExists(atPath: library.root.appending(path: path).path) {
                    log.error(jsonPath, "\(path) exists but does not load; fix it first (`rote check` says why)")
                    return false
                }
                plan.changes[path] = Data(render.utf8)
                plan.created += 1
                return true
            }
            if let mine = uuid?.lowercased(), let theirs = existing.uuid?.lowercased(), mine != theirs {
                log.error(
                    jsonPath + ".slug",
                    "\(path) already holds a different item (id \(theirs)); give this one another slug")
                return false
            }
            if existing.text == render {
                plan.unchanged += 1
                return true
            }
            switch mode {
            case .append:
                plan.kept += 1
                log.warning(jsonPath, "\(path) already exists and differs; kept as it is (--mode override replaces it)")
                return false
            case .override:
                plan.changes[path] = Data(render.utf8)
                plan.replaced += 1
                return true
            }
        }
        func currentText(_ path: String) -> String? {
            FileManager.default.contents(atPath: library.root.appending(path: path).path).map {
                String(decoding: $0, as: UTF8.self)
            }
        }

        for domain in domains {
            let key = "\(deck)/\(domain.slug)"
            let path = LibraryPaths.domain(key)
            let existing = library.domains[key].map { (uuid: $0.uuid, text: currentText(path)) }
            if decide(
                path, jsonPath: domain.path, uuid: domain.value.uuid, existing: existing, render: domain.value.render())
            {
                overlay.domains[key] = domain.value
            }
            counts["domain", default: 0] += 1
        }
        for (skill, folder) in placedSkills {
            let key = "\(deck)/\(folder)"
            let path = LibraryPaths.skill(key)
            let existing = library.skills[key].map { (uuid: $0.uuid, text: currentText(path)) }
            if decide(
                path, jsonPath: skill.path, uuid: skill.value.uuid, existing: existing, render: skill.value.render())
            {
                overlay.skills[key] = skill.value
            }
            counts["skill", default: 0] += 1
        }
        let entriesByID = library.entriesByID()
        for (question, id) in placedQuestions {
            let entryID = "\(deck)/\(id)"
            let path = LibraryPaths.entry(entryID)
            let current = entriesByID[entryID]
            var existingUUID: String?
            if case let .question(value)? = current?.content { existingUUID = value.uuid }
            let existing = current.map { _ in (uuid: existingUUID, text: currentText(path)) }
            if decide(
                path, jsonPath: question.path, uuid: question.value.uuid, existing: existing,
                render: question.value.render())
            {
                let entry = Entry(id: entryID, deck: deck, path: path, content: .question(question.value))
                if let index = overlay.entries.firstIndex(where: { $0.id == entryID }) {
                    overlay.entries[index] = entry
                } else {
                    overlay.entries.append(entry)
                }
            }
            counts["question", default: 0] += 1
        }

        if library.decks[deck] == nil {
            let manifest = DeckManifest(
                kind: .skills, title: deckTitle ?? deck, version: "1.0.0",
                source: "Imported from \(URL(fileURLWithPath: file).lastPathComponent).", order: .listed)
            plan.changes[LibraryPaths.deckManifest(deck)] = Data(manifest.render().utf8)
            overlay.decks[deck] = manifest
        }

        // The publish rules and the rest of the cross-file rules, on the library as it would
        // be; only problems of the files this import writes count.
        for problem in LibraryValidator.crossFileProblems(overlay) where plan.changes[problem.path] != nil {
            let location = jsonPathOf[problem.path] ?? problem.path
            if problem.severity == .error {
                log.error(location, problem.message + " (\(problem.path))")
            } else {
                log.warning(location, problem.message + " (\(problem.path))")
            }
        }
        plan.contents = ["domain", "skill", "question"].compactMap { kind in
            counts[kind].map { "\($0) \(kind)\($0 == 1 ? "" : "s")" }
        }.joined(separator: ", ")
        if log.hasErrors { plan.changes = [:] }
    }
}
