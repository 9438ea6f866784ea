import Testing

@testable import Study

/// Issue #33 item 8: the terminal breaks lines between words, never inside one, counting
/// each character as wide as a terminal draws it.
@Suite struct TerminalLinesTests {
    @Test func linesBreakBetweenWords() {
        #expect(
            TerminalLines.wrapped("I like the music very much", width: 10) == ["I like the", "music very", "much"])
        #expect(TerminalLines.wrapped("short", width: 10) == ["short"], "a line that fits is left as it is")
        #expect(TerminalLines.wrapped("one\ntwo three", width: 5) == ["one", "two", "three"], "each line on its own")
    }

    @Test func aLongLineKeepsItsIndentAndItsAlignedSpaces() {
        #expect(
            TerminalLines.wrapped("  1) the quick brown fox", width: 12) == [
                "  1) the", "     quick", "     brown", "     fox",
            ],
            "a numbered item's lines start under its text")
        #expect(
            TerminalLines.wrapped("  • I bought a book. The book is about cats.", width: 20) == [
                "  • I bought a book.", "    The book is", "    about cats.",
            ])
        #expect(TerminalLines.wrapped("  the quick brown", width: 10) == ["  the", "  quick", "  brown"])
        #expect(TerminalLines.wrapped("go  verb  to move away", width: 10) == ["go  verb", "to move", "away"])
    }

    @Test func aWordWiderThanTheLineIsCutWhereItMust() {
        #expect(TerminalLines.wrapped("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    }

    @Test func widthsAreATerminalsNotCharacterCounts() {
        #expect(TerminalLines.width(of: "يجري") == 4, "Arabic letters are one column each")
        #expect(TerminalLines.width(of: "\u{2068}يجري\u{2069}") == 4, "isolates take no column")
        #expect(TerminalLines.width(of: "日本") == 4, "wide letters take two")
        #expect(TerminalLines.width(of: "e\u{301}") == 1, "a combining accent rides on its letter")
        #expect(
            TerminalLines.wrapped("أنا أحب الموسيقى كثيرا", width: 10) == ["أنا أحب", "الموسيقى", "كثيرا"],
            "Arabic breaks between its words too")
    }
}
