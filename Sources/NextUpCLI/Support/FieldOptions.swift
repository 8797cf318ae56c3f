import Foundation
import NextUpConfig
import NextUpCore

/// The field options of `add` and `edit` (`--urgency`, `--due`, …), read
/// through the field table: each option is a field's ``FieldSpec/option``,
/// parsed by its ``FieldSpec/parse``; `none` writes the field's unset value
/// where the field can be unset, and is refused where it cannot (a title).
enum FieldOptions {
    /// `given`: option name → the text typed; `literal`: option name → text
    /// taken as it is (`none` too: notes read from a file). Returns the
    /// values in field-table order.
    /// `due` is the task's due date, for a defer date given as `N days
    /// before due` (a due date given too counts from that one).
    static func values(_ given: [String: String], literal: [String: String] = [:],
                       today: DueDate = localToday(), due: DueDate? = nil) throws -> [(TaskField, FieldValue)] {
        var due = due
        return try FieldSpec.table.compactMap { spec -> (TaskField, FieldValue)? in
            guard let option = spec.option, var parse = spec.parse else { return nil }
            if spec.field == .due, let text = given[option], text.lowercased() != "none" { due = try DueDate.parse(text, today: today) }
            if spec.field == .deferDate {
                let counted = due
                parse = { text, today in .string(try DueDate.parseDefer(text, today: today, due: counted).description) }
            }
            if let text = literal[option] { return (spec.field, try parse(text, today)) }
            guard let text = given[option] else { return nil }
            if text.trimmingWhitespace().lowercased() == "none" {
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

    /// The text of `--notes-file`: the file at `path`, or standard input for
    /// `-`. A missing or unreadable file, a folder, text that is not UTF-8 or
    /// far beyond the notes' limit is one plain line.
    static func notesFile(_ path: String) throws -> String {
        // Read no more than the limit and a little: the rest cannot be notes.
        let most = TaskText.maxNotesBytes * 2
        let data: Data
        if path == "-" {
            data = (try? FileHandle.standardInput.read(upToCount: most + 1)) ?? Data()
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CLIError("--notes-file: there is no file \(path)")
            }
            guard !isFolder.boolValue else { throw CLIError("--notes-file: \(path) is a folder, not a file") }
            guard let handle = FileHandle(forReadingAtPath: path), let read = try? handle.read(upToCount: most + 1) else {
                throw CLIError("--notes-file: cannot read \(path) (permission denied?)")
            }
            data = read ?? Data()
        }
        let name = path == "-" ? "standard input" : path
        guard data.count <= most else {
            throw CLIError("--notes-file: \(name) is too long for notes (at most \(TaskText.maxNotesBytes / 1024) KiB)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError("--notes-file: \(name) is not UTF-8 text") }
        return text
    }

    /// Tag names as typed, validated.
    static func tags(_ names: [String]) throws -> [String] { try names.map(TaskText.tag) }
}
