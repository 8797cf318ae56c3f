import Testing
@testable import NextUpCore

/// `TaskText.foldLines` returns text without line breaks as it is; the
/// result must always be what mapping every scalar gives.
struct LineFoldingTests {
    static func mapped(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { s in
            [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(s.value) ? " " : s
        }))
    }

    @Test func foldingEqualsMappingEveryScalar() throws {
        let pieces = ["a", " ", "\n", "\r\n", "\u{B}", "\u{C}", "\u{85}", "\u{2028}", "\u{2029}", "é", "e\u{301}", "漢",
                      "🧪", "👩‍💻", "🇫🇷", "\t", "\u{0}"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            #expect(TaskText.foldLines(text) == Self.mapped(text), "\(text.unicodeScalars.map(\.value))")
        }
        #expect(TaskText.foldLines("a\r\nb") == "a  b")
        #expect(try TaskText.title(" Pay\u{2028}rent \n") == "Pay rent")
    }
}
