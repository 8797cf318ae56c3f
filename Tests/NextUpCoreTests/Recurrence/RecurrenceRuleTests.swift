import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpCore

@Suite struct RecurrenceRuleTests {
    /// People's words and RRULEs, each with its canonical text.
    @Test(arguments: [
        ("every monday", "FREQ=WEEKLY;BYDAY=MO"),
        ("Every Monday and Thursday", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
        ("every other week on fri", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("fortnightly", "FREQ=WEEKLY;INTERVAL=2"),
        ("monthly on the 31st", "FREQ=MONTHLY;BYMONTHDAY=31;RSCALE=GREGORIAN;SKIP=BACKWARD"),
        ("monthly on the 1st and 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
        ("every month on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("monthly on the first monday", "FREQ=MONTHLY;BYDAY=1MO"),
        ("every 3 months on the last friday", "FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR"),
        ("every year on 24 dec", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24"),
        ("yearly on feb 29", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;RSCALE=GREGORIAN;SKIP=BACKWARD"),
        ("every year on the 24th of december", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24"),
        ("daily", "FREQ=DAILY"),
        ("every day", "FREQ=DAILY"),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("every weekend", "FREQ=WEEKLY;BYDAY=SA,SU"),
        ("3 days after done", "FREQ=DAILY;INTERVAL=3;X-NEXTUP-FROM=DONE"),
        ("a month after completion", "FREQ=MONTHLY;X-NEXTUP-FROM=DONE"),
        ("every day, skipping missed", "FREQ=DAILY;X-NEXTUP-FROM=TODAY"),
        ("every monday skip missed", "FREQ=WEEKLY;BYDAY=MO;X-NEXTUP-FROM=TODAY"),
        ("weekly until 2027-06-30", "FREQ=WEEKLY;UNTIL=20270630"),
        ("daily 10 times", "FREQ=DAILY;COUNT=10"),
        ("monthly", "FREQ=MONTHLY;RSCALE=GREGORIAN;SKIP=BACKWARD"),
        ("FREQ=WEEKLY;BYDAY=MO", "FREQ=WEEKLY;BYDAY=MO"),
        ("RRULE:freq=monthly;bymonthday=31", "FREQ=MONTHLY;BYMONTHDAY=31"),
        ("FREQ=MONTHLY;BYDAY=-1FR,1MO;INTERVAL=1", "FREQ=MONTHLY;BYDAY=1MO,-1FR"),
        ("BYMONTHDAY=-1,15,-1;FREQ=MONTHLY", "FREQ=MONTHLY;BYMONTHDAY=-1,15"),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"),
        ("FREQ=DAILY;COUNT=5;WKST=MO", "FREQ=DAILY;COUNT=5"),
        ("FREQ=WEEKLY;UNTIL=20271231T235959Z", "FREQ=WEEKLY;UNTIL=20271231"),
        ("FREQ=MONTHLY;BYMONTHDAY=31;RSCALE=GREGORIAN;SKIP=OMIT", "FREQ=MONTHLY;BYMONTHDAY=31"),
        ("FREQ=WEEKLY;BYDAY=MO;SKIP=BACKWARD", "FREQ=WEEKLY;BYDAY=MO"),
    ])
    func readsBothSpellings(text: String, canonical: String) throws {
        let rule = try RecurrenceRule.parse(text)
        #expect(rule.rrule == canonical)
        #expect(try RecurrenceRule.parse(rule.rrule) == rule)
    }

    /// Bad rules: one line, in plain words, saying what was not understood.
    @Test(arguments: [
        ("every fortnight-ish", "'fortnight-ish' after 'every' is not understood"),
        ("every blue moon", "'blue' after 'every' is not understood"),
        ("", "the end is not understood"),
        ("monthly on the 32nd", "'32nd' after 'monthly on the' is not understood"),
        ("every year on 31 feb", "'feb' after 'every year on 31' is not understood"),
        ("3 fortnights after done", "'fortnights' after '3' is not understood"),
        ("every 0 days", "interval must be 1 to 1000, not 0"),
        ("FREQ=HOURLY", "at most daily"),
        ("FREQ=WEEKLY;BYSETPOS=-1", "BYSETPOS is not kept by nextup"),
        ("FREQ=WEEKLY;COLOR=RED", "COLOR is not a recurrence rule part"),
        ("FREQ=WEEKLY;BYDAY=XX", "BYDAY=XX is not a weekday"),
        ("FREQ=WEEKLY;BYDAY=1MO", "needs a monthly or yearly rule"),
        ("FREQ=MONTHLY;BYDAY=6MO", "no weekday number 6 in a month"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "no day 0 in a month"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20270101", "not both"),
        ("FREQ=DAILY;INTERVAL=x", "INTERVAL=X is not a number"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"),
        ("BYDAY=MO", "needs FREQ"),
        ("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30", "never gives a date"),
        ("FREQ=DAILY;BYMONTHDAY=2;X-NEXTUP-FROM=DONE", "takes no days or months"),
        ("FREQ=DAILY;UNTIL=2027", "UNTIL=2027 is not a date"),
    ])
    func refusesInPlainWords(text: String, says: String) {
        do {
            let rule = try RecurrenceRule.parse(text)
            Issue.record("read '\(text)' as \(rule.rrule)")
        } catch let error as TaskInputError {
            #expect(error.message.contains(says), "\(error.message)")
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("\(error)")
        }
    }

    /// parse(rrule(r)) == r for any rule.
    @Test func theCanonicalTextReadsBackToTheSameRule() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            let rule = RecurrenceSamples.rule(&rng)
            let text = rule.rrule
            #expect((try? RecurrenceRule.parse(text)) == rule, "\(text)")
            // Any order and case of the parts is the same rule.
            var parts = text.split(separator: ";").map(String.init)
            parts.shuffle(using: &rng)
            #expect((try? RecurrenceRule.parseRRULE(parts.joined(separator: ";").lowercased())) == rule, "\(text)")
        }
    }

    @Test func anchoringWritesOutWhatTheFirstDateGives() throws {
        let jan31 = try DueDate(year: 2027, month: 1, day: 31)
        #expect(try RecurrenceRule.parse("monthly").anchored(at: jan31).rrule == "FREQ=MONTHLY;BYMONTHDAY=31;RSCALE=GREGORIAN;SKIP=BACKWARD")
        #expect(try RecurrenceRule.parse("FREQ=MONTHLY").anchored(at: jan31).rrule == "FREQ=MONTHLY;BYMONTHDAY=31")
        #expect(try RecurrenceRule.parse("every 2 weeks").anchored(at: jan31).rrule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU")
        #expect(try RecurrenceRule.parse("yearly").anchored(at: jan31).rrule == "FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=31;RSCALE=GREGORIAN;SKIP=BACKWARD")
        let jan15 = try DueDate(year: 2027, month: 1, day: 15)
        #expect(try RecurrenceRule.parse("monthly").anchored(at: jan15).rrule == "FREQ=MONTHLY;BYMONTHDAY=15")
        #expect(try RecurrenceRule.parse("3 days after done").anchored(at: jan15).rrule == "FREQ=DAILY;INTERVAL=3;X-NEXTUP-FROM=DONE")
    }
}

/// Random rules and dates for the recurrence tests.
enum RecurrenceSamples {
    static func pick<T>(_ options: [T], _ rng: inout SeededRandom) -> T { options[Int(rng.next() % UInt64(options.count))] }

    /// A random rule that ``RecurrenceRule/init`` accepts, of every kind.
    static func rule(_ rng: inout SeededRandom, basis: RecurrenceRule.Basis? = nil, ends: Bool = true) -> RecurrenceRule {
        while true {
            let basis = basis ?? pick(RecurrenceRule.Basis.allCases, &rng)
            let frequency = pick(RecurrenceRule.Frequency.allCases, &rng)
            let interval = rng.chance(0.5) ? 1 : pick([2, 3, 4, 7, 13], &rng)
            var byMonth: [Int] = [], byMonthDay: [Int] = [], byDay: [RecurrenceRule.Weekday] = []
            if basis != .completion {
                if rng.chance(0.25) { byMonth = (0..<1 + Int(rng.next() % 3)).map { _ in 1 + Int(rng.next() % 12) } }
                if frequency != .weekly && rng.chance(0.4) {
                    byMonthDay = (0..<1 + Int(rng.next() % 3)).map { _ in pick([1, 15, 28, 29, 30, 31, -1, -2, -31, 31, 30], &rng) }
                }
                if rng.chance(0.5) {
                    byDay = (0..<1 + Int(rng.next() % 3)).map { _ in
                        let ordinal: Int? = (frequency == .monthly || frequency == .yearly) && rng.chance(0.5)
                            ? pick([1, 2, 4, 5, -1, -2, -5], &rng) : nil
                        return RecurrenceRule.Weekday(1 + Int(rng.next() % 7), ordinal: ordinal)
                    }
                }
            }
            var count: Int?, until: DueDate?
            if ends && rng.chance(0.2) { count = 1 + Int(rng.next() % 30) } else if ends && rng.chance(0.2) { until = date(&rng) }
            if let rule = try? RecurrenceRule(basis: basis, frequency: frequency, interval: interval, byDay: byDay,
                                              byMonthDay: byMonthDay, byMonth: byMonth, count: count, until: until,
                                              lastDayOfShorterMonth: rng.chance(0.5)),
               !rule.isAnchored || RecurrenceSchedule(rule).date(after: try! DueDate(year: 2000, month: 1, day: 1)) != nil {
                return rule
            }
        }
    }

    /// A date from 1999 to 2031, often at a month's end or on 29 February.
    static func date(_ rng: inout SeededRandom) -> DueDate {
        let year = 1999 + Int(rng.next() % 33)
        let month = 1 + Int(rng.next() % 12)
        let last = DueDate.daysIn(month: month, year: year)
        if rng.chance(0.1), let feb29 = try? DueDate(year: year - year % 4, month: 2, day: 29) { return feb29 }
        let day = rng.chance(0.4) ? last - Int(rng.next() % 3) : 1 + Int(rng.next() % UInt64(last))
        return try! DueDate(year: year, month: month, day: day)
    }
}
