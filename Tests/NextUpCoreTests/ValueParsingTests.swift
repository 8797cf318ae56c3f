import Testing
@testable import NextUpCore

@Suite struct ValueParsingTests {
    @Test(arguments: [("30m", 30), ("1h", 60), ("1h30m", 90), ("90", 90), ("2d", 2880), ("1H", 60), (" 45m ", 45), ("7d", 10_080)])
    func durationsParse(text: String, minutes: Int) throws {
        #expect(try TaskDuration.parse(text).minutes == minutes)
    }

    @Test(arguments: ["abc", "0", "99999", "", "1x", "m", "30m1h", "1h1h", "-5", "1.5h", "8d", "99999999999999999999"])
    func badDurationsAreRefused(text: String) {
        #expect(throws: TaskInputError.self) { try TaskDuration.parse(text) }
    }

    @Test func durationsFormatCompactly() throws {
        #expect(try TaskDuration(minutes: 45).description == "45m")
        #expect(try TaskDuration(minutes: 120).description == "2h")
        #expect(try TaskDuration(minutes: 90).description == "1h30m")
        #expect(try TaskDuration.parse(TaskDuration(minutes: 10_080).description).minutes == 10_080)
    }

    @Test func dueDatesParseAndCheckTheCalendar() throws {
        #expect(try DueDate.parse("2028-02-29").description == "2028-02-29")
        #expect(throws: TaskInputError.self) { try DueDate.parse("2026-02-29") }
        #expect(throws: TaskInputError.self) { try DueDate.parse("2026-13-45") }
        #expect(throws: TaskInputError.self) { try DueDate.parse("2026-1-5") }
        #expect(throws: TaskInputError.self) { try DueDate.parse("tomorrow") }
        #expect(throws: TaskInputError.self) { try DueDate.parse("2100-02-29") }
    }

    @Test func epochDaysRoundTrip() throws {
        for day in stride(from: Int64(-800_000), through: 2_900_000, by: 997) {
            let d = DueDate(epochDay: day)
            #expect(d.epochDay == day)
        }
        #expect(try DueDate.parse("1970-01-01").epochDay == 0)
        #expect(try DueDate.parse("2000-03-01").epochDay == 11_017)
    }

