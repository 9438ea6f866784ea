package import Foundation
package import RoteModel
import Scheduling

/// What one file contributes to the rules that look across files — a few fields, kept for
/// every file by the incremental check (`LibraryCheck`) so that an unchanged file need not be
/// parsed again for them.
package enum FileFacts: Sendable, Equatable {
    /// An entry: its place in study order and what the rules compare.
    case entry(EntryFacts)
    case domain(key: String, uuid: String?, published: Bool)
    case skill(key: String, uuid: String?, published: Bool)
    /// A profile, with its fitted FSRS parameters (checked against their bounds, and their
    /// decks against the library's).
    case profile(user: String, fitted: [FittedParameters])
    /// A progress file, with its reviews dated more than a day ahead when the facts were
    /// taken: later, only some of those can still be (time only moves on).
    case progress(user: String, entry: String, ahead: [AheadReview])

    package struct EntryFacts: Sendable, Equatable {
        package enum Content: Sendable, Equatable {
            case vocabulary(word: String, pos: String, quality: VocabularyFacts)
            case letter(glyph: String, order: Int)
            case question(uuid: String?, published: Bool)
            case passage
        }

        package var id: String
        package var deck: String
        package var path: String
        package var sortKey: Int
        package var content: Content

        package init(id: String, deck: String, path: String, sortKey: Int, content: Content) {
            self.id = id
            self.deck = deck
            self.path = path
            self.sortKey = sortKey
            self.content = content
        }

        package init(_ entry: Entry) {
            let content: Content
            switch entry.content {
            case let .vocabulary(word):
                content = .vocabulary(word: word.word, pos: word.pos, quality: VocabularyFacts(word))
            case let .letter(letter): content = .letter(glyph: letter.glyph, order: letter.order)
            case let .question(question): content = .question(uuid: question.uuid, published: question.published)
            case .passage: content = .passage
            }
            self.init(id: entry.id, deck: entry.deck, path: entry.path, sortKey: entry.sortKey, content: content)
        }
    }

    /// What the content-quality rules compare across a deck's words (`ContentRulesCheck`).
    package struct VocabularyFacts: Sendable, Equatable, Codable {
        package var rank: Int?
        /// `translation` and `alternatives[n]` (1-based) that have no Arabic letter.
        package var nonArabic: [String]
        /// Each reverse-translation question's id and distractors, for the part-of-speech rule.
        package var questions: [Question]

        package struct Question: Sendable, Equatable, Codable {
            package var id: String
            package var kind: String
            package var distractors: [String]

            package init(id: String, kind: String, distractors: [String]) {
                self.id = id
                self.kind = kind
                self.distractors = distractors
            }
        }

        package init(rank: Int? = nil, nonArabic: [String] = [], questions: [Question] = []) {
            self.rank = rank
            self.nonArabic = nonArabic
            self.questions = questions
        }

        package init(_ word: VocabularyEntry) {
            var nonArabic: [String] = []
            if !ContentQuality.hasArabicLetter(word.translation) { nonArabic.append("translation") }
            for (index, alternative) in word.alternatives.enumerated()
            where !ContentQuality.hasArabicLetter(alternative) {
                nonArabic.append("alternatives[\(index + 1)]")
            }
            self.init(
                rank: word.rank, nonArabic: nonArabic,
                questions: word.questions.filter { $0.kind == .reverseTranslation }.map {
                    Question(id: $0.id, kind: $0.kind.rawValue, distractors: $0.distractors.map(\.text))
                })
        }
    }

    /// One set of fitted parameters: `fsrs_parameters`, or `<deck>:` under `deck_fsrs_parameters`.
    package struct FittedParameters: Sendable, Equatable {
        package var key: String
        package var values: [Double]

        package init(key: String, values: [Double]) {
            self.key = key
            self.values = values
        }

        static func of(_ profile: Profile) -> [FittedParameters] {
            var sets =
                profile.settings.fsrsParameters.map { [FittedParameters(key: "fsrs_parameters", values: $0)] } ?? []
            sets += profile.deckFSRSParameters.map { FittedParameters(key: "\($0.0):", values: $0.1) }
            return sets
        }
    }

    package struct AheadReview: Sendable, Equatable {
        package var id: String
        package var at: Date

        package init(id: String, at: Date) {
            self.id = id
            self.at = at
        }
    }

    /// The facts of a parsed file's value; nil for files the rules do not look at.
    package init?(_ value: LibraryLoader.ParsedValue) {
        switch value {
        case let .entry(entry): self = .entry(EntryFacts(entry))
        case let .domain(key, domain): self = .domain(key: key, uuid: domain.uuid, published: domain.published)
        case let .skill(key, skill): self = .skill(key: key, uuid: skill.uuid, published: skill.published)
        case let .profile(user, profile): self = .profile(user: user, fitted: FittedParameters.of(profile))
        case let .progress(user, file): self = .progress(user: user, entry: file.entry, ahead: FileFacts.ahead(file))
        case .session, .letters: return nil
        }
    }

    static func ahead(_ file: ProgressFile) -> [AheadReview] {
        file.reviews.filter { Timestamp.isTooFarAhead($0.at) }.map { AheadReview(id: $0.id, at: $0.at) }
    }

    /// Every file's facts in a loaded library.
    package static func of(_ library: LoadedLibrary) -> [FileFacts] {
        var values: [LibraryLoader.ParsedValue] = library.entries.map { .entry($0) }
        values += library.domains.map { .domain($0, $1) } + library.skills.map { .skill($0, $1) }
        values += library.profiles.map { .profile($0, $1) }
        for (user, files) in library.progress { values += files.values.map { .progress(user, $0) } }
        return values.compactMap(FileFacts.init)
    }
}

