import Foundation
import Testing
@testable import NextUpCore

/// The trimming shortcut skips Foundation when neither end may be trimmed
/// (`White_Space`, or U+200B); that is exact only if every character
/// Foundation trims is such a character.
struct StringTrimmingTests {
    @Test func everyTrimmedCharacterIsCaughtByTheShortcut() {
        for value in UInt32(0)...0xFFFF {  // every White_Space character is in the BMP
            guard let scalar = Unicode.Scalar(value) else { continue }
            if CharacterSet.whitespacesAndNewlines.contains(scalar) || CharacterSet.whitespaces.contains(scalar) {
                #expect(String.mayTrim(scalar), "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func sameResultAsFoundation() {
        let samples = ["", " ", "a", " a ", "\ta\n", "\u{3000}日本\u{2028}", "\u{A0}x", "x\u{85}", "a b",
                       "\u{200B}zero width\u{200B}", "e\u{301}", " \u{301}", "\r\n", "👩‍💻 "]
        for s in samples {
            #expect(s.trimmingWhitespaceAndNewlines() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
        }
    }

    /// ASCII scalars are answered without their properties: the answer must be theirs.
    @Test func asciiWhiteSpaceIsTheProperty() {
        for value in UInt32(0)..<0x80 {
            let scalar = Unicode.Scalar(value)!
            #expect(String.mayTrim(scalar) == (scalar.properties.isWhitespace || value == 0x200B), "U+\(String(value, radix: 16))")
        }
    }
}
