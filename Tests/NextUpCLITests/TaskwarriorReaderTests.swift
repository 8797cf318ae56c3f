import Foundation
import NextUpCore
import Testing
@testable import NextUpCLI

/// What `task export` writes (here, Taskwarrior 2.6.2's own output, kept
/// verbatim) is read whole; anything else is refused in one line naming the item.
@Suite struct TaskwarriorReaderTests {
    static let export26 = #"""
    [
    {"id":1,"description":"Write Report","due":"20261224T000000Z","entry":"20261123T080504Z","estimate":"PT1H30M","modified":"20261123T080504Z","priority":"H","project":"Home.Garden","status":"pending","uuid":"1daad62b-21af-4241-a773-b7acb17cd1b0","annotations":[{"entry":"20261123T080504Z","description":"first note"},{"entry":"20261123T080505Z","description":"second note"}],"tags":["Work","urgentish"],"urgency":11.2},
    {"id":2,"description":"Ünïcode 日本","entry":"20261123T080504Z","modified":"20261123T080504Z","priority":"L","status":"pending","uuid":"7ddc782d-2ac4-4b9d-84da-cd7475bbae50","wait":"20261201T000000Z","tags":["Next"],"urgency":-0.4},
    {"id":3,"description":"recurring","due":"20261201T000000Z","entry":"20261123T080504Z","mask":"-","modified":"20261123T080504Z","recur":"weekly","rtype":"periodic","status":"recurring","uuid":"5eff4f1f-4313-439d-9d0b-81671fa6f1a7","urgency":5.29685},
    {"id":0,"description":"done one","end":"20261123T080504Z","entry":"20261123T080504Z","modified":"20261123T080504Z","status":"completed","uuid":"15aab5aa-76a2-4284-b8ce-5003d7a65932","urgency":0}
    ]
    """#

    @Test func readsTaskwarrior26ExportWithEveryAttribute() throws {
        let tasks = try TaskwarriorReader.read(Data(Self.export26.utf8))
        #expect(tasks.count == 4)
        let report = tasks[0]
        #expect(report.uuid.rawValue == "1daad62b-21af-4241-a773-b7acb17cd1b0")
        #expect(report.description == "Write Report")
        #expect(report.status == .pending)
        #expect(report.priority == "H")
        #expect(report.project == "Home.Garden")
        #expect(report.tags == ["Work", "urgentish"])
        #expect(report.due == TaskwarriorDate.parse("20261224T000000Z"))
        #expect(report.annotations.map(\.description) == ["first note", "second note"])
        #expect(report.annotations[1].entry - report.annotations[0].entry == 1000)
        // A UDA is kept as JSON text; the computed id and urgency are not data.
        #expect(report.other == ["estimate": "\"PT1H30M\""])
        #expect(tasks[1].other == ["wait": "\"20261201T000000Z\""])
        #expect(tasks[1].description == "Ünïcode 日本")
        #expect(tasks[2].status == .recurring)
        #expect(tasks[2].other == ["mask": "\"-\"", "recur": "\"weekly\"", "rtype": "\"periodic\""])
        #expect(tasks[3].status == .completed)
        #expect(tasks[3].end == TaskwarriorDate.parse("20261123T080504Z"))
    }

    @Test func readsOneObjectPerLineTheSameAsAnArray() throws {
        let lines = Self.export26.split(separator: "\n").filter { $0.hasPrefix("{") }
            .map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.joined(separator: "\n")
        #expect(try TaskwarriorReader.read(Data(lines.utf8)) == TaskwarriorReader.read(Data(Self.export26.utf8)))
    }

    /// Dates are written on bytes: every instant's text is what the
    /// zero-padding spelled out gives, round trip included.
    @Test func formattedDatesAreTheirFields() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let millis = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &rng)
            let text = TaskwarriorDate.format(millis)
            let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let (y, m, d) = CivilDate.civil(days: days)
            let rest = Int(seconds - days * 86_400)
            #expect(text == String(format: "%04d%02d%02dT%02d%02d%02dZ", y, m, d, rest / 3600, rest / 60 % 60, rest % 60))
            #expect(TaskwarriorDate.parse(text) == seconds * 1000, "\(text)")
        }
    }

    /// An annotation's time in the notes is what a DateFormatter of the
    /// zone writes, for random instants and for each DST change of the
    /// zones with odd offsets and changes; before 1583 it is the formatter's.
    @Test func annotationTimesAreTheFormattersInEveryZone() {
        var rng = SystemRandomNumberGenerator()
        for zone in ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham",
                     "America/St_Johns", "Africa/Monrovia", "Europe/Amsterdam", "Pacific/Apia"] {
            let timeZone = TimeZone(identifier: zone)!
            let options = TaskwarriorMapping.Options(timeZone: timeZone)
            var instants = (0..<400).map { _ in Int64.random(in: -13_000_000_000_000...4_200_000_000_000, using: &rng) }
            var date = Date(timeIntervalSince1970: -2_500_000_000)
            while let next = timeZone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 2_000_000_000 {
                let at = Int64(next.timeIntervalSince1970 * 1000)
                instants += [at - 60_001, at - 1, at, at + 1, at + 59_999]
                date = next
            }
            for millis in instants {
                #expect(TaskwarriorMapping.noteTime(millis, options) == options.noteTime.string(from: Date(timeIntervalSince1970: Double(millis) / 1000)),
                        "\(zone) \(millis)")
            }
        }
    }

    @Test func datesRoundTripAndImpossibleOnesAreRefused() {
        for text in ["19700101T000000Z", "20261224T235959Z", "20240229T120000Z", "20991231T000001Z"] {
            let millis = TaskwarriorDate.parse(text)
            #expect(millis != nil)
            #expect(millis.map(TaskwarriorDate.format) == text)
        }
        #expect(TaskwarriorDate.parse("19700101T000001Z") == 1000)
        for bad in ["20230229T000000Z", "20261301T000000Z", "20261224T240000Z", "2026-12-24", "20261224T000000", "", "2026122XT000000Z"] {
            #expect(TaskwarriorDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        (#"[{"uuid":"1daad62b-21af-4241-a773-b7acb17cd1b0","description":"x","status":"pending"}"#,
         "the file is not valid JSON (is it cut short?); expected what `task export` writes"),
        (#"{"a": 1}"#, "line 1 has no uuid"),
        (#"[{"description":"x","status":"pending"}]"#, "item 1 has no uuid"),
        (#"[{"uuid":"nope","description":"x","status":"pending"}]"#, "item 1: 'uuid' is not a UUID (nope)"),
        (#"[{"uuid":"1daad62b-21af-4241-a773-b7acb17cd1b0","description":"x","status":"snoozed"}]"#,
         "item 1 (1daad62b-21af-4241-a773-b7acb17cd1b0): unknown status 'snoozed' (expected pending, waiting, completed, deleted or recurring)"),
        (#"[{"uuid":"1daad62b-21af-4241-a773-b7acb17cd1b0","description":"x","status":"pending","due":"2026-12-24"}]"#,
         "item 1 (1daad62b-21af-4241-a773-b7acb17cd1b0): 'due' is not a Taskwarrior date (2026-12-24; expected YYYYMMDDTHHMMSSZ)"),
        (#"[{"uuid":"1daad62b-21af-4241-a773-b7acb17cd1b0","description":"x","status":"pending","tags":"a"}]"#,
         "item 1 (1daad62b-21af-4241-a773-b7acb17cd1b0): 'tags' is not a list of text"),
        (#"[{"uuid":"1daad62b-21af-4241-a773-b7acb17cd1b0","status":"pending"}]"#, "item 1 (1daad62b-21af-4241-a773-b7acb17cd1b0): it has no description"),
        (#"[1]"#, "item 1 is not a task object"),
        (#"{"tasks": []}"#, "line 1 has no uuid"),
        ("  \n", "the file is empty; expected what `task export` writes"),
        ("task export", "the file is neither a JSON array of tasks nor one task object per line, as `task export` writes"),
    ])
    func badInputIsOneLineNamingTheItem(input: String, message: String) {
        #expect(throws: TaskInputError(message)) { try TaskwarriorReader.read(Data(input.utf8)) }
    }
}
