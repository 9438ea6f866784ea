import RoteModel
import Testing

/// The content-quality rules' judgements on their own, the edges a whole-library case does
/// not reach: what is narration and what is the speaker's own word, which levels fit a batch.
@Suite struct ContentQualityTests {
    @Test(arguments: [
        ("And he said unto them, He that hath ears to hear, let him hear.", "And he said unto them,"),
        ("Jesus saith unto him, I am the way.", "Jesus saith"),
        ("Then said Jesus unto them, Lazarus is dead.", "said Jesus"),
        ("And he opened his mouth, and taught them, saying,", "saying,"),
    ])
    func narrationIsNamed(text: String, named: String) {
        #expect(ContentQuality.narration(in: text) == named)
    }

    @Test(arguments: [
        "Ye have heard that it was said by them of old time, Thou shalt not kill;",  // second person
        "Therefore said I unto you, that no man can come unto me,",  // first person
        "It hath been said, Whosoever shall put away his wife,",  // impersonal
        "Not every one that saith unto me, Lord, Lord, shall enter into the kingdom of heaven;",
        // A parable's own narration, mid-passage.
        "A certain man had two sons: And the younger of them said to his father, Father, give me the portion of goods.",
        "Blessed are the poor in spirit: for theirs is the kingdom of heaven.",
        "بسم الله الرحمن الرحيم",
    ])
    func theSpeakersOwnWordsAreNotNarration(text: String) {
        #expect(ContentQuality.narration(in: text) == nil)
    }

    @Test func aBatchHoldsItsLevelOrTheOneAbove() {
        #expect(ContentQuality.cefrProblem(cefr: "A1", batch: 1) == nil)
        #expect(ContentQuality.cefrProblem(cefr: "A2", batch: 9) == nil, "very common A2 words sit in the A1 batches")
        #expect(ContentQuality.cefrProblem(cefr: "B1", batch: 9) != nil)
        #expect(ContentQuality.cefrProblem(cefr: "A1", batch: 10) != nil, "an A1 word belongs in batches 1–9")
        #expect(ContentQuality.cefrProblem(cefr: "B1", batch: 12) == nil)
        #expect(ContentQuality.cefrProblem(cefr: "C2", batch: 30) == nil, "batches past 27 take any level")
        #expect(ContentQuality.cefrProblem(cefr: "C2", batch: nil) == nil)
        #expect(ContentQuality.cefrProblem(cefr: "a1", batch: 1) != nil, "levels are written in capitals")
    }

    @Test func arabicLettersAreFoundInEveryArabicBlock() {
        #expect(ContentQuality.hasArabicLetter("يجري"))
        #expect(ContentQuality.hasArabicLetter("run (يجري)"))
        #expect(ContentQuality.hasArabicLetter("ﻻ"), "presentation forms")
        #expect(!ContentQuality.hasArabicLetter("yajri"))
        #expect(!ContentQuality.hasArabicLetter("١٢٣"), "Arabic-Indic digits are not letters")
        #expect(!ContentQuality.hasArabicLetter("\u{064E}\u{0651}"), "diacritics alone are not letters")
    }
}
