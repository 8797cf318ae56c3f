import Foundation
import NextUpCore
@testable import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpBridge

/// What nextup writes over a phone's file, and how it reads the phone's
/// times (issue 32: 2, 7, 9, 10).
@Suite struct PhonePatchTests {
    let tmp = TemporaryFolder()

    func task(due: String?, title: String = "Renew the passport") throws -> TaskItem {
        var task = TaskItem(id: TaskID.forVTodoUID("p1"))
        task.title = title
        task.due = try due.map { try DueDate.parse($0, today: DueDate(year: 2026, month: 11, day: 26)) }
        return task
    }

    func calendar(_ lines: [String]) -> [UInt8] {
        let all = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:p1"] + lines + ["END:VTODO", "END:VCALENDAR"]
        return Array((all.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// A changed DUE takes DTSTART's value type and TZID, keeps the phone's
    /// time of day, and never goes before DTSTART.
    @Test func aChangedDueIsShapedLikeDTSTARTAndNeverBeforeIt() throws {
        let file = calendar(["SUMMARY:Renew the passport", "DTSTART;TZID=Europe/Berlin:20261201T090000", "DUE;TZID=Europe/Berlin:20261203T170000"])
        let later = try #require(ICalComponent.patched(file, for: try task(due: "2026-12-10"), zone: .fixed(3600)))
        #expect(later.contains("DUE;TZID=Europe/Berlin:20261210T170000\r\n") && later.contains("DTSTART;TZID=Europe/Berlin:20261201T090000\r\n"))
        let earlier = try #require(ICalComponent.patched(file, for: try task(due: "2026-11-30"), zone: .fixed(3600)))
        #expect(earlier.contains("DUE;TZID=Europe/Berlin:20261130T170000\r\n"), "\(earlier)")
        #expect(earlier.contains("DTSTART;TZID=Europe/Berlin:20261130T170000\r\n"), "\(earlier)")
        // A date-only DTSTART: DUE a DATE too.
        let dates = calendar(["SUMMARY:Renew the passport", "DTSTART;VALUE=DATE:20261201"])
        let dated = try #require(ICalComponent.patched(dates, for: try task(due: "2026-12-05"), zone: .fixed(0)))
        #expect(dated.contains("DUE;VALUE=DATE:20261205\r\n"))
        // A UTC due time keeps its local time of day on the new local date.
        let utc = calendar(["SUMMARY:Renew the passport", "DUE;VALUE=DATE-TIME:20261225T020000Z"])
        let newYork = LocalZone.fixed(-5 * 3600)
        #expect(try VTodoView(vtodo: try ICalComponent.parse(utc)[0].components[0], zone: newYork).due == "2026-12-24")
        let moved = try #require(ICalComponent.patched(utc, for: try task(due: "2026-12-31"), zone: newYork))
        #expect(moved.contains("DUE;VALUE=DATE-TIME:20270101T020000Z\r\n"), "\(moved)")
    }

    /// A due time with a TZID the zone database knows is converted to the
    /// local date (and written back in that zone when nextup moves it); an
    /// unknown TZID is read as written, and the sync says so once.
    @Test func aDueTimeInANamedZoneIsItsLocalDate() throws {
        let file = calendar(["SUMMARY:Renew the passport", "DUE;TZID=America/New_York:20261224T210000"])
        let todo = try ICalComponent.parse(file)[0].components[0]
        #expect(try VTodoView(vtodo: todo, zone: .fixed(3600)).due == "2026-12-25")
        #expect(try VTodoView(vtodo: todo, zone: .fixed(-5 * 3600)).due == "2026-12-24")
        #expect(try VTodoView(vtodo: todo, zone: .fixed(-8 * 3600)).due == "2026-12-24")
        // Moved in Berlin to the 31st: 03:00 there is 21:00 on the 30th in New York.
        let moved = try #require(ICalComponent.patched(file, for: try task(due: "2026-12-31"), zone: .fixed(3600)))
        #expect(moved.contains("DUE;TZID=America/New_York:20261230T210000\r\n"), "\(moved)")
        #expect(try VTodoView(vtodo: try ICalComponent.parse(Array(moved.utf8))[0].components[0], zone: .fixed(3600)).due == "2026-12-31")
        #expect(ICalComponent.patched(file, for: try task(due: "2026-12-25"), zone: .fixed(3600)) == nil)

        let unknown = calendar(["SUMMARY:Renew the passport", "DUE;TZID=Olympus Mons Standard Time:20261224T210000"])
        #expect(try VTodoView(vtodo: try ICalComponent.parse(unknown)[0].components[0], zone: .fixed(3600)).due == "2026-12-24")
        let vdir = tmp.path("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        try Data(unknown).write(to: vdir.appendingPathComponent("p1.ics"))
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("store")))
        let bridge = VdirBridge(store: store, folder: vdir, zone: .fixed(3600))
        let first = try bridge.cycle()
        #expect(first.notices.filter { $0.contains("Olympus Mons Standard Time") }.count == 1, "\(first.lines)")
        #expect(try store.task(TaskID.forVTodoUID("p1"))?.due?.description == "2026-12-24")
        let second = try bridge.cycle()
        #expect(!second.notices.contains { $0.contains("Olympus") }, "\(second.lines)")
    }

    /// Values nextup holds more coarsely stay as the phone wrote them; a
    /// file that says what the task says is not written at all.
    @Test func whatMapsToTheTaskStaysByteForByte() throws {
        let lines = ["CREATED:20180312T091011Z", "SUMMARY;LANGUAGE=de:Zwei\\nZeilen", "PRIORITY:2", "STATUS:IN-PROCESS",
                     "DESCRIPTION;ALTREP=\"cid:x\":Notiz\\n", "CATEGORIES:Admin,Home Office", "PERCENT_COMPLETE:40"]
        let file = calendar(lines)
        let view = try VTodoView(vtodo: try ICalComponent.parse(file)[0].components[0], zone: .fixed(0))
        var task = TaskItem(id: TaskID.forVTodoUID("p1"))
        for (field, value) in view.changes(since: nil, task: nil, now: 0) { _ = task.set(field, to: value) }
        #expect(task.tags == ["Home Office"] && task.category == "Admin" && task.importance == .high)
        #expect(ICalComponent.patched(file, for: task, zone: .fixed(0)) == nil)
        // One change: its lines only.
        task.title = "Drei"
        let patched = try #require(ICalComponent.patched(file, for: task, zone: .fixed(0)))
        let before = Set(String(decoding: file, as: UTF8.self).components(separatedBy: "\r\n"))
        let after = Set(patched.components(separatedBy: "\r\n"))
        #expect(before.subtracting(after) == ["SUMMARY;LANGUAGE=de:Zwei\\nZeilen"])
        #expect(after.subtracting(before) == ["SUMMARY;LANGUAGE=de:Drei", "LAST-MODIFIED:19700101T000000Z", "DTSTAMP:19700101T000000Z", "SEQUENCE:1"])
    }

    /// A floating LAST-MODIFIED (Nextcloud Tasks) is local time: west of
    /// UTC, a phone edit made after nextup's is not taken for an older one.
    @Test func aFloatingLastModifiedIsLocalTime() throws {
        let vdir = tmp.path("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("store")))
        let newYork = LocalZone.fixed(-5 * 3600)
        let bridge = VdirBridge(store: store, folder: vdir, zone: newYork)
        let task = try store.add(TaskDraft(title: "Book the dentist"))
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        // nextup's edit now; the phone's an hour later, written in New York's wall-clock time.
        _ = try store.edit(task.id, set: [(.title, .string("Book the dentist for Monday"))])
        let phoneTime = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000 - 5 * 3_600_000
        let floating = String(ICalDate.formatUTC(millis: phoneTime).dropLast())
        let text = try String(contentsOf: vdir.appendingPathComponent(name), encoding: .utf8)
            .replacingOccurrences(of: "SUMMARY:Book the dentist\r\n", with: "SUMMARY:Book the dentist for Tuesday\r\n")
            .components(separatedBy: "\r\n").map { $0.hasPrefix("LAST-MODIFIED:") ? "LAST-MODIFIED:\(floating)" : $0 }.joined(separator: "\r\n")
        try FileManager.default.removeItem(at: vdir.appendingPathComponent(name))
        try Data(text.utf8).write(to: vdir.appendingPathComponent(name))
        _ = try bridge.cycle()
        #expect(try store.task(task.id)?.title == "Book the dentist for Tuesday")
    }
}
