/// When a recurring task comes back: one value for both spellings people use,
/// their words (`every monday`, `3 days after done`) and RFC 5545's RRULE
/// (`FREQ=WEEKLY;BYDAY=MO`). ``parse(_:)`` reads either; ``rrule`` is the
/// canonical text, the value the field table stores, and
/// `try RecurrenceRule.parse(r.rrule) == r` for every rule.
///
/// Three kinds (``Basis``):
/// - **on fixed dates** (`every monday`, the RRULE alone): occurrence *n+1* is
///   the rule's first date after occurrence *n*'s due date, so a missed date
///   still comes back, once;
/// - **after completion** (`3 days after done`, `X-NEXTUP-FROM=DONE`): the
///   interval counted from the day the occurrence was done;
/// - **next future date** (`daily skipping missed`, `X-NEXTUP-FROM=TODAY`):
///   the rule's first date after both the due date and today, so missed
///   dates do not pile up.
///
/// Month ends: an RRULE's `BYMONTHDAY=31` skips shorter months, as RFC 5545
/// says; people's words mean the last day of a shorter month (`monthly on the
/// 31st` is also 30 April and 28 or 29 February; `every year on 29 feb` is 28
/// February in other years), written in RRULE as RFC 7529's
/// `RSCALE=GREGORIAN;SKIP=BACKWARD` (``lastDayOfShorterMonth``).
///
/// Values are checked and put in one order when made, so two spellings of one
/// rule are equal values.
public struct RecurrenceRule: Hashable, Sendable {
    /// What the next occurrence's date is counted from.
    public enum Basis: String, Hashable, Sendable, CaseIterable {
        /// The previous occurrence's due date (the rule's fixed dates).
        case due
        /// The day the previous occurrence was done.
        case completion = "DONE"
        /// The rule's fixed dates, the first one after today.
        case today = "TODAY"
    }

