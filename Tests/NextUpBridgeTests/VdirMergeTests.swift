import Foundation
import NextUpCore
import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpBridge

/// vdirsyncer's conflict command, pure: per property, the side that changed
/// it since the base (or a version the bridge wrote since) wins; changed on
/// both sides, the newer change.
@Suite struct VdirMergeTests {
    static let names = ["SUMMARY", "DESCRIPTION", "PRIORITY", "DUE", "STATUS", "CATEGORIES", "X-APP-FLAG", "X-NEXTUP-URGENCY"]

    static func item(_ values: [String: String], lastModified: String, lineEnd: String = "\r\n") -> [UInt8] {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-1", "LAST-MODIFIED:\(lastModified)"]
        for name in names { if let value = values[name] { lines.append("\(name):\(value)") } }
        lines += ["END:VTODO", "END:VCALENDAR"]
        return Array((lines.joined(separator: lineEnd) + lineEnd).utf8)
    }

    static func values(_ bytes: [UInt8]) throws -> [String: String] {
        let todo = try ICalComponent.parse(bytes)[0].components[0]
        var out: [String: String] = [:]
        for name in names { if let p = todo.property(name) { out[name] = p.value } }
        return out
    }

    /// Random histories: nextup writes F1 (which the server may or may not
    /// have taken) and F2 from the phone's base; the phone edits the base or
    /// F1. Every property ends as the newest change made to it.
    @Test func everyPropertyHoldsItsNewestChange() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            func value(_ name: String) -> String? { rng.chance(0.15) ? nil : "\(name.lowercased())-\(rng.next() % 1000)" }
            var base: [String: String] = [:]
            for name in Self.names { if let v = value(name) { base[name] = v } }
            // nextup's two writes, at times 1_000 and 2_000 (s); the phone's edit at 1_500 or 2_500.
            var f1 = base, f2 = base
            var nextupTime: [String: Int64] = [:]
            // A field's version moves only when its value does (LocalEdit).
            for name in Self.names where rng.chance(0.3) {
                let v = value(name)
                if v != f1[name] { f1[name] = v; nextupTime[name] = 1_000_000 }
            }
            f2 = f1
            for name in Self.names where rng.chance(0.3) {
                let v = value(name)
                if v != f2[name] { f2[name] = v; nextupTime[name] = 2_000_000 }
            }
            let serverHeldF1 = rng.chance(0.5)
            let phoneBase = serverHeldF1 ? f1 : base
            let phoneLater = rng.chance(0.5)
            var phone = phoneBase
            var phoneChanged: Set<String> = []
            // A phone's new value is one no version the bridge remembers held
            // (the merge reads such a value as no change: see VdirMerge).
            for name in Self.names where rng.chance(0.3) {
                var v = value(name)
                if [base, f1, f2].contains(where: { $0[name] == v }) { v = "phone-\(rng.next() % 1000)" }
                if v != phoneBase[name] { phone[name] = v; phoneChanged.insert(name) }
            }
            let phoneTime: Int64 = phoneLater ? 2_500_000 : 1_500_000
            let merge = VdirMerge(base: Self.item(base, lastModified: "20261101T000000Z"),
                                  written: [Self.item(f1, lastModified: "19700101T001640Z"), Self.item(f2, lastModified: "19700101T003320Z")],
                                  nextupTimes: nextupTime, zone: .fixed(0))
            let a = Self.item(f2, lastModified: "19700101T003320Z")
            let b = Self.item(phone, lastModified: ICalDate.formatUTC(millis: phoneTime), lineEnd: rng.chance(0.5) ? "\n" : "\r\n")
            do {
                let merged = try Self.values(Array(try merge.merge(a, b).utf8))
                for name in Self.names {
                    var expected = f2[name]
                    if phoneChanged.contains(name) {
                        let nextupNewer = (nextupTime[name] ?? 0) > phoneTime
                        if !nextupNewer, !(name.hasPrefix("X-NEXTUP-") && phone[name] == nil) { expected = phone[name] }
                    }
                    if name.hasPrefix("X-NEXTUP-"), expected == nil { expected = f2[name] ?? phone[name] }
                    #expect(merged[name] == expected, "seed \(seed) \(name): \(merged[name] ?? "-") ≠ \(expected ?? "-") base \(base[name] ?? "-") f1 \(f1[name] ?? "-") f2 \(f2[name] ?? "-") phone \(phone[name] ?? "-") serverHeldF1 \(serverHeldF1) phoneLater \(phoneLater)")
                }
                // Merging a side with itself gives it back byte for byte.
                #expect(try merge.merge(b, b) == String(decoding: b, as: UTF8.self))
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    /// A value nextup took from the phone carries the time it was taken, which
    /// may be later than the phone's next edit (a watching sync reads the file
    /// a moment after vdirsyncer brings it): nextup did not change it, so the
    /// phone's next edit wins.
    @Test func aPropertyNextupOnlyTookFromThePhoneTakesThePhonesNextEdit() throws {
        let base = Self.item(["SUMMARY": "round 2", "PRIORITY": "5"], lastModified: "20261126T100000Z")
        let nextup = Self.item(["SUMMARY": "round 2", "PRIORITY": "5", "X-NEXTUP-URGENCY": "urgent"], lastModified: "20261126T100005Z")
        let phone = Self.item(["SUMMARY": "round 3", "PRIORITY": "5"], lastModified: "20261126T100002Z")
        let taken = try #require(ICalDate.instant("20261126T100004Z", zone: .fixed(0)))
        let merge = VdirMerge(base: base, written: [nextup], nextupTimes: ["SUMMARY": taken, "X-NEXTUP-URGENCY": taken], zone: .fixed(0))
        let merged = try Self.values(Array(try merge.merge(nextup, phone).utf8))
        #expect(merged["SUMMARY"] == "round 3")
        #expect(merged["X-NEXTUP-URGENCY"] == "urgent")
    }

    /// A phone that keeps `X-NEXTUP-VERSIONS` keeps it naming the title a
    /// store wrote after the phone retitled the task: that mismatch was in
    /// the base the bridge read already, so the phone's later completion
    /// does not make its old title newer than nextup's retitle made since.
    @Test func aMismatchTheBaseAlreadyHadIsNoNewPhoneChange() throws {
        func item(_ summary: String, status: String, modified: String, record: VersionRecord) -> [UInt8] {
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-1", "LAST-MODIFIED:\(modified)",
                         "SUMMARY:\(summary)", "STATUS:\(status)"]
            if let property = record.property { lines.append(property.contentLine) }
            lines += ["END:VTODO", "END:VCALENDAR"]
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        let store = try #require(ReplicaID("6e4deb87-65a4-4c30-96bb-f3bbd6fa0b52"))
        func record(_ title: String, at millis: Int64) -> VersionRecord {
            VersionRecord(entries: [VersionRecord.digest(TaskField.title): .init(value: VersionRecord.digest(FieldValue.string(title)),
                                                                                  version: Version(timestamp: HybridTimestamp(millis: millis), replica: store))])
        }
        let written = try #require(ICalDate.instant("20261126T100000Z", zone: .fixed(0)))
        let retitled = try #require(ICalDate.instant("20261126T100012Z", zone: .fixed(0)))
        // The phone retitled at :08 keeping the store's record of "task 1"; the bridge read that file.
        let base = item("from the phone", status: "NEEDS-ACTION", modified: "20261126T100008Z", record: record("task 1", at: written))
        // nextup retitled at :12 and wrote its file; the server never took it.
        let nextup = item("from nextup", status: "NEEDS-ACTION", modified: "20261126T100012Z", record: record("from nextup", at: retitled))
        // The phone completes at :23 on its copy, the record kept as it was.
        let phone = item("from the phone", status: "COMPLETED", modified: "20261126T100023Z", record: record("task 1", at: written))
        let merge = VdirMerge(base: base, written: [nextup], nextupTimes: ["SUMMARY": retitled], zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(nextup, phone).utf8))[0].components[0]
        #expect(merged.property("SUMMARY")?.value == "from nextup")
        #expect(merged.property("STATUS")?.value == "COMPLETED")
    }

