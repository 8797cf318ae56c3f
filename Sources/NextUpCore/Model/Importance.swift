/// How much a task matters: 1 (low), 2 (medium), 3 (high). Unset shows as `?`.
public enum Importance: Int, CaseIterable, Sendable, Comparable {
    case low = 1, medium = 2, high = 3

    public static func parse(_ text: String) throws -> Importance {
        // The stored form, without Foundation's trimming.
        if text.utf8.count == 1, let digit = text.utf8.first, let exact = Importance(rawValue: Int(digit) - 0x30) { return exact }
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch t {
        case "1", "low", "l": return .low
        case "2", "medium", "m": return .medium
        case "3", "high", "h": return .high
        default: throw TaskInputError("importance must be 1, 2 or 3, not '\(Sanitizer.visible(text))'")
        }
    }

    public static func < (lhs: Importance, rhs: Importance) -> Bool { lhs.rawValue < rhs.rawValue }
}

import Foundation
