public import Foundation
import RoteModel

/// Which Anki field fills which field of a Rote entry.
///
/// Defaults: a standard note type (Basic and the like) becomes a vocabulary entry whose `word`
/// is its first field and `translation` its second; a cloze note type becomes a passage whose
/// `text` is its first field (cloze markup removed, answers kept) and whose `mnemonic` is its
/// second ("Back Extra"). A mapping overrides these, from `--fields Front=word,Back=translation`
/// or a YAML file:
///
/// ```yaml
/// fields: {Front: word, Back: translation}       # any note type
/// note_types:                                     # one note type, by name
///   Vocab (with sound): {Word: word, Meaning: translation, IPA: ipa, Sound: audio, Notes: usage_notes}
///   Cloze: {Text: text, Source: reference, Extra: ignore}
/// ```
///
/// Field names match without regard to case. `ignore` leaves a field out.
public struct AnkiFieldMapping: Sendable, Equatable {
    /// Rote fields a vocabulary entry takes from Anki.
    public static let vocabularyFields: Set<String> = [
        "word", "translation", "pos", "ipa", "audio", "image", "usage_notes", "definition", "alternatives", "cefr",
        "root", "ignore",
    ]
    /// Rote fields a passage takes from Anki.
    public static let passageFields: Set<String> = ["text", "reference", "translation", "mnemonic", "ignore"]

    /// Anki field name (lowercased) → Rote field, for every note type.
    public var fields: [String: String]
    /// Note type name (lowercased) → (Anki field name, lowercased → Rote field).
    public var noteTypes: [String: [String: String]]

    public init(fields: [String: String] = [:], noteTypes: [String: [String: String]] = [:]) {
        self.fields = fields
        self.noteTypes = noteTypes
    }

    /// Parses `--fields Front=word,Back=translation`.
    public static func parse(flag: String) throws -> AnkiFieldMapping {
        var fields: [String: String] = [:]
        for pair in flag.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw AnkiImportError(
                    .badMapping,
                    "--fields: '\(pair)' is not ANKI_FIELD=rote_field; write e.g. --fields Front=word,Back=translation")
            }
            try check(parts[1], where: "--fields")
            fields[parts[0].lowercased()] = parts[1]
        }
        return AnkiFieldMapping(fields: fields)
    }

    /// Reads a mapping file (see the type's documentation); problems name the file and line.
    public static func read(_ data: Data, path: String) throws -> AnkiFieldMapping {
        let (node, problems) = YAMLSource.parse(data, path: path)
        var log = DiagnosticLog(path: path)
        guard let node, problems.allSatisfy({ $0.severity != .error }), var reader = MappingReader(node, log: &log)
        else {
            let found = (problems + log.items).filter { $0.severity == .error }
            throw AnkiImportError(.badMapping, found.map(\.description).joined(separator: "\n"))
        }
        var mapping = AnkiFieldMapping()
        var wrong: [Diagnostic] = []
        func add(_ pairs: [(String, String)], line: Int?, into table: inout [String: String]) {
            for (field, target) in pairs {
                if allFields.contains(target) {
                    table[field.lowercased()] = target
                } else {
                    wrong.append(
                        .error(
                            path, line,
                            "'\(field): \(target)': \(target) is not a Rote field; use one of \(allFields.sorted().joined(separator: ", "))"
                        ))
                }
            }
        }
        let fieldsLine = reader.lineOf("fields")
        if let pairs = reader.stringMap("fields") { add(pairs, line: fieldsLine, into: &mapping.fields) }
        if var types = reader.mapping("note_types") {
            for name in types.keys {
                let line = types.lineOf(name)
                if let pairs = types.stringMap(name) {
                    var table: [String: String] = [:]
                    add(pairs, line: line, into: &table)
                    mapping.noteTypes[name.lowercased()] = table
                }
            }
            reader.absorb(types)
        }
        reader.finish()
        let errors = reader.log.items.filter { $0.severity == .error } + wrong
        guard errors.isEmpty else {
            throw AnkiImportError(.badMapping, errors.map(\.description).joined(separator: "\n"))
        }
        return mapping
    }

    static var allFields: Set<String> { vocabularyFields.union(passageFields) }

    static func check(_ target: String, where source: String) throws {
        guard allFields.contains(target) else {
            throw AnkiImportError(
                .badMapping,
                "\(source): '\(target)' is not a Rote field; use one of \(allFields.sorted().joined(separator: ", "))")
        }
    }

    /// `other` layered over this mapping (the flag over the file).
    public func overridden(by other: AnkiFieldMapping) -> AnkiFieldMapping {
        var result = self
        result.fields.merge(other.fields) { $1 }
        result.noteTypes.merge(other.noteTypes) { $0.merging($1) { $1 } }
        return result
    }

    /// The Rote field each of a note type's fields fills, by field position; nil leaves the
    /// field out. Throws when the mapping names a field the kind of entry does not have.
    func targets(for noteType: AnkiCollection.NoteType) throws -> [String?] {
        let specific = noteTypes[noteType.name.lowercased()] ?? [:]
        let allowed = noteType.isCloze ? AnkiFieldMapping.passageFields : AnkiFieldMapping.vocabularyFields
        let defaults = noteType.isCloze ? ["text", "mnemonic"] : ["word", "translation"]
        let mapped = noteType.fields.map { specific[$0.lowercased()] ?? fields[$0.lowercased()] }
        let anyMapped = mapped.contains { $0 != nil }
        var result: [String?] = []
        for (position, field) in noteType.fields.enumerated() {
            var target = mapped[position]
            // Without a mapping for this note type, its first fields take the defaults.
            if target == nil, !anyMapped, position < defaults.count { target = defaults[position] }
            if let chosen = target, !allowed.contains(chosen) {
                throw AnkiImportError(
                    .badMapping,
                    "note type '\(noteType.name)' field '\(field)' is mapped to '\(chosen)', which a \(noteType.isCloze ? "passage (cloze)" : "vocabulary") entry does not have; use one of \(allowed.sorted().joined(separator: ", "))"
                )
            }
            result.append(target == "ignore" ? nil : target)
        }
        return result
    }
}
