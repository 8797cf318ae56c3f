import NextUpCore

/// Taskwarrior's recurrence periods (`recur:` — `daily`, `weekly`, `2wks`,
/// `monthly`, `quarterly`, `yearly`, `weekdays`, `P1W`, `3d` …) as nextup's
/// ``RecurrenceRule``, and back.
///
/// Contract: Taskwarrior counts a series' instances from its template's due
/// date, instance *k* being *k* periods after it (a month from the 31st
/// landing on a shorter month's last day); ``rule(_:firstDue:until:)`` is
/// the nextup rule giving the same dates, anchored at that first due date,
/// or nil for a period nextup has no rule for (hours, minutes, seconds).
/// ``word(for:firstDue:)`` is a period whose rule is exactly the given one
/// (so out and back gives nextup its rule unchanged), or nil when
/// Taskwarrior has none (a rule counted from completion, several weekdays,
/// a count).
enum TaskwarriorRecurrence {
    /// The rule of Taskwarrior's period `word` for a series first due on
    /// `firstDue`, ending on `until`.
    static func rule(_ word: String, firstDue: DueDate, until: DueDate?) -> RecurrenceRule? {
        guard let (frequency, interval) = period(word.lowercased()) else {
            guard word.lowercased() == "weekdays" else { return nil }
            return try? RecurrenceRule(frequency: .weekly, byDay: (1...5).map { RecurrenceRule.Weekday($0) }, until: until)
        }
        guard let rule = try? RecurrenceRule(frequency: frequency, interval: interval, until: until, lastDayOfShorterMonth: true)
        else { return nil }
        return rule.anchored(at: firstDue)
    }

    /// Taskwarrior's period for `rule`, a series first due on `firstDue`;
    /// nil when it has none.
    static func word(for rule: RecurrenceRule, firstDue: DueDate) -> String? {
        guard rule.basis == .due, rule.count == nil else { return nil }
        let unit: String
        switch rule.frequency {
        case .daily: unit = rule.interval == 1 ? "daily" : "\(rule.interval)d"
        case .weekly: unit = rule.interval == 1 ? "weekly" : "\(rule.interval)w"
        case .monthly: unit = rule.interval == 1 ? "monthly" : "\(rule.interval)mo"
        case .yearly: unit = rule.interval == 1 ? "yearly" : "\(rule.interval)y"
        }
        for word in [unit, "weekdays"] where self.rule(word, firstDue: firstDue, until: rule.until) == rule {
            return word
        }
        return nil
    }

    /// Frequency and interval of a period word: named (`daily`, `biweekly`,
    /// `quarterly` …), a number and a unit (`2wks`, `3 days`, `1mo`), or an
    /// ISO 8601 duration of whole days, weeks, months or years (`P1W`, `P3M`).
    static func period(_ word: String) -> (RecurrenceRule.Frequency, Int)? {
        let named: [String: (RecurrenceRule.Frequency, Int)] = [
            "daily": (.daily, 1), "day": (.daily, 1), "weekly": (.weekly, 1), "week": (.weekly, 1),
            "sennight": (.weekly, 1), "biweekly": (.weekly, 2), "fortnight": (.weekly, 2),
            "monthly": (.monthly, 1), "month": (.monthly, 1), "bimonthly": (.monthly, 2),
            "quarterly": (.monthly, 3), "semiannual": (.monthly, 6), "annual": (.yearly, 1),
            "yearly": (.yearly, 1), "year": (.yearly, 1), "biannual": (.yearly, 2), "biyearly": (.yearly, 2),
        ]
        if let period = named[word] { return period }
        var text = Substring(word)
        let iso = text.hasPrefix("p")
        if iso { text = text.dropFirst() }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let number = digits.isEmpty ? 1 : Int(digits)
        let unit = text.dropFirst(digits.count).drop { $0 == " " }
        guard let number, (1...RecurrenceRule.maxInterval).contains(number) else { return nil }
        let units: [String: (RecurrenceRule.Frequency, Int)] = iso
            ? ["d": (.daily, 1), "w": (.weekly, 1), "m": (.monthly, 1), "y": (.yearly, 1)]
            : ["d": (.daily, 1), "day": (.daily, 1), "days": (.daily, 1),
               "w": (.weekly, 1), "wk": (.weekly, 1), "wks": (.weekly, 1), "week": (.weekly, 1), "weeks": (.weekly, 1),
               "mo": (.monthly, 1), "mos": (.monthly, 1), "mth": (.monthly, 1), "mths": (.monthly, 1),
               "month": (.monthly, 1), "months": (.monthly, 1),
               "q": (.monthly, 3), "qtr": (.monthly, 3), "qtrs": (.monthly, 3), "quarter": (.monthly, 3), "quarters": (.monthly, 3),
               "y": (.yearly, 1), "yr": (.yearly, 1), "yrs": (.yearly, 1), "year": (.yearly, 1), "years": (.yearly, 1)]
        guard (!digits.isEmpty || iso), let (frequency, times) = units[String(unit)] else { return nil }
        let interval = number * times
        guard interval <= RecurrenceRule.maxInterval else { return nil }
        return (frequency, interval)
    }
}
