import Foundation
import NextUpConfig
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

    /// Today's date where the person is (``LocalTime``, without ICU).
    static func localToday(_ now: Date = Date()) -> DueDate {
        LocalTime.today(atMillis: Int64((now.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Tag names as typed, validated.
    static func tags(_ names: [String]) throws -> [String] { try names.map(TaskText.tag) }
}
