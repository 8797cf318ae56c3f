import Testing
@testable import NextUpCore

@Suite struct TextTests {
    @Test func controlCharactersBecomeVisiblePlaceholders() {
        let s = Sanitizer.visible("a\u{1B}[2Jb\u{7}c\u{7F}\u{9B}d\u{202E}e")
        #expect(s == "a␛[2Jb␇c␡\u{FFFD}d\u{FFFD}e")
        #expect(!s.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(Sanitizer.visible("plain 日本語") == "plain 日本語")
    }

    @Test func wideCharactersTakeTwoCells() {
        #expect(TerminalWidth.width(of: "abc") == 3)
        #expect(TerminalWidth.width(of: "日本語") == 6)
        #expect(TerminalWidth.width(of: "🎉") == 2)
        #expect(TerminalWidth.width(of: "e\u{301}") == 1)
        #expect(TerminalWidth.width(of: "❤️") == 2)
    }

    @Test func truncationNeverSplitsAWideCharacterAndFitsExactly() {
        let t = TerminalWidth.truncate("日本語のタイトル", to: 7)
        #expect(TerminalWidth.width(of: t) <= 7)
        #expect(t.hasSuffix("…"))
        #expect(TerminalWidth.width(of: TerminalWidth.fit("日本", to: 7)) == 7)
        #expect(TerminalWidth.fit("abcdef", to: 4) == "abc…")
        #expect(TerminalWidth.fit("ab", to: 4) == "ab  ")
    }
}
