extension RecurrenceRule {
    /// The canonical text: an RFC 5545 RRULE value, `FREQ` first, then
    /// `INTERVAL` (when not 1), `BYMONTH`, `BYMONTHDAY`, `BYDAY`, `COUNT`,
    /// `UNTIL` (a DATE), RFC 7529's `RSCALE=GREGORIAN;SKIP=BACKWARD` for
    /// ``lastDayOfShorterMonth``, and `X-NEXTUP-FROM=DONE` or `=TODAY` for
    /// the kinds RFC 5545 has no word for (``Basis``). What the field table
    /// stores and the log carries; ``parse(_:)`` reads it back to an equal
    /// rule.
    public var rrule: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !byMonth.isEmpty { parts.append("BYMONTH=" + byMonth.map(String.init).joined(separator: ",")) }
        if !byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + byMonthDay.map(String.init).joined(separator: ",")) }
        if !byDay.isEmpty {
            parts.append("BYDAY=" + byDay.map { ($0.ordinal.map(String.init) ?? "") + Weekday.codes[$0.day - 1] }.joined(separator: ","))
        }
        if let count { parts.append("COUNT=\(count)") }
        if let until {
            parts.append("UNTIL=\(FixedDigits.padded(until.year, 4))\(FixedDigits.padded(until.month, 2))\(FixedDigits.padded(until.day, 2))")
        }
        if lastDayOfShorterMonth { parts.append("RSCALE=GREGORIAN;SKIP=BACKWARD") }
        if basis != .due { parts.append("\(Self.basisPart)=\(basis.rawValue)") }
        return parts.joined(separator: ";")
    }

    /// The RRULE part that says a rule's ``Basis`` when it is not the due date.
    static let basisPart = "X-NEXTUP-FROM"

    /// Reads an RRULE value (with or without `RRULE:`), its parts in any
    /// order and any case. Throws a one-line ``TaskInputError`` naming the
    /// part it cannot take: an unknown or repeated part, a bad value, or one
    /// nextup does not keep (`BYSETPOS`, `BYWEEKNO`, `BYYEARDAY`, times of
    /// day, a week starting on another day than Monday).
    public static func parseRRULE(_ text: String) throws -> RecurrenceRule {
        var body = Substring(text.trimmingWhitespace())
        if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
        var values: [String: String] = [:]
        for part in body.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]).trimmingWhitespace().uppercased()
            guard pair.count == 2, !name.isEmpty else {
                throw TaskInputError("'\(Sanitizer.visible(String(part)))' in a recurrence rule is not NAME=VALUE")
            }
            guard values[name] == nil else { throw TaskInputError("\(Sanitizer.visible(name)) is given twice in the recurrence rule") }
            values[name] = String(pair[1]).trimmingWhitespace().uppercased()
        }
        func take(_ name: String) -> String? { values.removeValue(forKey: name) }
        func list(_ name: String) -> [String] {
            take(name).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        }
        func integer(_ text: String, _ name: String) throws -> Int {
            let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCIIDigitChar), let n = Int(text) else {
                throw TaskInputError("\(name)=\(Sanitizer.visible(text)) is not a number")
            }
            return n
        }

        guard let freqText = take("FREQ") else { throw TaskInputError("a recurrence rule needs FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)") }
        guard let frequency = Frequency(rawValue: freqText) else {
            if ["HOURLY", "MINUTELY", "SECONDLY"].contains(freqText) {
                throw TaskInputError("a task recurs at most daily, not \(freqText.lowercased())")
            }
            throw TaskInputError("FREQ=\(Sanitizer.visible(freqText)) is not DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        let interval = try take("INTERVAL").map { try integer($0, "INTERVAL") } ?? 1
        let byMonth = try list("BYMONTH").map { try integer($0, "BYMONTH") }
        let byMonthDay = try list("BYMONTHDAY").map { try integer($0, "BYMONTHDAY") }
        let byDay = try list("BYDAY").map { item -> Weekday in
            let code = String(item.suffix(2))
            guard let index = Weekday.codes.firstIndex(of: code) else {
                throw TaskInputError("BYDAY=\(Sanitizer.visible(item)) is not a weekday like MO, 1MO or -1FR")
            }
            let number = item.dropLast(2)
            return Weekday(index + 1, ordinal: number.isEmpty ? nil : try integer(String(number), "BYDAY"))
        }
        let count = try take("COUNT").map { try integer($0, "COUNT") }
        let until = try take("UNTIL").map { try untilDate($0) }
        var lastDay = false
        if let rscale = take("RSCALE") {
            guard rscale == "GREGORIAN" else { throw TaskInputError("RSCALE=\(Sanitizer.visible(rscale)): only the Gregorian calendar is kept") }
        }
        if let skip = take("SKIP") {
            switch skip {
            case "OMIT": lastDay = false
            case "BACKWARD": lastDay = true
            default: throw TaskInputError("SKIP=\(Sanitizer.visible(skip)) is not kept: a missing month day is either omitted or the month's last day (SKIP=BACKWARD)")
            }
        }
        var basis = Basis.due
        if let from = take(basisPart) {
            guard let b = Basis(rawValue: from), b != .due else {
                throw TaskInputError("\(basisPart)=\(Sanitizer.visible(from)) is not DONE or TODAY")
            }
            basis = b
        }
        if let wkst = take("WKST"), wkst != "MO" {
            throw TaskInputError("WKST=\(Sanitizer.visible(wkst)): weeks start on Monday here")
        }
        if let name = values.keys.sorted().first {
            let what = ["BYSETPOS", "BYWEEKNO", "BYYEARDAY", "BYHOUR", "BYMINUTE", "BYSECOND"].contains(name)
                ? "is not kept by nextup" : "is not a recurrence rule part"
            throw TaskInputError("\(Sanitizer.visible(name)) \(what)")
        }
        return try RecurrenceRule(basis: basis, frequency: frequency, interval: interval, byDay: byDay, byMonthDay: byMonthDay,
                                  byMonth: byMonth, count: count, until: until, lastDayOfShorterMonth: lastDay)
    }

    /// `UNTIL` as a date: `YYYYMMDD`, or a date-time whose date is taken as
    /// written.
    private static func untilDate(_ text: String) throws -> DueDate {
        let digits = text.prefix(8)
        guard digits.count == 8, digits.allSatisfy(\.isASCIIDigitChar),
              text.count == 8 || text.dropFirst(8).first == "T",
              let date = try? DueDate(year: Int(digits.prefix(4))!, month: Int(digits.dropFirst(4).prefix(2))!, day: Int(digits.suffix(2))!) else {
            throw TaskInputError("UNTIL=\(Sanitizer.visible(text)) is not a date like 20271231")
        }
        return date
    }
}
