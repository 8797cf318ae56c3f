/// Whether a task is urgent. Unset (`nil` where used) shows as `?`.
public enum Urgency: String, CaseIterable, Sendable, Codable {
    case urgent
    case notUrgent = "not-urgent"

    /// Parses `urgent`, `not-urgent` (also `noturgent`, `not_urgent`, `u`, `n`).
    public static func parse(_ text: String) throws -> Urgency {
        if let exact = Urgency(rawValue: text) { return exact }  // the stored form, without Foundation's trimming
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "urgent", "u": return .urgent
        case "not-urgent", "noturgent", "not_urgent", "not urgent", "n": return .notUrgent
        default: throw TaskInputError("urgency must be 'urgent' or 'not-urgent', not '\(Sanitizer.visible(text))'")
        }
    }

    /// The label used in tables: `urgent` or `-`.
    public var label: String { self == .urgent ? "urgent" : "not urgent" }
}

import Foundation
