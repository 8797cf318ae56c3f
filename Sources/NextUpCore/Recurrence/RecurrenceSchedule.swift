/// The dates a ``RecurrenceRule`` gives: local calendar dates (``DueDate``),
/// so a time zone, a change of daylight saving time or a journey never moves
/// them.
///
/// Contract:
/// - ``date(after:)`` is the rule's first date after a given one, as RFC 5545
///   expands it with that date as `DTSTART` (the parts the rule leaves out
///   taken from it — a stored rule has them written out, see
///   ``RecurrenceRule/anchored(at:)`` — its periods counted from that date's
///   day, Monday-to-Sunday week, month or year, every `INTERVAL`th one), but
///   without `COUNT` and `UNTIL`;
/// - a month day past a shorter month's end is omitted, or that month's last
///   day with ``RecurrenceRule/lastDayOfShorterMonth``; 29 February is a date
///   of leap years only, or 28 February in others with it;
/// - ``successor(of:due:doneOn:)`` is occurrence *n+1*'s due date by the
///   rule's ``RecurrenceRule/Basis``, nil when the series ends there
///   (`COUNT` occurrences made, or a date after `UNTIL`), or past year 9999.
public struct RecurrenceSchedule: Sendable, Hashable {
    public let rule: RecurrenceRule

    public init(_ rule: RecurrenceRule) { self.rule = rule }

    /// Occurrence `number + 1`'s due date, when occurrence `number` (1 for
    /// the series' first) was due on `due` and done (or skipped) on the local
    /// date `day`:
    /// - fixed dates: the rule's first date after `due` (after `day` when
    ///   the occurrence had no due date) — a missed date comes back once;
    /// - after completion: `day` plus the interval (a month or a year from
    ///   the 31st or 29 February lands on the shorter month's last day);
    /// - next future date: the rule's first date after both `due` and `day`,
    ///   in the weeks, months or years of the series' rhythm from `due`.
    public func successor(of number: Int, due: DueDate?, doneOn day: DueDate) -> DueDate? {
        if let count = rule.count, number >= count { return nil }
        let next: DueDate?
        switch rule.basis {
        case .due: next = date(after: due ?? day)
        case .today: next = date(after: max(due ?? day, day), periodsFrom: due ?? day)
        case .completion:
            switch rule.frequency {
            case .daily: next = Self.checked(day.epochDay + Int64(rule.interval))
            case .weekly: next = Self.checked(day.epochDay + Int64(rule.interval) * 7)
            case .monthly: next = DueDate.addingMonths(rule.interval, to: day)
            case .yearly: next = DueDate.addingMonths(rule.interval * 12, to: day)
            }
        }
        guard let next, rule.until.map({ next <= $0 }) ?? true else { return nil }
        return next
    }

    /// The first occurrence's due date for a series started on `day` with no
    /// due date: `day` itself when the rule gives it (or counts from
    /// completion), else the rule's first date after it.
    public func first(onOrAfter day: DueDate) -> DueDate? {
        guard rule.basis != .completion else { return day }
        let anchored = rule.isAnchored ? rule : rule.anchored(at: day)
        return Self.checked(day.epochDay - 1).flatMap { RecurrenceSchedule(anchored).date(after: $0) }
    }

    /// The rule's first date after `date` (see the type's contract); nil when
    /// it gives none before year 10000. A rule counted from completion has
    /// the dates of its interval from `date`.
    public func date(after date: DueDate) -> DueDate? { self.date(after: date, periodsFrom: date) }

    /// The rule's first date after `date`, its periods counted from the one
    /// holding `origin` (on or before `date`): the series keeps its weeks,
    /// months or years when dates were skipped.
    func date(after date: DueDate, periodsFrom origin: DueDate) -> DueDate? {
        let rule = rule.isAnchored ? rule : rule.anchored(at: origin)
        let from = Self.period(of: origin, rule.frequency)
        let interval = Int64(rule.interval)
        // The first period of the series' rhythm that holds `date` or follows it.
        let first = from + (Self.period(of: date, rule.frequency) - from + interval - 1) / interval * interval
        // Every rule's pattern repeats within 400 years (146,097 days).
        let cycle: Int64 = switch rule.frequency {
        case .daily: 146_097
        case .weekly: 20_871
        case .monthly: 4_800
        case .yearly: 400
        }
        var k: Int64 = 0
        while k <= cycle {
            let index = first + k * interval
            let dates = Self.dates(inPeriod: index, of: rule)
            if let found = dates.first(where: { $0 > date }) { return found }
            if Self.periodStart(index, rule.frequency) > Self.lastDay { return nil }
            k += 1
        }
        return nil
    }

    static let lastDay: Int64 = CivilDate.days(year: 9999, month: 12, day: 31)

    static func checked(_ epochDay: Int64) -> DueDate? {
        (CivilDate.days(year: 1, month: 1, day: 1)...lastDay).contains(epochDay) ? DueDate(epochDay: epochDay) : nil
    }

    /// The period (day, Monday-to-Sunday week, month, year) holding `date`,
    /// as a number that counts periods.
    static func period(of date: DueDate, _ frequency: RecurrenceRule.Frequency) -> Int64 {
        switch frequency {
        case .daily: return date.epochDay
        case .weekly: return floorDivide(date.epochDay - mondayEpochDay, 7)
        case .monthly: return Int64(date.year) * 12 + Int64(date.month - 1)
        case .yearly: return Int64(date.year)
        }
    }

