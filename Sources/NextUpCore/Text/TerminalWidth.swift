/// Display width of text in a terminal cell grid: wide (East Asian Wide and
/// Fullwidth, emoji presentation) characters take two cells, combining marks
/// none. Pure, locale-independent; the TUI and the CLI tables both use it.
public enum TerminalWidth {
    /// Cells taken by one character.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // Latin before the combining marks, alone: one cell, no property lookup.
        if first.value >= 0x20, first.value < 0x300, first.value != 0xAD, !(0x7F...0x9F).contains(first.value),
           scalars.count == 1 {
            return 1
        }
        if first.value < 0x20 || (0x7F...0x9F).contains(first.value) { return 0 }
        if isWide(first) { return 2 }
        if scalars.count > 1, first.properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if isZeroWidth(first) { return 0 }
        return 1
    }

    /// Cells taken by a string.
    public static func width(of text: String) -> Int {
        if let ascii = printableASCIICount(text) { return ascii }
        var w = 0
        for c in text { w += width(of: c) }
        return w
    }

    /// The longest prefix that fits in `cells`, with `…` as its last cell when
    /// text had to be cut. Never splits a character.
    public static func truncate(_ text: String, to cells: Int) -> String {
        guard cells > 0 else { return "" }
        if width(of: text) <= cells { return text }
        var out = ""
        var used = 0
        for c in text {
            let w = width(of: c)
            if used + w > cells - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// `text` truncated or padded with spaces to exactly `cells` cells.
    public static func fit(_ text: String, to cells: Int) -> String {
        var out: [UInt8] = []
        fit(text, to: cells, appendingTo: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``fit(_:to:)``'s text appended to `out` as UTF-8, with no string made
    /// for printable ASCII (most cells of a table), which is padded as is.
    public static func fit(_ text: String, to cells: Int, appendingTo out: inout [UInt8]) {
        var text = text
        var w = text.withUTF8 { bytes -> Int? in
            for b in bytes where b < 0x20 || b > 0x7E { return nil }
            guard bytes.count <= cells else { return nil }
            out.append(contentsOf: bytes)
            return bytes.count
        }
        if w == nil {
            let t = truncate(text, to: cells)
            out.append(contentsOf: t.utf8)
            w = width(of: t)
        }
        if let w, w < cells { out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: cells - w)) }
    }

    /// The length of `text` when it is printable ASCII (most titles, every
    /// id and date: one cell a byte), else nil.
    static func printableASCIICount(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            for b in bytes where b < 0x20 || b > 0x7E { return nil }
            return bytes.count
        }
    }

    static func isZeroWidth(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return s.value != 0x00AD
        default: return s.value == 0x200B || (0x1160...0x11FF).contains(s.value)
        }
    }

    static func isWide(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if s.properties.isEmojiPresentation { return true }
        return (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x2FFFD).contains(v)
            || (0x30000...0x3FFFD).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
    }
}
