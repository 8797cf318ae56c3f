/// The one rule for matching text that a user types against task text: the
/// TUI filter's words, `cat:` and `tag:`, the command line's `list
/// --category` and `--tag`. Both sides are folded (``fold(_:)``: case and
/// accents ignored, as search boxes do), then compared as UTF-8 bytes —
/// which is exactly what the store's SQL does with the same fold registered
/// as a function (`nextup_fold`, and the stored `title_fold`), so a listing
/// made by SQLite and one made in Swift always agree.
///
/// Names (categories, tags) are one name when they are the same but for
/// case (``same(_:_:)``); accents make different names.
public enum TextMatch {
    /// The key text is matched by: ``caseFold(_:)``, then
    /// ``withoutAccents(_:)`` — `reunion` finds `Réunion`, `STRASSE` finds
    /// `Straße`. ASCII text is only lowered.
    public static func fold(_ text: String) -> String {
        let folded = caseFold(text)
        // Below U+00C0 nothing decomposes: UTF-8 bytes up to C2 only.
        let plain = folded.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0xC3 } } ?? folded.utf8.allSatisfy { $0 < 0xC3 }
        return plain ? folded : withoutAccents(folded)
    }

    /// Unicode full case folding: `Études`, `ÉTUDES` and `études` fold alike,
    /// and so do `STRASSE` and `straße`, `ΣΊΣΥΦΟΣ` and `σίσυφος`. Computed as
    /// the lowercase of the uppercase (which maps `ß` to `ss` and final `ς`
    /// to `σ`, as case folding does); ASCII text takes a shortcut. Text
    /// written in differently composed forms (`e` + combining accent against
    /// `é`) is not made equal.
    public static func caseFold(_ text: String) -> String {
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
    /// do the blocks whose fold is a rule (``blockFold(_:)``).
    private static func foldScalars(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                out.append(b &- UInt8(ascii: "A") < 26 ? b | 0x20 : b)
            } else if let folded = blockFold(scalar.value) {
                UTF8.encode(Unicode.Scalar(folded).unsafelyUnwrapped) { out.append($0) }
            } else {
                for upper in scalar.properties.uppercaseMapping.unicodeScalars {
                    out.append(contentsOf: upper.properties.lowercaseMapping.utf8)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The fold of a non-ASCII scalar whose block folds by a simple rule, or
    /// nil for any other (Unicode's tables then decide): Latin-1 capitals
    /// to small letters (but µ and ß, which fold to Greek μ and to "ss"),
    /// basic Cyrillic capitals to small letters, and as they are the blocks
    /// without case — Latin-1's signs, Cyrillic small letters, Hebrew to
    /// Arabic Extended-A (U+0590–U+08FF), CJK symbols, kana and ideographs
    /// (U+3000–U+9FFF), Hangul syllables, the emoji blocks U+1F300–U+1FAFF.
    /// Tested over every scalar it answers for against the standard library.
    static func blockFold(_ value: UInt32) -> UInt32? {
        switch value {
        case 0xB5, 0xDF: return nil
        case 0xC0...0xDE where value != 0xD7: return value + 0x20
        case 0x80...0xFF: return value
        case 0x400...0x40F: return value + 0x50
        case 0x410...0x42F: return value + 0x20
        case 0x430...0x45F, 0x590...0x8FF, 0x3000...0x9FFF, 0xAC00...0xD7A3, 0x1F300...0x1FAFF: return value
        default: return nil
        }
    }

    /// Whether two names (categories, tags) are one name: the same but for
    /// case (``caseFold(_:)``). Accents count: `Résumé` and `Resume` are two.
    public static func same(_ a: String, _ b: String) -> Bool {
        caseFold(a).utf8.elementsEqual(caseFold(b).utf8)
    }

    /// Whether typed `name` matches `text` as a whole (``fold(_:)`` of both):
    /// what `cat:`, `tag:`, `--category` and `--tag` select by.
    public static func matches(_ text: String, name: String) -> Bool {
        fold(text).utf8.elementsEqual(fold(name).utf8)
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