/// The rules that look across files: references between files, duplicate ids, publish rules.
/// Rules inside one file live with that file's codec.
package enum LibraryValidator {
    package static func crossFileProblems(_ library: LoadedLibrary) -> [Diagnostic] {
        crossFileProblems(
            root: library.root, manifest: library.manifest, decks: library.decks, facts: FileFacts.of(library))
    }

    /// The same rules over the files' facts, for a check that reads only what changed.
    package static func crossFileProblems(
        root: URL, manifest: LibraryManifest?, decks: [String: DeckManifest], facts: [FileFacts]
    ) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let finder = LineFinder(root: root)
        var entries: [FileFacts.EntryFacts] = []
        var domains: [String: (uuid: String?, published: Bool)] = [:]
        var skills: [String: (uuid: String?, published: Bool)] = [:]
        var profiles = Set<String>()
        var fitted: [String: [FileFacts.FittedParameters]] = [:]
        var progress: [String: [String: [FileFacts.AheadReview]]] = [:]
        for fact in facts {
            switch fact {
            case let .entry(entry): entries.append(entry)
            case let .domain(key, uuid, published): domains[key] = (uuid, published)
            case let .skill(key, uuid, published): skills[key] = (uuid, published)
            case let .profile(user, sets):
                profiles.insert(user)
                if !sets.isEmpty { fitted[user] = sets }
            case let .progress(user, entry, ahead): progress[user, default: [:]][entry] = ahead
            }
        }
        let deckOrder = LoadedLibrary.deckOrder(manifest: manifest, decks: decks)
        entries = LibraryLoader.sortedInStudyOrder(entries, deckOrder: deckOrder) { ($0.deck, $0.sortKey, $0.id) }

        if let manifest {
            for deck in manifest.decks where decks[deck] == nil {
                problems.append(
                    .error(
                        LibraryLocation.manifestName, finder.line(containing: deck, in: LibraryLocation.manifestName),
                        "rote.yaml lists deck '\(deck)' but \(LibraryPaths.deckManifest(deck)) does not exist or cannot be read"
                    ))
            }
            if let user = manifest.defaultUser, !profiles.contains(user),
                progress[user] != nil || profiles.isEmpty == false
            {
                problems.append(
                    .warning(
                        LibraryLocation.manifestName,
                        finder.line(containing: "default_user", in: LibraryLocation.manifestName),
                        "default_user '\(user)' has no \(LibraryPaths(user: user).profile)"))
            }
        }

        problems += skillsProblems(entries: entries, domains: domains, skills: skills, finder)
        problems += fsrsParameterProblems(profiles: fitted, decks: decks, finder)

        var uuids: [String: String] = [:]
        func claim(_ uuid: String?, _ path: String) {
            guard let uuid else { return }
            if let first = uuids[uuid.lowercased()] {
                problems.append(
                    .error(
                        path, finder.line(containing: uuid, in: path),
                        "id \(uuid) is already used by \(first); ids must be unique"))
            } else {
                uuids[uuid.lowercased()] = path
            }
        }
        for (key, domain) in domains.sorted(by: { $0.key < $1.key }) { claim(domain.uuid, LibraryPaths.domain(key)) }
        for (key, skill) in skills.sorted(by: { $0.key < $1.key }) { claim(skill.uuid, LibraryPaths.skill(key)) }

        var glyphs: [String: String] = [:]
        var letterOrders: [String: String] = [:]
        var words: [String: String] = [:]
        let entryIDs = Set(entries.map(\.id))
        for entry in entries {
            switch entry.content {
            case let .question(uuid, _):
                claim(uuid, entry.path)
            case let .letter(glyph, order):
                if let other = glyphs["\(entry.deck)/\(glyph)"] {
                    problems.append(
                        .error(
                            entry.path, finder.line(containing: "glyph", in: entry.path),
                            "glyph '\(glyph)' is also used by \(other)"))
                } else {
                    glyphs["\(entry.deck)/\(glyph)"] = entry.path
                }
                if let other = letterOrders["\(entry.deck)/\(order)"] {
                    problems.append(
                        .error(
                            entry.path, finder.line(containing: "order", in: entry.path),
                            "order \(order) is also used by \(other); the unlock order must be unambiguous"))
                } else {
                    letterOrders["\(entry.deck)/\(order)"] = entry.path
                }
            case let .vocabulary(word, pos, quality):
                let hasRank = quality.rank != nil
                let key = "\(entry.deck)/\(word.lowercased())/\(pos)"
                if let other = words[key] {
                    problems.append(
                        .warning(
                            entry.path, finder.line(containing: "word", in: entry.path),
                            "'\(word)' (\(pos)) is also in \(other)"))
                } else {
                    words[key] = entry.path
                }
                if decks[entry.deck]?.order == .rank, !hasRank {
                    problems.append(
                        .warning(
                            entry.path, finder.line(containing: "word", in: entry.path),
                            "missing optional field 'rank'; this deck studies in rank order, so the word comes last"))
                }
            case .passage:
                break
            }
        }

        problems += ContentRulesCheck.problems(entries: entries, decks: decks, finder)

        for (user, files) in progress.sorted(by: { $0.key < $1.key }) {
            if !profiles.contains(user) {
                problems.append(
                    .warning(
                        LibraryPaths(user: user).profile, nil,
                        "learner '\(user)' has progress but no profile.yaml; run `rote -C . check` after creating one, or remove the folder"
                    ))
            }
            // A review from a clock set years ahead (or a typo) arrives by merge too, and a
            // merge keeps every review; it is named here for a person to judge.
            for (entry, ahead) in files.sorted(by: { $0.key < $1.key }) {
                for review in ahead where Timestamp.isTooFarAhead(review.at) {
                    let path = LibraryPaths(user: user).progress(entry)
                    problems.append(
                        .warning(
                            path, finder.line(containing: review.id, in: path),
                            "review \(review.id) is dated \(Timestamp.format(review.at)), more than a day ahead of this device's clock; it schedules the entry for then. if the date is wrong, remove the line by hand"
                        ))
                }
            }
            for entry in files.keys.sorted() where !entryIDs.contains(entry) {
                let path = LibraryPaths(user: user).progress(entry)
                problems.append(
                    .warning(
                        path, 1,
                        "progress for '\(entry)', which is not in the corpus (renamed or removed?); the history is kept but not studied"
                    ))
            }
        }
        return problems
    }

    /// Fitted FSRS parameters in profiles: inside py-fsrs's bounds (else the scheduler uses the
    /// defaults), and per-deck ones for a deck that exists.
    static func fsrsParameterProblems(
        profiles: [String: [FileFacts.FittedParameters]], decks: [String: DeckManifest], _ finder: LineFinder
    ) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for (user, sets) in profiles.sorted(by: { $0.key < $1.key }) {
            let path = LibraryPaths(user: user).profile
            for set in sets {
                do {
                    _ = try FSRSParameters(set.values)
                } catch {
                    problems.append(
                        .error(
                            path, finder.line(containing: set.key, in: path),
                            "\(set.key.hasSuffix(":") ? "deck_fsrs_parameters." + set.key.dropLast() : "settings.fsrs_parameters"): \(error.message); the default parameters are used instead. Run `rote optimize` again, or remove the line"
                        ))
                }
            }
            for set in sets where set.key.hasSuffix(":") && decks[String(set.key.dropLast())] == nil {
                let deck = set.key.dropLast()
                problems.append(
                    .warning(
                        path, finder.line(containing: "\(deck):", in: path),
                        "deck_fsrs_parameters names deck '\(deck)', which is not in the library; they are kept but schedule nothing"
                    ))
            }
        }
        return problems
    }

    static func skillsProblems(
        entries: [FileFacts.EntryFacts], domains: [String: (uuid: String?, published: Bool)],
        skills: [String: (uuid: String?, published: Bool)],
        _ finder: LineFinder
    ) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var publishedQuestions: [String: Int] = [:]
        var questionCounts: [String: Int] = [:]
        for entry in entries {
            guard case let .question(_, published) = entry.content else { continue }
            let parts = entry.id.split(separator: "/")
            let skillKey = parts.prefix(3).joined(separator: "/")
            let domainKey = parts.prefix(2).joined(separator: "/")
            questionCounts[skillKey, default: 0] += 1
            if published { publishedQuestions[skillKey, default: 0] += 1 }
            if skills[skillKey] == nil {
                problems.append(
                    .error(
                        entry.path, nil,
                        "question's skill has no \(LibraryPaths.skill(skillKey)); add one (title, sort_order, published)"
                    )
                )
            } else if let skill = skills[skillKey], published, !skill.published {
                problems.append(
                    .warning(
                        entry.path, finder.line(containing: "published", in: entry.path),
                        "question is published but its skill '\(skillKey)' is not, so learners will not see it"))
            }
            if domains[domainKey] == nil, skills[skillKey] != nil {
                problems.append(
                    .error(
                        entry.path, nil,
                        "question's domain has no \(LibraryPaths.domain(domainKey)); add one (title, sort_order, published)"
                    ))
            }
        }
        for (key, skill) in skills.sorted(by: { $0.key < $1.key }) {
            let path = LibraryPaths.skill(key)
            if skill.published, publishedQuestions[key, default: 0] == 0 {
                problems.append(
                    .error(
                        path, finder.line(containing: "published", in: path),
                        "skill is published but has no published question; publish a question or set published: false"))
            }
            if questionCounts[key, default: 0] == 0 {
                problems.append(.warning(path, nil, "skill has no questions yet"))
            }
            let domainKey = key.split(separator: "/").prefix(2).joined(separator: "/")
            if domains[domainKey] == nil {
                problems.append(.error(path, nil, "skill's domain has no \(LibraryPaths.domain(domainKey))"))
            }
        }
        for (key, domain) in domains.sorted(by: { $0.key < $1.key }) where domain.published {
            let hasPublishedSkill = skills.contains { $0.key.hasPrefix(key + "/") && $0.value.published }
            if !hasPublishedSkill {
                let path = LibraryPaths.domain(key)
                problems.append(
                    .error(
                        path, finder.line(containing: "published", in: path),
                        "domain is published but has no published skill; publish a skill or set published: false"))
            }
        }
        return problems
    }
}

