import Foundation
import Testing
@testable import NextUpCore

/// ``TextMatch``: the one match of the CLI, the TUI and the store (case and
/// accents ignored), and the one rule for names (case ignored).
@Suite struct TextMatchTests {
    /// Issue 33: the filter's `reunion` finds `réunion`, as search boxes do;
    /// names that differ only in accents stay two names.
    @Test func matchingIgnoresAccentsAndNamesDoNot() {
        #expect(TextMatch.contains("Réunion d’équipe", "reunion"))
        #expect(TextMatch.contains("RÉUNION", "réunion"))
        #expect(TextMatch.contains("Über Straße", "uber strasse"))
        #expect(TextMatch.contains("Nguyễn Văn", "nguyen van"))
        #expect(TextMatch.contains("Ελληνικά", "ελληνικα"))
        #expect(TextMatch.contains("e\u{0301}te\u{0301}", "ete"), "a combining accent goes too")
        #expect(!TextMatch.contains("Łódź", "lodz"), "a letter that does not decompose stays")
        #expect(TextMatch.contains("Łódź", "łodz"))
        #expect(TextMatch.fold("が") == "が", "kana keep their voicing")
        #expect(TextMatch.fold("a ≠ b") == "a ≠ b", "symbols stay whole")
        #expect(TextMatch.fold("Réunions ÉQUIPE") == "reunions equipe")
        #expect(TextMatch.matches("Réunions équipe", name: "reunions EQUIPE"))
        #expect(TextMatch.same("réunions ÉQUIPE", "Réunions équipe"), "case only: one name")
        #expect(!TextMatch.same("Résumé", "Resume"), "accents make another name")
    }

    /// Below U+2000 (where the fold decomposes letters) the fold of every
    /// scalar holds no diacritic mark, is stable, and keeps what has no
    /// accent as the case fold left it.
    @Test func theFoldOfEveryLetterBelowU2000HasNoDiacritic() {
        for value in UInt32(0xC0)..<0x2000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let folded = TextMatch.fold(text)
            #expect(!folded.unicodeScalars.contains { TextMatch.isDiacritic($0.value) }, "U+\(String(value, radix: 16))")
            if TextMatch.caseFold(TextMatch.caseFold(text)) == TextMatch.caseFold(text) {
                #expect(TextMatch.fold(folded) == folded, "U+\(String(value, radix: 16))")
            }
            let decomposed = TextMatch.caseFold(text).decomposedStringWithCanonicalMapping
            if !decomposed.unicodeScalars.contains(where: { TextMatch.isDiacritic($0.value) }) {
                #expect(folded == TextMatch.caseFold(text), "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func caseFoldingIsUnicodeAware() {
        #expect(TextMatch.same("Études", "études"))
        #expect(TextMatch.same("ÉTUDES", "études"))
        #expect(!TextMatch.same("Etudes", "études"), "accents still count")
        #expect(TextMatch.same("STRASSE", "straße"), "full folding: ß is ss")
        #expect(TextMatch.same("ΣΊΣΥΦΟΣ", "σίσυφος"), "final sigma folds like sigma")
        #expect(TextMatch.same("Deep Work", "deep work"))
        #expect(!TextMatch.same("Deep Work", "deep  work"))
    }

    @Test func containsMatchesFoldedWords() {
        #expect(TextMatch.contains("Über Straße 12", "STRASSE"))
        #expect(TextMatch.contains("Buy MILK", "milk"))
        #expect(TextMatch.contains("日本語のタスク", "本語"))
        #expect(TextMatch.contains("anything", ""))
        #expect(!TextMatch.contains("Buy milk", "bread"))
        #expect(!TextMatch.contains("ab", "abc"))
    }

    @Test func foldIsStableAndASCIIIsJustLowercase() {
        for text in ["Hello World", "Études", "STRASSE", "ǅemal", "İstanbul", "🎉 Party"] {
            #expect(TextMatch.caseFold(TextMatch.caseFold(text)) == TextMatch.caseFold(text), "\(text)")
        }
        #expect(TextMatch.caseFold("Hello World") == "hello world")
    }

    /// The ASCII shortcut (bytes A–Z lowered, no copy without one) gives
    /// what the Unicode fold gives, on every printable ASCII character and
    /// on random ASCII texts, with and without capitals.
    @Test func theASCIIShortcutIsTheUnicodeFold() {
        let ascii = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
        #expect(TextMatch.caseFold(String(ascii)) == String(ascii).uppercased().lowercased())
        for length in [0, 1, 2, 7, 15, 16, 40] {
            for _ in 0..<50 {
                let text = String((0..<length).map { _ in ascii.randomElement()! })
                #expect(TextMatch.caseFold(text) == text.uppercased().lowercased(), "\(text.debugDescription)")
                #expect(TextMatch.caseFold(text + "É") == (text + "É").uppercased().lowercased())
            }
        }
    }

    /// The fold of any text, scalar by scalar with ASCII on its bytes, is
    /// `uppercased().lowercased()` of the whole text: random mixes of ASCII,
    /// letters whose case mapping expands or changes length (ß, ŉ, ΐ, İ, ǅ,
    /// ﬃ), final sigma, Cyrillic, Greek, Arabic, CJK, emoji with joiners,
    /// combining marks and lone scalars from anywhere.
    @Test func theFoldIsTheWholeTextsUppercaseLowercased() {
        let pieces: [String] = ["a", "Z", " ", "1", "-", "é", "É", "ß", "ẞ", "ŉ", "ΐ", "İ", "ı", "ǅ", "ﬃ", "ς", "Σ", "σ", "ΣΊΣΥΦΟΣ",
                                "Привет", "ب", "中文", "の", "🚀", "👩‍💻", "\u{0301}", "\u{0345}", "Ω", "K", "Å", "ǰ", "ﬀ", "Ⓐ", "𐐀"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                if Int.random(in: 0..<5, using: &rng) == 0 {
                    text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0x80...0x2FFFF, using: &rng)) ?? "x")
                } else {
                    text += pieces.randomElement(using: &rng)!
                }
            }
            #expect(TextMatch.caseFold(text) == text.uppercased().lowercased(), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// Every scalar the fold maps by a rule of its block
    /// (``TextMatch/blockFold(_:)``) folds to what `uppercased().lowercased()`
    /// gives it, alone and between letters that have case.
    @Test func blockRulesAreTheUnicodeFold() {
        var checked = 0
        for value in UInt32(0x80)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), let folded = TextMatch.blockFold(value) else { continue }
            let text = String(Character(scalar))
            #expect(String(Character(Unicode.Scalar(folded)!)) == text.uppercased().lowercased(), "U+\(String(value, radix: 16))")
            #expect(TextMatch.caseFold("É" + text + "Σ") == ("É" + text + "Σ").uppercased().lowercased(), "U+\(String(value, radix: 16))")
            checked += 1
        }
        #expect(checked > 40_000)
        #expect(TextMatch.blockFold(0xB5) == nil && TextMatch.blockFold(0xDF) == nil && TextMatch.blockFold(0x100) == nil)
    }
}
