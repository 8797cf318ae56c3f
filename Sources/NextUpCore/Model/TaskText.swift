/// Validation of the free-text fields: title, notes, category.
///
/// Every text is put in Unicode normalisation form C (``normalized(_:)``)
/// where it enters — typed (CLI, TUI), imported, read from a peer's log or a
/// phone's file — so that one text has one spelling in bytes on every
/// machine (Swift compares strings by canonical equivalence: two spellings
/// would merge into one register yet export differently).
///
/// Each text has a limit in characters (what a person sees) *and* in bytes of
/// UTF-8 (what the peer-folder log carries: one character can take any number
/// of bytes, e.g. a letter with many combining accents). The byte limits keep
/// every accepted value, even with every byte escaped six-fold in JSON
/// (`\u0001`), inside one log line (DESIGN.md §5, "Size"); a value beyond
/// them is refused where it enters, never written and then skipped by readers.
public enum TaskText {
    public static let maxTitleLength = 1_000
    public static let maxNotesLength = 100_000
    public static let maxCategoryLength = 100
    /// Other short texts (`source`, `external_id`).
    public static let maxLabelLength = 1_000
    public static let maxTitleBytes = 4_096
    public static let maxNotesBytes = 512 * 1_024
    public static let maxCategoryBytes = 400
    public static let maxLabelBytes = 4_096

    /// Whether `text` is within `characters` characters and `bytes` bytes of
    /// UTF-8 (bytes first: cheap, and bounds the character count's cost).
    /// Characters are counted only past `characters` bytes: within it in
    /// bytes is within it in characters (each takes at least one byte).
    public static func fits(_ text: String, characters: Int, bytes: Int) -> Bool {
        let count = text.utf8.count
        return count <= bytes && (count <= characters || text.count <= characters)
    }

    /// Throws the one-line refusal for a text of `name` beyond its limits.
    static func check(_ text: String, _ name: String, characters: Int, bytes: Int) throws {
        if text.utf8.count > bytes {
            throw TaskInputError("\(name) is too long to sync: \(text.utf8.count) bytes of UTF-8 (at most \(bytes))")
        }
        // Within the limit in bytes is within it in characters (each takes at least one byte).
        if text.utf8.count > characters, text.count > characters { throw TaskInputError("\(name) is longer than \(characters) characters") }
    }

    /// `text` in Unicode normalisation form C. Text whose scalars all lie
    /// below U+0300 (ASCII, and Latin letters with their accents composed),
    /// which form C never changes, is returned as it is, without a copy:
    /// its UTF-8 has no byte from 0xCC up (U+0300 is CC 80).
    public static func normalized(_ text: String) -> String {
        let stable = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0xCC } } ?? text.utf8.allSatisfy { $0 < 0xCC }
        return stable ? text : text.precomposedStringWithCanonicalMapping
    }

    /// Trims, folds newlines (and other line breaks) to spaces; refuses empty.
    public static func title(_ text: String) throws -> String {
        let folded = normalized(foldLines(text).trimmingWhitespaceAndNewlines())
        guard !folded.isEmpty else { throw TaskInputError("title must not be empty") }
        try check(folded, "title", characters: maxTitleLength, bytes: maxTitleBytes)
        return folded
    }

    /// Notes keep their line breaks; trailing white space is trimmed.
    public static func notes(_ text: String) throws -> String {
        let trimmed = normalized(text.trimmingWhitespaceAndNewlines())
        try check(trimmed, "notes", characters: maxNotesLength, bytes: maxNotesBytes)
        return trimmed
    }

    /// A category name: one line, trimmed, not empty.
    public static func category(_ text: String) throws -> String {
        let folded = normalized(foldLines(text).trimmingWhitespaceAndNewlines())
        guard !folded.isEmpty else { throw TaskInputError("category must not be empty (use 'none' to clear it)") }
        try check(folded, "category", characters: maxCategoryLength, bytes: maxCategoryBytes)
        return folded
    }

    /// A short label (`source`, `external_id`): kept as given, within limits.
    public static func label(_ text: String, name: String) throws -> String {
        let text = normalized(text)
        try check(text, name, characters: maxLabelLength, bytes: maxLabelBytes)
        return text
    }

    static func foldLines(_ text: String) -> String {
        func isLineBreak(_ s: Unicode.Scalar) -> Bool {
            switch s.value {
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }
        // Most text has no line break: keep it as it is, without a copy.
        // Its UTF-8 is looked through first for a byte a line break's
        // encoding holds (0A-0D; C2 85; E2 80 A8/A9): with none, there is none.
        let mayBreak: (UInt8) -> Bool = { (0x0A...0x0D).contains($0) || $0 == 0x85 || $0 == 0xA8 || $0 == 0xA9 }
        guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: mayBreak) }) ?? text.utf8.contains(where: mayBreak),
              text.unicodeScalars.contains(where: isLineBreak) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isLineBreak($0) ? " " : $0 }))
    }
}

import Foundation