    public enum Frequency: String, Hashable, Sendable, CaseIterable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A day of the week, ISO numbered: 1 Monday … 7 Sunday (as
    /// ``DueDate/isoWeekday``), optionally the *n*th of its month or year
    /// (`1MO` the first Monday, `-1FR` the last Friday).
    public struct Weekday: Hashable, Sendable, Comparable {
        public let day: Int
        public let ordinal: Int?

        public init(_ day: Int, ordinal: Int? = nil) {
            self.day = day
            self.ordinal = ordinal
        }

        public static func < (a: Weekday, b: Weekday) -> Bool {
            (a.day, a.ordinal ?? 0) < (b.day, b.ordinal ?? 0)
        }

        /// RFC 5545's two-letter names, Monday first.
        public static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    }

    public let basis: Basis
    public let frequency: Frequency
    /// Every how many days, weeks, months or years; 1 or more.
    public let interval: Int
    /// Sorted, no repeats.
    public let byDay: [Weekday]
    /// 1…31 or -31…-1 (counted from the month's end); sorted, no repeats.
    public let byMonthDay: [Int]
    /// 1…12; sorted, no repeats.
    public let byMonth: [Int]
    /// How many occurrences the series has in all, the first included.
    public let count: Int?
    /// The last date an occurrence may fall on.
    public let until: DueDate?
    /// A day of the month past a shorter month's end is that month's last
    /// day (RFC 7529 `SKIP=BACKWARD`) instead of no date (RFC 5545). Always
    /// false where it could not change a date.
    public let lastDayOfShorterMonth: Bool

    /// The largest interval, count and ordinal accepted.
    public static let maxInterval = 1000
    public static let maxCount = 100_000

    /// Makes a rule, checking it (one line in plain words when it cannot be)
    /// and putting its lists in order.
    public init(basis: Basis = .due, frequency: Frequency, interval: Int = 1, byDay: [Weekday] = [],
                byMonthDay: [Int] = [], byMonth: [Int] = [], count: Int? = nil, until: DueDate? = nil,
                lastDayOfShorterMonth: Bool = false) throws {
        guard (1...Self.maxInterval).contains(interval) else {
            throw TaskInputError("a recurrence interval must be 1 to \(Self.maxInterval), not \(interval)")
        }
        if let count, !(1...Self.maxCount).contains(count) {
            throw TaskInputError("a recurrence count must be 1 to \(Self.maxCount), not \(count)")
        }
        if count != nil && until != nil {
            throw TaskInputError("a recurrence ends either after a count or on a date, not both")
        }
        if let bad = byMonth.first(where: { !(1...12).contains($0) }) {
            throw TaskInputError("there is no month \(bad)")
        }
        if let bad = byMonthDay.first(where: { $0 == 0 || !(-31...31).contains($0) }) {
            throw TaskInputError("there is no day \(bad) in a month")
        }
        for w in byDay {
            guard (1...7).contains(w.day) else { throw TaskInputError("there is no weekday \(w.day)") }
            guard let n = w.ordinal else { continue }
            let most = frequency == .yearly && byMonth.isEmpty ? 53 : 5
            guard frequency == .monthly || frequency == .yearly else {
                throw TaskInputError("a numbered weekday (like the first monday) needs a monthly or yearly rule")
            }
            guard n != 0, (-most...most).contains(n) else {
                throw TaskInputError("there is no weekday number \(n) in a \(most == 5 ? "month" : "year")")
            }
        }
        if frequency == .weekly && !byMonthDay.isEmpty {
            throw TaskInputError("a weekly rule cannot name days of the month")
        }
        if basis == .completion && !(byDay.isEmpty && byMonthDay.isEmpty && byMonth.isEmpty) {
            throw TaskInputError("a rule counted from completion takes no days or months, only an interval")
        }
        self.basis = basis
        self.frequency = frequency
        self.interval = interval
        self.byDay = Array(Set(byDay)).sorted()
        self.byMonthDay = Array(Set(byMonthDay)).sorted()
        self.byMonth = Array(Set(byMonth)).sorted()
        self.count = count
        self.until = until
        // Only a positive month day past 28, or one the series' start will
        // give (a monthly or yearly rule naming no day), can fall past a
        // month's end.
        let namesNoDay = (frequency == .monthly || frequency == .yearly) && byMonthDay.isEmpty && byDay.isEmpty
        self.lastDayOfShorterMonth = lastDayOfShorterMonth && basis != .completion
            && (byMonthDay.contains { $0 > 28 } || namesNoDay)
    }

    /// The rule with the parts RFC 5545 takes from the first occurrence
    /// (`DTSTART`) written out from `start`: the weekday of a weekly rule,
    /// the day of a monthly one, the day and month of a yearly one. A series
    /// stores its rule anchored at its first due date, so that its days never
    /// drift (a monthly series from 31 January stays on month ends after
    /// 28 February) and ``RecurrenceSchedule`` needs no start date.
    public func anchored(at start: DueDate) -> RecurrenceRule {
        var byDay = byDay, byMonthDay = byMonthDay, byMonth = byMonth
        switch frequency {
        case .daily: return self
        case .weekly:
            guard byDay.isEmpty else { return self }
            byDay = [Weekday(start.isoWeekday)]
        case .monthly:
            guard byDay.isEmpty, byMonthDay.isEmpty else { return self }
            byMonthDay = [start.day]
        case .yearly:
            guard byDay.isEmpty, byMonthDay.isEmpty else { return self }
            if byMonth.isEmpty { byMonth = [start.month] }
            byMonthDay = [start.day]
        }
        guard basis != .completion else { return self }
        // Checked already: only parts the rule did not have were added.
        return try! RecurrenceRule(basis: basis, frequency: frequency, interval: interval, byDay: byDay,
                                   byMonthDay: byMonthDay, byMonth: byMonth, count: count, until: until,
                                   lastDayOfShorterMonth: lastDayOfShorterMonth)
    }

    /// Whether every part a first occurrence would give is written out
    /// (see ``anchored(at:)``).
    public var isAnchored: Bool {
        switch frequency {
        case .daily: return true
        case .weekly: return !byDay.isEmpty || basis == .completion
        case .monthly, .yearly: return !(byDay.isEmpty && byMonthDay.isEmpty) || basis == .completion
        }
    }
}
