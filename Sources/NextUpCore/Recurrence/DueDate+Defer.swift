extension DueDate {
    /// Reads a defer date: the words of a due date (``parse(_:today:)``), or
    /// `N days before due` / `N weeks before due` (`1 day`, `a week`),
    /// counted back from `due`. On a recurring task the defer date keeps its
    /// distance from the due date in every next occurrence
    /// (``RecurrenceStep``), so `2 days before due` holds for the series.
    /// Throws one line for other words, or for `before due` without a due date.
    public static func parseDefer(_ text: String, today: DueDate, due: DueDate?) throws -> DueDate {
        let words = text.lowercased().split(separator: " ").map(String.init)
        guard words.count == 4 || words.count == 3, words.suffix(2) == ["before", "due"] else {
            return try parse(text, today: today)
        }
        let count: Int?
        let unit: String
        if words.count == 3 {
            count = 1
            unit = words[0]
        } else {
            count = words[0] == "a" || words[0] == "one" ? 1 : Int(words[0])
            unit = words[1]
        }
        let days: [String: Int] = ["day": 1, "days": 1, "week": 7, "weeks": 7]
        guard let count, (0...3650).contains(count), let per = days[unit] else {
            throw TaskInputError("defer '\(Sanitizer.visible(text))' is not understood; say a date like --due takes, or e.g. 2 days before due")
        }
        guard let due else { throw TaskInputError("defer '\(Sanitizer.visible(text))' needs a due date (give --due too)") }
        return DueDate(epochDay: due.epochDay - Int64(count * per))
    }
}