/// Finds the line a key or value sits on, for problems found after parsing. Reads the file
/// again only when a problem is reported, which is rare.
///
/// The rules report a file's problems one after another, often many of one kind (20 000
/// alternatives without an Arabic letter: 20 000 warnings on the `alternatives:` line, a
/// warning per review dated ahead), so the last file read is kept, and each answer
/// remembered. A text that is one word (a review id) or a whole line (`id: q1`) is looked up
/// in indexes built in one pass; only another text is searched for, line by line. Reading and
/// searching the file once per warning made such a check take minutes.
final class LineFinder {
    let root: URL
    private var path: String?
    private var lines: [Substring] = []
    private var found: [String: Int?] = [:]
    /// The first line holding each word (text between spaces and YAML's punctuation), and
    /// each line's text without its indentation and a `- `, for the file in `path`.
    private var indexed = false
    private var words: [Substring: Int] = [:]
    private var bare: [Substring: Int] = [:]
    /// How many times a file was read and how many texts were searched for line by line: the
    /// measure that keeps a check linear in its warnings (`NestingAndLinearCheckTests`).
    private(set) var fileReads = 0
    private(set) var lineSearches = 0

    init(root: URL) { self.root = root }

    static func isSeparator(_ character: Character) -> Bool {
        character == " " || character == "," || character == "{" || character == "}" || character == "["
            || character == "]" || character == ":" || character == "\"" || character == "'"
    }

