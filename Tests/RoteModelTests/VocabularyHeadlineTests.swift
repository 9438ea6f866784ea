import Foundation
import TestSupport
import Testing

@testable import RoteModel

/// The headline reader lets the launch index skip building whole entries, so it must give
/// exactly what decoding the entry gives — or give up and leave the file to `decode`.
@Suite struct VocabularyHeadlineTests {
    static let words: [String] = {
        let folder = Checkout.root.appending(path: "corpus/english-a1")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") && $0 != "deck.yaml" }.sorted()
            .compactMap { try? String(contentsOf: folder.appending(path: $0), encoding: .utf8) }
    }()

    /// What decoding the whole entry gives, as a headline.
    static func decoded(_ text: String) -> VocabularyEntry.Headline? {
        VocabularyEntry.decode(Data(text.utf8), path: "corpus/english-a1/word.yaml").0.map(
            VocabularyEntry.Headline.init)
    }

    @Test func readsEveryStarterWordAsDecodingDoes() throws {
        #expect(Self.words.count > 100)
        for text in Self.words {
            let headline = try #require(
                VocabularyEntry.headline(Data(text.utf8)), "Rote writes these: the short way takes them\n\(text)")
            #expect(headline == Self.decoded(text), "\(text)")
        }
    }

    @Test func mutatedWordsReadAsDecodingDoesOrNotAtAll() {
        var random = SeededGenerator(seed: 23)
        var read = 0
        var refused = 0
        // Edits aimed at what decides a headline, besides the general mutations.
        let targeted: [(String, String)] = [
            ("word: ", "word: ~\nx: "), ("word: ", "word: 'null'\nx: "), ("pos: ", "pos:\n  - "),
            ("translation: ", "translation: {a: b}\nx: "),
            ("forms: {", "forms: ~\nx: {"), ("forms: {", "forms: [a]\nx: {"),
            ("forms: {", "forms: {a: null, b: '', c: ~, "),
            ("rank: ", "rank: 0x1F\nx: "), ("rank: ", "rank: '12'\nx: "), ("rank: ", "rank: 1_000\nx: "),
            ("rank: ", "rank: 1:30\nx: "),
            ("rank: ", "rank: +7\nx: "), ("rank: ", "rank: 7.0\nx: "), ("rank: ", "rank: null\nx: "),
            ("rank: ", "rank: [1]\nx: "),
            ("\nword:", "\nword: again\nword:"), ("rank: ", "rank: 0\nx: "), ("rank: ", "rank: 007\nx: "),
            ("rank: ", "rank: -3\nx: "),
            ("rank: ", "rank: 123456789012345678901\nx: "), ("rank: ", "rank: 999999999999999999\nx: "),
            ("forms: {", "forms: {a: NULL, b: Null, c: Nul, "),
            ("word: ", "word: \"null\"\nx: "), ("pos: ", "pos: NULL\nx: "), ("translation: ", "translation: ~\nx: "),
        ]
        for round in 0..<4_000 {
            var text = Self.words[Int(random.next() % UInt64(Self.words.count))]
            if round % 4 == 0 {
                let (old, new) = targeted[Int(random.next() % UInt64(targeted.count))]
                if let range = text.range(of: old) { text.replaceSubrange(range, with: new) }
            } else {
                text = BlockYAMLReaderTests.mutate(text, &random)
            }
            let expected = Self.decoded(text)
            guard let headline = VocabularyEntry.headline(Data(text.utf8)) else {
                refused += 1
                continue
            }
            read += 1
            if headline != expected {
                Issue.record(
                    "round \(round): headline \(headline) but decoding gives \(String(describing: expected)):\n\(text)")
                return
            }
        }
        #expect(read > 1_000 && refused > 100, "read \(read), refused \(refused)")
    }
}
