import Testing
@testable import NextUpTUI

@Suite struct LineEditorTests {
    func edit(_ start: String, _ keys: [Key]) -> LineEditor {
        var e = LineEditor(start)
        for k in keys { e.handle(k) }
        return e
    }

    @Test func typingInsertsAtTheCursor() {
        let e = edit("milk", [.home, .char("B"), .char("u"), .char("y"), .char(" ")])
        #expect(e.text == "Buy milk")
        #expect(e.cursor == 4)
    }

    @Test func arrowsBackspaceAndDelete() {
        let e = edit("abcd", [.left, .left, .backspace, .delete, .right, .char("!")])
        #expect(e.text == "ad!")
    }

    @Test func ctrlUErasesToTheStartCtrlKToTheEndCtrlWAWord() {
        #expect(edit("hello world", [.left, .left, .ctrl("u")]).text == "ld")
        #expect(edit("hello world", [.home, .right, .ctrl("k")]).text == "h")
        #expect(edit("hello big world", [.ctrl("w")]).text == "hello big ")
    }

    @Test func cursorStaysInBounds() {
        let e = edit("ab", [.right, .right, .char("c"), .home, .left, .backspace, .char("x")])
        #expect(e.text == "xabc")
        #expect(e.cursor == 1)
    }

    @Test func controlCharactersAreNotInserted() {
        let e = edit("", [.char("\u{1B}"), .char("\u{7}"), .char("a"), .char("日")])
        #expect(e.text == "a日")
    }

    @Test func enterAndEscapeAreLeftToThePrompt() {
        var e = LineEditor("x")
        let enter = e.handle(.enter)
        let escape = e.handle(.escape)
        #expect(!enter && !escape)
        #expect(e.text == "x")
    }
}
