import Foundation
import Yams

extension VocabularyEntry {
    /// What an index keeps of a vocabulary entry: its word, its forms' values in file order,
    /// its rank — and its root, for the daily matrix.
    public struct Headline: Sendable, Equatable {
        public var word: String
        public var pos: String
        public var translation: String
        public var forms: [String]
        public var rank: Int?
        public var root: String?

        public init(word: String, pos: String, translation: String, forms: [String], rank: Int?, root: String? = nil) {
            self.word = word
            self.pos = pos
            self.translation = translation
            self.forms = forms
            self.rank = rank
            self.root = root
        }

        public init(_ entry: VocabularyEntry) {
            self.init(word: entry.word, pos: entry.pos, translation: entry.translation, forms: entry.forms.map(\.1), rank: entry.rank, root: entry.root)
        }

        /// What a list shows of the entry: `Entry.gloss`.
        public var gloss: String { VocabularyEntry.gloss(word: word, translation: translation, pos: pos) }
    }

    /// The headline of an entry file, read without building the entry: exactly what
    /// `Headline(decode(data).0)` gives when the file is in the shapes the block reader
    /// reads and yields an entry; nil otherwise — then `decode` decides, and explains.
    ///
    /// Whether a file yields an entry at all rests on its YAML and on four fields (`word`,
    /// `pos`, `translation` text, `forms` a mapping); everything else only adds diagnostics.
    /// So the file is read with the block reader's own rules into a sketch that keeps
    /// scalars and mappings (not lists), and those fields are read as `MappingReader` reads
    /// them, Yams's rules deciding what is null or a number. A differential test holds this to
    /// `decode` on every starter entry and thousands of mutations.
    public static func headline(_ data: Data) -> Headline? {
        data.withUnsafeBytes { headline(bytes: $0) }
    }

    /// `headline` of a file's bytes.
    public static func headline(bytes: UnsafeRawBufferPointer) -> Headline? {
        guard bytes.count <= YAMLSource.maximumFileSize, let text = String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self),
            case let .mapping(fields)? = BlockYAMLReader.read(text, SketchTree())
        else { return nil }
        func value(_ key: String) -> Sketch? {
            guard let found = fields.first(where: { $0.key == key })?.value else { return nil }
            if case let .scalar(text, style) = found, BlockYAMLReader.isNull(text, style: style) { return nil }
            return found
        }
        func string(_ key: String) -> String? {
            guard case let .scalar(text, _)? = value(key) else { return nil }
            return text
        }
        guard let word = string("word"), let pos = string("pos"), let translation = string("translation"), case let .mapping(forms)? = value("forms") else { return nil }
        var rank: Int?
        if case let .scalar(text, style)? = value("rank") { rank = BlockYAMLReader.int(text, style: style) }
        return Headline(
            word: word, pos: pos, translation: translation,
            forms: forms.compactMap { form in
                guard case let .scalar(text, style) = form.value, !BlockYAMLReader.isNull(text, style: style) else { return nil }
                return text
            },
            rank: rank, root: string("root"))
    }
}

/// A YAML file as far as a headline needs it: the top-level mapping's keys, with the values of
/// the keys a headline reads when those are scalars or mappings, and those mappings' scalars.
/// Everything else is read and checked but not kept. (A mapping's list holds its values, so
/// the enum needs no box of its own.)
private enum Sketch {
    case scalar(String, Node.Scalar.Style)
    case mapping([(key: String, value: Sketch)])
    case unbuilt
}

private struct SketchTree: TreeBuilder {
    static var needsMarks: Bool { false }
    static func builds(_ kind: NodeKind, depth: Int) -> Bool {
        switch kind {
        case .scalar: depth <= 2
        case .mapping: depth <= 1
        case .sequence: false
        }
    }
    static func buildsValue(of key: UnsafeBufferPointer<UInt8>, depth: Int) -> Bool {
        guard depth == 0 else { return true }
        switch String(decoding: key, as: UTF8.self) {
        case "word", "pos", "translation", "forms", "rank", "root": return true
        default: return false
        }
    }
    var unbuilt: Sketch { .unbuilt }
    func scalar(_ text: String, style: Node.Scalar.Style, mark: Mark) -> Sketch { .scalar(text, style) }
    func mapping(_ pairs: [(key: String, keyMark: Mark, value: Sketch)], mark: Mark) -> Sketch { .mapping(pairs.map { ($0.key, $0.value) }) }
    func sequence(_ items: [Sketch], mark: Mark) -> Sketch { .unbuilt }
}
