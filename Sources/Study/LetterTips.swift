import WebPages

/// A letter's tips as a learner reads them. A letter file names its tips with short ids
/// (`stem-down`, `bowl-clockwise`), the same in every language; the strings table words them
/// (`letterTip.<id>`), in English for the terminal and in the learner's language on the web.
package enum LetterTips {
    /// The tip as a sentence: the table's English, or, for an id the table does not know,
    /// the id's words (`lift-the-pen` → "Lift the pen.").
    package static func phrase(_ id: String) -> String {
        if let phrase = StringsTable.text("letterTip." + id) { return phrase }
        let words = id.split(separator: "-").joined(separator: " ")
        guard let first = words.first else { return id }
        return first.uppercased() + words.dropFirst() + "."
    }
}
