/// The one rule for matching text that a user types against task text: the
/// TUI filter's words and `cat:`, the command line's `list --category`, the
/// category cycle key. Both sides are case-folded (``fold(_:)``), then compared
/// as UTF-8 bytes — which is exactly what the store's SQL does with the same
/// fold registered as a function (`nextup_fold`), so a listing made by SQLite
/// and one made in Swift always agree.
public enum TextMatch {
    /// Unicode full case folding: `Études`, `ÉTUDES` and `études` fold alike,
    /// and so do `STRASSE` and `straße`, `ΣΊΣΥΦΟΣ` and `σίσυφος`. Computed as
    /// the lowercase of the uppercase (which maps `ß` to `ss` and final `ς`
    /// to `σ`, as case folding does); ASCII text takes a shortcut. Text
    /// written in differently composed forms (`e` + combining accent against
    /// `é`) is not made equal.
    public static func fold(_ text: String) -> String {
        // ASCII: A–Z to a–z on the bytes (what `lowercased()` does to ASCII),
        // and no copy at all when there is nothing to lower.
        var upper = false
        for b in text.utf8 {
            if b >= 0x80 { return foldScalars(text) }
            if b &- UInt8(ascii: "A") < 26 { upper = true }
        }
        guard upper else { return text }
        return String(unsafeUninitializedCapacity: text.utf8.count) { out in
            var i = 0
            for b in text.utf8 {
                out[i] = b &- UInt8(ascii: "A") < 26 ? b | 0x20 : b
                i += 1
            }
            return i
        }
    }

    /// `text.uppercased().lowercased()`, scalar by scalar — which is how
    /// the standard library maps case (each scalar's full mapping, no
    /// context) — so that the ASCII around a few other letters takes the
    /// byte shortcut instead of two Unicode property lookups each, and so
    /// do the scripts without case (``isCaseless(_:)``).
    private static func foldScalars(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                out.append(b &- UInt8(ascii: "A") < 26 ? b | 0x20 : b)
            } else if isCaseless(scalar) {
                UTF8.encode(scalar) { out.append($0) }
            } else {
                for upper in scalar.properties.uppercaseMapping.unicodeScalars {
                    out.append(contentsOf: upper.properties.lowercaseMapping.utf8)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `scalar` lies in a block that has no case mapping at all:
    /// U+3000–U+9FFF (CJK symbols and punctuation, kana, Bopomofo, Hangul
    /// jamo, enclosed and compatibility CJK, CJK ideographs and extension A)
    /// and the Hangul syllables U+AC00–U+D7A3. Tested over every scalar of
    /// both ranges against the standard library's mappings.
    static func isCaseless(_ scalar: Unicode.Scalar) -> Bool {
        (0x3000...0x9FFF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value)
    }

    /// Whether two texts are the same but for case.
    public static func same(_ a: String, _ b: String) -> Bool {
        fold(a).utf8.elementsEqual(fold(b).utf8)
    }

    /// Whether `text` contains `word`, ignoring case.
    public static func contains(_ text: String, _ word: String) -> Bool {
        folded(fold(text), contains: fold(word))
    }

    /// Whether already folded `text` contains already folded `word`, as UTF-8
    /// bytes (SQLite's `instr` on the folded values). Reads the strings'
    /// bytes in place (no copies), so a filter can test 100,000 titles per key.
    public static func folded(_ text: String, contains word: String) -> Bool {
        var text = text
        return text.withUTF8 { folded($0, contains: word) }
    }

    /// ``folded(_:contains:)`` on the UTF-8 bytes of an already folded text.
    public static func folded(_ text: UnsafeBufferPointer<UInt8>, contains word: String) -> Bool {
        var word = word
        return word.withUTF8 { bytes(text, contain: $0) }
    }

    private static func bytes(_ t: UnsafeBufferPointer<UInt8>, contain w: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !w.isEmpty else { return true }
        guard w.count <= t.count else { return false }
        let first = w[0]
        outer: for start in 0...(t.count - w.count) where t[start] == first {
            for i in 1..<w.count where t[start + i] != w[i] { continue outer }
            return true
        }
        return false
    }
}
