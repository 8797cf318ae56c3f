import NextUpCore

/// A rule in plain words for the screen (`every week on monday`, `3 days
/// after done`, `every month on the 31st (or the month's last day)`); the
/// detail view shows its RRULE beside it.
enum RecurrenceWords {
    static let dayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august",
                             "september", "october", "november", "december"]

    static func text(_ rule: RecurrenceRule) -> String {
        let unit = ["DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"][rule.frequency.rawValue]!
        let every = rule.interval == 1 ? unit : "\(rule.interval) \(unit)s"
        var text: String
        if rule.basis == .completion {
            text = "\(every) after done"
        } else if rule.frequency == .weekly, rule.interval == 1, rule.byDay.map(\.day) == [1, 2, 3, 4, 5], rule.byDay.allSatisfy({ $0.ordinal == nil }) {
            text = "every weekday"
        } else {
            text = "every \(every)"
            var on: [String] = []
            for w in rule.byDay {
                let name = dayNames[w.day - 1]
                guard let n = w.ordinal else { on.append(name); continue }
                let ordinal = n == -1 ? "last" : n < 0 ? "\(ordinalWord(-n)) last" : ordinalWord(n)
                on.append("the \(ordinal) \(name)")
            }
            on += rule.byMonthDay.map { $0 == -1 ? "the last day" : $0 < 0 ? "the \(ordinalWord(-$0)) last day" : "the \(ordinalWord($0))" }
            if !on.isEmpty { text += " on " + on.joined(separator: ", ") }
            if !rule.byMonth.isEmpty { text += " in " + rule.byMonth.map { monthNames[$0 - 1] }.joined(separator: ", ") }
            if rule.lastDayOfShorterMonth { text += " (or a shorter month's last day)" }
            if rule.basis == .today { text += ", skipping missed" }
        }
        if let count = rule.count { text += ", \(count) times" }
        if let until = rule.until { text += ", until \(until.description)" }
        return text
    }

    static func ordinalWord(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }
}
