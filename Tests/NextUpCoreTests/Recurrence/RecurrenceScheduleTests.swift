import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpCore

@Suite struct RecurrenceScheduleTests {
    static func d(_ text: String) -> DueDate { try! DueDate.parse(text) }

    /// The dates of a series started on `start`, by `successor`, while they
    /// stay within `end`.
    static func chain(_ rule: RecurrenceRule, from start: DueDate, through end: DueDate, doneOn: (DueDate) -> DueDate = { $0 }) -> [DueDate] {
        let schedule = RecurrenceSchedule(rule.anchored(at: start))
        var dates: [DueDate] = []
        var due = start
        var number = 1
        while let next = schedule.successor(of: number, due: due, doneOn: doneOn(due)), next <= end {
            dates.append(next)
            due = next
            number += 1
        }
        return dates
    }

    @Test(arguments: [
        // Month ends: words take the last day, RFC 5545 skips the month.
        ("monthly on the 31st", "2027-01-31", ["2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"]),
        ("FREQ=MONTHLY;BYMONTHDAY=31", "2027-01-31", ["2027-03-31", "2027-05-31", "2027-07-31", "2027-08-31"]),
        ("monthly", "2027-01-31", ["2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"]),
        ("monthly on the 30th", "2028-01-30", ["2028-02-29", "2028-03-30", "2028-04-30"]),
        ("every month on the last day", "2027-01-15", ["2027-01-31", "2027-02-28", "2027-03-31"]),
        // Leap days.
        ("yearly on feb 29", "2024-02-29", ["2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"]),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "2024-02-29", ["2028-02-29", "2032-02-29"]),
        ("FREQ=YEARLY", "2096-02-29", ["2104-02-29"]),
        // Weeks and weekdays.
        ("every monday", "2026-11-26", ["2026-11-30", "2026-12-07", "2026-12-14"]),
        ("every 2 weeks", "2026-11-26", ["2026-12-10", "2026-12-24", "2027-01-07"]),
        ("every other week on mon and thu", "2026-11-26", ["2026-12-07", "2026-12-10", "2026-12-21", "2026-12-24"]),
        ("weekdays", "2026-11-27", ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-07"]),
        ("monthly on the first monday", "2026-11-26", ["2026-12-07", "2027-01-04", "2027-02-01"]),
        ("FREQ=MONTHLY;BYDAY=-1FR", "2026-11-26", ["2026-11-27", "2026-12-25", "2027-01-29"]),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "2026-11-26", ["2027-11-25", "2028-11-23"]),
        ("every year on 24 dec", "2026-11-26", ["2026-12-24", "2027-12-24", "2028-12-24"]),
        // Ends.
        ("FREQ=DAILY;COUNT=3", "2026-12-30", ["2026-12-31", "2027-01-01"]),
        ("FREQ=WEEKLY;UNTIL=20261215", "2026-11-26", ["2026-12-03", "2026-12-10"]),
        ("FREQ=DAILY;INTERVAL=10;BYMONTH=3", "2027-02-25", ["2027-03-07", "2027-03-17", "2027-03-27", "2028-03-01"]),
    ])
    func givesTheDatesPeopleExpect(rule: String, start: String, expected: [String]) throws {
        let rule = try RecurrenceRule.parse(rule)
        let dates = Self.chain(rule, from: Self.d(start), through: Self.d(expected.last!))
        #expect(dates.map(\.description) == expected)
    }

    @Test func afterCompletionCountsFromTheDayItWasDone() throws {
        let days = RecurrenceSchedule(try RecurrenceRule.parse("3 days after done"))
        #expect(days.successor(of: 1, due: Self.d("2027-01-01"), doneOn: Self.d("2027-01-10")) == Self.d("2027-01-13"))
        #expect(days.successor(of: 1, due: nil, doneOn: Self.d("2028-02-27")) == Self.d("2028-03-01"))
        let month = RecurrenceSchedule(try RecurrenceRule.parse("1 month after done"))
        #expect(month.successor(of: 4, due: nil, doneOn: Self.d("2027-01-31")) == Self.d("2027-02-28"))
        let year = RecurrenceSchedule(try RecurrenceRule.parse("a year after done"))
        #expect(year.successor(of: 1, due: nil, doneOn: Self.d("2028-02-29")) == Self.d("2029-02-28"))
        let twice = RecurrenceSchedule(try RecurrenceRule.parse("FREQ=WEEKLY;COUNT=2;X-NEXTUP-FROM=DONE"))
        #expect(twice.successor(of: 1, due: nil, doneOn: Self.d("2027-01-01")) == Self.d("2027-01-08"))
        #expect(twice.successor(of: 2, due: nil, doneOn: Self.d("2027-01-08")) == nil)
    }

    /// Missed dates: a fixed rule brings back the next one, once; a next
    /// future date rule skips to after today, in the series' own weeks.
    @Test func missedDatesComeBackOnceOrNotAtAll() throws {
        let fixed = RecurrenceSchedule(try RecurrenceRule.parse("daily"))
        #expect(fixed.successor(of: 1, due: Self.d("2027-03-01"), doneOn: Self.d("2027-03-20")) == Self.d("2027-03-02"))
        let future = RecurrenceSchedule(try RecurrenceRule.parse("daily skipping missed"))
        #expect(future.successor(of: 1, due: Self.d("2027-03-01"), doneOn: Self.d("2027-03-20")) == Self.d("2027-03-21"))
        #expect(future.successor(of: 1, due: Self.d("2027-03-25"), doneOn: Self.d("2027-03-20")) == Self.d("2027-03-26"))
        let fortnight = RecurrenceSchedule(try RecurrenceRule.parse("every other monday skipping missed"))
        // Due Monday 1 March; done Monday 8 March: the 8th is not in the series' fortnights, the 15th is.
        #expect(fortnight.successor(of: 1, due: Self.d("2027-03-01"), doneOn: Self.d("2027-03-08")) == Self.d("2027-03-15"))
        // Done on a due Monday of the series: that Monday is today, not the future.
        #expect(fortnight.successor(of: 1, due: Self.d("2027-03-01"), doneOn: Self.d("2027-03-15")) == Self.d("2027-03-29"))
    }

    @Test func aSeriesWithNoDueDateStartsOnTheRulesFirstDate() throws {
        let today = Self.d("2026-11-26")  // a Thursday
        #expect(RecurrenceSchedule(try RecurrenceRule.parse("every monday")).first(onOrAfter: today) == Self.d("2026-11-30"))
        #expect(RecurrenceSchedule(try RecurrenceRule.parse("every thursday")).first(onOrAfter: today) == today)
        #expect(RecurrenceSchedule(try RecurrenceRule.parse("monthly")).first(onOrAfter: today) == today)
        #expect(RecurrenceSchedule(try RecurrenceRule.parse("3 days after done")).first(onOrAfter: today) == today)
        #expect(RecurrenceSchedule(try RecurrenceRule.parse("every year on 24 dec")).first(onOrAfter: today) == Self.d("2026-12-24"))
    }

    @Test func theLastYearEndsEverySeries() throws {
        let schedule = RecurrenceSchedule(try RecurrenceRule.parse("every year on 31 dec"))
        #expect(schedule.successor(of: 1, due: Self.d("9999-12-31"), doneOn: Self.d("9999-12-31")) == nil)
        let daily = RecurrenceSchedule(try RecurrenceRule.parse("1 day after done"))
        #expect(daily.successor(of: 1, due: nil, doneOn: Self.d("9999-12-31")) == nil)
    }

    /// Years of days: every rule on fixed dates, from random starts (month
    /// ends and 29 February often), gives exactly the days a day-by-day
    /// check of the rule's meaning finds, COUNT and UNTIL included.
    @Test func aSeriesGivesTheDaysTheRuleDescribes() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            let rule = RecurrenceSamples.rule(&rng, basis: .due)
            let start = RecurrenceSamples.date(&rng)
            let end = DueDate(epochDay: start.epochDay + 6 * 366)
            let expected = RecurrenceOracle.dates(of: rule.anchored(at: start), from: start, through: end)
            #expect(Self.chain(rule, from: start, through: end) == expected, "\(rule.rrule) from \(start)")
        }
    }

    /// A next future date rule gives the first day the rule describes after
    /// both the due date and today, in the series' own rhythm.
    @Test func aNextFutureDateIsTheFirstDayAfterToday() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            let rule = RecurrenceSamples.rule(&rng, basis: .today, ends: false).anchored(at: RecurrenceSamples.date(&rng))
            let due = RecurrenceSamples.date(&rng)
            let today = DueDate(epochDay: due.epochDay + Int64(rng.next() % 800) - 100)
            let end = DueDate(epochDay: max(due, today).epochDay + 6 * 366)
            let expected = RecurrenceOracle.dates(of: rule, from: due, through: end).first { $0 > today }
            let next = RecurrenceSchedule(rule).successor(of: 1, due: due, doneOn: today)
            #expect(next.flatMap { $0 <= end ? $0 : nil } == expected, "\(rule.rrule) due \(due) done \(today)")
        }
    }
}

