import NextUpTestSupport
import PropertyBased
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

    @Test(arguments: [
        ("Call the bank", 20, "Call the bank"), ("Call the bank", 13, "Call the bank"), ("Call the bank", 12, "Call the ba…"),
        ("Call", 1, "…"), ("Call", 0, ""), ("", 3, ""), ("中文中文", 8, "中文中文"), ("中文中文", 7, "中文中…"), ("中文中文", 6, "中文…"),
        ("Café au lait", 5, "Café…"), ("e\u{301}e\u{301}e\u{301}", 3, "e\u{301}e\u{301}e\u{301}"), ("ab\u{200B}cd", 3, "ab\u{200B}…"),
        ("Fly ✈️ to Lyon", 6, "Fly …"), ("Fly ✈️ to Lyon", 7, "Fly ✈️…"),
    ])
    func truncateCutsAtTheLastWholeCharacterThatLeavesRoomForTheEllipsis(text: String, cells: Int, want: String) {
        #expect(TerminalWidth.truncate(text, to: cells) == want)
    }

    /// The contract of `truncate`: text that fits comes back whole; else the
    /// longest prefix of whole characters within `cells - 1`, then `…`.
    @Test func truncateKeepsTheLongestPrefixThatFits() async {
        let pieces = ["a", "Z", " ", "é", "e\u{301}", "中", "한", "✈️", "👍🏽", "👨‍👩‍👧", "🇫🇷", "\u{200B}", "ｱ", "☕"]
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            var text = ""
            for _ in 0..<Int(rng.next() % 30) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let cells = 1 + Int(rng.next() % 25)
            let cut = TerminalWidth.truncate(text, to: cells)
            let chars = Array(text)
            if TerminalWidth.width(of: text) <= cells {
                #expect(cut == text, "seed \(seed)")
                return
            }
            #expect(cut.hasSuffix("…"), "seed \(seed)")
            let kept = Array(cut.dropLast())
            #expect(Array(chars.prefix(kept.count)) == kept, "seed \(seed)")
            #expect(TerminalWidth.width(of: String(kept)) <= cells - 1, "seed \(seed)")
            #expect(TerminalWidth.width(of: String(chars.prefix(kept.count + 1))) > cells - 1, "seed \(seed)")
        }
    }
}
