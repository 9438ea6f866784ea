public import Foundation
import RoteModel
public import RoteStore

/// `rote import FILE.csv|.tsv|.txt --deck NAME`: vocabulary or passages from a table whose
/// header row names the fields (or Anki's `#columns:` header). Each row becomes one entry
/// file. A row with a problem (a required value missing, an id used twice, an entry that does
/// not pass the format's checks) is skipped and reported with its line; a file whose rows do
/// not match its header (a wrong column count) is refused as a whole.
public struct TableImporter: Sendable {
    public var deck: String
    /// nil: the existing deck's kind, or guessed from the columns.
    public var kind: TableKind?
    public var mode: SeedImporter.Mode
    public var file: String
    public var deckTitle: String?

    public init(
        deck: String, kind: TableKind? = nil, mode: SeedImporter.Mode = .append, file: String, deckTitle: String? = nil
    ) {
        self.deck = deck
        self.kind = kind
        self.mode = mode
        self.file = file
        self.deckTitle = deckTitle
    }

    /// The separator a file name implies when the file does not say: `,` for .csv, a tab for
    /// .tsv and .txt (Anki's default).
    public static func defaultSeparator(for file: String) -> Character {
        file.lowercased().hasSuffix(".csv") ? "," : "\t"
    }

    public func plan(_ data: Data, library: LoadedLibrary) -> ImportPlan {
        ImportPlan.made(deck: deck, file: file) { fill(data, library: library, &$0, &$1) }
    }

