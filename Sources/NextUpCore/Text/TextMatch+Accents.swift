import Foundation
import Synchronization

extension TextMatch {
    /// `text` (already case-folded) without its accents: every letter below
    /// U+2000 (Latin, Greek, Cyrillic) decomposed canonically with its
    /// combining diacritical marks dropped (`é` → `e`, `ǖ` → `u`, `й` → `и`),
    /// and those marks (U+0300–U+036F, U+1AB0–U+1AFF, U+1DC0–U+1DFF,
    /// U+20D0–U+20FF, U+FE20–U+FE2F) dropped wherever they stand. Letters
    /// that do not decompose stay (`ø`, `ł`, `æ`), and so does every other
    /// scalar (kana keep their voicing marks, symbols such as `≠` stay whole).
    static func withoutAccents(_ text: String) -> String {
        // Built as UTF-8 bytes: appending to a String scalar by scalar costs
        // more than the rest of the fold.
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0xC0 || v >= 0x2000 {
                if !isDiacritic(v) { UTF8.encode(scalar) { out.append($0) } }
            } else if !isDiacritic(v) {
                out.append(contentsOf: base(of: scalar).utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The combining diacritical marks that matching ignores.
    static func isDiacritic(_ v: UInt32) -> Bool {
        (0x300...0x36F).contains(v) || (0x1AB0...0x1AFF).contains(v) || (0x1DC0...0x1DFF).contains(v)
            || (0x20D0...0x20FF).contains(v) || (0xFE20...0xFE2F).contains(v)
    }

    /// Scalars already decomposed in this process: Foundation's
    /// decomposition is slow per call, and a text uses few distinct letters.
    private static let bases = Mutex<[UInt32: String]>([:])

    /// A scalar's canonical decomposition without its diacritics (composed
    /// again), or the scalar itself when it has none.
    static func base(of scalar: Unicode.Scalar) -> String {
        if let known = bases.withLock({ $0[scalar.value] }) { return known }
        let parts = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
        var kept = String.UnicodeScalarView(parts.filter { !isDiacritic($0.value) })
        if kept.count == parts.count { kept = String.UnicodeScalarView([scalar]) }
        let result = String(kept).precomposedStringWithCanonicalMapping
        bases.withLock { $0[scalar.value] = result }
        return result
    }
}
