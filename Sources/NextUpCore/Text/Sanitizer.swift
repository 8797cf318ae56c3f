/// Task text is untrusted input (DESIGN.md §4, §7): before it reaches a
/// terminal, every control character becomes a visible placeholder, so no
/// escape sequence in a title can ever reach the terminal.
public enum Sanitizer {
    /// Replaces C0 controls (incl. ESC, tab, newline), DEL, C1 controls, and
    /// bidirectional overrides with visible symbols (`␛`, `␡`, `�`).
    public static func visible(_ text: String) -> String {
        guard mayBeUnsafe(text) else { return text }
        var needs = false
        for s in text.unicodeScalars where isUnsafe(s) { needs = true; break }
        guard needs else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s.value < 0x20 { out.append(Unicode.Scalar(0x2400 + s.value)!) }
            else if s.value == 0x7F { out.append("\u{2421}") }
            else if isUnsafe(s) { out.append("\u{FFFD}") }
            else { out.append(s) }
        }
        return String(out)
    }

    /// False when no byte of `text` can begin an unsafe scalar: every one is
    /// below U+0020, U+007F, or encoded from a lead byte 0xC2 (C1) or 0xE2
    /// (the bidirectional controls).
    private static func mayBeUnsafe(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
        }
    }

    static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