    private func fill(_ data: Data, library: LoadedLibrary, _ plan: inout ImportPlan, _ log: inout DiagnosticLog) {
        if let problem = Slug.lengthProblem(deck, from: "the deck name") {
            log.error("", "\(problem); choose a shorter one with --deck")
            return
        }
        guard Slug.isValidSegment(deck) else {
            log.error("", "deck name '\(deck)' is not a valid folder name; use lowercase letters, digits, _ . -")
            return
        }
        let table: DelimitedText
        do {
            table = try DelimitedText.parse(data, defaultSeparator: TableImporter.defaultSeparator(for: file))
        } catch {
            log.error("", "\(error)")
            return
        }
        let width = table.columns?.count ?? table.rows.first?.fields.count ?? 0
        var headers =
            table.columns
            ?? (0..<width).map { ["front", "back"].indices.contains($0) ? ["front", "back"][$0] : "column\($0 + 1)" }
        if let tags = table.tagsColumn, headers.indices.contains(tags - 1) { headers[tags - 1] = "tags" }

        // The kind: the deck's, the flag's, or what the columns say.
        let existingDeck = library.decks[deck]
        var kind = self.kind
        if let existingDeck {
            guard existingDeck.kind == .vocabulary || existingDeck.kind == .passages else {
                log.error(
                    "",
                    "deck '\(deck)' is a \(existingDeck.kind.rawValue) deck; tables import into vocabulary or passages decks — choose another --deck"
                )
                return
            }
            let deckKind: TableKind = existingDeck.kind == .vocabulary ? .vocabulary : .passages
            if let kind, kind != deckKind {
                log.error(
                    "",
                    "deck '\(deck)' already exists as a \(existingDeck.kind.rawValue) deck, but --kind says \(kind.rawValue); drop --kind or choose another --deck"
                )
                return
            }
            kind = deckKind
        }
        if kind == nil {
            let names = Set(headers.map { $0.lowercased() })
            if names.contains("word") { kind = .vocabulary } else if names.contains("reference") { kind = .passages }
        }
        guard let kind else {
            log.error(
                "",
                "cannot tell whether this is vocabulary or passages from the columns (\(headers.joined(separator: ", "))); add --kind vocabulary or --kind passage"
            )
            return
        }
        let columns = headers.map(kind.normalise)
        for required in kind.required where !columns.contains(required) {
            log.error(
                "",
                "no '\(required)' column; the columns are \(headers.joined(separator: ", ")). Name the fields in a header row (or Anki's #columns: line)"
            )
        }
        var seenColumns = Set<String>()
        for (index, column) in columns.enumerated() {
            if !seenColumns.insert(column).inserted {
                log.error("", "column '\(headers[index])' appears twice in the header")
            }
            if !kind.isKnown(column) {
                log.warning(
                    "",
                    "unknown column '\(headers[index])' (ignored); known columns: \(kind.known.joined(separator: ", "))"
                )
            }
        }
        if kind == .vocabulary, !columns.contains("pos") {
            log.warning(
                "", "no 'pos' column; words get pos 'phrase' — add a pos column (verb, noun, …) or edit the files")
        }
        for row in table.rows where row.fields.count != columns.count {
            log.error(
                "line \(row.line)",
                "\(row.fields.count) field\(row.fields.count == 1 ? "" : "s") but the header has \(columns.count) (\(headers.joined(separator: ", "))); a separator inside a field needs \"quotes\""
            )
        }
        if table.rows.isEmpty { log.error("", "no rows to import") }
        if log.hasErrors { return }

        var overlay = library
        var idsSeen: [String: Int] = [:]
        var groupedWarnings: [String: [Int]] = [:]
        var lineOf: [String: Int] = [:]
        let entriesByID = library.entriesByID()
        for row in table.rows {
            let location = "line \(row.line)"
            var cells: [String: String] = [:]
            for (index, column) in columns.enumerated() {
                let raw = row.fields[index]
                cells[column] = (table.html ? DelimitedText.plainText(fromHTML: raw) : raw).trimmingCharacters(
                    in: .whitespacesAndNewlines)
            }
            if cells.values.allSatisfy(\.isEmpty) {
                log.skipped(location, "empty row")
                continue
            }
            if let missing = kind.required.first(where: { (cells[$0] ?? "").isEmpty }) {
                log.skipped(location, "no '\(missing)'")
                continue
            }
            let id: String
            if let given = cells["id"], !given.isEmpty {
                id = given
            } else {
                let label = kind == .vocabulary ? cells["word"]! : cells["reference"]!
                id = Slug.make(from: label)
                if id == "learner", !label.lowercased().contains("learner") {
                    log.skipped(
                        location,
                        "cannot make a file name from '\(label)'; add an id column (lowercase letters, digits, _ . -)")
                    continue
                }
            }
            // Checked before anything is reported: a name the file system refuses failed the
            // whole import at its commit, after the summary said it was done.
            let named = (cells["id"] ?? "").isEmpty ? (kind == .vocabulary ? "the word" : "the reference") : "the id"
            if let problem = Slug.lengthProblem(id, from: named) {
                log.skipped(location, "\(problem); add an id column with a shorter name for this row")
                continue
            }
            guard Slug.isValidEntryID("\(deck)/\(id)") else {
                log.skipped(
                    location,
                    "id '\(id)' is not a valid file name; use lowercase letters, digits, _ . - (and / for sub-folders)")
                continue
            }
            if let first = idsSeen[id] {
                log.skipped(location, "id '\(id)' is also on line \(first); each row needs its own id")
                continue
            }
            idsSeen[id] = row.line
            let entryID = "\(deck)/\(id)"
            let path = LibraryPaths.entry(entryID)
            let existing = entriesByID[entryID]
            if existing == nil, FileManager.default.fileExists(atPath: library.root.appending(path: path).path) {
                log.skipped(location, "\(path) exists but does not load; fix it first (`rote check` says why)")
                continue
            }
            if existing != nil, mode == .append {
                let text = FileManager.default.contents(atPath: library.root.appending(path: path).path).map {
                    String(decoding: $0, as: UTF8.self)
                }
                // Same content → unchanged; different → kept, as append never rewrites.
                if let content = build(kind, cells: cells, base: nil, location: location, log: &log),
                    content.render() == text
                {
                    plan.unchanged += 1
                } else {
                    plan.kept += 1
                    log.warning(
                        location, "\(path) already exists; kept as it is (--mode override updates it from the row)")
                }
                continue
            }
            guard let content = build(kind, cells: cells, base: existing?.content, location: location, log: &log) else {
                continue
            }
            let text = content.render()
            let (_, problems) = EntryContent.decode(Data(text.utf8), kind: kind.deckKind, path: path)
            let errors = problems.filter { $0.severity == .error }
            if !errors.isEmpty {
                log.skipped(location, errors.map(\.message).joined(separator: "; "))
                continue
            }
            for problem in problems where problem.severity == .warning {
                groupedWarnings[problem.message, default: []].append(row.line)
            }
            if let existing,
                let current = FileManager.default.contents(atPath: library.root.appending(path: existing.path).path),
                String(decoding: current, as: UTF8.self) == text
            {
                plan.unchanged += 1
                continue
            }
            plan.changes[path] = Data(text.utf8)
            lineOf[path] = row.line
            if existing == nil { plan.created += 1 } else { plan.replaced += 1 }
            let entry = Entry(id: entryID, deck: deck, path: path, content: content)
            if let index = overlay.entries.firstIndex(where: { $0.id == entryID }) {
                overlay.entries[index] = entry
            } else {
                overlay.entries.append(entry)
            }
        }
        if existingDeck == nil {
            let manifest = DeckManifest(
                kind: kind.deckKind, title: deckTitle ?? deck, version: "1.0.0",
                source: "Imported from \(URL(fileURLWithPath: file).lastPathComponent).",
                order: kind == .vocabulary && columns.contains("rank") ? .rank : .listed)
            overlay.decks[deck] = manifest
            if !plan.changes.isEmpty { plan.changes[LibraryPaths.deckManifest(deck)] = Data(manifest.render().utf8) }
        }
        for problem in LibraryValidator.crossFileProblems(overlay) {
            guard let line = lineOf[problem.path] else { continue }
            groupedWarnings[problem.message, default: []].append(line)
        }
        for (message, lines) in groupedWarnings.sorted(by: { $0.value.first ?? 0 < $1.value.first ?? 0 }) {
            let shown =
                lines.prefix(5).map(String.init).joined(separator: ", ")
                + (lines.count > 5 ? " and \(lines.count - 5) more" : "")
            log.warning("line\(lines.count == 1 ? "" : "s") \(shown)", message)
        }
        let noun = kind == .vocabulary ? "word" : "passage"
        let total = plan.created + plan.replaced + plan.unchanged + plan.kept
        plan.contents = "\(total) \(noun)\(total == 1 ? "" : "s")"
        if plan.created + plan.replaced == 0, !log.hasErrors {
            log.warning("", "no row adds or changes an entry; nothing to commit")
        }
        return
    }

