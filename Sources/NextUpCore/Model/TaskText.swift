/// Validation of the free-text fields: title, notes, category.
public enum TaskText {
    public static let maxTitleLength = 1_000
    public static let maxNotesLength = 100_000
    public static let maxCategoryLength = 100

    /// Trims, folds newlines (and other line breaks) to spaces; refuses empty.
    public static func title(_ text: String) throws -> String {
        let folded = foldLines(text).trimmingWhitespaceAndNewlines()
        guard !folded.isEmpty else { throw TaskInputError("title must not be empty") }
        guard folded.count <= maxTitleLength else {
            throw TaskInputError("title is longer than \(maxTitleLength) characters")
        }
        return folded
    }

    /// Notes keep their line breaks; trailing white space is trimmed.
    public static func notes(_ text: String) throws -> String {
        guard text.count <= maxNotesLength else {
            throw TaskInputError("notes are longer than \(maxNotesLength) characters")
        }
        return text.trimmingWhitespaceAndNewlines()
    }

    /// A category name: one line, trimmed, not empty.
    public static func category(_ text: String) throws -> String {
        let folded = foldLines(text).trimmingWhitespaceAndNewlines()
        guard !folded.isEmpty else { throw TaskInputError("category must not be empty (use 'none' to clear it)") }
        guard folded.count <= maxCategoryLength else {
            throw TaskInputError("category is longer than \(maxCategoryLength) characters")
        }
        return folded
    }

    static func foldLines(_ text: String) -> String {
        func isLineBreak(_ s: Unicode.Scalar) -> Bool {
            switch s.value {
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }
        // Most text has no line break: keep it as it is, without a copy.
        guard text.unicodeScalars.contains(where: isLineBreak) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isLineBreak($0) ? " " : $0 }))
    }
}

import Foundation
