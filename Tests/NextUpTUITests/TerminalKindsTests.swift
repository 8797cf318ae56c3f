import Testing
@testable import NextUpTUI

/// Issue 13's terminals: a whole grapheme per backspace, ASCII under a
/// non-UTF-8 locale.
@Suite struct TerminalKindsTests {
    @Test func backspaceRemovesALetterWithItsCombiningAccent() {
        var editor = LineEditor("Caf")
        editor.handle(.char("e"))
        editor.handle(.char("\u{301}"))
        #expect(editor.text == "Cafe\u{301}")
        #expect(editor.characters.count == 4)
        editor.handle(.backspace)
        #expect(editor.text == "Caf")
    }

    @Test func asciiTextKeepsEveryCellAndTheScreensMarks() {
        #expect(NcursesScreen.asciiText("▸ Backlog · 3") == "> Backlog | 3")
        #expect(NcursesScreen.asciiText("✓ Done…") == "x Done~")
        #expect(NcursesScreen.asciiText("日本 Café") == "???? Caf?")
        #expect(NcursesScreen.asciiText("plain") == "plain")
    }
}