/// The test oracle: the days after `start` that a rule describes, found by
/// looking at every day and asking whether it fits each part of the rule, as
/// RFC 5545 (and RFC 7529's SKIP=BACKWARD) words it.
enum RecurrenceOracle {
    static func dates(of rule: RecurrenceRule, from start: DueDate, through end: DueDate) -> [DueDate] {
        var found: [DueDate] = []
        var day = start.epochDay + 1
        while day <= end.epochDay {
            let date = DueDate(epochDay: day)
            if let until = rule.until, date > until { break }
            if let count = rule.count, found.count + 1 >= count { break }
            if fits(date, rule, start) { found.append(date) }
            day += 1
        }
        return found
    }

    /// Which week, month or year: Monday-to-Sunday weeks.
    static func period(_ date: DueDate, _ f: RecurrenceRule.Frequency) -> Int64 {
        switch f {
        case .daily: return date.epochDay
        case .weekly: return (date.epochDay - Int64(date.isoWeekday - 1)) / 7 + 10_000_000
        case .monthly: return Int64(date.year * 12 + date.month)
        case .yearly: return Int64(date.year)
        }
    }

    static func fits(_ date: DueDate, _ rule: RecurrenceRule, _ start: DueDate) -> Bool {
        guard (period(date, rule.frequency) - period(start, rule.frequency)) % Int64(rule.interval) == 0 else { return false }
        if !rule.byMonth.isEmpty && !rule.byMonth.contains(date.month) { return false }
        let length = DueDate.daysIn(month: date.month, year: date.year)
        if !rule.byMonthDay.isEmpty && !rule.byMonthDay.contains(where: { n in
            if n < 0 { return length + 1 + n == date.day }
            return n == date.day || (rule.lastDayOfShorterMonth && n > length && date.day == length)
        }) { return false }
        if !rule.byDay.isEmpty {
            // A numbered weekday counts in its year for a yearly rule naming no month, else in its month.
            let inYear = rule.frequency == .yearly && rule.byMonth.isEmpty
            let first = inYear ? try! DueDate(year: date.year, month: 1, day: 1) : try! DueDate(year: date.year, month: date.month, day: 1)
            let last = inYear ? try! DueDate(year: date.year, month: 12, day: 31) : try! DueDate(year: date.year, month: date.month, day: length)
            let fromStart = Int((date.epochDay - first.epochDay) / 7) + 1
            let fromEnd = -(Int((last.epochDay - date.epochDay) / 7) + 1)
            if !rule.byDay.contains(where: { $0.day == date.isoWeekday && ($0.ordinal == nil || $0.ordinal == fromStart || $0.ordinal == fromEnd) }) {
                return false
            }
        }
        return true
    }
}
