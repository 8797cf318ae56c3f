extension RecurrenceRule {
    /// Examples of the words ``parse(_:)`` takes, for help texts and errors.
    public static let wordForms = "every monday, every 2 weeks, monthly on the 31st, every year on 24 dec, daily, weekdays, 3 days after done, daily skipping missed, or an RRULE like FREQ=WEEKLY;BYDAY=MO"

    private static let someDay = DueDate(epochDay: CivilDate.days(year: 2000, month: 1, day: 1))

    /// Reads a rule as people say it or as an RRULE (any text with `=`).
    ///
    /// Words, case and commas aside:
    /// - `daily`, `weekly`, `monthly`, `yearly` (`annually`), `fortnightly`,
    ///   `weekdays`, `weekends`;
    /// - `every` [`N` | `other`] `day`/`week`/`month`/`year`[`s`], `every`
    ///   [`N` | `other`] `monday` [`and thursday` …], `every weekday`;
    /// - then `on`: weekdays (weekly), `the 31st` [`and the 15th`] / `the
    ///   last day` / `the first monday` / `the last friday` (monthly), `24
    ///   dec` / `dec 24` / `the 24th of december` (yearly);
    /// - `N days`/`weeks`/`months`/`years after done` (or `after
    ///   completion`): counted from completion;
    /// - ending `skipping missed` (or `skip missed`): the next future date;
    ///   `until YYYY-MM-DD` or `N times`: the series' end.
    ///
    /// A month day in words means the last day of a shorter month
    /// (``lastDayOfShorterMonth``). Throws one line saying which word was not
    /// understood, after which words, and the forms it takes; or that a rule
    /// never gives a date (`FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`).
    public static func parse(_ text: String) throws -> RecurrenceRule {
        let trimmed = text.trimmingWhitespaceAndNewlines()
        var words = WordReader(trimmed)
        do {
            let rule = try trimmed.contains("=") ? Self.parseRRULE(trimmed) : words.rule()
            // A rule that names its days may name none that exist.
            if rule.isAnchored && rule.basis != .completion && RecurrenceSchedule(rule).date(after: Self.someDay) == nil {
                throw TaskInputError("recurrence '\(Sanitizer.visible(trimmed))' never gives a date")
            }
            return rule
        } catch let error as WordReader.NotUnderstood {
            let word = error.word.map { "'\(Sanitizer.visible($0))'" } ?? "the end"
            let after = error.after.isEmpty ? "" : " after '\(Sanitizer.visible(error.after.joined(separator: " ")))'"
            let expected = error.expected.map { " (expected \($0))" } ?? ""
            throw TaskInputError("recurrence '\(Sanitizer.visible(trimmed))': \(word)\(after) is not understood\(expected); say e.g. \(wordForms)")
        }
    }
}

extension RecurrenceRule {
    /// The rule in plain words, as a person reads it (`every week on monday`,
    /// `3 days after done`, `every month on the 31st (or a shorter month's
    /// last day)`): what the screen and messages show beside the RRULE.
    public var words: String {
        let unit = ["DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"][frequency.rawValue]!
        let every = interval == 1 ? unit : "\(interval) \(unit)s"
        var text: String
        if basis == .completion {
            text = "\(every) after done"
        } else if frequency == .weekly, interval == 1, byDay.map(\.day) == [1, 2, 3, 4, 5], byDay.allSatisfy({ $0.ordinal == nil }) {
            text = "every weekday"
        } else {
            text = "every \(every)"
            var on: [String] = []
            for w in byDay {
                let name = DueDate.weekdays[w.day - 1]
                guard let n = w.ordinal else { on.append(name); continue }
                let ordinal = n == -1 ? "last" : n < 0 ? "\(Self.ordinalWord(-n)) last" : Self.ordinalWord(n)
                on.append("the \(ordinal) \(name)")
            }
            on += byMonthDay.map { $0 == -1 ? "the last day" : $0 < 0 ? "the \(Self.ordinalWord(-$0)) last day" : "the \(Self.ordinalWord($0))" }
            if !on.isEmpty { text += " on " + on.joined(separator: ", ") }
            if !byMonth.isEmpty { text += " in " + byMonth.map { WordReader.months[$0 - 1] }.joined(separator: ", ") }
            if lastDayOfShorterMonth { text += " (or a shorter month's last day)" }
            if basis == .today { text += ", skipping missed" }
        }
        if let count { text += ", \(count) times" }
        if let until { text += ", until \(until.description)" }
        return text
    }

    /// `1st`, `2nd`, `3rd`, `11th`, `31st`.
    static func ordinalWord(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }
}

