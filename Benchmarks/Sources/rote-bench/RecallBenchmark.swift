import Foundation
import RoteModel
import Study

/// How fast typed recall is compared with its passage: it runs on every keystroke, so each
/// comparison of a 500-word passage with about as much typed text must take under 1 ms in a
/// release build (seed 004's frame budget is 8–16 ms for everything).
///
///     rote-bench recall [--words N] [--runs K] [--calls C] [--seed S] [--budget-us B]
///
/// Generates a deterministic passage of `--words` words (default 500) in the style of the
/// scripture decks, and a recitation of it as a learner types one: lower case, punctuation
/// left out, and about 1 word in 20 wrong, skipped or added. Then times, as the median of
/// `--runs` runs of `--calls` calls each:
/// - preparing the passage (`RecallComparer(passage:)`, once per passage, not per keystroke);
/// - the whole recitation against it (`compare`), the check when the learner finishes;
/// - half of it with a word being typed (`comparePrefix`), the live check;
/// - typing the whole recitation one character at a time, `comparePrefix` on every keystroke
///   (the time per keystroke);
/// - a text sharing no word with the passage, where nothing can be matched up front and the
///   whole dynamic program runs;
/// - the worst case, the recitation's words shuffled: every word is known, so no bound says
///   up front that the texts are far apart, and a narrow band is tried before the whole table;
/// - a one-off `RecallComparison.compare(passage:typed:)`, preparing and comparing.
///
/// Every per-keystroke figure is checked against `--budget-us` (default 1000 µs): the table
/// says ok or OVER, and the command fails when one is over.
enum RecallBenchmark {
    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments, allowed: ["words", "runs", "calls", "seed", "budget-us"])
        let wordCount = max(try options.int("words", default: 500), 1)
        let runs = max(try options.int("runs", default: 5), 1)
        let calls = max(try options.int("calls", default: 200), 1)
        let seed = UInt64(try options.int("seed", default: 20_261_121))
        let budget = Double(try options.int("budget-us", default: 1_000))

        var random = SeededGenerator(seed: seed)
        let passage = makePassage(words: wordCount, vocabulary: scriptureWords, using: &random)
        let typed = recite(passage, using: &random)
        let stranger = makePassage(words: wordCount, vocabulary: strangerWords, using: &random)
        let scrambled = StudyRandom.shuffled(typed.split(separator: " ").map(String.init), using: &random).joined(
            separator: " ")
        let halfTyped = String(typed.prefix(typed.count / 2))
        let comparer = RecallComparer(passage: passage)
        let full = comparer.compare(typed)
        let typedWords = typed.split(separator: " ").count

        print(
            "recall: passage of \(comparer.wordCount) words, recitation of \(typedWords) words "
                + "(\(full.wrongCount) wrong, \(full.missingCount) missing, \(full.extraCount) extra; similarity "
                + String(format: "%.3f", full.similarity) + ")")
        var table = Table(header: ["measurement", "µs per call (median of \(runs))", "budget \(Int(budget)) µs"])
        var over: [String] = []
        func add(_ name: String, perKeystroke: Bool, _ microseconds: Double) {
            let verdict = perKeystroke ? (microseconds < budget ? "ok" : "OVER") : "— (once per passage)"
            if perKeystroke, microseconds >= budget { over.append(name) }
            table.add([name, String(format: "%.1f", microseconds), verdict])
        }

        add(
            "prepare the passage", perKeystroke: false,
            timePerCall(runs: runs, calls: calls) { RecallComparer(passage: passage).wordCount })
        add(
            "whole recitation (compare)", perKeystroke: true,
            timePerCall(runs: runs, calls: calls) { comparer.compare(typed).similarity })
        add(
            "half typed, a word in progress (comparePrefix)", perKeystroke: true,
            timePerCall(runs: runs, calls: calls) { comparer.comparePrefix(halfTyped).similarity })
        let keystrokes = typed.indices.map { typed[...$0] }
        add(
            "typing it all, every keystroke (comparePrefix)", perKeystroke: true,
            Timing.median(runs) {
                Timing.seconds { keystrokes.reduce(0) { $0 + comparer.comparePrefix(String($1)).passageWordsJudged } }
                    / Double(keystrokes.count) * 1e6
            })
        add(
            "no word in common (compare)", perKeystroke: true,
            timePerCall(runs: runs, calls: max(1, calls / 4)) { comparer.compare(stranger).similarity })
        add(
            "its words shuffled (worst case, compare)", perKeystroke: true,
            timePerCall(runs: runs, calls: max(1, calls / 4)) { comparer.compare(scrambled).similarity })
        add(
            "prepare and compare in one call", perKeystroke: true,
            timePerCall(runs: runs, calls: calls) {
                RecallComparison.compare(passage: passage, typed: typed).similarity
            })
        print(table.render())
        if !over.isEmpty {
            throw OptionError(message: "over the \(Int(budget)) µs budget: \(over.joined(separator: "; "))")
        }
    }

    // MARK: - Timing

    /// Median over `runs` of the mean time of `calls` calls, in microseconds.
    static func timePerCall<T>(runs: Int, calls: Int, _ work: () -> T) -> Double {
        Timing.median(runs) {
            Timing.seconds {
                var last: T?
                for _ in 0..<calls { last = work() }
                return last
            } / Double(calls) * 1e6
        }
    }

    // MARK: - Texts

    static let scriptureWords = [
        "and", "the", "of", "that", "unto", "in", "he", "shall", "for", "his", "they", "be", "is", "him", "not",
        "them", "with", "all", "thou", "thy", "which", "lord", "god", "love", "light", "word", "life", "heart",
        "spirit", "grace", "peace", "faith", "hope", "world", "heaven", "earth", "kingdom", "father", "son",
        "people", "house", "glory", "truth", "mercy", "righteousness", "darkness", "comprehended", "believe",
        "forgive", "blessed", "enemies", "persecute", "despitefully", "everlasting", "wisdom", "strength", "rejoice",
    ]

    static let strangerWords = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
        "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
    ]

    /// Words from `vocabulary` with a clause mark every 4–11 words and capitals after a stop.
    static func makePassage(words count: Int, vocabulary: [String], using random: inout SeededGenerator) -> String {
        var words: [String] = []
        var capital = true
        var clause = 0
        let clauseLength = { (random: inout SeededGenerator) in 4 + StudyRandom.index(below: 8, using: &random) }
        var length = clauseLength(&random)
        for index in 0..<count {
            var word = vocabulary[StudyRandom.index(below: vocabulary.count, using: &random)]
            if capital { word = word.prefix(1).uppercased() + word.dropFirst() }
            capital = false
            clause += 1
            if clause == length || index == count - 1 {
                let mark =
                    index == count - 1 ? "." : [",", ",", ";", ":", "."][StudyRandom.index(below: 5, using: &random)]
                word += mark
                capital = mark == "."
                clause = 0
                length = clauseLength(&random)
            }
            words.append(word)
        }
        return words.joined(separator: " ")
    }

    /// The passage as a learner types it: lower case, no punctuation, and each word kept
    /// (95 %), mistyped (2 %), skipped (1.5 %) or followed by an extra word (1.5 %).
    static func recite(_ passage: String, using random: inout SeededGenerator) -> String {
        var typed: [String] = []
        for word in passage.split(separator: " ") {
            let plain = word.lowercased().filter(\.isLetter)
            switch StudyRandom.index(below: 1_000, using: &random) {
            case 0..<20: typed.append(plain + "e")
            case 20..<35: continue
            case 35..<50:
                typed.append(contentsOf: [
                    plain, scriptureWords[StudyRandom.index(below: scriptureWords.count, using: &random)],
                ])
            default: typed.append(plain)
            }
        }
        return typed.joined(separator: " ")
    }
}
