import Foundation
import NextUpCore
import Testing
@testable import NextUpCLI

/// Taskwarrior's recurrence periods as nextup rules, and back (issue 35).
@Suite struct TaskwarriorRecurrenceTests {
    static let jan31 = try! DueDate(year: 2027, month: 1, day: 31)

    @Test(arguments: [
        ("daily", "D1"), ("day", "D1"), ("1d", "D1"), ("P1D", "D1"), ("3d", "D3"), ("weekly", "W1"), ("2wks", "W2"),
        ("biweekly", "W2"), ("fortnight", "W2"), ("P2W", "W2"), ("monthly", "M1"), ("quarterly", "M3"), ("1q", "M3"),
        ("6mo", "M6"), ("semiannual", "M6"), ("P3M", "M3"), ("yearly", "Y1"), ("annual", "Y1"), ("biannual", "Y2"),
        ("2y", "Y2"), ("weekdays", "W1"),
    ])
    func aPeriodIsTheRuleOfTheSameDates(period: String, expected: String) throws {
        let rule = try #require(TaskwarriorRecurrence.rule(period, firstDue: Self.jan31, until: nil))
        #expect("\(rule.frequency.rawValue.prefix(1))\(rule.interval)" == expected)
        #expect(rule.isAnchored && rule.basis == .due)
        // And back: a period giving the same rule.
        let back = try #require(TaskwarriorRecurrence.word(for: rule, firstDue: Self.jan31))
        #expect(TaskwarriorRecurrence.rule(back, firstDue: Self.jan31, until: nil) == rule)
    }

    /// Taskwarrior's monthly from the 31st lands on a shorter month's last
    /// day and comes back to the 31st, as nextup's rule does.
    @Test func monthlyFromThe31stKeepsToMonthEnds() throws {
        let rule = try #require(TaskwarriorRecurrence.rule("monthly", firstDue: Self.jan31, until: nil))
        let schedule = RecurrenceSchedule(rule)
        let feb = try #require(schedule.successor(of: 1, due: Self.jan31, doneOn: Self.jan31))
        #expect(feb.description == "2027-02-28")
        #expect(schedule.successor(of: 2, due: feb, doneOn: feb)?.description == "2027-03-31")
    }

    @Test(arguments: ["2h", "30min", "PT1H", "hourly", "", "0d", "seldom"])
    func aPeriodNextupHasNoRuleForIsNone(period: String) {
        #expect(TaskwarriorRecurrence.rule(period, firstDue: Self.jan31, until: nil) == nil)
    }

    @Test(arguments: ["every monday and thursday", "3 days after done", "daily skipping missed", "every day 5 times",
                      "every month on the last friday"])
    func aRuleTaskwarriorHasNoPeriodForIsNone(words: String) throws {
        let rule = try RecurrenceRule.parse(words).anchored(at: Self.jan31)
        #expect(TaskwarriorRecurrence.word(for: rule, firstDue: Self.jan31) == nil)
    }

    @Test func untilIsKept() throws {
        let until = try DueDate(year: 2027, month: 6, day: 30)
        let rule = try #require(TaskwarriorRecurrence.rule("weekly", firstDue: Self.jan31, until: until))
        #expect(rule.until == until && rule.rrule.contains("UNTIL=20270630"))
        #expect(TaskwarriorRecurrence.word(for: rule, firstDue: Self.jan31) == "weekly")
    }
}

/// The way back of a series (issue 35): occurrences nextup made go to
/// Taskwarrior under the uuid of the instance Taskwarrior made ahead for
/// their index, and the template's mask covers them all.
@Suite struct TaskwarriorSeriesOutTests {
    let options = TaskwarriorMapping.Options(timeZone: TimeZone(identifier: "UTC")!)

    @Test func anOccurrenceNextupMadeTakesTheUuidOfTheInstanceMadeAhead() throws {
        let template = TaskID.make(), ahead = TaskID.make(), instance = TaskID.make()
        let rule = try #require(TaskwarriorRecurrence.rule("daily", firstDue: try DueDate(year: 2027, month: 1, day: 1), until: nil))
        let kept = """
            {"imask":0,"nextup_ahead":{"2":"\(ahead.rawValue)"},"nextup_template":{"uuid":"\(template.rawValue)","status":"recurring","recur":"daily","due":"20270101T000000Z","mask":"--","entry":"20261231T000000Z"},"parent":"\(template.rawValue)","recur":"daily","rtype":"periodic"}
            """
        var first = TaskItem(id: OccurrenceID(series: template, number: 1).taskID)
        first.title = "Daily"
        first.due = try DueDate(year: 2027, month: 1, day: 1)
        first.completedAt = 1_800_000_000_000
        first.recur = rule
        first.occurrence = OccurrenceID(series: template, number: 1)
        first.source = "taskwarrior"
        first.externalID = instance.rawValue
        first.extra[TaskField(rawValue: TaskwarriorMapping.keptField)!] = .string(kept)
        var second = TaskItem(id: OccurrenceID(series: template, number: 2).taskID)
        second.title = "Daily"
        second.due = try DueDate(year: 2027, month: 1, day: 2)
        second.recur = rule
        second.occurrence = OccurrenceID(series: template, number: 2)
        let objects = TaskwarriorMapping.objects([first, second], options)
        var byUUID: [String: [String: Any]] = [:]
        for o in objects { byUUID[o["uuid"] as? String ?? ""] = o }
        #expect(objects.count == 3)
        #expect(byUUID[template.rawValue]?["mask"] as? String == "+-")
        #expect(byUUID[template.rawValue]?["status"] as? String == "recurring")
        #expect(byUUID[instance.rawValue]?["status"] as? String == "completed")
        let made = try #require(byUUID[ahead.rawValue], "occurrence 2 under the uuid Taskwarrior made ahead: \(byUUID.keys)")
        #expect(made["imask"] as? Int == 1 && made["parent"] as? String == template.rawValue && made["recur"] as? String == "daily")
        #expect(made[TaskwarriorSeries.aheadKey] == nil && made[TaskwarriorSeries.templateKey] == nil)
    }
}
