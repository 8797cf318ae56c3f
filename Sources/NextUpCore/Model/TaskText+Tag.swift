extension TaskText {
    public static let maxTagLength = 100

    /// A tag name: trimmed, no comma, no control character, no white space
    /// but spaces (`Home Office`, as phones' categories and Taskwarrior's
    /// JSON hold them), at most ``maxTagLength`` characters; case is kept
    /// (tags match case-insensitively, see ``TextMatch``). A leading `+` (as
    /// typed in Taskwarrior) is dropped.
    public static func tag(_ text: String) throws -> String {
        var name = Substring(normalized(text.trimmingWhitespaceAndNewlines()))
        if name.hasPrefix("+") { name = name.dropFirst() }
        guard !name.isEmpty else { throw TaskInputError("a tag must not be empty") }
        guard name.count <= maxTagLength else { throw TaskInputError("tag is longer than \(maxTagLength) characters") }
        guard TaskField(rawValue: TaskField.tagPrefix + name) != nil else {
            throw TaskInputError("tag '\(Sanitizer.visible(String(name)))' must not hold commas, line breaks, tabs or control characters")
        }
        return String(name)
    }
}
