import Foundation
import Testing
@testable import NextUpBridge
import NextUpCore

/// The iCalendar codec: content lines, unfolding and folding, TEXT escapes,
/// parameters, DATE and DATE-TIME values, and the malformed shapes it refuses.
struct ICalCodecTests {
    static func parse(_ text: String) throws -> [ICalComponent] {
        try ICalComponent.parse(Array(text.utf8))
    }

    @Test func parsesCRLFAndLFAlike() throws {
        let lf = "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VTODO\nUID:a\nSUMMARY:Pay rent\nEND:VTODO\nEND:VCALENDAR\n"
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Self.parse(lf) == Self.parse(crlf))
        let cal = try Self.parse(lf)[0]
        #expect(cal.name == "VCALENDAR")
        #expect(cal.components[0].property("summary")?.text == "Pay rent")
        #expect(cal.components[0].property("UID")?.value == "a")
    }

    @Test func unfoldsContinuationLinesEvenInsideAUTF8Sequence() throws {
        // "é" is C3 A9: a writer folded between the two bytes.
        var bytes = Array("BEGIN:VTODO\r\nSUMMARY:caf".utf8) + [0xC3, 13, 10, 32, 0xA9]
        bytes += Array(" au lait\r\n\tand more\r\nEND:VTODO\r\n".utf8)
        let todo = try ICalComponent.parse(bytes)[0]
        #expect(todo.property("SUMMARY")?.text == "café au laitand more")
    }

    @Test func parametersQuotedAndListed() throws {
        let todo = try Self.parse("BEGIN:VTODO\nDUE;VALUE=DATE:20261224\nX-A;TZID=\"Europe/Paris;x\";ROLE=a,b:v:w\nEND:VTODO\n")[0]
        #expect(todo.property("DUE")?.parameter("value") == "DATE")
        let x = try #require(todo.property("X-A"))
        #expect(x.parameter("TZID") == "Europe/Paris;x")
        #expect(x.parameters[1].values == ["a", "b"])
        #expect(x.value == "v:w")
    }

    @Test func textEscapesRoundTrip() {
        let samples = ["plain", "a,b;c\\d", "two\nlines", "crlf\r\nline", "trailing\\", "", "漢字 🧪 e\u{301}"]
        for s in samples {
            let back = ICalText.unescape(ICalText.escape(s))
            #expect(back == s.replacingOccurrences(of: "\r\n", with: "\n"))
        }
        #expect(ICalText.escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        #expect(ICalText.unescape("x\\Ny\\,z\\q") == "x\ny,z\\q")
    }

    @Test func categoriesSplitOnUnescapedCommasOnly() {
        let p = ICalProperty(name: "CATEGORIES", value: "Deep Work,a\\,b,c")
        #expect(p.textList == ["Deep Work", "a,b", "c"])
        #expect(ICalProperty(name: "CATEGORIES", value: "").textList == [])
    }

    @Test func foldingKeepsLinesWithin75OctetsAndNeverSplitsAScalar() throws {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "漢", "🧪", ",", "\\", " ", "\n"]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...200, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let component = ICalComponent(name: "VTODO", properties: [ICalProperty(name: "DESCRIPTION", text: text)])
            let out = component.serialized()
            for line in out.split(separator: "\r\n", omittingEmptySubsequences: false) {
                #expect(line.utf8.count <= 75)
            }
            #expect(!out.replacingOccurrences(of: "\r\n", with: "").unicodeScalars.contains("\n"))
            let back = try ICalComponent.parse(Array(out.utf8))[0]
            #expect(back.property("DESCRIPTION")?.text == text)
        }
    }

    @Test func malformedInputIsRefusedWithOneLine() {
        let bad: [(String, String)] = [
            ("BEGIN:VTODO\nSUMMARY:x\n", "never closed"),
            ("BEGIN:VTODO\nEND:VEVENT\n", "closes"),
            ("SUMMARY:x\n", "outside"),
            ("BEGIN:VTODO\nno colon here\nEND:VTODO\n", "no ':'"),
            ("BEGIN:VTODO\n:novalue\nEND:VTODO\n", "no property name"),
            ("", "no iCalendar component"),
        ]
        for (text, words) in bad {
            do {
                _ = try Self.parse(text)
                Issue.record("accepted \(text.debugDescription)")
            } catch let error as ICalParseError {
                #expect(error.message.contains(words), "\(error.message)")
                #expect(!error.message.contains("\n"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(throws: ICalParseError.self) { try ICalComponent.parse(Array("BEGIN:VTODO\nSUMMARY:".utf8) + [0xFF, 0xFE] + Array("\nEND:VTODO\n".utf8)) }
    }

    @Test func datesAndDateTimes() throws {
        #expect(ICalDate.format(try DueDate(year: 2026, month: 12, day: 4)) == "20261204")
        #expect(ICalDate.date("20261204")?.description == "2026-12-04")
        #expect(ICalDate.date("20261204T235900Z")?.description == "2026-12-04")
        #expect(ICalDate.date("20261204T235900")?.description == "2026-12-04")
        #expect(ICalDate.date("2026-12-04") == nil)
        #expect(ICalDate.date("20261304") == nil)
        #expect(ICalDate.date("20261204T2559") == nil)
        #expect(ICalDate.formatUTC(millis: 0) == "19700101T000000Z")
        #expect(ICalDate.formatUTC(millis: 1_795_000_000_999) == "20261118T110640Z")
        #expect(ICalDate.millis("20261118T110640Z") == 1_795_000_000_000)
        #expect(ICalDate.millis("19700101") == 0)
        for ms in [Int64(0), 86_399_000, 1_700_000_000_000, 4_102_444_800_000] {
            #expect(ICalDate.millis(ICalDate.formatUTC(millis: ms)) == ms)
        }
    }
}
