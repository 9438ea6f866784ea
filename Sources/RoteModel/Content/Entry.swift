public import Foundation

/// One studiable item of a deck, whatever its kind, with where it lives.
public struct Entry: Sendable, Equatable {
    /// `<deck>/<path without .yaml>`, e.g. `english-a1/run`, `math/algebra/expressions/expand`.
    public var id: String
    public var deck: String
    /// Path relative to the library root: `corpus/english-a1/run.yaml`.
    public var path: String
    public var content: EntryContent

    public init(id: String, deck: String, path: String, content: EntryContent) {
        self.id = id
        self.deck = deck
        self.path = path
        self.content = content
    }

    /// Where `/media/` finds a media file this entry names (`audio: run.mp3`): beside the
    /// entry's own file, as its path below `corpus/` (`english-a1/run.mp3`).
    public func mediaPath(_ file: String?) -> String? {
        guard let file else { return nil }
        let folder = path.split(separator: "/").dropFirst().dropLast().joined(separator: "/")
        return folder.isEmpty ? file : "\(folder)/\(file)"
    }

    /// The sound and the picture the entry names, as `mediaPath` gives them: a word's audio
    /// and image, a passage's mnemonic picture.
    public var media: (audio: String?, image: String?) {
        switch content {
        case let .vocabulary(word): (mediaPath(word.audio), mediaPath(word.image))
        case let .passage(passage): (nil, mediaPath(passage.mnemonicImage))
        case .letter, .question: (nil, nil)
        }
    }

    /// A one-line summary for lists: the word and its translation, a reference, a letter, a prompt.
    public var gloss: String {
        switch content {
        case let .vocabulary(word):
            return VocabularyEntry.gloss(word: word.word, translation: word.translation, pos: word.pos)
        case let .passage(passage):
            let words = passage.text.split(separator: " ")
            return "\(passage.reference) — " + words.prefix(8).joined(separator: " ") + (words.count > 8 ? " …" : "")
        case let .letter(letter):
            return
                "\(letter.character ?? letter.glyph) — \(letter.name ?? letter.glyph), \(letter.strokes.count) stroke\(letter.strokes.count == 1 ? "" : "s")"
        case let .question(question):
            switch question.payload {
            case let .mcqSingle(prompt, _, _): return prompt + (question.published ? "" : " [draft]")
            case let .reorderSteps(prompt, steps, _):
                return (prompt ?? "Order \(steps.count) steps") + (question.published ? "" : " [draft]")
            }
        }
    }

    /// Where the entry sits in its deck's study order (rank, or `order`, or sort_order).
    public var sortKey: Int {
        switch content {
        case let .vocabulary(word): word.rank ?? Int.max
        case let .passage(passage): passage.order ?? Int.max
        case let .letter(letter): letter.order
        case let .question(question): question.sortOrder
        }
    }
}

/// The content of an entry, by deck kind.
public enum EntryContent: Sendable, Equatable {
    case vocabulary(VocabularyEntry)
    case passage(PassageEntry)
    case letter(LetterEntry)
    case question(SkillQuestion)

    /// Decodes an entry file of a deck of `kind`.
    public static func decode(_ data: Data, kind: DeckKind, path: String) -> (EntryContent?, [Diagnostic]) {
        switch kind {
        case .vocabulary:
            let (value, problems) = VocabularyEntry.decode(data, path: path)
            return (value.map(EntryContent.vocabulary), problems)
        case .passages:
            let (value, problems) = PassageEntry.decode(data, path: path)
            return (value.map(EntryContent.passage), problems)
        case .letters:
            let (value, problems) = LetterEntry.decode(data, path: path)
            return (value.map(EntryContent.letter), problems)
        case .skills:
            let (value, problems) = SkillQuestion.decode(data, path: path)
            return (value.map(EntryContent.question), problems)
        }
    }

    public func render() -> String {
        switch self {
        case let .vocabulary(value): value.render()
        case let .passage(value): value.render()
        case let .letter(value): value.render()
        case let .question(value): value.render()
        }
    }
}

extension VocabularyEntry {
    /// `run — يجري (verb)`: a word's line in a list.
    public static func gloss(word: String, translation: String, pos: String) -> String {
        "\(word) — \(translation) (\(pos))"
    }
}
