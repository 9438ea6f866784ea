package import Foundation
package import RoteModel

/// Composes seed 002's generated reading text from the corpus's own example sentences — no
/// language model, and the text says so.
///
/// Target words are the ranked words the learner does not know yet nearest their lexical
/// rank (as new-word selection takes them); known words are the known ones nearest it. Each
/// gives its first example sentence (markers removed); the text alternates a known word's
/// sentence and a target's, three sentences a paragraph. Pure and deterministic: the same
/// candidates, rank and time give the same article.
package enum ArticleComposer {
    package struct Candidate: Sendable, Equatable {
        package var id: String
        package var word: String
        package var rank: Int
        package var known: Bool
        /// Example sentences, plain text.
        package var examples: [String]

        package init(id: String, word: String, rank: Int, known: Bool, examples: [String]) {
            self.id = id
            self.word = word
            self.rank = rank
            self.known = known
            self.examples = examples
        }
    }

    package static let targetCount = 4
    package static let knownCount = 5

    /// Distance from the rank in log rank, below the rank counting 1.25× (as new words do).
    package static func distance(_ rank: Int, from centre: Int) -> Double {
        let offset = log(Double(max(1, rank))) - log(Double(max(1, centre)))
        return offset >= 0 ? offset : -offset * 1.25
    }

    /// The article, or nil when no word the learner does not know has an example sentence.
    package static func compose(_ candidates: [Candidate], lexicalRank: Int?, now: Date) -> GeneratedArticle? {
        let usable = candidates.filter { !$0.examples.isEmpty }
        let centre = lexicalRank ?? usable.filter(\.known).map(\.rank).max() ?? usable.map(\.rank).min() ?? 1
        func nearest(_ list: [Candidate]) -> [Candidate] {
            list.sorted { (distance($0.rank, from: centre), $0.id) < (distance($1.rank, from: centre), $1.id) }
        }
        let targets = Array(nearest(usable.filter { !$0.known }).prefix(targetCount))
        guard !targets.isEmpty else { return nil }
        // Known words at or below the rank carry the text: the learner reads them with ease.
        let known = Array(usable.filter(\.known).sorted { ($0.rank, $0.id) > ($1.rank, $1.id) }.prefix(knownCount))
        var sentences: [String] = []
        var knownSentences = known.map { $0.examples[0] }[...]
        for target in targets {
            if let sentence = knownSentences.popFirst() { sentences.append(sentence) }
            sentences.append(target.examples[0])
        }
        sentences += knownSentences
        var seen = Set<String>()
        sentences = sentences.filter { seen.insert($0).inserted }
        let body = stride(from: 0, to: sentences.count, by: 3).map {
            sentences[$0..<min($0 + 3, sentences.count)].joined(separator: " ")
        }
        .joined(separator: "\n\n")
        let stamp = Timestamp.format(Timestamp.wholeSeconds(now))
        let hash = String(StableHash.fnv1a([stamp] + targets.map(\.id)), radix: 16)
        let day = stamp.prefix(10).replacingOccurrences(of: "-", with: "")
        let targetWords = targets.map(\.word).joined(separator: ", ")
        let madeBy =
            "Put together by Rote from example sentences in your decks, not written by a person or a language model: "
            + "\(targets.count) sentence\(targets.count == 1 ? "" : "s") for words near your rank you do not know yet (\(targetWords))"
            + (known.isEmpty
                ? "" : " and \(known.count) for words you know (\(known.map(\.word).joined(separator: ", ")))")
            + ". The sentences do not tell one story."
        return GeneratedArticle(
            id: "\(day)-\(hash.prefix(8))", title: "Reading near rank \(centre): \(targetWords)",
            createdAt: Timestamp.wholeSeconds(now),
            targetRank: lexicalRank, targets: targets.map(\.id), known: known.map(\.id), madeBy: madeBy, body: body)
    }
}
