extension DueDate {
    /// The words a date may also be given as, Taskwarrior's habits, for help
    /// texts and error messages.
    public static let relativeForms = "YYYY-MM-DD, today, tomorrow, yesterday, a weekday (monday or mon: the next one after today), eow (this week's Sunday), eom (this month's last day), eoy, +3d, 2w, 1mo, 1y"

    /// Parses `YYYY-MM-DD` or a relative date, counted from `today` (the
    /// caller's local calendar date: Core reads no clock).
    ///
    /// - `today`, `tomorrow`, `yesterday`;
    /// - a weekday, full or three letters: the next such day *after* today;
    /// - `eow` (the Sunday ending this Monday-to-Sunday week; today when it is
    ///   Sunday), `eom` (the month's last day), `eoy` (31 December);
    /// - `N` + `d` (days), `w` (weeks), `mo` (months) or `y` (years), with an
    ///   optional leading `+`: `+3d`, `2w`, `1mo`. A month or year step from the
    ///   31st lands on the last day of a shorter month.
    ///
    /// Case does not matter. Throws a one-line ``TaskInputError`` naming the forms.
    public static func parse(_ text: String, today: DueDate) throws -> DueDate {
        let t = text.trimmingWhitespace().lowercased()
        if t.first?.isASCIIDigitChar == true && t.contains("-") { return try parse(t) }
        func days(_ n: Int64) -> DueDate { DueDate(epochDay: today.epochDay + n) }
        switch t {
        case "today": return today
        case "tomorrow": return days(1)
        case "yesterday": return days(-1)
        case "eow": return days(Int64((7 - today.isoWeekday) % 7))
        case "eom": return try DueDate(year: today.year, month: today.month, day: daysIn(month: today.month, year: today.year))
        case "eoy": return try DueDate(year: today.year, month: 12, day: 31)
        default: break
        }
        if let weekday = weekdays.firstIndex(where: { $0 == t || $0.prefix(3) == t }) {
            let target = weekday + 1  // ISO: Monday 1 … Sunday 7
            let ahead = (target - today.isoWeekday + 7) % 7
            return days(Int64(ahead == 0 ? 7 : ahead))
        }
        if let date = step(t, from: today) { return date }
        throw TaskInputError("due date '\(Sanitizer.visible(text))' is not one of: \(relativeForms)")
    }

    /// 1 (Monday) … 7 (Sunday). 1970-01-01 was a Thursday.
    public var isoWeekday: Int { Int(((epochDay % 7) + 7 + 3) % 7) + 1 }

    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// `+3d`, `2w`, `1mo`, `1y`, or nil.
    static func step(_ t: String, from today: DueDate) -> DueDate? {
        var rest = Substring(t)
        if rest.hasPrefix("+") { rest = rest.dropFirst() }
        let digits = rest.prefix(while: \.isASCIIDigitChar)
        guard !digits.isEmpty, digits.count <= 5, let n = Int(digits) else { return nil }
        switch rest.dropFirst(digits.count) {
        case "d": return DueDate(epochDay: today.epochDay + Int64(n))
        case "w": return DueDate(epochDay: today.epochDay + Int64(n) * 7)
        case "mo": return addingMonths(n, to: today)
        case "y": return addingMonths(n * 12, to: today)
        default: return nil
        }
    }

    static func addingMonths(_ n: Int, to date: DueDate) -> DueDate? {
        let index = date.year * 12 + (date.month - 1) + n
        let year = index / 12, month = index % 12 + 1
        return try? DueDate(year: year, month: month, day: min(date.day, daysIn(month: month, year: year)))
    }
}
