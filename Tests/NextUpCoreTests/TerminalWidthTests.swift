import Testing
import NextUpCore

/// Issue 33, item 5: cell widths per grapheme cluster as current terminals
/// draw them (VS16 makes an emoji-capable character wide, VS15 narrow), the
/// rest from the C library's `wcwidth`.
@Suite struct TerminalWidthTests {
    @Test(arguments: [
        ("✈️", 2), ("❤️", 2), ("✈", 1), ("❤", 1), ("☺︎", 1), ("#️⃣", 2),
        ("👍", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇫🇷", 2), ("🎉", 2),
        ("中", 2), ("한", 2), ("ｱ", 1), ("Ａ", 2), ("e\u{301}", 1), ("a\u{301}\u{302}", 1),
        ("\u{200B}", 0), ("\u{AD}", 1), ("é", 1), ("x", 1),
    ])
    func clusterWidths(text: String, cells: Int) {
        #expect(text.count == 1)
        #expect(TerminalWidth.width(of: Character(text)) == cells, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func aTitleWithEmojiFillsItsColumnExactly() {
        for title in ["Fly ✈️ to Lyon", "Love ❤️ you", "Thumb 👍🏽 ok", "Family 👨‍👩‍👧 trip", "Flag 🇫🇷 day", "中文 tasks", "Café time"] {
            let cell = TerminalWidth.fit(title, to: 20)
            #expect(TerminalWidth.width(of: cell) == 20, "\(title)")
            #expect(cell.hasPrefix(title))
        }
        #expect(TerminalWidth.width(of: "Fly ✈️ to") == 9)
        #expect(TerminalWidth.truncate("✈️✈️✈️", to: 5) == "✈️✈️…")
    }
}
