import Foundation

/// A passage to memorise word for word (the scripture seed): text, reference, translation and
/// the rights it is used under.
public struct PassageEntry: YAMLCodable {
    /// Content people write and Rote shows: control characters in it are warned of.
    public static var warnsOfControlCharacters: Bool { true }

    public var reference: String
    public var book: String?
    public var chapter: Int?
    public var verses: String?
    public var text: String
    /// Translation or edition, e.g. `KJV`.
    public var translation: String?
    public var tags: [String]
    public var mnemonic: String?
    /// A path or URL to a visual mnemonic.
    public var mnemonicImage: String?
    public var rights: Rights?
    public var order: Int?
    /// The Anki note the passage was imported from (see `VocabularyEntry.ankiNote`).
    public var ankiNote: Int?

    public struct Rights: Sendable, Equatable {
        public var license: String
        public var holder: String?
        public var note: String?

        public init(license: String, holder: String? = nil, note: String? = nil) {
            self.license = license
            self.holder = holder
            self.note = note
        }
    }

    public init(reference: String, text: String, translation: String? = nil, tags: [String] = [], order: Int? = nil) {
        self.reference = reference
        self.text = text
        self.translation = translation
        self.tags = tags
        self.order = order
    }

    /// Punctuation that ends a clause, in every script the starter decks and seeds use: Latin
    /// `, ; : . ? !`, CJK `、。，；：！？` (full width), the ellipsis `…`, Arabic `، ؛ ؟ ۔`, Greek
    /// `;` (question mark) and `·` (ano teleia), Hebrew `׃` (sof pasuq) and Devanagari `। ॥`.
    public static let clauseTerminators: Set<Character> = [
        ",", ";", ":", ".", "?", "!",
        "、", "。", "，", "；", "：", "！", "？", "．", "…",
        "،", "؛", "؟", "۔",
        "\u{037E}", "\u{0387}", "\u{00B7}",
        "\u{05C3}",
        "\u{0964}", "\u{0965}",
    ]

    /// The passage split into clauses after each of `clauseTerminators` — the units of the
    /// cloze ladder. A run of punctuation stays with the clause before it.
    public var clauses: [String] {
        var clauses: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if Self.clauseTerminators.contains(character) {
                let clause = current.trimmingCharacters(in: .whitespaces)
                if clause.contains(where: \.isLetter) {
                    clauses.append(clause)
                } else if var last = clauses.popLast() {
                    last += clause
                    clauses.append(last)
                }
                current = ""
            }
        }
        let rest = current.trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { clauses.append(rest) }
        return clauses
    }

    public init?(reading reader: inout MappingReader) {
        let reference = reader.string("reference", required: true)
        let text = reader.string("text", required: true)
        book = reader.string("book")
        chapter = reader.int("chapter")
        verses = reader.string("verses")
        translation = reader.string("translation")
        tags = reader.strings("tags") ?? []
        mnemonic = reader.string("mnemonic")
        mnemonicImage = reader.string("mnemonic_image")
        if var rights = reader.mapping("rights") {
            if let license = rights.string("license", required: true) {
                self.rights = Rights(license: license, holder: rights.string("holder"), note: rights.string("note"))
            }
            reader.absorb(rights)
        }
        order = reader.int("order")
        ankiNote = reader.int("anki_note")
        guard let reference, let text else { return nil }
        if let narration = ContentQuality.narration(in: text) {
            reader.warning(
                "text",
                "the text holds narration ('\(narration)'); a passage keeps only the spoken words, so start it after the narration or end it before"
            )
        }
        self.reference = reference
        self.text = text
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("reference", .string(reference))
        map.add("book", book)
        map.add("chapter", chapter)
        map.add("verses", verses)
        map.add("text", .string(text))
        map.add("translation", translation)
        map.add("tags", strings: tags)
        map.add("mnemonic", mnemonic)
        map.add("mnemonic_image", mnemonicImage)
        if let rights {
            var item = YAMLMapBuilder()
            item.add("license", .string(rights.license))
            item.add("holder", rights.holder)
            item.add("note", rights.note)
            map.add("rights", item.build(flow: true))
        }
        map.add("order", order)
        map.add("anki_note", ankiNote)
        return map.build()
    }
}
