import Foundation
import NextUpCore
@testable import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpBridge

/// A series on the phone, against a real store and a real folder: one file
/// under the series' UID, and each phone's way of completing an occurrence
/// read as completing it, without duplicates (DESIGN.md §5b).
@Suite struct SeriesBridgeTests {
    let tmp = TemporaryFolder()
    var vdir: URL { tmp.path("vdir") }

    func open(_ name: String = "store") throws -> (TaskStore, VdirBridge) {
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let store = try TaskStore.open(StoreLocation(folder: tmp.path(name)))
        return (store, VdirBridge(store: store, folder: vdir, zone: .fixed(0)))
    }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { !$0.hasPrefix(".") }.sorted() }
    func read(_ name: String) throws -> String { try String(contentsOf: vdir.appendingPathComponent(name), encoding: .utf8) }
    func write(_ text: String, _ name: String) throws { try Data(text.utf8).write(to: vdir.appendingPathComponent(name)) }

    /// A weekly series due Monday 4 January 2027, deferred until the Saturday before.
    func weekly(_ store: TaskStore) throws -> TaskItem {
        let task = try store.add(try TaskDraft(title: "Weekly review"))
        return try store.edit(task.id, set: [(.due, .string("2027-01-04")), (.deferDate, .string("2027-01-02")),
                                             (.recur, .string("FREQ=WEEKLY"))]).task
    }

    /// The open tasks, by due date.
    func open(in store: TaskStore) throws -> [TaskItem] {
        try store.allTasks().filter(\.isOpen).sorted { ($0.due?.description ?? "") < ($1.due?.description ?? "") }
    }

    /// The file with its master VTODO's properties edited as a phone would
    /// (the phone's time as `LAST-MODIFIED`).
    func phoneEdit(_ name: String, _ edit: (inout [ICalProperty]) -> Void) throws {
        var calendar = try ICalComponent.parse(Array(try read(name).utf8))[0]
        let index = calendar.components.firstIndex { $0.name == "VTODO" && $0.property("RECURRENCE-ID") == nil }!
        var properties = calendar.components[index].properties
        edit(&properties)
        properties.removeAll { $0.name == "LAST-MODIFIED" }
        properties.append(ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: Int64(Date().timeIntervalSince1970 * 1000))))
        calendar.components[index].properties = properties
        try write(calendar.serialized(), name)
    }

    static func replace(_ properties: inout [ICalProperty], _ name: String, _ value: String, parameters: [ICalParameter] = []) {
        properties.removeAll { $0.name == name }
        properties.append(ICalProperty(name: name, parameters: parameters, value: value))
    }

    static let date = [ICalParameter(name: "VALUE", values: ["DATE"])]

    /// After a phone's completion: occurrence 1 done, occurrence `live` open
    /// with `due`, one file under the series' UID saying so, and a quiet
    /// cycle after.
    func expectOneLive(_ store: TaskStore, _ bridge: VdirBridge, series: TaskItem, live number: Int, due: String) throws {
        let open = try open(in: store)
        #expect(open.count == 1)
        #expect(open.first?.occurrence == OccurrenceID(series: series.id, number: number))
        #expect(open.first?.due?.description == due)
        #expect(try store.task(series.id)?.isDone == true)
        #expect(try files() == ["\(series.id.rawValue).ics"])
        let text = try read("\(series.id.rawValue).ics")
        #expect(text.contains("UID:\(series.id.rawValue)\r\n"))
        #expect(text.contains("DUE;VALUE=DATE:\(due.replacingOccurrences(of: "-", with: ""))\r\n"))
        #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=MO\r\n"))
        #expect(!text.contains("STATUS:COMPLETED"))
        let quiet = try bridge.cycle()
        #expect(quiet.written == 0 && quiet.updated == 0 && quiet.created == 0)
    }

    @Test func aSeriesIsOneFileUnderItsUIDWithItsRuleAndDeferDate() throws {
        let (store, bridge) = try open()
        let series = try weekly(store)
        _ = try bridge.cycle()
        #expect(try files() == ["\(series.id.rawValue).ics"])
        let text = try read("\(series.id.rawValue).ics")
        #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=MO\r\n"))
        #expect(text.contains("DUE;VALUE=DATE:20270104\r\n"))
        #expect(text.contains("DTSTART;VALUE=DATE:20270102\r\n"))
        // Completed in nextup: the same file moves on to occurrence 2.
        _ = try store.completeOccurrence(series.id, today: try DueDate.parse("2027-01-04"))
        let report = try bridge.cycle()
        #expect(report.written == 1)
        try expectOneLive(store, bridge, series: series, live: 2, due: "2027-01-11")
        #expect(try read("\(series.id.rawValue).ics").contains("DTSTART;VALUE=DATE:20270109\r\n"))
    }

    @Test func tasksOrgMovesTheDueDateInPlace() throws {
        let (store, bridge) = try open()
        let series = try weekly(store)
        _ = try bridge.cycle()
        try phoneEdit("\(series.id.rawValue).ics") { p in
            Self.replace(&p, "DUE", "20270111", parameters: Self.date)
            Self.replace(&p, "DTSTART", "20270109", parameters: Self.date)
            Self.replace(&p, "X-APPLE-SORT-ORDER", "12")
        }
        let report = try bridge.cycle()
        #expect(report.updated == 1)
        try expectOneLive(store, bridge, series: series, live: 2, due: "2027-01-11")
    }

    @Test func tasksOrgSkippingSeveralDatesCompletesTheOnesBetween() throws {
        let (store, bridge) = try open()
        let series = try weekly(store)
        _ = try bridge.cycle()
        try phoneEdit("\(series.id.rawValue).ics") { p in
            Self.replace(&p, "DUE", "20270125", parameters: Self.date)
            Self.replace(&p, "DTSTART", "20270123", parameters: Self.date)
        }
        _ = try bridge.cycle()
        try expectOneLive(store, bridge, series: series, live: 4, due: "2027-01-25")
        let done = try store.allTasks().filter(\.isDone).compactMap(\.occurrence?.number).sorted()
        #expect(done == [1, 2, 3])
    }

    @Test func aDueDateMovedOffTheRuleIsAnEditNotACompletion() throws {
        let (store, bridge) = try open()
        let series = try weekly(store)
        _ = try bridge.cycle()
        try phoneEdit("\(series.id.rawValue).ics") { p in Self.replace(&p, "DUE", "20270106", parameters: Self.date) }
        _ = try bridge.cycle()
        let open = try open(in: store)
        #expect(open.map(\.id) == [series.id])
        #expect(open.first?.due?.description == "2027-01-06")
    }

    @Test func thunderbirdAddsACompletedOverride() throws {
        let (store, bridge) = try open()
        let series = try weekly(store)
        _ = try bridge.cycle()
        let name = "\(series.id.rawValue).ics"
        let override = """
            BEGIN:VTODO\r
            UID:\(series.id.rawValue)\r
            RECURRENCE-ID;VALUE=DATE:20270102\r
            DTSTAMP:20270104T101500Z\r
            LAST-MODIFIED:20270104T101500Z\r
            SUMMARY:Weekly review\r
            DTSTART;VALUE=DATE:20270102\r
            DUE;VALUE=DATE:20270104\r
            STATUS:COMPLETED\r
            COMPLETED:20270104T101500Z\r
            PERCENT-COMPLETE:100\r
            END:VTODO\r

            """
        try write(try read(name).replacingOccurrences(of: "END:VCALENDAR", with: override + "END:VCALENDAR"), name)
        _ = try bridge.cycle()
        try expectOneLive(store, bridge, series: series, live: 2, due: "2027-01-11")
        #expect(!(try read(name)).contains("RECURRENCE-ID"))
    }

    @Test func appleCompletesTheItemAndMakesANewOne() throws {
        let (store, bridge) = try open()
        let series = try weekly(store)
        _ = try bridge.cycle()
        let name = "\(series.id.rawValue).ics"
        try phoneEdit(name) { p in
            p.removeAll { $0.name == "RRULE" }
            Self.replace(&p, "STATUS", "COMPLETED")
            Self.replace(&p, "COMPLETED", "20270104T090000Z")
        }
        try write("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Apple Inc.//iOS 18.1//EN\r
            BEGIN:VTODO\r
            UID:8F3C2A41-7B1D-4C0E-9A55-2D1E6F0B9C77\r
            CREATED:20270104T090001Z\r
            DTSTAMP:20270104T090001Z\r
            LAST-MODIFIED:20270104T090001Z\r
            SUMMARY:Weekly review\r
            DUE;VALUE=DATE:20270111\r
            RRULE:FREQ=WEEKLY;INTERVAL=1\r
            STATUS:NEEDS-ACTION\r
            END:VTODO\r
            END:VCALENDAR\r

            """, "8F3C2A41-7B1D-4C0E-9A55-2D1E6F0B9C77.ics")
        _ = try bridge.cycle()
        try expectOneLive(store, bridge, series: series, live: 2, due: "2027-01-11")
        #expect(try store.task(TaskID.forVTodoUID("8F3C2A41-7B1D-4C0E-9A55-2D1E6F0B9C77")) == nil)
    }

    @Test func aSeriesMadeOnThePhoneIsNeverRewrittenUnchanged() throws {
        let (store, bridge) = try open()
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:+//IDN tasks.org//android-140900//EN\r
            BEGIN:VTODO\r
            DTSTAMP:20261230T120000Z\r
            UID:6183738926711712345\r
            CREATED:20261230T120000Z\r
            LAST-MODIFIED:20261230T120000Z\r
            SUMMARY:Water the plants\r
            RRULE:FREQ=WEEKLY\r
            DUE;VALUE=DATE:20270104\r
            DTSTART;VALUE=DATE:20270103\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        try write(text, "6183738926711712345.ics")
        _ = try bridge.cycle()
        let task = try #require(try store.task(TaskID.forVTodoUID("6183738926711712345")))
        #expect(task.recur?.rrule == "FREQ=WEEKLY;BYDAY=MO")
        #expect(task.occurrence == OccurrenceID.first(of: task.id))
        #expect(task.deferDate?.description == "2027-01-03")
        #expect(try read("6183738926711712345.ics") == text)
        // Completed in nextup: the phone's file moves on, under its UID.
        _ = try store.completeOccurrence(task.id, today: try DueDate.parse("2027-01-04"))
        _ = try bridge.cycle()
        #expect(try files() == ["6183738926711712345.ics"])
        let moved = try read("6183738926711712345.ics")
        #expect(moved.contains("UID:6183738926711712345\r\n"))
        #expect(moved.contains("DUE;VALUE=DATE:20270111\r\n"))
        #expect(moved.contains("DTSTART;VALUE=DATE:20270110\r\n"))
        #expect(moved.contains("RRULE:FREQ=WEEKLY\r\n"))
    }

    @Test func aPhoneStartDateIsTheDeferDate() throws {
        let (store, bridge) = try open()
        let task = try store.add(try TaskDraft(title: "File taxes"))
        _ = try bridge.cycle()
        try phoneEdit("\(task.id.rawValue).ics") { p in Self.replace(&p, "DTSTART", "20270301", parameters: Self.date) }
        _ = try bridge.cycle()
        #expect(try store.task(task.id)?.deferDate?.description == "2027-03-01")
        _ = try store.edit(task.id, set: [(.deferDate, .string("2027-03-15"))])
        _ = try bridge.cycle()
        #expect(try read("\(task.id.rawValue).ics").contains("DTSTART;VALUE=DATE:20270315\r\n"))
    }

    /// Two machines on one calendar (each its vdirsyncer, a peer folder
    /// between the stores) both read the phone's completion before they sync
    /// with each other: each completes the occurrence on its own, and they
    /// converge on one live occurrence, one item on the server.
    @Test(arguments: ["tasks.org", "Thunderbird", "Apple"])
    func twoMachinesTakingOneCompletionApartConverge(_ app: String) throws {
        typealias Machine = TwoMachineBridgePropertyTests.Machine
        let clock = TwoMachineBridgePropertyTests.StepClock()
        let a = try Machine("a", tmp: tmp, clock: clock), b = try Machine("b", tmp: tmp, clock: clock)
        var server: [String: [UInt8]] = [:]
        func peerSync() throws {
            for (from, to) in [(a, b), (b, a)] {
                _ = try to.store.mergeRemote(try from.store.allTasks().flatMap { task in
                    task.versions.map { FieldChange(task: task.id, field: $0.key, value: task.value(of: $0.key), version: $0.value) }
                })
            }
        }
        func cycle(_ m: Machine) throws {
            clock.step()
            let report = try m.bridge.cycle(now: clock.nowMillis())
            #expect(report.skipped.isEmpty, "\(report.skipped)")
        }
        let series = try weekly(a.store)
        try cycle(a)
        try a.vdirsyncer(&server)
        try peerSync()
        try b.vdirsyncer(&server)
        try cycle(b)
        try b.vdirsyncer(&server)
        let name = "\(series.id.rawValue).ics"
        var text = String(decoding: try #require(server[name]), as: UTF8.self)
        clock.step()
        let stamp = "LAST-MODIFIED:" + ICalDate.formatUTC(millis: clock.nowMillis())
        text = text.replacingOccurrences(of: #"LAST-MODIFIED:[0-9TZ]+"#, with: stamp, options: .regularExpression)
        switch app {
        case "tasks.org":
            text = text.replacingOccurrences(of: "DUE;VALUE=DATE:20270104", with: "DUE;VALUE=DATE:20270111")
                .replacingOccurrences(of: "DTSTART;VALUE=DATE:20270102", with: "DTSTART;VALUE=DATE:20270109")
        case "Thunderbird":
            text = text.replacingOccurrences(of: "END:VCALENDAR", with: "BEGIN:VTODO\r\nUID:\(series.id.rawValue)\r\nRECURRENCE-ID;VALUE=DATE:20270102\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\nEND:VCALENDAR")
        default:
            text = text.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;BYDAY=MO\r\n", with: "")
                .replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20270104T090000Z")
            server["new-item.ics"] = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:new-item\r\n\(stamp)\r\nSUMMARY:Weekly review\r\nDUE;VALUE=DATE:20270111\r\nRRULE:FREQ=WEEKLY\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        }
        server[name] = Array(text.utf8)
        // Both read the phone's change before hearing from each other.
        try a.vdirsyncer(&server)
        try b.vdirsyncer(&server)
        try cycle(a)
        try cycle(b)
        for _ in 0..<2 {
            for m in [a, b] {
                try m.vdirsyncer(&server)
                try peerSync()
                try cycle(m)
                try m.vdirsyncer(&server)
            }
        }
        for m in [a, b] {
            let open = try m.store.allTasks().filter(\.isOpen)
            #expect(open.map(\.occurrence) == [OccurrenceID(series: series.id, number: 2)], "\(app)")
            #expect(open.first?.due?.description == "2027-01-11")
            #expect(try m.store.task(series.id)?.isDone == true)
            #expect(try m.store.task(TaskID.forVTodoUID("new-item")) == nil)
        }
        #expect(server.keys.sorted() == [name], "\(app)")
        let final = String(decoding: server[name] ?? [], as: UTF8.self)
        #expect(final.contains("DUE;VALUE=DATE:20270111\r\n") && final.contains("RRULE:FREQ=WEEKLY;BYDAY=MO\r\n"))
        #expect(!final.contains("STATUS:COMPLETED") && !final.contains("RECURRENCE-ID"), "\(final)")
    }
}
