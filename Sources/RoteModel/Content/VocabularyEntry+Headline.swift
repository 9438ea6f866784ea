public import Foundation

extension VocabularyEntry {
    /// What an index keeps of a vocabulary entry: its word, its forms' values in file order,
    /// its rank — its root, for the daily matrix, and its topics (its examples' `context`s),
    /// which the learner's interests weigh in new-word selection.
    public struct Headline: Sendable, Equatable {
        public var word: String
        public var pos: String
        public var translation: String
        public var forms: [String]
        public var rank: Int?
        public var root: String?
        /// The examples' `context`s, each once, in file order.
        public var topics: [String]

        public init(
            word: String, pos: String, translation: String, forms: [String], rank: Int?, root: String? = nil,
            topics: [String] = []
        ) {
            self.word = word
            self.pos = pos
            self.translation = translation
            self.forms = forms
            self.rank = rank
            self.root = root
            self.topics = topics
        }

        public init(_ entry: VocabularyEntry) {
            self.init(
                word: entry.word, pos: entry.pos, translation: entry.translation, forms: entry.forms.map(\.1),
                rank: entry.rank, root: entry.root,
                topics: Headline.topics(entry.examples.map(\.context)))
        }

        /// Contexts, each non-empty one once, in order.
        static func topics(_ contexts: [String?]) -> [String] {
            var topics: [String] = []
            for case let context? in contexts where !context.isEmpty && !topics.contains(context) {
                topics.append(context)
            }
            return topics
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
        guard bytes.count <= YAMLSource.maximumFileSize,
            let text = String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self),
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
        guard let word = string("word"), let pos = string("pos"), let translation = string("translation"),
            case let .mapping(forms)? = value("forms")
        else { return nil }
        var rank: Int?
        if case let .scalar(text, style)? = value("rank") { rank = BlockYAMLReader.int(text, style: style) }
        // An example counts, as `decode` keeps it, when it is a mapping whose `en` and `form` are text.
        var contexts: [String?] = []
        if case let .sequence(examples)? = value("examples") {
            for case let .mapping(example) in examples {
                func text(_ key: String) -> String? {
                    guard case let .scalar(text, style)? = example.first(where: { $0.key == key })?.value,
                        !BlockYAMLReader.isNull(text, style: style)
                    else { return nil }
                    return text
                }
                if text("en") != nil, text("form") != nil { contexts.append(text("context")) }
            }
        }
        return Headline(
            word: word, pos: pos, translation: translation,
            forms: forms.compactMap { form in
                guard case let .scalar(text, style) = form.value, !BlockYAMLReader.isNull(text, style: style) else {
                    return nil
                }
                return text
            },
            rank: rank, root: string("root"), topics: Headline.topics(contexts))
    }
}

/// A YAML file as far as a headline needs it: the top-level mapping's keys, with the values of
/// the keys a headline reads when those are scalars or mappings, and those mappings' scalars;
/// the `examples` list with each example's `en`, `form` and `context`. Everything else is read
/// and checked but not kept. (A mapping's or list's array holds its values, so the enum needs
/// no box of its own.)
private enum Sketch {
    case scalar(String, YAMLNode.Scalar.Style)
    case mapping([(key: String, value: Sketch)])
    case sequence([Sketch])
    case unbuilt
}

private struct SketchTree: TreeBuilder {
    static var needsMarks: Bool { false }
    static func builds(_ kind: NodeKind, depth: Int) -> Bool {
        switch kind {
        case .scalar: depth <= 3
        case .mapping: depth <= 2
        case .sequence: depth == 1
        }
    }
    static func buildsValue(of key: UnsafeBufferPointer<UInt8>, depth: Int) -> Bool {
        switch depth {
        case 0:
            switch String(decoding: key, as: UTF8.self) {
            case "word", "pos", "translation", "forms", "rank", "root", "examples": return true
            default: return false
            }
        case 2:
            // An example's keys (a form's value is never a mapping a headline reads).
            switch String(decoding: key, as: UTF8.self) {
            case "en", "form", "context": return true
            default: return false
            }
        default: return true
        }
    }
    var unbuilt: Sketch { .unbuilt }
    func scalar(_ text: String, style: YAMLNode.Scalar.Style, mark: YAMLNode.Mark) -> Sketch { .scalar(text, style) }
    func mapping(_ pairs: [(key: String, keyMark: YAMLNode.Mark, value: Sketch)], mark: YAMLNode.Mark) -> Sketch {
        .mapping(pairs.map { ($0.key, $0.value) })
    }
    func sequence(_ items: [Sketch], mark: YAMLNode.Mark) -> Sketch { .sequence(items) }
}
