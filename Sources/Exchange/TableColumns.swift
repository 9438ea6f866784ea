import Foundation
import RoteModel

/// The columns of vocabulary and passage tables, shared by import and export so what
/// `rote export --deck` writes, `rote import` reads back.
public enum TableKind: String, Sendable, CaseIterable {
    case vocabulary, passages

    public init?(name: String) {
        switch name.lowercased() {
        case "vocabulary", "words", "word": self = .vocabulary
        case "passages", "passage": self = .passages
        default: return nil
        }
    }

    var deckKind: DeckKind { self == .vocabulary ? .vocabulary : .passages }

    /// Columns every row needs a value in.
    var required: [String] { self == .vocabulary ? ["word", "translation"] : ["reference", "text"] }

    /// Fixed columns read and written (besides `form_<name>` and `definition_<lang>`).
    var known: [String] {
        switch self {
        case .vocabulary:
            [
                "id", "word", "pos", "translation", "alternatives", "forms", "ipa", "rank", "cefr", "level", "batch",
                "difficulty", "root",
                "usage_notes", "audio", "image", "example_en", "example_ar", "example_form", "tags",
            ]
        case .passages:
            [
                "id", "reference", "book", "chapter", "verses", "text", "translation", "tags", "mnemonic",
                "mnemonic_image", "license",
                "holder", "rights_note", "order",
            ]
        }
    }

    /// A header as written → the column it means: lower-case, spaces as `_`, and Anki's
    /// Basic note fields (`Front`, `Back`).
    func normalise(_ header: String) -> String {
        let name = header.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "_")
            .replacingOccurrences(of: "-", with: "_")
        switch (self, name) {
        case (.vocabulary, "front"), (.vocabulary, "english"), (.vocabulary, "lemma"): return "word"
        case (.vocabulary, "back"), (.vocabulary, "meaning"): return "translation"
        case (.vocabulary, "part_of_speech"): return "pos"
        case (.passages, "front"): return "reference"
        case (.passages, "back"), (.passages, "verse"): return "text"
        default: return name
        }
    }

    func isKnown(_ column: String) -> Bool {
        known.contains(column)
            || (self == .vocabulary && (column.hasPrefix("form_") || column.hasPrefix("definition_")))
    }
}

/// `a; b; c` lists and `base=run; past=ran` maps inside one cell.
enum CellList {
    static func split(_ cell: String) -> [String] {
        cell.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func join(_ items: [String]) -> String { items.joined(separator: "; ") }

    static func pairs(_ cell: String) -> [(String, String)]? {
        var out: [(String, String)] = []
        for item in split(cell) {
            guard let equals = item.firstIndex(of: "=") else { return nil }
            out.append(
                (
                    item[..<equals].trimmingCharacters(in: .whitespaces),
                    item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                ))
        }
        return out
    }

    static func joinPairs(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")
    }
}
