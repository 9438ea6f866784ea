package import Foundation

/// The one table of a learner's words (`web/strings.json`: language → key → text), which the
/// web app words its pages from and the terminal reads its English from where the two say
/// the same (a letter's tips).
package enum StringsTable {
    package static let fallback = "en"

    package static let table: [String: [String: String]] = {
        guard let text = WebFiles.files["strings.json"],
            let table = try? JSONDecoder().decode([String: [String: String]].self, from: Data(text.utf8))
        else { return [:] }
        return table
    }()

    /// The text of `key` in `language`, else in English; nil when the table has no such key.
    package static func text(_ key: String, language: String = fallback) -> String? {
        table[language]?[key] ?? table[fallback]?[key]
    }
}
