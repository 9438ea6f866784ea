import Foundation
import Git
import RoteModel
import RoteStore
import Scheduling

/// Notes to entries.
extension AnkiImporter {
    // MARK: - Notes to entries

    struct Draft {
        var note: AnkiCollection.Note
        var kind: DeckKind
        var content: EntryContent
        var slug: String
        var media: [String]
        /// Whether control characters were removed from the note's fields or tags.
        var hadControlCharacters = false
    }

    /// The entry a note becomes, or why it cannot become one.
    static func draft(_ note: AnkiCollection.Note, noteType: AnkiCollection.NoteType, targets: [String?]) -> Result<
        Draft, DraftError
    > {
        var values: [String: AnkiText.Field] = [:]
        var sounds: [String] = []
        var images: [String] = []
        var hadControlCharacters = false
        for (position, html) in note.fields.enumerated() {
            let field = AnkiText.field(html)
            hadControlCharacters = hadControlCharacters || field.hadControlCharacters
            sounds += field.sounds
            images += field.images
            guard position < targets.count, let target = targets[position], values[target] == nil else { continue }
            values[target] = field
        }
        func text(_ name: String) -> String? { values[name].flatMap { $0.text.isEmpty ? nil : $0.text } }
        let audio = text("audio") ?? values["audio"]?.sounds.first ?? sounds.first
        let image = text("image") ?? values["image"]?.images.first ?? images.first
        let content: EntryContent
        let slugSource: String
        if noteType.isCloze {
            guard let raw = text("text") else { return .failure(DraftError("its cloze text is empty")) }
            let passageText = AnkiText.clozeAnswers(raw)
            let words = passageText.split(separator: " ")
            let reference =
                text("reference") ?? (words.prefix(6).joined(separator: " ") + (words.count > 6 ? " …" : ""))
            let tags = note.tags.map(AnkiText.withoutControlCharacters)
            hadControlCharacters = hadControlCharacters || tags.contains(where: \.removed)
            var passage = PassageEntry(
                reference: reference, text: passageText, translation: text("translation"),
                tags: tags.map(\.text).filter { !$0.isEmpty })
            passage.ankiNote = Int(note.id)
            passage.mnemonic = text("mnemonic")
            passage.mnemonicImage = image
            content = .passage(passage)
            slugSource = text("reference") ?? words.prefix(5).joined(separator: " ")
        } else {
            guard let word = text("word") else {
                return .failure(DraftError("its \(fieldName("word", noteType, targets)) field is empty"))
            }
            guard let translation = text("translation") else {
                return .failure(DraftError("its \(fieldName("translation", noteType, targets)) field is empty"))
            }
            var entry = VocabularyEntry(
                word: word, pos: text("pos") ?? "phrase", translation: translation, forms: [("base", word)])
            entry.ipa = text("ipa")
            entry.ankiNote = Int(note.id)
            entry.audio = audio
            entry.image = image
            entry.usageNotes = text("usage_notes")
            entry.cefr = text("cefr")
            entry.root = text("root")
            if let definition = text("definition") { entry.definition = [("en", definition)] }
            if let alternatives = text("alternatives") {
                entry.alternatives = alternatives.split(whereSeparator: { ",;".contains($0) }).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
            }
            content = .vocabulary(entry)
            slugSource = word
        }
        // Never write a file Rote would not load.
        let kind: DeckKind = noteType.isCloze ? .passages : .vocabulary
        let (decoded, problems) = EntryContent.decode(Data(content.render().utf8), kind: kind, path: "note \(note.id)")
        guard decoded != nil else {
            return .failure(
                DraftError(problems.filter { $0.severity == .error }.map(\.message).joined(separator: "; ")))
        }
        return .success(
            Draft(
                note: note, kind: kind, content: content, slug: slug(slugSource, fallback: "note-\(note.id)"),
                media: [audio, image].compactMap { $0 } + sounds + images, hadControlCharacters: hadControlCharacters))
    }

    /// `base`, or `base-2`, `base-3`, … — the first not in `taken`, which then takes it.
    static func unusedSlug(_ base: String, in taken: inout Set<String>) -> String {
        var slug = base
        var number = 2
        while taken.contains(slug) {
            slug = "\(base)-\(number)"
            number += 1
        }
        taken.insert(slug)
        return slug
    }

    struct DraftError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    static func fieldName(_ target: String, _ noteType: AnkiCollection.NoteType, _ targets: [String?]) -> String {
        targets.firstIndex(of: target).map { noteType.fields[$0] } ?? target
    }

    /// A file-name slug of at most 60 characters: accents folded (`adiós` → `adios`), other
    /// characters outside `a-z 0-9 _ . -` made into `-`; `fallback` when nothing is left.
    static func slug(_ text: String, fallback: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        guard folded.unicodeScalars.contains(where: { $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else {
            return fallback
        }
        var slug = Slug.make(from: folded)
        if slug.count > 60 {
            slug = String(slug.prefix(60))
            while slug.hasSuffix("-") || slug.hasSuffix(".") { slug.removeLast() }
        }
        return Slug.isValidSegment(slug) ? slug : fallback
    }

    /// Anki's answer → a review event: ease 1–4 is again/hard/good/easy; ease 0 (a manual
    /// reschedule, not an answer) is left out. The revlog id is the answer's time in ms.
    static func event(_ review: AnkiCollection.Review) -> ReviewEvent? {
        guard let grade = Grade(rawValue: review.ease) else { return nil }
        return ReviewEvent(
            id: "anki-\(review.id)", at: Date(timeIntervalSince1970: TimeInterval(review.id / 1000)), grade: grade,
            ms: review.milliseconds > 0 ? review.milliseconds : nil, device: "anki")
    }

    func commitMessage(_ report: Report, package: AnkiPackage) -> CommitMessage {
        let entries = report.decks.map(\.entriesAdded).reduce(0, +)
        var message = ""
        for deck in report.decks {
            message +=
                "- \(deck.name) (\(deck.kind.rawValue)): \(deck.entriesAdded) added"
                + (deck.entriesKept > 0 ? ", \(deck.entriesKept) already here and kept" : "") + "\n"
        }
        if report.mediaAdded > 0 {
            message += "- \(report.mediaAdded) media file\(report.mediaAdded == 1 ? "" : "s")\n"
        }
        if let line = report.multiCardSummary { message += "- \(line)\n" }
        if !report.skipped.isEmpty {
            message += "- \(report.skipped.count) note\(report.skipped.count == 1 ? "" : "s") skipped\n"
        }
        return CommitMessage(
            subject:
                "Import Anki deck '\(report.ankiDeck)' from \(package.fileName): \(entries) entr\(entries == 1 ? "y" : "ies"), \(report.reviewsAdded) review\(report.reviewsAdded == 1 ? "" : "s")",
            body: message)
    }
}