    @Test func importanceAndUrgencyParse() throws {
        #expect(try Importance.parse("3") == .high)
        #expect(try Importance.parse("low") == .low)
        #expect(throws: TaskInputError.self) { try Importance.parse("7") }
        #expect(try Urgency.parse("not-urgent") == .notUrgent)
        #expect(throws: TaskInputError.self) { try Urgency.parse("soon") }
        // The stored forms' shortcut takes only them; every other spelling
        // still goes through the trimming, case-blind rule.
        #expect(try Urgency.parse(" URGENT ") == .urgent)
        #expect(try Importance.parse(" 2 ") == .medium)
        for bad in ["0", "4", "+2", "02", "²", "٣", ""] {
            #expect(throws: TaskInputError.self, "\(bad)") { try Importance.parse(bad) }
        }
        for n in 1...3 { #expect(try Importance.parse(String(n)).rawValue == n) }
    }

    @Test func titlesAreTrimmedAndFoldedAndNeverEmpty() throws {
        #expect(try TaskText.title("  two\nlines\r\nhere ") == "two lines  here")
        // Every line break folds, whichever bytes encode it; scalars whose UTF-8
        // holds the same bytes (C5 85, C5 A8, E2 82 A8, E2 80 A9's neighbours) stay.
        for brk in ["\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}"] {
            #expect(TaskText.foldLines("a\(brk)b") == "a b", "\(brk.unicodeScalars.first!.value)")
        }
        for kept in ["\u{145}", "\u{168}", "\u{169}", "\u{20A8}", "\u{202A}", "\u{2027}", "tab\there"] {
            #expect(TaskText.foldLines("a\(kept)b") == "a\(kept)b", "\(kept.unicodeScalars.first!.value)")
        }
        #expect(throws: TaskInputError.self) { try TaskText.title(" \n\t ") }
        #expect(throws: TaskInputError.self) { try TaskText.title(String(repeating: "x", count: 1_001)) }
        // The limit is in characters, whatever their bytes.
        #expect(try TaskText.title(String(repeating: "x", count: 1_000)).count == 1_000)
        #expect(try TaskText.title(String(repeating: "é", count: 1_000)).count == 1_000)
        #expect(throws: TaskInputError.self) { try TaskText.title(String(repeating: "é", count: 1_001)) }
        #expect(throws: TaskInputError.self) { try TaskText.category(String(repeating: "é", count: 101)) }
    }

    @Test func timestampsRoundTripThroughRFC3339() {
        for ms: Int64 in [0, 1_763_000_000_123, 951_782_400_000, 4_102_444_799_999] {
            #expect(Timestamps.parse(Timestamps.rfc3339(ms)) == ms)
        }
        #expect(Timestamps.rfc3339(0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamps.parse("2026-11-22T10:00:00+02:00") == Timestamps.parse("2026-11-22T08:00:00Z"))
        #expect(Timestamps.parse("yesterday") == nil)
    }

    @Test func stableIDsAreDeterministicAndDistinct() {
        #expect(TaskID.stable(from: "a") == TaskID.stable(from: "a"))
        #expect(TaskID.stable(from: "a") != TaskID.stable(from: "b"))
    }

    @Test func fieldsRejectMalformedValues() {
        #expect(TaskField.importance.accepts(.int(2)))
        #expect(!TaskField.importance.accepts(.int(7)))
        #expect(!TaskField.title.accepts(.string("")))
        #expect(!TaskField.due.accepts(.string("2026-02-30")))
        #expect(!TaskField.deleted.accepts(.string("yes")))
        #expect(!TaskField.nextUp.accepts(.string("a0")))
        #expect(TaskField.urgency.accepts(.null))
        #expect(!TaskField.title.accepts(.null))
    }
}

@Suite struct IdentityParsingTests {
    @Test func idsParseToTheCanonicalLowercaseForm() {
        let lower = "4f57eb7e-c5c9-4ecf-a990-758688b9110c"
        #expect(TaskID(lower)?.rawValue == lower)
        #expect(TaskID(lower.uppercased())?.rawValue == lower)
        #expect(ReplicaID(lower.uppercased())?.rawValue == lower)
        #expect(TaskID("{4F57EB7E-C5C9-4ECF-A990-758688B9110C}") == nil)
        #expect(TaskID("4f57eb7e-c5c9-4ecf-a990-758688b9110g") == nil)
        #expect(TaskID("4f57eb7e-c5c9-4ecf-a990+758688b9110c") == nil)
        #expect(TaskID("4f57eb7ec5c94ecfa990758688b9110c") == nil)
        #expect(TaskID("") == nil)
        for _ in 0..<100 {
            let made = TaskID.make()
            #expect(TaskID(made.rawValue) == made)
            #expect(UUID(uuidString: made.rawValue)?.uuidString.lowercased() == made.rawValue)
        }
    }

    @Test func idsOrderAsTheirTextAndHoldNoReferences() {
        let edges = ["00000000-0000-0000-0000-000000000000", "00000009-0000-0000-0000-000000000000", "0000000a-0000-0000-0000-000000000000",
                     "ffffffff-ffff-ffff-ffff-ffffffffffff", "ffffffff-ffff-ffff-0000-000000000001", "ffffffff-ffff-fffe-ffff-ffffffffffff"]
        let ids = edges.compactMap(TaskID.init) + (0..<300).map { _ in TaskID.make() }
        #expect(ids.count == 306)
        #expect(ids.sorted().map(\.rawValue) == ids.map(\.rawValue).sorted())
        #expect(Set(ids).count == Set(ids.map(\.rawValue)).count)
        for id in ids { #expect(TaskID(id.rawValue) == id && id.short == String(id.rawValue.prefix(8))) }
        // A list of ids is copied and freed without touching each id.
        #expect(_isPOD(TaskID.self))
    }
}

import Foundation
