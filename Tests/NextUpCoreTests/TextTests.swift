import Testing
import NextUpTestSupport
@testable import NextUpCore

@Suite struct TextTests {
    @Test func controlCharactersBecomeVisiblePlaceholders() {
        let s = Sanitizer.visible("a\u{1B}[2Jb\u{7}c\u{7F}\u{9B}d\u{202E}e")
        #expect(s == "a␛[2Jb␇c␡\u{FFFD}d\u{FFFD}e")
        #expect(!s.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(Sanitizer.visible("plain 日本語") == "plain 日本語")
    }

    @Test func eachUnsafeScalarAloneIsReplaced() {
        // One at a time, among text that needs nothing replaced and holds no
        // other byte 0xC2 or 0xE2 (accents, CJK).
        for v: UInt32 in [0x00, 0x09, 0x1F, 0x7F, 0x80, 0x9F, 0x202A, 0x202E, 0x2066, 0x2069] {
            let s = Sanitizer.visible("café 日本 \(Character(Unicode.Scalar(v)!)) end")
            #expect(!s.unicodeScalars.contains(where: Sanitizer.isUnsafe), "U+\(String(v, radix: 16)) was kept")
        }
        for safe in ["café ☕ — “quoted” 日本 🚀", "\u{2029}\u{2065}\u{206A}\u{A0}"] { #expect(Sanitizer.visible(safe) == safe) }
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

/// Text is limited in bytes of UTF-8 as well as characters, so that every
/// accepted value fits one log line (issue 10).
@Suite struct TextByteLimitTests {
    let heavy = "e" + String(repeating: "\u{301}", count: 40)  // one character, 81 bytes

    @Test func notesOfFewCharactersButTooManyBytesAreRefusedInOneLine() throws {
        let notes = String(repeating: heavy, count: 10_000)
        #expect(notes.count == 10_000 && notes.utf8.count > TaskText.maxNotesBytes)
        #expect { try TaskText.notes(notes) } throws: { ($0 as? TaskInputError)?.message.contains("bytes of UTF-8") == true }
        #expect(!TaskField.notes.accepts(.string(notes)))
        let largest = String(repeating: "a", count: 99_000) + String(repeating: "é", count: 1_000)
        #expect(try TaskText.notes(largest) == largest)
    }

    @Test func everyTextFieldHasAByteLimitTheFieldTableEnforces() {
        #expect(!TaskField.title.accepts(.string(String(repeating: heavy, count: 100))))
        #expect(!TaskField.category.accepts(.string(String(repeating: heavy, count: 10))))
        #expect(!TaskField.source.accepts(.string(String(repeating: heavy, count: 100))))
        #expect(!TaskField.externalID.accepts(.string(String(repeating: heavy, count: 100))))
        #expect(TaskField.title.accepts(.string(String(repeating: "x", count: 1_000))))
        #expect(throws: TaskInputError.self) { try TaskText.title(String(repeating: self.heavy, count: 100)) }
        #expect(throws: TaskInputError.self) { try TaskText.category(String(repeating: self.heavy, count: 10)) }
        #expect(throws: TaskInputError.self) { try TaskText.label(String(repeating: self.heavy, count: 100), name: "source") }
    }

    /// `fits` counts characters only past the byte count that guarantees
    /// them; it says what counting both says, for texts of one- to
    /// four-byte scalars and grapheme clusters of several, at every limit.
    @Test func fitsIsBothLimits() {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "e\u{301}", "中", "🚀", "👩‍💻", "🇫🇷", " ", "\r\n"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            for characters in 0...14 {
                for bytes in [0, 5, 12, 30, 100] {
                    #expect(TaskText.fits(text, characters: characters, bytes: bytes) == (text.utf8.count <= bytes && text.count <= characters),
                            "\(text.debugDescription) \(characters) \(bytes)")
                }
            }
        }
    }
}

/// `TaskText.fits` counts characters only past the limit in bytes' worth of
/// them; it must answer what counting them always answers.
@Suite struct TextFitsTests {
    @Test func fitsIsItsDefinition() {
        var rng = SeededRandom(seed: 0xF175)
        let pieces = ["a", " ", "é", "e\u{301}", "漢", "🧪", "👩‍💻", "🇫🇷", "\r\n"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let characters = Int.random(in: 0...12, using: &rng), bytes = Int.random(in: 0...40, using: &rng)
            #expect(TaskText.fits(text, characters: characters, bytes: bytes) == (text.utf8.count <= bytes && text.count <= characters), "\(text)")
        }
    }
}