/// Reads people's words for a rule, word by word.
struct WordReader {
    struct NotUnderstood: Error {
        var word: String?
        var after: [String]
        var expected: String?
    }

    private var words: [String]
    private var at = 0

    init(_ text: String) {
        words = text.lowercased()
            .split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }
            .map(String.init)
            .filter { $0 != "and" }
    }

    private var peek: String? { at < words.count ? words[at] : nil }

    private func fail(_ expected: String? = nil) -> NotUnderstood {
        NotUnderstood(word: peek, after: Array(words[..<at]), expected: expected)
    }

    private mutating func take(_ options: String...) -> Bool {
        guard let w = peek, options.contains(w) else { return false }
        at += 1
        return true
    }

    private mutating func takeSequence(_ sequence: [String]) -> Bool {
        guard words.count - at >= sequence.count, Array(words[at..<at + sequence.count]) == sequence else { return false }
        at += sequence.count
        return true
    }

    static let units: [String: RecurrenceRule.Frequency] = [
        "day": .daily, "days": .daily, "week": .weekly, "weeks": .weekly,
        "month": .monthly, "months": .monthly, "year": .yearly, "years": .yearly,
    ]
    static let months = ["january", "february", "march", "april", "may", "june", "july",
                         "august", "september", "october", "november", "december"]
    static let ordinalWords = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1]

    mutating func rule() throws -> RecurrenceRule {
        // The ends first: they sit at the end, whatever the rest says.
        var basis = RecurrenceRule.Basis.due
        var count: Int?
        var until: DueDate?
        if words.suffix(2) == ["skipping", "missed"] || words.suffix(2) == ["skip", "missed"] {
            basis = .today
            words.removeLast(2)
        }
        if words.count >= 2, words[words.count - 2] == "until" {
            guard let date = try? DueDate.parse(words[words.count - 1]) else {
                at = words.count - 1
                throw fail("a date like 2027-06-30")
            }
            until = date
            words.removeLast(2)
        } else if words.last == "times", words.count >= 2, let n = Self.number(words[words.count - 2]) {
            count = n
            words.removeLast(2)
            if words.last == "for" { words.removeLast() }
        }
        if let afterDone = words.lastIndex(of: "after"),
           ["done"] == words[afterDone + 1..<words.count] || ["completion"] == words[afterDone + 1..<words.count] {
            guard basis == .due else { throw fail() }
            return try afterCompletion(upTo: afterDone, count: count, until: until)
        }

        var frequency: RecurrenceRule.Frequency
        var interval = 1
        var byDay: [RecurrenceRule.Weekday] = []
        if let single = peek, let f = ["daily": RecurrenceRule.Frequency.daily, "weekly": .weekly, "monthly": .monthly,
                                       "yearly": .yearly, "annually": .yearly, "fortnightly": .weekly][single] {
            at += 1
            frequency = f
            if single == "fortnightly" { interval = 2 }
        } else if take("weekdays") {
            frequency = .weekly
            byDay = (1...5).map { RecurrenceRule.Weekday($0) }
        } else if take("weekends") {
            frequency = .weekly
            byDay = [RecurrenceRule.Weekday(6), RecurrenceRule.Weekday(7)]
        } else if take("every") {
            if take("other") { interval = 2 } else if let n = peek.flatMap(Self.number) { interval = n; at += 1 }
            if let w = peek, let f = Self.units[w] {
                at += 1
                frequency = f
            } else if take("fortnight") {
                frequency = .weekly
                interval *= 2
            } else if take("weekday") {
                frequency = .weekly
                byDay = (1...5).map { RecurrenceRule.Weekday($0) }
            } else if take("weekend") {
                frequency = .weekly
                byDay = [RecurrenceRule.Weekday(6), RecurrenceRule.Weekday(7)]
            } else if let day = peek.flatMap(Self.weekday) {
                frequency = .weekly
                byDay = [RecurrenceRule.Weekday(day)]
                at += 1
                while let more = peek.flatMap(Self.weekday) { byDay.append(RecurrenceRule.Weekday(more)); at += 1 }
            } else {
                throw fail("a number, other, day, week, month, year or a weekday")
            }
        } else {
            throw fail("every, daily, weekly, monthly, yearly, weekdays or N days after done")
        }

        var byMonthDay: [Int] = []
        var byMonth: [Int] = []
        if take("on") {
            switch frequency {
            case .daily: at -= 1; throw fail("nothing more after a daily rule")
            case .weekly:
                guard byDay.isEmpty else { at -= 1; throw fail("nothing more after the weekdays") }
                while let day = peek.flatMap(Self.weekday) { byDay.append(RecurrenceRule.Weekday(day)); at += 1 }
                guard !byDay.isEmpty else { throw fail("a weekday") }
            case .monthly:
                try monthDays(into: &byMonthDay, &byDay)
            case .yearly:
                try yearDays(into: &byMonthDay, &byMonth)
            }
        }
        guard peek == nil else { throw fail("the end") }
        return try RecurrenceRule(basis: basis, frequency: frequency, interval: interval, byDay: byDay,
                                  byMonthDay: byMonthDay, byMonth: byMonth, count: count, until: until,
                                  lastDayOfShorterMonth: true)
    }

    /// `[every] [N | a | an] unit(s)` before `after done`.
    private mutating func afterCompletion(upTo end: Int, count: Int?, until: DueDate?) throws -> RecurrenceRule {
        _ = take("every")
        var interval = 1
        if let w = peek, let n = Self.number(w) { interval = n; at += 1 } else { _ = take("a", "an") }
        guard let w = peek, let frequency = Self.units[w] else { throw fail("day(s), week(s), month(s) or year(s)") }
        at += 1
        guard at == end else { throw fail("after done") }
        return try RecurrenceRule(basis: .completion, frequency: frequency, interval: interval, count: count, until: until)
    }

    /// `the 31st [the 15th …]`, `the last day`, `the first monday`, `the last friday`.
    private mutating func monthDays(into byMonthDay: inout [Int], _ byDay: inout [RecurrenceRule.Weekday]) throws {
        repeat {
            _ = take("the")
            if let w = peek, let n = Self.ordinalWords[w] {
                at += 1
                if take("day") {
                    guard n == -1 else { at -= 1; throw fail("the last day, or a weekday") }
                    byMonthDay.append(-1)
                } else if let day = peek.flatMap(Self.weekday) {
                    at += 1
                    byDay.append(RecurrenceRule.Weekday(day, ordinal: n))
                } else {
                    throw fail("day or a weekday")
                }
            } else if let w = peek, let n = Self.dayOfMonth(w) {
                at += 1
                _ = take("day")
                byMonthDay.append(n)
            } else {
                throw fail("a day like the 31st, the last day or the first monday")
            }
        } while peek != nil
    }

    /// `24 dec`, `dec 24`, `the 24th of december`.
    private mutating func yearDays(into byMonthDay: inout [Int], _ byMonth: inout [Int]) throws {
        _ = take("the")
        if let w = peek, let day = Self.dayOfMonth(w) {
            at += 1
            _ = take("of")
            guard let month = peek.flatMap(Self.month) else { throw fail("a month like dec") }
            at += 1
            byMonthDay = [day]
            byMonth = [month]
        } else if let month = peek.flatMap(Self.month) {
            at += 1
            guard let w = peek, let day = Self.dayOfMonth(w) else { throw fail("a day of the month") }
            at += 1
            byMonthDay = [day]
            byMonth = [month]
        } else {
            throw fail("a date like 24 dec")
        }
        guard day(byMonthDay[0], existsIn: byMonth[0]) else { at -= 1; throw fail("a day that month has") }
    }

    private func day(_ day: Int, existsIn month: Int) -> Bool { day <= DueDate.daysIn(month: month, year: 2000) }

    /// A whole number of 1 to 6 digits, or a small number word.
    static func number(_ word: String) -> Int? {
        if let n = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10][word] { return n }
        guard !word.isEmpty, word.count <= 6, word.allSatisfy(\.isASCIIDigitChar) else { return nil }
        return Int(word)
    }

    /// `mon` or `monday` … → 1 … 7.
    static func weekday(_ word: String) -> Int? {
        let w = word.hasSuffix("s") && word.count > 4 ? String(word.dropLast()) : word  // "mondays"
        return DueDate.weekdays.firstIndex { $0 == w || ($0.prefix(3) == w) }.map { $0 + 1 }
    }

    /// `dec` or `december` (or `sept`) → 1 … 12.
    static func month(_ word: String) -> Int? {
        if word == "sept" { return 9 }
        return months.firstIndex { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }.map { $0 + 1 }
    }

    /// `31`, `31st`, `2nd`, `3rd`, `24th` → the day, 1 … 31.
    static func dayOfMonth(_ word: String) -> Int? {
        var digits = Substring(word)
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits = digits.dropLast(2) }
        guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigitChar), let n = Int(digits), (1...31).contains(n) else { return nil }
        return n
    }
}