    /// The first day of period `index`, as days since the epoch.
    static func periodStart(_ index: Int64, _ frequency: RecurrenceRule.Frequency) -> Int64 {
        switch frequency {
        case .daily: return index
        case .weekly: return index * 7 + mondayEpochDay
        case .monthly: return CivilDate.days(year: Int(index / 12), month: Int(index % 12) + 1, day: 1)
        case .yearly: return CivilDate.days(year: Int(index), month: 1, day: 1)
        }
    }

    /// 1970-01-05, the first Monday after the epoch.
    static let mondayEpochDay: Int64 = 4

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// The rule's dates in period `index`, in order: the month days and
    /// weekdays it names, made (expanded) in that period, then kept where
    /// its other parts allow them (limited), as RFC 5545's table says.
    static func dates(inPeriod index: Int64, of rule: RecurrenceRule) -> [DueDate] {
        let start = periodStart(index, rule.frequency)
        guard start <= lastDay, start >= CivilDate.days(year: 1, month: 1, day: 1) else { return [] }
        var days: [Int64] = []
        switch rule.frequency {
        case .daily:
            let date = DueDate(epochDay: start)
            if allowed(date, by: rule, ordinalsInYear: false) { days = [start] }
        case .weekly:
            days = rule.byDay.map { start + Int64($0.day - 1) }
                .filter { rule.byMonth.isEmpty || rule.byMonth.contains(DueDate(epochDay: $0).month) }
        case .monthly:
            let date = DueDate(epochDay: start)
            guard rule.byMonth.isEmpty || rule.byMonth.contains(date.month) else { return [] }
            days = daysInMonth(year: date.year, month: date.month, of: rule, ordinalsInYear: false)
        case .yearly:
            let year = Int(index)
            if rule.byMonthDay.isEmpty && rule.byMonth.isEmpty {
                days = rule.byDay.flatMap { weekday($0, in: start, length: Int64(daysInYear(year))) }
            } else {
                let months = rule.byMonth.isEmpty ? Array(1...12) : rule.byMonth
                days = months.flatMap { daysInMonth(year: year, month: $0, of: rule, ordinalsInYear: rule.byMonth.isEmpty) }
            }
        }
        return Set(days).sorted().filter { $0 <= lastDay }.map { DueDate(epochDay: $0) }
    }

    /// The days of one month that a monthly rule, or a yearly one naming
    /// months or month days, gives.
    private static func daysInMonth(year: Int, month: Int, of rule: RecurrenceRule, ordinalsInYear: Bool) -> [Int64] {
        let first = CivilDate.days(year: year, month: month, day: 1)
        if rule.byMonthDay.isEmpty {
            return rule.byDay.flatMap { weekday($0, in: first, length: Int64(DueDate.daysIn(month: month, year: year))) }
        }
        return rule.byMonthDay.compactMap { monthDay($0, year: year, month: month, lastDay: rule.lastDayOfShorterMonth) }
            .map { first + Int64($0 - 1) }
            .filter { allowed(DueDate(epochDay: $0), by: rule, ordinalsInYear: ordinalsInYear) }
    }

    /// Month day `n` (negative: from the end) in that month, or nil.
    static func monthDay(_ n: Int, year: Int, month: Int, lastDay: Bool) -> Int? {
        let length = DueDate.daysIn(month: month, year: year)
        if n > 0 { return n <= length ? n : (lastDay ? length : nil) }
        return length + 1 + n >= 1 ? length + 1 + n : nil
    }

    static func daysInYear(_ year: Int) -> Int { DueDate.daysIn(month: 2, year: year) == 29 ? 366 : 365 }

    /// The days of `length` days from `start` that are `weekday`: all of
    /// them, or only the *n*th from the start (the end, when negative).
    private static func weekday(_ weekday: RecurrenceRule.Weekday, in start: Int64, length: Int64) -> [Int64] {
        let firstWeekday = Int64(DueDate(epochDay: start).isoWeekday)
        let offset = (Int64(weekday.day) - firstWeekday + 7) % 7
        guard let n = weekday.ordinal else { return stride(from: start + offset, to: start + length, by: 7).map { $0 } }
        if n > 0 {
            let day = offset + 7 * Int64(n - 1)
            return day < length ? [start + day] : []
        }
        let lastWeekday = Int64(DueDate(epochDay: start + length - 1).isoWeekday)
        let day = length - 1 - (lastWeekday - Int64(weekday.day) + 7) % 7 - 7 * Int64(-n - 1)
        return day >= 0 ? [start + day] : []
    }

    /// Whether a date the rule made, or a day of a daily rule, passes the
    /// rule's limiting parts: its month, its month day, its weekday (a
    /// numbered weekday counted in its month, or in its year).
    private static func allowed(_ date: DueDate, by rule: RecurrenceRule, ordinalsInYear: Bool) -> Bool {
        if !rule.byMonth.isEmpty && !rule.byMonth.contains(date.month) { return false }
        if rule.frequency == .daily && !rule.byMonthDay.isEmpty
            && !rule.byMonthDay.contains(where: { monthDay($0, year: date.year, month: date.month, lastDay: rule.lastDayOfShorterMonth) == date.day }) {
            return false
        }
        guard !rule.byDay.isEmpty else { return true }
        let start = ordinalsInYear ? CivilDate.days(year: date.year, month: 1, day: 1) : CivilDate.days(year: date.year, month: date.month, day: 1)
        let length = Int64(ordinalsInYear ? daysInYear(date.year) : DueDate.daysIn(month: date.month, year: date.year))
        return rule.byDay.contains { weekday($0, in: start, length: length).contains(date.epochDay) }
    }
}
