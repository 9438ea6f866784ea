import Foundation
import Scheduling

/// The rules that look across files: references between files, duplicate ids, publish rules.
/// Rules inside one file live with that file's codec.
public enum LibraryValidator {
    public static func crossFileProblems(_ library: LoadedLibrary) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let finder = LineFinder(root: library.root)

        if let manifest = library.manifest {
            for deck in manifest.decks where library.decks[deck] == nil {
                problems.append(.error(LibraryLocation.manifestName, finder.line(containing: deck, in: LibraryLocation.manifestName), "rote.yaml lists deck '\(deck)' but corpus/\(deck)/deck.yaml does not exist or cannot be read"))
            }
            if let user = manifest.defaultUser, library.profiles[user] == nil, library.progress[user] != nil || library.profiles.isEmpty == false {
                problems.append(.warning(LibraryLocation.manifestName, finder.line(containing: "default_user", in: LibraryLocation.manifestName), "default_user '\(user)' has no profiles/\(user)/profile.yaml"))
            }
        }

        problems += skillsProblems(library, finder)
        problems += fsrsParameterProblems(library, finder)

        var uuids: [String: String] = [:]
        func claim(_ uuid: String?, _ path: String) {
            guard let uuid else { return }
            if let first = uuids[uuid.lowercased()] {
                problems.append(.error(path, finder.line(containing: uuid, in: path), "id \(uuid) is already used by \(first); ids must be unique"))
            } else {
                uuids[uuid.lowercased()] = path
            }
        }
        for (key, domain) in library.domains.sorted(by: { $0.key < $1.key }) { claim(domain.uuid, "corpus/\(key)/domain.yaml") }
        for (key, skill) in library.skills.sorted(by: { $0.key < $1.key }) { claim(skill.uuid, "corpus/\(key)/skill.yaml") }

        var glyphs: [String: String] = [:]
        var letterOrders: [String: String] = [:]
        var words: [String: String] = [:]
        let entryIDs = Set(library.entries.map(\.id))
        for entry in library.entries {
            switch entry.content {
            case let .question(question):
                claim(question.uuid, entry.path)
            case let .letter(letter):
                if let other = glyphs["\(entry.deck)/\(letter.glyph)"] {
                    problems.append(.error(entry.path, finder.line(containing: "glyph", in: entry.path), "glyph '\(letter.glyph)' is also used by \(other)"))
                } else {
                    glyphs["\(entry.deck)/\(letter.glyph)"] = entry.path
                }
                if let other = letterOrders["\(entry.deck)/\(letter.order)"] {
                    problems.append(.error(entry.path, finder.line(containing: "order", in: entry.path), "order \(letter.order) is also used by \(other); the unlock order must be unambiguous"))
                } else {
                    letterOrders["\(entry.deck)/\(letter.order)"] = entry.path
                }
            case let .vocabulary(word):
                let key = "\(entry.deck)/\(word.word.lowercased())/\(word.pos)"
                if let other = words[key] {
                    problems.append(.warning(entry.path, finder.line(containing: "word", in: entry.path), "'\(word.word)' (\(word.pos)) is also in \(other)"))
                } else {
                    words[key] = entry.path
                }
                if library.decks[entry.deck]?.order == .rank, word.rank == nil {
                    problems.append(.warning(entry.path, finder.line(containing: "word", in: entry.path), "missing optional field 'rank'; this deck studies in rank order, so the word comes last"))
                }
            case .passage:
                break
            }
        }

