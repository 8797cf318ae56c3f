import Foundation

/// Display width of text in a terminal cell grid, per grapheme cluster (a
/// Swift `Character`), the way current terminals (kitty, VTE, tmux 3.4+)
/// draw it: a cluster whose first scalar has emoji presentation (an emoji,
/// with its skin tone, its ZWJ sequence, a flag) takes two cells; an
/// emoji-capable character made an emoji by VS16 (`✈️`, `❤️`) takes two; VS15
/// makes it text again; any other cluster takes what the C library's
/// `wcwidth` gives its first scalar (East Asian wide: two, combining marks
/// and format characters: none), read under a UTF-8 locale of its own
/// whatever the process's locale. No table is kept here. The TUI and the
/// CLI tables both use it.
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
        if scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0E }) { return libraryWidth(first) }
        if first.properties.isEmojiPresentation { return 2 }
        if scalars.count > 1, first.properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return libraryWidth(first)
    }

    /// Cells a curses library moves on after writing one character: the
    /// `wcwidth` of each of its scalars, added up. It differs from
    /// ``width(of:)`` for the clusters terminals draw as one emoji (`✈️`:
    /// one against two; a ZWJ family: six against two).
    public static func cursesWidth(of character: Character) -> Int {
        var w = 0
        for s in character.unicodeScalars { w += libraryWidth(s) }
        return w
    }

    /// `wcwidth` of one scalar under ``utf8Locale``; without that locale
    /// (a system with no UTF-8 locale at all), marks and format characters
    /// take none and the rest one.
    static func libraryWidth(_ s: Unicode.Scalar) -> Int {
        if let locale = utf8Locale {
            let previous = uselocale(locale)
            let w = c_wcwidth(wchar_t(bitPattern: s.value))
            uselocale(previous)
            if w >= 0 { return Int(w) }
            return 1
        }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return s.value == 0xAD ? 1 : 0
        default: return 1
        }
    }

    /// A UTF-8 character-type locale for `wcwidth`, made once: `C.UTF-8`,
    /// else the person's own. `nonisolated(unsafe)` because `locale_t` is a
    /// C pointer Swift cannot call `Sendable`; it is made once and only read
    /// (`uselocale` sets it for the calling thread alone).
    nonisolated(unsafe) static let utf8Locale: locale_t? =
        newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "", nil)

    /// Cells taken by a string.
    public static func width(of text: String) -> Int {
        if let ascii = printableASCIICount(text) { return ascii }
        var w = 0
        for c in text { w += width(of: c) }
        return w
    }

    /// The longest prefix that fits in `cells`, with `…` as its last cell when
    /// text had to be cut. Never splits a character. Reads text only as far
    /// as it must: one cell a byte for printable ASCII, else up to the first
    /// character past `cells`.
    public static func truncate(_ text: String, to cells: Int) -> String {
        guard cells > 0 else { return "" }
        if let ascii = printableASCIICount(text) {
            if ascii <= cells { return text }
            return String(decoding: text.utf8.prefix(cells - 1), as: UTF8.self) + "…"
        }
        var used = 0
        var kept: Int?  // UTF-8 bytes of the prefix that fits in cells - 1
        var bytes = 0
        for c in text {
            let w = width(of: c)
            if kept == nil, used + w > cells - 1 { kept = bytes }
            used += w
            if used > cells, let kept { return String(decoding: text.utf8.prefix(kept), as: UTF8.self) + "…" }
            bytes += c.utf8.count
        }
        return text
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
}

/// The C library's `wcwidth` (declared only under `_XOPEN_SOURCE`, which the
/// Glibc module is not read with).
@_silgen_name("wcwidth")
private func c_wcwidth(_ c: wchar_t) -> Int32