    /// The entry a row describes; with `base` (override of an existing entry), the columns the
    /// table has replace those fields and everything else (examples, questions) is kept.
    func build(
        _ kind: TableKind, cells: [String: String], base: EntryContent?, location: String, log: inout DiagnosticLog
    )
        -> EntryContent?
    {
        func value(_ column: String) -> String? {
            guard let text = cells[column], !text.isEmpty else { return nil }
            return text
        }
        func number(_ column: String) -> Int?? {
            guard let text = value(column) else { return .some(nil) }
            guard let number = Int(text) else {
                log.skipped(location, "\(column) '\(text)' is not a whole number")
                return nil
            }
            return .some(number)
        }
        switch kind {
        case .vocabulary:
            var word: VocabularyEntry
            if case let .vocabulary(existing)? = base {
                word = existing
            } else {
                word = VocabularyEntry(
                    word: cells["word"]!, pos: "phrase", translation: cells["translation"]!, forms: [])
            }
            word.word = cells["word"]!
            word.translation = cells["translation"]!
            if let pos = value("pos") { word.pos = pos.lowercased() }
            if cells["alternatives"] != nil { word.alternatives = CellList.split(cells["alternatives"]!) }
            if let forms = value("forms") {
                guard let pairs = CellList.pairs(forms) else {
                    log.skipped(
                        location, "forms '\(forms)' must be name=form pairs separated by ';', e.g. base=run; past=ran")
                    return nil
                }
                word.forms = pairs
            }
            for column in cells.keys.sorted() where column.hasPrefix("form_") {
                guard let form = value(column) else { continue }
                let name = String(column.dropFirst(5))
                if let index = word.forms.firstIndex(where: { $0.0 == name }) {
                    word.forms[index].1 = form
                } else {
                    word.forms.append((name, form))
                }
            }
            if word.forms.isEmpty { word.forms = [("base", word.word)] }
            for column in cells.keys.sorted() where column.hasPrefix("definition_") {
                let language = String(column.dropFirst(11))
                word.definition.removeAll { $0.0 == language }
                if let text = value(column) { word.definition.append((language, text)) }
            }
            for (column, path) in [
                ("ipa", \VocabularyEntry.ipa), ("cefr", \.cefr), ("level", \.level), ("difficulty", \.difficulty),
                ("root", \.root), ("usage_notes", \.usageNotes), ("audio", \.audio), ("image", \.image),
            ] where cells[column] != nil {
                word[keyPath: path] = value(column)
            }
            for (column, path) in [("rank", \VocabularyEntry.rank), ("batch", \.batch)] where cells[column] != nil {
                guard let parsed = number(column) else { return nil }
                word[keyPath: path] = parsed
            }
            if let english = value("example_en") {
                let example = VocabularyEntry.Example(
                    en: english, translated: value("example_ar") ?? "", form: value("example_form") ?? "base",
                    primary: true)
                if word.examples.isEmpty { word.examples = [example] } else { word.examples[0] = example }
            }
            return .vocabulary(word)
        case .passages:
            var passage: PassageEntry
            if case let .passage(existing)? = base {
                passage = existing
            } else {
                passage = PassageEntry(reference: cells["reference"]!, text: cells["text"]!)
            }
            passage.reference = cells["reference"]!
            passage.text = cells["text"]!
            for (column, path) in [
                ("book", \PassageEntry.book), ("verses", \.verses), ("translation", \.translation),
                ("mnemonic", \.mnemonic), ("mnemonic_image", \.mnemonicImage),
            ] where cells[column] != nil {
                passage[keyPath: path] = value(column)
            }
            for (column, path) in [("chapter", \PassageEntry.chapter), ("order", \.order)] where cells[column] != nil {
                guard let parsed = number(column) else { return nil }
                passage[keyPath: path] = parsed
            }
            if cells["tags"] != nil {
                let text = cells["tags"]!
                passage.tags = text.contains(";") ? CellList.split(text) : text.split(separator: " ").map(String.init)
            }
            if let license = value("license") {
                passage.rights = PassageEntry.Rights(
                    license: license, holder: value("holder"), note: value("rights_note"))
            } else if cells["license"] != nil {
                passage.rights = nil
            }
            return .passage(passage)
        }
    }
}
