import Foundation
import NextUpCore
import Testing
@testable import NextUpCLI

/// `FieldOptions.localToday` reads the local date through the C library (no
/// ICU in every add and edit); it must say what Foundation's calendar says.
@Suite struct LocalTodayTests {
    @Test func theLocalDateIsTheCalendarsLocalDate() throws {
        var seconds: Double = 1_600_000_000
        for _ in 0..<500 {
            seconds += 3_600 * 7.3
            let now = Date(timeIntervalSince1970: seconds)
            let c = Calendar.current.dateComponents([.year, .month, .day], from: now)
            let expected = try DueDate(year: c.year!, month: c.month!, day: c.day!)
            #expect(FieldOptions.localToday(now) == expected, "\(now)")
        }
    }
}
