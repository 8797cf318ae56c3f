import Foundation
import Glibc
import NextUpCore

/// The field options of `add` and `edit` (`--urgency`, `--due`, …), read
/// through the field table: each option is a field's ``FieldSpec/option``,
/// parsed by its ``FieldSpec/parse``; `none` writes the field's unset value
/// where the field can be unset, and is refused where it cannot (a title).
enum FieldOptions {
    /// `given`: option name → the text typed. Returns the values in field-table order.
    static func values(_ given: [String: String], today: DueDate = localToday()) throws -> [(TaskField, FieldValue)] {
        try FieldSpec.table.compactMap { spec -> (TaskField, FieldValue)? in
            guard let option = spec.option, let text = given[option], let parse = spec.parse else { return nil }
            if text.trimmingCharacters(in: .whitespaces).lowercased() == "none" {
                guard spec.clearable else { throw CLIError("--\(option) cannot be none: a task always has one") }
                return (spec.field, spec.cleared)
            }
            return (spec.field, try parse(text, today))
        }
    }

    /// Today's date where the person is (the local time zone), from the C
    /// library's `localtime_r`: Foundation's `Calendar` would load ICU's data
    /// (about 4.5 MB and a millisecond) into every `add` and `edit`.
    static func localToday(_ now: Date = Date()) -> DueDate {
        var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil,
              let day = try? DueDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)) else {
            return DueDate(epochDay: Int64(now.timeIntervalSince1970 / 86_400))
        }
        return day
    }

    /// Tag names as typed, validated.
    static func tags(_ names: [String]) throws -> [String] { try names.map(TaskText.tag) }
}