    func line(containing text: String, in path: String) -> Int? {
        if path != self.path {
            self.path = path
            found = [:]
            indexed = false
            words = [:]
            bare = [:]
            fileReads += 1
            if let data = FileManager.default.contents(atPath: root.appending(path: path).path),
                let content = String(data: data, encoding: .utf8)
            {
                lines = content.split(separator: "\n", omittingEmptySubsequences: false)
            } else {
                lines = []
            }
        }
        if let known = found[text] { return known }
        if !indexed { index() }
        let line: Int?
        if !text.isEmpty, !text.contains(where: Self.isSeparator), let first = words[Substring(text)] {
            line = first
        } else if let first = bare[Substring(text)] {
            line = first
        } else {
            lineSearches += 1
            line = lines.firstIndex { $0.contains(text) }.map { $0 + 1 }
        }
        found[text] = line
        return line
    }

    private func index() {
        indexed = true
        for (offset, line) in lines.enumerated() {
            for word in line.split(whereSeparator: Self.isSeparator) where words[word] == nil {
                words[word] = offset + 1
            }
            var stripped = line.drop { $0 == " " }
            if stripped.hasPrefix("- ") { stripped = stripped.dropFirst(2) }
            if bare[stripped] == nil { bare[stripped] = offset + 1 }
        }
    }
}
