import Foundation
import WebPages

/// The page text, from the one table of strings (`web/strings.json`: language → key → text).
/// A translation is added by adding a language to the table; a key it lacks falls back to
/// English.
enum UIStrings {
    struct Answer: Encodable {
        var lang: String
        /// rtl for a right-to-left language, which the page sets on <html>.
        var dir: String
        var strings: [String: String]
        var available: [String]
    }

    static let fallback = StringsTable.fallback
    static let rightToLeft: Set<String> = ["ar", "fa", "he", "ur"]
    static var table: [String: [String: String]] { StringsTable.table }

    /// The strings of `requested` when the table has it, else of the first language of
    /// `Accept-Language` (by its q weights) that it has, else English.
    static func answer(requested: String?, acceptLanguage: String?) throws -> Answer {
        let lang = requested.flatMap { table[$0] == nil ? nil : $0 } ?? preferred(acceptLanguage) ?? fallback
        let strings = (table[fallback] ?? [:]).merging(table[lang] ?? [:]) { _, translated in translated }
        return Answer(
            lang: lang, dir: rightToLeft.contains(lang) ? "rtl" : "ltr", strings: strings,
            available: table.keys.sorted())
    }

    /// `ar-EG,ar;q=0.9,en;q=0.8` → ar, when the table has it.
    static func preferred(_ header: String?) -> String? {
        guard let header else { return nil }
        let ranked = header.split(separator: ",").enumerated().compactMap {
            position, item -> (tag: String, weight: Double, position: Int)? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty else { return nil }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (String(tag.split(separator: "-").first ?? ""), weight, position)
        }
        return ranked.filter { $0.weight > 0 }.sorted { ($0.weight, -$0.position) > ($1.weight, -$1.position) }.map(
            \.tag
        ).first { table[$0] != nil }
    }
}