    /// Machine B completed the task at :06 (its file, `a`); the phone then
    /// reopened it, and machine A's merge recorded that reopen as the
    /// calendar's change at :28 (the server's item, `b`). B's base, read
    /// before the completion, also said "not done": yet b's record dates
    /// that value after B's completion, so the reopen wins. A value the
    /// calendar only held (``ReplicaID/calendarHeld``) gives no such date:
    /// B's completion stays.
    @Test(arguments: [(ReplicaID.calendar, "NEEDS-ACTION"), (ReplicaID.calendarHeld, "COMPLETED")])
    func aValueTheRecordDatesAfterNextupsChangeWinsThoughTheBaseHeldIt(replica: ReplicaID, expected: String) throws {
        let store = try #require(ReplicaID("6e4deb87-65a4-4c30-96bb-f3bbd6fa0b52"))
        func item(status: String, modified: String, done: Version?) throws -> [UInt8] {
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-2", "LAST-MODIFIED:\(modified)",
                         "SUMMARY:task", "STATUS:\(status)"]
            if status == "COMPLETED" { lines.append("COMPLETED:20261126T100006Z") }
            lines += ["END:VTODO", "END:VCALENDAR"]
            guard let done else { return Array((lines.joined(separator: "\r\n") + "\r\n").utf8) }
            let view = try VTodoView(vtodo: try ICalComponent.parse(Array(lines.joined(separator: "\r\n").utf8))[0].components[0], zone: .fixed(0))
            let value = try #require(VersionRecord.value(of: .done, in: view))
            let record = VersionRecord(entries: [VersionRecord.digest(TaskField.done): .init(value: VersionRecord.digest(value), version: done)])
            lines.insert(record.property!.contentLine, at: lines.count - 2)
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        func at(_ stamp: String, _ replica: ReplicaID) throws -> Version {
            Version(timestamp: HybridTimestamp(millis: try #require(ICalDate.instant(stamp, zone: .fixed(0)))), replica: replica)
        }
        let base = try item(status: "NEEDS-ACTION", modified: "20261126T100000Z", done: nil)
        let completed = try at("20261126T100006Z", store)
        let nextup = try item(status: "COMPLETED", modified: "20261126T100006Z", done: completed)
        let server = try item(status: "NEEDS-ACTION", modified: "20261126T100028Z", done: try at("20261126T100028Z", replica))
        let merge = VdirMerge(base: base, written: [nextup], nextupTimes: ["STATUS": completed.timestamp.millis,
                                                                          "COMPLETED": completed.timestamp.millis], zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(nextup, server).utf8))[0].components[0]
        #expect(merged.property("STATUS")?.value == expected)
        #expect((merged.property("COMPLETED") != nil) == (expected == "COMPLETED"))
    }

    /// `stamp` (UTC) as a version of `replica`.
    static func at(_ stamp: String, _ replica: ReplicaID) throws -> Version {
        Version(timestamp: HybridTimestamp(millis: try #require(ICalDate.instant(stamp, zone: .fixed(0)))), replica: replica)
    }

    /// An item holding `summary` (and `due`), whose record names the title `recorded` under `version`.
    static func titledItem(_ summary: String, due: String?, modified: String, recorded: String, at version: Version) -> [UInt8] {
        let record = VersionRecord(entries: [VersionRecord.digest(TaskField.title): .init(value: VersionRecord.digest(FieldValue.string(recorded)),
                                                                                           version: version)])
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-4", "LAST-MODIFIED:\(modified)", "SUMMARY:\(summary)"]
        if let due { lines.append("DUE;VALUE=DATE:\(due)") }
        lines += [record.property!.contentLine, "END:VTODO", "END:VCALENDAR"]
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// The phone retitled at :05 and kept a record naming the old title; a
    /// machine took that title at :05 and wrote it in its own file, then
    /// nextup retitled at :16. A later phone edit of another property moves
    /// `LAST-MODIFIED` to :18: the phone's title still dates from :05, so
    /// nextup's :16 title stays.
    @Test func aPhoneChangeAStoreTookDatesFromWhenItWasTaken() throws {
        let store = try #require(ReplicaID("6e4deb87-65a4-4c30-96bb-f3bbd6fa0b52"))
        let made = try Self.at("20261126T100000Z", store)
        let base = Self.titledItem("task", due: nil, modified: "20261126T100000Z", recorded: "task", at: made)
        let taken = Self.titledItem("from the phone", due: nil, modified: "20261126T100005Z", recorded: "from the phone",
                         at: try Self.at("20261126T100005Z", .calendar))
        let retitled = try Self.at("20261126T100016Z", store)
        let nextup = Self.titledItem("from nextup", due: nil, modified: "20261126T100016Z", recorded: "from nextup", at: retitled)
        let phone = Self.titledItem("from the phone", due: "20261201", modified: "20261126T100018Z", recorded: "task", at: made)
        let merge = VdirMerge(base: base, written: [taken, nextup], nextupTimes: ["SUMMARY": retitled.timestamp.millis], zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(nextup, phone).utf8))[0].components[0]
        #expect(merged.property("SUMMARY")?.value == "from nextup")
        #expect(merged.property("DUE")?.value == "20261201")
    }

    /// The same, where another machine took the phone's title at :05 and
    /// this store heard of it only through the peer folder (no file of this
    /// vdir held it): the store's history dates the take. When the phone
    /// changed the title again after a take (the store's newest take holds
    /// another title), the phone's title dates from its `LAST-MODIFIED`.
    @Test(arguments: [true, false])
    func aPhoneChangeAnotherMachineTookDatesFromThatTake(newestTakeHoldsIt: Bool) throws {
        let store = try #require(ReplicaID("6e4deb87-65a4-4c30-96bb-f3bbd6fa0b52"))
        let made = try Self.at("20261126T100000Z", store)
        let base = Self.titledItem("task", due: nil, modified: "20261126T100000Z", recorded: "task", at: made)
        let retitled = try Self.at("20261126T100016Z", store)
        let nextup = Self.titledItem("from nextup", due: nil, modified: "20261126T100016Z", recorded: "from nextup", at: retitled)
        let phone = Self.titledItem("from the phone", due: "20261201", modified: "20261126T100018Z", recorded: "task", at: made)
        let taken = newestTakeHoldsIt ? "from the phone" : "an earlier phone title"
        let takes = [TaskField.title: VersionRecord.Entry(value: VersionRecord.digest(FieldValue.string(taken)),
                                                          version: try Self.at("20261126T100005Z", .calendar))]
        let merge = VdirMerge(base: base, written: [nextup], nextupTimes: ["SUMMARY": retitled.timestamp.millis],
                              calendarTakes: takes, zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(nextup, phone).utf8))[0].components[0]
        #expect(merged.property("SUMMARY")?.value == (newestTakeHoldsIt ? "from nextup" : "from the phone"))
        #expect(merged.property("DUE")?.value == "20261201")
    }

    /// The phone retitled twice within one second: a merge recorded the
    /// first title under the calendar at :05; the phone's second, made in
    /// the same second, keeps that record. It wins, and is recorded under a
    /// version just after the first's (and nextup's time of the title), so
    /// a bridge takes it.
    @Test func aSecondPhoneChangeInTheSameSecondIsRecordedAfterTheFirst() throws {
        let first = Version(timestamp: HybridTimestamp(millis: try #require(ICalDate.instant("20261126T100005Z", zone: .fixed(0)))),
                            replica: .calendar)
        func item(_ summary: String) -> [UInt8] {
            let record = VersionRecord(entries: [VersionRecord.digest(TaskField.title): .init(value: VersionRecord.digest(FieldValue.string("first")),
                                                                                               version: first)])
            let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-6", "LAST-MODIFIED:20261126T100005Z", "SUMMARY:\(summary)",
                         record.property!.contentLine, "END:VTODO", "END:VCALENDAR"]
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        let merge = VdirMerge(base: item("first"), written: [], nextupTimes: ["SUMMARY": first.timestamp.millis], zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(item("first"), item("second")).utf8))[0].components[0]
        #expect(merged.property("SUMMARY")?.value == "second")
        let view = try VTodoView(vtodo: merged, zone: .fixed(0))
        let recorded = try #require(VersionRecord(merged).version(of: .title, in: view))
        #expect(recorded > first && recorded.replica == .calendar && recorded.timestamp.millis <= first.timestamp.millis + 1, "\(recorded)")
    }

    /// The phone retitled twice within one second and dropped nextup's X-
    /// properties; the store took the first title at :05.3, in that second.
    /// The second title wins the merge (a tie within the second goes to the
    /// phone) and is recorded after the store's take, so that the bridge
    /// takes it rather than writing the first title back over it.
    @Test func aPhoneValueThatWinsIsRecordedAfterNextupsTimeInItsSecond() throws {
        let second = try #require(ICalDate.instant("20261126T100005Z", zone: .fixed(0)))
        let taken = Version(timestamp: HybridTimestamp(millis: second + 300), replica: .calendar)
        func item(_ summary: String, recorded: Bool) -> [UInt8] {
            let record = VersionRecord(entries: [VersionRecord.digest(TaskField.title): .init(value: VersionRecord.digest(FieldValue.string(summary)),
                                                                                               version: taken)])
            let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-7", "LAST-MODIFIED:20261126T100005Z", "SUMMARY:\(summary)"]
                + (recorded ? [record.property!.contentLine] : []) + ["END:VTODO", "END:VCALENDAR"]
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        let nextup = item("first", recorded: true)
        let merge = VdirMerge(base: nextup, written: [], nextupTimes: ["SUMMARY": taken.timestamp.millis], zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(nextup, item("second", recorded: false)).utf8))[0].components[0]
        #expect(merged.property("SUMMARY")?.value == "second")
        let view = try VTodoView(vtodo: merged, zone: .fixed(0))
        let recorded = try #require(VersionRecord(merged).version(of: .title, in: view))
        #expect(recorded > taken, "\(recorded)")
    }

    /// `LAST-MODIFIED` names a whole second: a phone change stamped :05
    /// may have been made at any time in it, so it is not older than a
    /// nextup change made at :05.5 (a tie within the second goes to the phone).
    @Test func aPhoneChangeIsNotOlderThanANextupChangeInTheSameSecond() throws {
        func item(_ summary: String, modified: String) -> [UInt8] {
            let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-7", "LAST-MODIFIED:\(modified)", "SUMMARY:\(summary)",
                         "END:VTODO", "END:VCALENDAR"]
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        let second = try #require(ICalDate.instant("20261126T100005Z", zone: .fixed(0)))
        let merge = VdirMerge(base: item("task", modified: "20261126T100000Z"), written: [],
                              nextupTimes: ["SUMMARY": second + 500], zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(item("from nextup", modified: "20261126T100005Z"),
                                                                   item("from the phone", modified: "20261126T100005Z")).utf8))[0]
        #expect(merged.components[0].property("SUMMARY")?.value == "from the phone")
    }

    /// The bridge read a completion from :03; nextup reopened the task at
    /// :14; the phone, dropping nextup's properties, completed it again at
    /// :24. Its STATUS reads as the base's, its COMPLETED as new: the
    /// completion is decided as one (STATUS, COMPLETED, PERCENT-COMPLETE),
    /// and the phone's newer one wins whole.
    @Test func aCompletionIsDecidedWholeNeverAMix() throws {
        func item(_ completed: String?, modified: String) -> [UInt8] {
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-5", "LAST-MODIFIED:\(modified)", "SUMMARY:task"]
            if let completed {
                lines += ["STATUS:COMPLETED", "COMPLETED:\(completed)", "PERCENT-COMPLETE:100"]
            } else {
                lines.append("STATUS:NEEDS-ACTION")
            }
            lines += ["END:VTODO", "END:VCALENDAR"]
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        let base = item("20261126T100003Z", modified: "20261126T100003Z")
        let nextup = item(nil, modified: "20261126T100014Z")
        let phone = item("20261126T100024Z", modified: "20261126T100024Z")
        let reopened = try #require(ICalDate.instant("20261126T100014Z", zone: .fixed(0)))
        let merge = VdirMerge(base: base, written: [nextup], nextupTimes: ["STATUS": reopened, "COMPLETED": reopened, "PERCENT-COMPLETE": reopened],
                              zone: .fixed(0))
        let merged = try ICalComponent.parse(Array(try merge.merge(nextup, phone).utf8))[0].components[0]
        #expect(merged.property("STATUS")?.value == "COMPLETED")
        #expect(merged.property("COMPLETED")?.value == "20261126T100024Z")
        #expect(merged.property("PERCENT-COMPLETE")?.value == "100")
    }

    /// A merge dates a value b's record proves the phone changed as the
    /// calendar's, and a value no record names as one the calendar held.
    @Test func aMergeStampsAProvenPhoneChangeApartFromAValueTheCalendarOnlyHeld() throws {
        let store = try #require(ReplicaID("6e4deb87-65a4-4c30-96bb-f3bbd6fa0b52"))
        let old = Version(timestamp: HybridTimestamp(millis: try #require(ICalDate.instant("20261126T100000Z", zone: .fixed(0)))), replica: store)
        let recorded = VersionRecord(entries: [VersionRecord.digest(TaskField.title): .init(value: VersionRecord.digest(FieldValue.string("task")),
                                                                                             version: old)])
        func item(_ summary: String, priority: String, modified: String) -> [UInt8] {
            let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:merge-3", "LAST-MODIFIED:\(modified)",
                         "SUMMARY:\(summary)", "PRIORITY:\(priority)", recorded.property!.contentLine, "END:VTODO", "END:VCALENDAR"]
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        let base = item("task", priority: "5", modified: "20261126T100000Z")
        // nextup changed the importance; the phone retitled (its record still names "task") and set PRIORITY 1.
        let nextup = item("task", priority: "9", modified: "20261126T100005Z")
        let phone = item("from the phone", priority: "1", modified: "20261126T100010Z")
        let merged = try ICalComponent.parse(Array(try VdirMerge(base: base, written: [nextup], zone: .fixed(0)).merge(nextup, phone).utf8))[0]
            .components[0]
        let view = try VTodoView(vtodo: merged, zone: .fixed(0))
        let record = VersionRecord(merged)
        #expect(record.version(of: .title, in: view)?.replica == .calendar)
        #expect(record.version(of: .importance, in: view)?.replica == .calendarHeld)
    }

    /// Lines are written as their side folded them; a component only one side changed is that side's.
    @Test func linesKeepTheirFoldsAndOverridesSurvive() throws {
        let fold = "SUMMARY;LANGUAGE=de:Ein sehr langer Titel, der über die Zeilengrenze hinausgeht und\r\n  gefaltet ist"
        let base = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:r\r\n\(fold)\r\nPRIORITY:5\r\nRRULE:FREQ=WEEKLY\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let nextup = base.replacingOccurrences(of: "PRIORITY:5", with: "PRIORITY:1")
        let override = "BEGIN:VTODO\r\nUID:r\r\nRECURRENCE-ID:20261114T100000\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\n"
        let phone = base.replacingOccurrences(of: "END:VCALENDAR", with: override + "END:VCALENDAR")
        let merged = try VdirMerge(base: Array(base.utf8), written: [Array(nextup.utf8)]).merge(Array(nextup.utf8), Array(phone.utf8))
        #expect(merged == nextup.replacingOccurrences(of: "END:VCALENDAR", with: override + "END:VCALENDAR"))
    }

    @Test func aSideThatIsNotICalendarIsRefusedInOneLine() {
        #expect(throws: ICalParseError.self) { try VdirMerge(base: nil, written: []).merge(Array("garbage".utf8), Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)) }
    }

    /// A series' file: nextup moved it to the next occurrence (due date, defer
    /// date) while the phone renamed it and added a completed override for
    /// the occurrence it showed: both survive, the override as a component
    /// of its own.
    @Test func aSeriesItemMergesPerPropertyAndKeepsAnOverride() throws {
        func series(_ summary: String, due: String, start: String, modified: String, override: Bool = false) -> [UInt8] {
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:series-1", "LAST-MODIFIED:\(modified)",
                         "SUMMARY:\(summary)", "RRULE:FREQ=WEEKLY;BYDAY=MO", "DTSTART;VALUE=DATE:\(start)", "DUE;VALUE=DATE:\(due)",
                         "END:VTODO"]
            if override {
                lines += ["BEGIN:VTODO", "UID:series-1", "RECURRENCE-ID;VALUE=DATE:20270102", "STATUS:COMPLETED", "END:VTODO"]
            }
            lines.append("END:VCALENDAR")
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        let base = series("Weekly review", due: "20270104", start: "20270102", modified: "20270101T000000Z")
        let nextup = series("Weekly review", due: "20270111", start: "20270109", modified: "20270104T100000Z")
        let phone = series("Weekly review (team)", due: "20270104", start: "20270102", modified: "20270104T090000Z", override: true)
        let merged = try VdirMerge(base: base, written: [], nextupTimes: ["DUE": 1_798_884_000_000, "DTSTART": 1_798_884_000_000])
            .merge(nextup, phone)
        #expect(merged.contains("SUMMARY:Weekly review (team)\r\n"))
        #expect(merged.contains("DUE;VALUE=DATE:20270111\r\n"))
        #expect(merged.contains("DTSTART;VALUE=DATE:20270109\r\n"))
        #expect(merged.contains("RRULE:FREQ=WEEKLY;BYDAY=MO\r\n"))
        #expect(merged.contains("RECURRENCE-ID;VALUE=DATE:20270102\r\n"))
    }
}
