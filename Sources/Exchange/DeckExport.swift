import Foundation
package import RoteModel
package import RoteStore

/// `rote export --deck NAME --format csv|tsv`: a vocabulary or passages deck as a table with
/// a header row, in the columns `rote import` reads. The flat fields travel; a word's examples
/// after the first, its related words and its questions stay in the YAML files.
package enum DeckExport {
    package static func table(deck: String, library: LoadedLibrary, separator: Character) throws -> String {
        try table(
            deck: deck, decks: library.decks, deckOrder: library.deckOrder,
            entries: library.entries.filter { $0.deck == deck }, separator: separator)
    }

    /// The table of `entries`, the deck's entries in study order (`LibrarySettings.read(deck:)`
    /// reads them from the deck's folder alone).
    package static func table(
        deck: String, decks: [String: DeckManifest], deckOrder: [String], entries: [Entry], separator: Character
    ) throws -> String {
        guard let manifest = decks[deck] else {
            throw LibraryError(.notFound, "no deck '\(deck)'; decks are: \(deckOrder.joined(separator: ", "))")
        }
        let prefix = deck.count + 1
        switch manifest.kind {
        case .vocabulary:
            let words = entries.compactMap { entry -> (String, VocabularyEntry)? in
                if case let .vocabulary(word) = entry.content { return (String(entry.id.dropFirst(prefix)), word) }
                return nil
            }
            var languages: [String] = []
            for (_, word) in words {
                for (language, _) in word.definition where !languages.contains(language) { languages.append(language) }
            }
            let header =
                [
                    "id", "word", "pos", "translation", "alternatives", "forms", "ipa", "rank", "cefr", "level",
                    "batch", "difficulty", "root",
                ]
                + languages.map { "definition_\($0)" } + [
                    "usage_notes", "audio", "image", "example_en", "example_ar", "example_form",
                ]
            var rows = [header]
            for (id, word) in words {
                let example = word.examples.first
                rows.append(
                    [
                        id, word.word, word.pos, word.translation, CellList.join(word.alternatives),
                        CellList.joinPairs(word.forms),
                        word.ipa ?? "", word.rank.map(String.init) ?? "", word.cefr ?? "", word.level ?? "",
                        word.batch.map(String.init) ?? "",
                        word.difficulty ?? "", word.root ?? "",
                    ]
                        + languages.map { language in word.definition.first { $0.0 == language }?.1 ?? "" }
                        + [
                            word.usageNotes ?? "", word.audio ?? "", word.image ?? "", example?.en ?? "",
                            example?.translated ?? "", example?.form ?? "",
                        ])
            }
            return DelimitedText.render(rows, separator: separator)
        case .passages:
            var rows = [
                [
                    "id", "reference", "book", "chapter", "verses", "text", "translation", "tags", "mnemonic",
                    "mnemonic_image", "license", "holder", "rights_note", "order",
                ]
            ]
            for entry in entries {
                guard case let .passage(passage) = entry.content else { continue }
                rows.append([
                    String(entry.id.dropFirst(prefix)), passage.reference, passage.book ?? "",
                    passage.chapter.map(String.init) ?? "",
                    passage.verses ?? "", passage.text, passage.translation ?? "", CellList.join(passage.tags),
                    passage.mnemonic ?? "",
                    passage.mnemonicImage ?? "", passage.rights?.license ?? "", passage.rights?.holder ?? "",
                    passage.rights?.note ?? "",
                    passage.order.map(String.init) ?? "",
                ])
            }
            return DelimitedText.render(rows, separator: separator)
        case .letters, .skills:
            throw LibraryError(
                .wrongKind,
                "deck '\(deck)' is a \(manifest.kind.rawValue) deck; tables export vocabulary and passages decks (its YAML files are the portable form)"
            )
        }
    }
}