        for (user, files) in library.progress.sorted(by: { $0.key < $1.key }) {
            if library.profiles[user] == nil {
                problems.append(.warning("profiles/\(user)/profile.yaml", nil, "learner '\(user)' has progress but no profile.yaml; run `rote -C . check` after creating one, or remove the folder"))
            }
            // A review from a clock set years ahead (or a typo) arrives by merge too, and a
            // merge keeps every review; it is named here for a person to judge.
            for (entry, file) in files.sorted(by: { $0.key < $1.key }) {
                for review in file.reviews where Timestamp.isTooFarAhead(review.at) {
                    let path = "profiles/\(user)/progress/\(entry).yaml"
                    problems.append(.warning(path, finder.line(containing: review.id, in: path), "review \(review.id) is dated \(Timestamp.format(review.at)), more than a day ahead of this device's clock; it schedules the entry for then. if the date is wrong, remove the line by hand"))
                }
            }
            for entry in files.keys.sorted() where !entryIDs.contains(entry) {
                let path = "profiles/\(user)/progress/\(entry).yaml"
                problems.append(.warning(path, 1, "progress for '\(entry)', which is not in the corpus (renamed or removed?); the history is kept but not studied"))
            }
        }
        return problems
    }

    /// Fitted FSRS parameters in profiles: inside py-fsrs's bounds (else the scheduler uses the
    /// defaults), and per-deck ones for a deck that exists.
    static func fsrsParameterProblems(_ library: LoadedLibrary, _ finder: LineFinder) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for (user, profile) in library.profiles.sorted(by: { $0.key < $1.key }) {
            let path = "profiles/\(user)/profile.yaml"
            var sets: [(key: String, values: [Double])] = profile.settings.fsrsParameters.map { [("fsrs_parameters", $0)] } ?? []
            sets += profile.deckFSRSParameters.map { ("\($0.0):", $0.1) }
            for (key, values) in sets {
                do {
                    _ = try FSRSParameters(values)
                } catch {
                    problems.append(.error(path, finder.line(containing: key, in: path), "\(key.hasSuffix(":") ? "deck_fsrs_parameters." + key.dropLast() : "settings.fsrs_parameters"): \(error.message); the default parameters are used instead. Run `rote optimize` again, or remove the line"))
                }
            }
            for (deck, _) in profile.deckFSRSParameters where library.decks[deck] == nil {
                problems.append(.warning(path, finder.line(containing: "\(deck):", in: path), "deck_fsrs_parameters names deck '\(deck)', which is not in the library; they are kept but schedule nothing"))
            }
        }
        return problems
    }

    static func skillsProblems(_ library: LoadedLibrary, _ finder: LineFinder) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var publishedQuestions: [String: Int] = [:]
        var questionCounts: [String: Int] = [:]
        for entry in library.entries {
            guard case let .question(question) = entry.content else { continue }
            let parts = entry.id.split(separator: "/")
            let skillKey = parts.prefix(3).joined(separator: "/")
            let domainKey = parts.prefix(2).joined(separator: "/")
            questionCounts[skillKey, default: 0] += 1
            if question.published { publishedQuestions[skillKey, default: 0] += 1 }
            if library.skills[skillKey] == nil {
                problems.append(.error(entry.path, nil, "question's skill has no corpus/\(skillKey)/skill.yaml; add one (title, sort_order, published)"))
            } else if let skill = library.skills[skillKey], question.published, !skill.published {
                problems.append(.warning(entry.path, finder.line(containing: "published", in: entry.path), "question is published but its skill '\(skillKey)' is not, so learners will not see it"))
            }
            if library.domains[domainKey] == nil, library.skills[skillKey] != nil {
                problems.append(.error(entry.path, nil, "question's domain has no corpus/\(domainKey)/domain.yaml; add one (title, sort_order, published)"))
            }
        }
        for (key, skill) in library.skills.sorted(by: { $0.key < $1.key }) {
            let path = "corpus/\(key)/skill.yaml"
            if skill.published, publishedQuestions[key, default: 0] == 0 {
                problems.append(.error(path, finder.line(containing: "published", in: path), "skill is published but has no published question; publish a question or set published: false"))
            }
            if questionCounts[key, default: 0] == 0 {
                problems.append(.warning(path, nil, "skill has no questions yet"))
            }
            let domainKey = key.split(separator: "/").prefix(2).joined(separator: "/")
            if library.domains[domainKey] == nil {
                problems.append(.error(path, nil, "skill's domain has no corpus/\(domainKey)/domain.yaml"))
            }
        }
        for (key, domain) in library.domains.sorted(by: { $0.key < $1.key }) where domain.published {
            let hasPublishedSkill = library.skills.contains { $0.key.hasPrefix(key + "/") && $0.value.published }
            if !hasPublishedSkill {
                let path = "corpus/\(key)/domain.yaml"
                problems.append(.error(path, finder.line(containing: "published", in: path), "domain is published but has no published skill; publish a skill or set published: false"))
            }
        }
        return problems
    }
}

/// Finds the line a key or value sits on, for problems found after parsing. Reads the file
/// again only when a problem is reported, which is rare.
struct LineFinder {
    let root: URL

    func line(containing text: String, in path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: root.appending(path: path).path),
            let content = String(data: data, encoding: .utf8)
        else { return nil }
        for (index, line) in content.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(text) {
            return index + 1
        }
        return nil
    }
}
