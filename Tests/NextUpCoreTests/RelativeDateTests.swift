import Testing
@testable import NextUpCore

/// Relative dates as Taskwarrior users type them, counted from a given today
/// (Monday 2026-11-23 unless said).
@Suite struct RelativeDateTests {
    static let monday = try! DueDate(year: 2026, month: 11, day: 23)

    func parse(_ text: String, today: DueDate = monday) throws -> String {
        try DueDate.parse(text, today: today).description
    }

    @Test func weekdaysOfKnownDates() throws {
        #expect(Self.monday.isoWeekday == 1)
        #expect(try DueDate(year: 1970, month: 1, day: 1).isoWeekday == 4)
        #expect(try DueDate(year: 2026, month: 11, day: 29).isoWeekday == 7)
        #expect(try DueDate(year: 1969, month: 12, day: 28).isoWeekday == 7)
    }

    @Test(arguments: [
        ("today", "2026-11-23"), ("Tomorrow", "2026-11-24"), ("yesterday", "2026-11-22"),
        ("monday", "2026-11-30"), ("mon", "2026-11-30"), ("tuesday", "2026-11-24"), ("Fri", "2026-11-27"), ("sunday", "2026-11-29"),
        ("eow", "2026-11-29"), ("eom", "2026-11-30"), ("eoy", "2026-12-31"),
        ("+3d", "2026-11-26"), ("3d", "2026-11-26"), ("2w", "2026-12-07"), ("+1mo", "2026-12-23"), ("1y", "2027-11-23"),
        ("0d", "2026-11-23"), (" 2026-12-24 ", "2026-12-24"),
    ])
    func relativeFormsFromAMonday(text: String, expected: String) throws {
        #expect(try parse(text) == expected)
    }

    @Test func endOfWeekOnSundayIsToday_andMonthStepsClampToTheLastDay() throws {
        let sunday = try DueDate(year: 2026, month: 11, day: 29)
        #expect(try parse("eow", today: sunday) == "2026-11-29")
        #expect(try parse("sunday", today: sunday) == "2026-12-06")
        let jan31 = try DueDate(year: 2028, month: 1, day: 31)
        #expect(try parse("1mo", today: jan31) == "2028-02-29")
        #expect(try parse("eom", today: try DueDate(year: 2028, month: 2, day: 3)) == "2028-02-29")
        let leap = try DueDate(year: 2024, month: 2, day: 29)
        #expect(try parse("1y", today: leap) == "2025-02-28")
    }

    @Test func aMistypedAbsoluteDateSaysSo() {
        #expect(throws: TaskInputError("due date '2026-02-30' is not a real date")) { try DueDate.parse("2026-02-30", today: Self.monday) }
    }

    @Test(arguments: ["soon", "+d", "3x", "-3d", "monday2", "999999d", ""])
    func otherWordsAreRefusedNamingTheForms(text: String) {
        #expect(throws: TaskInputError("due date '\(text)' is not one of: \(DueDate.relativeForms)")) {
            try DueDate.parse(text, today: Self.monday)
        }
    }
}
