import Foundation
import NextUpCore
@testable import NextUpStore
import NextUpTestSupport
import Synchronization
import Testing
@testable import NextUpBridge

/// The bridge against a real store and a real folder, no server: what a
/// cycle reads, writes, keeps and refuses (DESIGN.md §5b).
@Suite struct VdirBridgeTests {
    let tmp = TemporaryFolder()
    var vdir: URL { tmp.path("vdir") }

    func open(_ name: String = "store") throws -> (TaskStore, VdirBridge) {
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let store = try TaskStore.open(StoreLocation(folder: tmp.path(name)))
        return (store, VdirBridge(store: store, folder: vdir))
    }

    /// A store whose clock moves one second a step, and its bridge, with one
    /// task (`title`) already bridged.
    func openBridged(_ title: String) throws -> (TaskStore, VdirBridge, TwoMachineBridgePropertyTests.StepClock, TaskItem) {
        let clock = TwoMachineBridgePropertyTests.StepClock()
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("store")), clock: clock)
        let bridge = VdirBridge(store: store, folder: vdir, zone: .fixed(0))
        let task = try store.add(TaskDraft(title: title))
        _ = try bridge.cycle(now: clock.nowMillis())
        return (store, bridge, clock, task)
    }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { !$0.hasPrefix(".") }.sorted() }
    func read(_ name: String) throws -> String { try String(contentsOf: vdir.appendingPathComponent(name), encoding: .utf8) }
    func write(_ text: String, _ name: String) throws { try Data(text.utf8).write(to: vdir.appendingPathComponent(name)) }

    /// The item in the vdir's file `name`, and the place of its VTODO.
    func item(_ name: String) throws -> (calendar: ICalComponent, vtodo: Int) {
        let calendar = try ICalComponent.parse(Array(try read(name).utf8))[0]
        return (calendar, try #require(calendar.components.firstIndex { $0.name == "VTODO" }))
    }

    /// Another machine, whose changes reach the store through the peer folder.
    static let otherMachine = ReplicaID("6e4deb87-65a4-4c30-96bb-f3bbd6fa0b52")!
    func modified(_ name: String) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: vdir.appendingPathComponent(name).path)[.modificationDate] as! Date
    }

    func triaged(_ store: TaskStore, _ title: String) throws -> TaskItem {
        var draft = try TaskDraft(title: title)
        draft.urgency = .urgent
        draft.importance = .medium
        draft.duration = try TaskDuration(minutes: 45)
        draft.category = "Deep Work"
        draft.nextUp = true
        return try store.add(draft)
    }

    /// A phone's rewrite: the file's VTODO with its X- properties dropped and
    /// `edit` applied to its properties (reordered: SUMMARY last).
    func phoneRewrite(_ name: String, _ edit: (inout [ICalProperty]) -> Void) throws {
        var calendar = try ICalComponent.parse(Array(try read(name).utf8))[0]
        let index = calendar.components.firstIndex { $0.name == "VTODO" }!
        var properties = calendar.components[index].properties.filter { !$0.name.hasPrefix("X-") }
        edit(&properties)
        properties.sort { ($0.name == "SUMMARY" ? 1 : 0) < ($1.name == "SUMMARY" ? 1 : 0) }
        calendar.components[index].properties = properties
        try write(calendar.serialized().replacingOccurrences(of: "\r\n", with: "\n"), name)
    }

    @Test func tasksBecomeFilesAndAQuietCycleWritesNothing() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Write the report")
        let first = try bridge.cycle()
        #expect(first.written == 1)
        #expect(try files() == ["\(task.id.rawValue).ics"])
        let text = try read("\(task.id.rawValue).ics")
        #expect(text.contains("X-NEXTUP-URGENCY:urgent\r\n"))
        #expect(text.contains("PRIORITY:5\r\n"))
        let stamp = try modified("\(task.id.rawValue).ics")
        // Another connection's data_version moves with every commit of this one.
        let observer = try TaskStore.open(StoreLocation(folder: tmp.path("store")))
        let version = try observer.dataVersion()
        let second = try bridge.cycle()
        #expect(second.written == 0 && !second.changedStore)
        #expect(try modified("\(task.id.rawValue).ics") == stamp)
        #expect(try observer.dataVersion() == version)
    }

    @Test func aPhoneRewriteDroppingExtensionsClearsNothingAndTheFileGetsThemBack() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Write the report")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        try phoneRewrite(name) { props in
            props = props.map { $0.name == "SUMMARY" ? ICalProperty(name: "SUMMARY", text: "Write the final report") : $0 }
        }
        let report = try bridge.cycle()
        #expect(report.updated == 1)
        let after = try #require(try store.task(task.id))
        #expect(after.title == "Write the final report")
        #expect(after.urgency == .urgent && after.duration?.minutes == 45 && after.category == "Deep Work")
        #expect(after.nextUpPosition == task.nextUpPosition)
        #expect(after.versions[.urgency] == task.versions[.urgency])
        #expect(try read(name).contains("X-NEXTUP-DURATION:45\n"))
        #expect(try bridge.cycle().written == 0)
    }

    @Test func aPropertyChangedOnBothSidesGoesToTheNewerChange() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Original")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        // Changed in nextup, and by a phone whose edit is stamped earlier: nextup's stays.
        _ = try store.edit(task.id, set: [(.title, .string("Edited in nextup"))])
        try phoneRewrite(name) { props in
            props = props.filter { $0.name != "SUMMARY" && $0.name != "LAST-MODIFIED" }
                + [ICalProperty(name: "SUMMARY", text: "Edited on the phone"), ICalProperty(name: "LAST-MODIFIED", value: "20000101T000000Z")]
        }
        var report = try bridge.cycle()
        #expect(report.kept == 1 && report.updated == 0)
        #expect(report.notices.contains { $0.contains("kept nextup's newer title") })
        #expect(try store.task(task.id)?.title == "Edited in nextup")
        #expect(try read(name).contains("SUMMARY:Edited in nextup\n"))
        // Again, the phone's edit stamped later: the phone's wins.
        _ = try store.edit(task.id, set: [(.title, .string("Edited in nextup again"))])
        try phoneRewrite(name) { props in
            props = props.filter { $0.name != "SUMMARY" && $0.name != "LAST-MODIFIED" }
                + [ICalProperty(name: "SUMMARY", text: "Edited on the phone later"), ICalProperty(name: "LAST-MODIFIED", value: "21000101T000000Z")]
        }
        report = try bridge.cycle()
        #expect(report.kept == 0 && report.updated == 1)
        #expect(try store.task(task.id)?.title == "Edited on the phone later")
        #expect(try bridge.cycle().written == 0)
    }

    /// A phone change that loses to nextup's newer value (made before it,
    /// read after it) is kept in the history under the phone's version and
    /// published: a machine that later meets that value in a file, under a
    /// phone's later `LAST-MODIFIED`, dates it from there (``VersionRecord/calendarTakes(_:)``).
    @Test func aPhoneChangeThatLosesIsKeptAndPublishedUnderItsVersion() throws {
        let (store, bridge, clock, task) = try openBridged("Original")
        let name = "\(task.id.rawValue).ics"
        clock.step()
        let phoneTime = clock.nowMillis()
        clock.step()
        _ = try store.edit(task.id, set: [(.title, .string("Edited in nextup"))])
        try phoneRewrite(name) { props in
            props = props.filter { $0.name != "SUMMARY" && $0.name != "LAST-MODIFIED" }
                + [ICalProperty(name: "SUMMARY", text: "Edited on the phone"), ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: phoneTime))]
        }
        clock.step()
        let report = try bridge.cycle(now: clock.nowMillis())
        #expect(report.kept == 1 && report.updated == 0)
        #expect(try store.task(task.id)?.title == "Edited in nextup")
        #expect(try read(name).contains("SUMMARY:Edited in nextup"))
        let phone = Version(timestamp: HybridTimestamp(millis: phoneTime), replica: .calendar)
        #expect(try store.historyEntries(of: task.id).contains { $0.field == .title && $0.value == .string("Edited on the phone") && $0.version == phone })
        #expect(try store.outbox(after: 0).flatMap(\.changes).contains {
            $0.field == .title && $0.value == .string("Edited on the phone") && $0.version == phone
        })
    }

    /// A phone that sets a field back to the value this machine holds, after
    /// another machine's write of another value reached it (its record names
    /// that write), made a change this machine must pass on: the value is
    /// kept, under the phone's later version, which beats that other write.
    @Test func aPhoneSettingBackTheTasksValueAfterAnotherMachinesWriteDatesItAnew() throws {
        let (store, bridge, clock, task) = try openBridged("Plan")
        let name = "\(task.id.rawValue).ics"
        func phoneEdit(priority: String, record: VersionRecord?) throws {
            clock.step()
            var (calendar, index) = try item(name)
            calendar.components[index].properties.removeAll { ["PRIORITY", "LAST-MODIFIED", VersionRecord.propertyName].contains($0.name) }
            calendar.components[index].properties += [ICalProperty(name: "PRIORITY", value: priority),
                                                      ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: clock.nowMillis()))]
            if let property = record?.property { calendar.components[index].properties.append(property) }
            try write(calendar.serialized(), name)
        }
        // The phone makes it important; this machine takes that.
        try phoneEdit(priority: "1", record: nil)
        clock.step()
        _ = try bridge.cycle(now: clock.nowMillis())
        #expect(try store.task(task.id)?.importance == .high)
        // The other machine's "low" reaches the phone (not yet this store); the phone sets it back to high.
        clock.step()
        let other = Version(timestamp: HybridTimestamp(millis: clock.nowMillis()), replica: Self.otherMachine)
        let record = VersionRecord(entries: [VersionRecord.digest(.importance): .init(value: VersionRecord.digest(.int(1)), version: other)])
        try phoneEdit(priority: "1", record: record)
        let phone = Version(timestamp: HybridTimestamp(millis: clock.nowMillis()), replica: .calendar)
        clock.step()
        _ = try bridge.cycle(now: clock.nowMillis())
        let after = try #require(try store.task(task.id))
        #expect(after.importance == .high)
        #expect(after.versions[.importance] == phone)
        // Published under it: the other machine's "low" loses to it through the peer folder too.
        #expect(try store.outbox(after: 0).flatMap(\.changes).contains { $0.field == .importance && $0.version == phone })
    }

    @Test func theLongestNotesGoThroughAndComeBack() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "long notes")
        let notes = String(repeating: "漢,\\;", count: TaskText.maxNotesLength / 4)
        _ = try store.edit(task.id, set: [(.notes, .string(notes))])
        #expect(try bridge.cycle().written == 1)
        let name = "\(task.id.rawValue).ics"
        try phoneRewrite(name) { props in
            props = props.map { $0.name == "SUMMARY" ? ICalProperty(name: "SUMMARY", text: "renamed") : $0 }
        }
        let report = try bridge.cycle()
        #expect(report.skipped.isEmpty && report.updated == 1)
        #expect(try store.task(task.id)?.notes == notes)
        #expect(try store.task(task.id)?.title == "renamed")
    }

    @Test func identicalOrReFoldedContentChangesNothing() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, String(repeating: "long title é ", count: 12))
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let text = try read(name)
        try write(text, name)  // same bytes, new mtime
        let observer = try TaskStore.open(StoreLocation(folder: tmp.path("store")))
        let version = try observer.dataVersion()
        #expect(try bridge.cycle().written == 0)
        #expect(try observer.dataVersion() == version)
        let outbox = try store.outboxCount(after: 0)
        let stored = try store.task(task.id)
        // Unfolded, LF line ends, properties reversed: the same VTODO.
        var calendar = try ICalComponent.parse(Array(text.utf8))[0]
        calendar.components[0].properties.reverse()
        let unfolded = calendar.components[0].properties.map { ICalComponent.contentLine($0) }.joined(separator: "\n")
        try write("BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VTODO\n\(unfolded)\nEND:VTODO\nEND:VCALENDAR\n", name)
        let report = try bridge.cycle()
        #expect(!report.changedStore && report.written == 0)
        #expect(try store.task(task.id) == stored)
        #expect(try store.outboxCount(after: 0) == outbox)
    }

    /// A file whose stamp (device, inode, size, modification and
    /// status-change times) is what the bridge recorded is not read again; a
    /// client's rewrite moves the stamp and is read; `readAll` (sync --full)
    /// reads every file. Shown by a memory whose stamp is made to match a
    /// file the bridge has not read: a normal cycle leaves the file's change
    /// alone, a full one takes it.
    @Test func aFileWhoseStampStandsIsNotReadAgainAndAFullCycleReadsIt() throws {
        let (store, _) = try open()
        let bridge = VdirBridge(store: store, folder: vdir, afterReading: nil, fileClock: { .max / 2 })
        let task = try triaged(store, "Call the plumber")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let uid = task.vtodoUID
        let key = try #require(try bridge.vdirKey(create: false))
        let written = try #require(try store.bridgeItems(vdir: key)[uid])
        #expect(written.stamp == FileStamp(path: vdir.appendingPathComponent(name).path)?.stored)

        // A client's rewrite moves the stamp: read and taken.
        try phoneRewrite(name) { $0 = $0.map { $0.name == "SUMMARY" ? ICalProperty(name: "SUMMARY", value: "Call the plumber today") : $0 } }
        #expect(try bridge.cycle().updated == 1)
        #expect(try store.task(task.id)?.title == "Call the plumber today")

        // Another rewrite, and a memory that claims the bridge saw it (its stamp).
        try phoneRewrite(name) { $0 = $0.map { $0.name == "SUMMARY" ? ICalProperty(name: "SUMMARY", value: "Plumber: Tuesday") : $0 } }
        var claimed = try #require(try store.bridgeItems(vdir: key)[uid])
        claimed.stamp = FileStamp(path: vdir.appendingPathComponent(name).path)?.stored
        try store.saveBridgeItems([uid: claimed], vdir: key)
        let quiet = try bridge.cycle()
        #expect(quiet.updated == 0 && !quiet.changedStore)
        #expect(try store.task(task.id)?.title == "Call the plumber today")
        #expect(try bridge.cycle(readAll: true).updated == 1)
        #expect(try store.task(task.id)?.title == "Plumber: Tuesday")
    }

    /// A file changed less than one tick of the file system's clock before
    /// the bridge's stat may be rewritten in place, to the same size,
    /// without its stat moving: its stamp is not remembered until it is
    /// older, so a phone's same-size rewrite just after the bridge's own
    /// write is read and taken (shown with the clock at the file's time,
    /// then a tick later).
    @Test func aStampYoungerThanATickIsNotTrustedSoASameSizeRewriteIsTaken() throws {
        let (store, _) = try open()
        let task = try triaged(store, "Call Anna")
        let name = "\(task.id.rawValue).ics"
        let path = vdir.appendingPathComponent(name).path
        let fileTime = Mutex<Int64>(0)
        let bridge = VdirBridge(store: store, folder: vdir, afterReading: nil, fileClock: { fileTime.withLock { $0 } })
        fileTime.withLock { $0 = .max / 2 }
        _ = try bridge.cycle()
        // The bridge writes the file; its stat says it changed just now.
        _ = try store.edit(task.id, set: [(.title, .string("Call Bert"))])
        let written = try #require(FileStamp(path: path))
        fileTime.withLock { $0 = max(written.modified, written.changed) }
        _ = try bridge.cycle()
        let key = try #require(try bridge.vdirKey(create: false))
        let now = try #require(FileStamp(path: path))
        fileTime.withLock { $0 = max(now.modified, now.changed) }
        #expect(try store.bridgeItems(vdir: key)[task.vtodoUID]?.stamp == nil)
        // A phone rewrites it in place, same size: taken, whatever its stat says.
        let text = try read(name)
        let phone = text.replacingOccurrences(of: "SUMMARY:Call Bert", with: "SUMMARY:Call Cora")
        #expect(phone.utf8.count == text.utf8.count && phone != text)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(phone.utf8))
        try handle.close()
        #expect(try bridge.cycle().updated == 1)
        #expect(try store.task(task.id)?.title == "Call Cora")
        // A tick later the stamp is remembered: an unchanged file is not read.
        fileTime.withLock { $0 = .max / 2 }
        _ = try store.edit(task.id, set: [(.title, .string("Call Dana"))])
        _ = try bridge.cycle()
        #expect(try store.bridgeItems(vdir: key)[task.vtodoUID]?.stamp == FileStamp(path: path)?.stored)
    }

    /// A client that writes a file after the bridge looked at it and before
    /// the bridge writes it is not written over: the cycle leaves the file
    /// and says so, and the next one reads it first — both edits survive.
    @Test func aFileWrittenWhileTheBridgeRunsIsNotWrittenOver() throws {
        let (store, plain) = try open()
        let task = try triaged(store, "Book the venue")
        _ = try plain.cycle()
        let name = "\(task.id.rawValue).ics"
        let phone: @Sendable () -> Void = {
            _ = try? self.phoneRewrite(name) { $0.append(ICalProperty(name: "DESCRIPTION", text: "ask for the big room")) }
        }
        let racing = VdirBridge(store: store, folder: vdir, afterReading: phone)
        _ = try store.edit(task.id, set: [(.title, .string("Book the venue for Friday"))])
        let report = try racing.cycle()
        #expect(report.written == 0)
        #expect(report.notices.contains { $0.contains(name) && $0.contains("not written over") })
        #expect(try read(name).contains("ask for the big room"))
        _ = try plain.cycle()
        #expect(try store.task(task.id)?.notes == "ask for the big room")
        #expect(try store.task(task.id)?.title == "Book the venue for Friday")
        #expect(try read(name).contains("SUMMARY:Book the venue for Friday"))
    }

    /// A client that writes a file while the bridge writes it (after the
    /// bridge's temporary file is flushed, before its rename: under load a
    /// flush takes long enough for vdirsyncer to land a phone's change) is
    /// not written over either: the phone's title survives and is taken next.
    @Test func aFileWrittenDuringTheBridgesOwnWriteIsNotWrittenOver() throws {
        let (store, plain) = try open()
        let task = try triaged(store, "Book the venue")
        _ = try plain.cycle()
        let name = "\(task.id.rawValue).ics"
        let once = Mutex(true)
        let racing = VdirBridge(store: store, folder: vdir, afterReading: nil, beforeReplacing: { written in
            guard written == name, once.withLock({ let first = $0; $0 = false; return first }) else { return }
            _ = try? self.phoneRewrite(name) {
                $0 = $0.map { $0.name == "SUMMARY" ? ICalProperty(name: "SUMMARY", value: "Book the venue by phone") : $0 }
            }
        })
        _ = try store.edit(task.id, set: [(.urgency, .string("not-urgent"))])
        let report = try racing.cycle()
        #expect(report.written == 0)
        #expect(report.notices.contains { $0.contains(name) && $0.contains("not written over") })
        #expect(try read(name).contains("SUMMARY:Book the venue by phone"))
        _ = try plain.cycle()
        #expect(try store.task(task.id)?.title == "Book the venue by phone")
        #expect(try store.task(task.id)?.urgency == .notUrgent)
        #expect(try read(name).contains("SUMMARY:Book the venue by phone") && read(name).contains("X-NEXTUP-URGENCY:not-urgent"))
    }

    /// A file nextup rewrote after a phone dropped the X- properties holds
    /// X-NEXTUP-VERSIONS but no X-NEXTUP-CATEGORY when the task has no
    /// category; a phone that keeps both and adds a tag as the only
    /// category has added that tag. The record's entry for the tag (absent,
    /// under nextup's version) names another value, so it claims nothing:
    /// the tag is taken (it was read as the store's older "absent" once).
    @Test func aTagAddedToAFileWithARecordAndNoCategoryPropertyIsTaken() throws {
        let (store, bridge) = try open()
        var draft = try TaskDraft(title: "Sort the receipts")
        draft.urgency = .urgent
        let task = try store.add(draft)
        _ = try store.edit(task.id, set: [(.tag("beta"), .bool(true))])
        _ = try store.edit(task.id, set: [(.tag("beta"), .bool(false))])
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        try phoneRewrite(name) { $0 = $0.map { $0.name == "SUMMARY" ? ICalProperty(name: "SUMMARY", value: "Sort the receipts today") : $0 } }
        _ = try bridge.cycle()
        let rewritten = try read(name)
        #expect(rewritten.contains("X-NEXTUP-VERSIONS") && rewritten.contains("X-NEXTUP-URGENCY") && !rewritten.contains("X-NEXTUP-CATEGORY"))
        // The phone keeps every property, adds the tag, moves LAST-MODIFIED on.
        var calendar = try ICalComponent.parse(Array(rewritten.utf8))[0]
        let index = try #require(calendar.components.firstIndex { $0.name == "VTODO" })
        calendar.components[index].properties.removeAll { $0.name == "LAST-MODIFIED" }
        calendar.components[index].properties += [
            ICalProperty(name: "CATEGORIES", value: "beta"),
            ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: Int64(Date().timeIntervalSince1970 * 1000) + 60_000)),
        ]
        try write(calendar.serialized(), name)
        #expect(try bridge.cycle().updated == 1)
        let after = try #require(try store.task(task.id))
        #expect(after.tags == ["beta"] && after.category == nil && after.title == "Sort the receipts today")
    }

    /// Another machine's merge proved a phone change and recorded the value
    /// under the calendar's version; this bridge saw that value in the file
    /// before, under an older entry. Whether the task holds the value
    /// already (a reopen this store had from before another machine's
    /// completion) or nextup changed it since, the newer recorded version
    /// wins: the same value takes it, another value gives way to it. A
    /// value the calendar only held moves nothing.
    @Test(arguments: [(true, false), (true, true), (false, false), (false, true)])
    func aValueTheRecordNamesUnderANewerVersionWins(proven: Bool, editedSince: Bool) throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Renew the passport")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        var (calendar, index) = try item(name)
        if editedSince { _ = try store.edit(task.id, set: [(.title, .string("Renew both passports"))]) }
        let held = try #require(try store.task(task.id))
        let view = try VTodoView(vtodo: calendar.components[index])
        let later = Int64(Date().timeIntervalSince1970 * 1000) + 60_000
        let version = Version(timestamp: HybridTimestamp(millis: later), replica: proven ? .calendar : .calendarHeld)
        var record = VersionRecord(calendar.components[index])
        record.entries[VersionRecord.digest(TaskField.title)] = .init(value: VersionRecord.digest(try #require(view.fieldValue(.title))),
                                                                      version: version)
        calendar.components[index].properties.removeAll { $0.name == "LAST-MODIFIED" || $0.name == VersionRecord.propertyName }
        calendar.components[index].properties += [try #require(record.property),
                                                  ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: later))]
        try write(calendar.serialized(), name)
        _ = try bridge.cycle()
        let after = try #require(try store.task(task.id))
        #expect(after.title == (proven ? "Renew the passport" : held.title))
        #expect(after.versions[.title] == (proven ? version : held.versions[.title]))
    }

    /// The phone retitled, keeping the record that names the title before;
    /// another machine took that title from the calendar, then retitled the
    /// task; this store heard of both only through the peer folder. A later
    /// phone edit of the due date moves `LAST-MODIFIED` on: the phone's
    /// title dates from the other machine's take, so the later retitle stays,
    /// and the due date is taken.
    @Test func aPhoneChangeAnotherMachineTookAndReplacedStaysReplaced() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Renew the passport")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let now = Int64(Date().timeIntervalSince1970) * 1000
        let other = Self.otherMachine
        let retitle = Version(timestamp: HybridTimestamp(millis: now + 20_000), replica: other)
        _ = try store.mergeRemote([
            FieldChange(task: task.id, field: .title, value: .string("Renew it"),
                        version: Version(timestamp: HybridTimestamp(millis: now + 10_000), replica: .calendar)),
            FieldChange(task: task.id, field: .title, value: .string("Renew both passports"), version: retitle),
        ])
        var (calendar, index) = try item(name)
        calendar.components[index].properties.removeAll { ["SUMMARY", "LAST-MODIFIED"].contains($0.name) }
        calendar.components[index].properties += [
            ICalProperty(name: "SUMMARY", text: "Renew it"),
            ICalProperty(name: "DUE", parameters: [ICalParameter(name: "VALUE", values: ["DATE"])], value: "20301201"),
            ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: now + 60_000)),
        ]
        #expect(VersionRecord(calendar.components[index]).differs(.title, in: try VTodoView(vtodo: calendar.components[index])))
        try write(calendar.serialized(), name)
        _ = try bridge.cycle()
        let after = try #require(try store.task(task.id))
        #expect(after.title == "Renew both passports" && after.versions[.title] == retitle)
        #expect(after.due?.description == "2030-12-01")
    }

    /// Another machine completed the task and wrote its file; the phone
    /// took that file and reopened the task, keeping the record that names
    /// the completion. This bridge last saw the file open, before the
    /// completion, and its store took the completion through the peer
    /// folder: the file holds what this bridge saw, yet the record proves
    /// the phone's reopen, newer than the completion, and it is taken.
    @Test func aProvenPhoneChangeThisBridgeHadNotReadIsTakenThoughItsMemoryHeldTheValue() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "File the taxes")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let now = Int64(Date().timeIntervalSince1970) * 1000
        let other = Self.otherMachine
        let completion = Version(timestamp: HybridTimestamp(millis: now + 10_000), replica: other)
        _ = try store.mergeRemote([FieldChange(task: task.id, field: .done, value: .int(now + 10_000), version: completion)])
        var (calendar, index) = try item(name)
        var record = VersionRecord(calendar.components[index])
        record.entries[VersionRecord.digest(TaskField.done)] = .init(value: VersionRecord.digest(FieldValue.int(now + 10_000)), version: completion)
        calendar.components[index].properties.removeAll { $0.name == "LAST-MODIFIED" || $0.name == VersionRecord.propertyName }
        calendar.components[index].properties += [try #require(record.property),
                                                  ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: now + 30_000))]
        try write(calendar.serialized(), name)
        _ = try bridge.cycle()
        let after = try #require(try store.task(task.id))
        #expect(!after.isDone)
        #expect(after.versions[.done]?.timestamp.millis == now + 30_000)
    }

    /// vdirsyncer finds both sides changed while nextup's newer due date
    /// (from another machine) is not in the vdir's copy yet (the bridge has
    /// not run since):
    /// the merge reads nextup's side as the task is, so the phone's older
    /// due date loses to the task's, not to the copy's stale empty one, and
    /// the phone's title is kept.
    @Test func vdirMergeReadsNextupsSideAsTheTaskIsNow() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Book the flights")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let copy = Array(try read(name).utf8)
        let now = Int64(Date().timeIntervalSince1970) * 1000
        var calendar = try ICalComponent.parse(copy)[0]
        let index = try #require(calendar.components.firstIndex { $0.name == "VTODO" })
        calendar.components[index].properties.removeAll { ["SUMMARY", "LAST-MODIFIED"].contains($0.name) }
        calendar.components[index].properties += [
            ICalProperty(name: "SUMMARY", text: "Book the flights and the hotel"),
            ICalProperty(name: "DUE", parameters: [ICalParameter(name: "VALUE", values: ["DATE"])], value: "20301201"),
            ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: now + 60_000)),
        ]
        let other = Self.otherMachine
        _ = try store.mergeRemote([FieldChange(task: task.id, field: .due, value: .string("2030-12-24"),
                                               version: Version(timestamp: HybridTimestamp(millis: now + 120_000), replica: other))])
        let merged = try ICalComponent.parse(Array(try bridge.merge(copy, Array(calendar.serialized().utf8)).utf8))[0]
        let view = try VTodoView(vtodo: try #require(merged.components.first { $0.name == "VTODO" }))
        #expect(view.due == "2030-12-24")
        #expect(view.title == "Book the flights and the hotel")
    }

    /// The phone retitles twice within one second of LAST-MODIFIED; a
    /// store took the first title from the calendar under that second, and
    /// the file's record names it so. The second title the record proves
    /// newer: it is taken under a version just after the first's, not
    /// dropped as "no newer than what the task holds".
    @Test func aSecondPhoneChangeWithinTheSameSecondIsTaken() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Plan the trip")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let second = (Int64(Date().timeIntervalSince1970) + 60) * 1000
        let first = Version(timestamp: HybridTimestamp(millis: second), replica: .calendar)
        _ = try store.mergeRemote([FieldChange(task: task.id, field: .title, value: .string("Plan the trip to Rome"), version: first)])
        var (calendar, index) = try item(name)
        var record = VersionRecord(calendar.components[index])
        record.entries[VersionRecord.digest(TaskField.title)] = .init(value: VersionRecord.digest(FieldValue.string("Plan the trip to Rome")), version: first)
        calendar.components[index].properties.removeAll { ["SUMMARY", "LAST-MODIFIED", VersionRecord.propertyName].contains($0.name) }
        calendar.components[index].properties += [ICalProperty(name: "SUMMARY", text: "Plan the trip to Naples"), try #require(record.property),
                                                  ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: second))]
        try write(calendar.serialized(), name)
        _ = try bridge.cycle()
        let after = try #require(try store.task(task.id))
        #expect(after.title == "Plan the trip to Naples")
        #expect(after.versions[.title] == Version(timestamp: first.timestamp.successor, replica: .calendar))
    }

    /// The phone retitles twice within one second of LAST-MODIFIED, and the
    /// bridge reads each: the second is dated just after the first, in that
    /// second (the calendar's), not now — so that a third phone edit in the
    /// same second, met by vdir-merge, is not older than it.
    @Test func aPhoneChangeInTheSecondOfTheFileAsLastSeenStaysInThatSecond() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "Plan the trip")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let second = (Int64(Date().timeIntervalSince1970) + 60) * 1000
        for title in ["Plan the trip to Rome", "Plan the trip to Naples"] {
            try phoneRewrite(name) { properties in
                properties.removeAll { ["SUMMARY", "LAST-MODIFIED"].contains($0.name) }
                properties += [ICalProperty(name: "SUMMARY", text: title), ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: second))]
            }
            _ = try bridge.cycle()
        }
        let after = try #require(try store.task(task.id))
        #expect(after.title == "Plan the trip to Naples")
        #expect(after.versions[.title] == Version(timestamp: HybridTimestamp(millis: second).successor, replica: .calendar))
    }

    /// The phone completes a task, then edits its due date a minute later:
    /// the completion dates from its COMPLETED, not from the LAST-MODIFIED
    /// the later edit moved on, so a reopen made in between wins.
    @Test func aPhoneCompletionDatesFromItsCompletedTime() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "File the taxes")
        _ = try bridge.cycle()
        let name = "\(task.id.rawValue).ics"
        let now = Int64(Date().timeIntervalSince1970) * 1000
        let completed = now + 10_000, modified = now + 60_000
        try phoneRewrite(name) { properties in
            properties.removeAll { ["STATUS", "LAST-MODIFIED"].contains($0.name) }
            properties += [ICalProperty(name: "STATUS", value: "COMPLETED"), ICalProperty(name: "COMPLETED", value: ICalDate.formatUTC(millis: completed)),
                           ICalProperty(name: "DUE", parameters: [ICalParameter(name: "VALUE", values: ["DATE"])], value: "20301201"),
                           ICalProperty(name: "LAST-MODIFIED", value: ICalDate.formatUTC(millis: modified))]
        }
        _ = try bridge.cycle()
        let after = try #require(try store.task(task.id))
        #expect(after.completedAt == completed)
        #expect(after.versions[.done]?.timestamp.millis == completed)
        #expect(after.versions[.due]?.timestamp.millis == modified)
    }

    /// Memories from before stamps (or a touched file) are read as before;
    /// their new stamps are saved only with a cycle that writes anyway.
    @Test func missingStampsAreRecordedOnlyWhenTheCycleWritesAnyway() throws {
        let (store, _) = try open()
        let bridge = VdirBridge(store: store, folder: vdir, afterReading: nil, fileClock: { .max / 2 })
        let task = try triaged(store, "Water the plants")
        let other = try triaged(store, "Feed the cat")
        _ = try bridge.cycle()
        let uid = task.vtodoUID
        let key = try #require(try bridge.vdirKey(create: false))
        var old = try #require(try store.bridgeItems(vdir: key)[uid])
        old.stamp = nil
        try store.saveBridgeItems([uid: old], vdir: key)
        let observer = try TaskStore.open(StoreLocation(folder: tmp.path("store")))
        let version = try observer.dataVersion()
        #expect(!(try bridge.cycle().changedStore))
        #expect(try observer.dataVersion() == version)  // quiet: nothing written for the stamp
        _ = try store.edit(other.id, set: [(.title, .string("Feed the cat twice"))])
        #expect(try bridge.cycle().written == 1)
        let restamped = try #require(try store.bridgeItems(vdir: key)[uid])
        #expect(restamped.stamp == FileStamp(path: vdir.appendingPathComponent("\(task.id.rawValue).ics").path)?.stored)
    }

    @Test func aFileMadeElsewhereBecomesATaskWithAStableId() throws {
        let (store, bridge) = try open()
        let phone = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//phone//EN\nBEGIN:VTODO\nUID:tasks.org-1234@example\nSUMMARY:Buy milk\nPRIORITY:1\nDUE;VALUE=DATE:20261201\nCATEGORIES:Errands,shop\nEND:VTODO\nEND:VCALENDAR\n"
        try write(phone, "tasks.org-1234@example.ics")
        let report = try bridge.cycle()
        #expect(report.created == 1)
        let id = TaskID.forVTodoUID("tasks.org-1234@example")
        let task = try #require(try store.task(id))
        #expect(task.title == "Buy milk" && task.importance == .high && task.due?.description == "2026-12-01")
        #expect(task.category == "Errands" && task.tags == ["shop"])
        #expect(task.externalID == "tasks.org-1234@example" && task.source == "vtodo")
        #expect(try files() == ["tasks.org-1234@example.ics"])
        // Never changed in nextup: never rewritten.
        #expect(report.written == 0)
        #expect(try read("tasks.org-1234@example.ics") == phone)
        // A second store bridging its own copy names the same task.
        let other = tmp.path("vdir2")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data(phone.utf8).write(to: other.appendingPathComponent("x.ics"))
        let store2 = try TaskStore.open(StoreLocation(folder: tmp.path("store2")))
        _ = try VdirBridge(store: store2, folder: other).cycle()
        #expect(try store2.allTasks().map(\.id) == [id])
    }

    @Test func aVanishedFileSoftDeletesAndRestoringWritesItBack() throws {
        let (store, bridge) = try open()
        let keep = try triaged(store, "keep")
        let task = try triaged(store, "gone on the phone")
        _ = try bridge.cycle()
        try FileManager.default.removeItem(at: vdir.appendingPathComponent("\(task.id.rawValue).ics"))
        let report = try bridge.cycle()
        #expect(report.deleted == 1 && report.written == 0)
        #expect(try store.task(task.id)?.deleted == true)
        #expect(try store.task(keep.id)?.deleted == false)
        #expect(try bridge.cycle().written == 0)
        _ = try store.restore(task.id)
        #expect(try bridge.cycle().written == 1)
        #expect(try read("\(task.id.rawValue).ics").contains("STATUS:NEEDS-ACTION\r\n"))
        // Deleted in nextup: the file stays, cancelled.
        _ = try store.delete(keep.id)
        _ = try bridge.cycle()
        #expect(try read("\(keep.id.rawValue).ics").contains("STATUS:CANCELLED\r\n"))
    }

    @Test func anEmptiedOrMissingFolderDeletesNothing() throws {
        let (store, bridge) = try open()
        let task = try triaged(store, "t")
        _ = try bridge.cycle()
        try FileManager.default.removeItem(at: vdir)
        #expect(throws: BridgeError.missingFolder(vdir.standardizedFileURL.path)) { try bridge.cycle() }
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let report = try bridge.cycle()
        #expect(report.deleted == 0 && report.written == 0)
        #expect(report.notices.contains { $0.contains("is empty") && $0.contains("nothing deleted") })
        #expect(try store.task(task.id)?.deleted == false)
        #expect(try files().isEmpty)
    }

    @Test func badFilesAreSkippedWithOneLineAndTheRestIsBridged() throws {
        let (store, bridge) = try open()
        let ours = try triaged(store, "ours")
        _ = try bridge.cycle()
        let good = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:good\nSUMMARY:Good one\nEND:VTODO\nEND:VCALENDAR\n"
        try write(good, "good.ics")
        try write("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:m\nSUMMARY x\nEND:VTODO\nEND:VCALENDAR\n", "malformed.ics")
        try Data(Array("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:n\nSUMMARY:".utf8) + [0xFF, 0xFE] + Array("\nEND:VTODO\nEND:VCALENDAR\n".utf8))
            .write(to: vdir.appendingPathComponent("latin.ics"))
        try write("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:e\nSUMMARY:Meeting\nEND:VEVENT\nEND:VCALENDAR\n", "event.ics")
        try write("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nSUMMARY:a\nEND:VTODO\nBEGIN:VTODO\nUID:b\nSUMMARY:b\nEND:VTODO\nEND:VCALENDAR\n", "two.ics")
        try Data(count: 10 * 1024 * 1024).write(to: vdir.appendingPathComponent("huge.ics"))
        let impostor = TaskID.make()
        _ = try store.bridgeWrite(impostor, set: [(.title, .string("known"))], creating: true)
        try write("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:someone-else\nSUMMARY:x\nEND:VTODO\nEND:VCALENDAR\n", "\(impostor.rawValue).ics")
        let before = try read("\(ours.id.rawValue).ics")
        let report = try bridge.cycle()
        #expect(report.created == 1)
        #expect(try store.task(TaskID.forVTodoUID("good"))?.title == "Good one")
        let reasons = report.skipped.joined(separator: "\n")
        for (file, words) in [("malformed.ics", "no ':'"), ("latin.ics", "not UTF-8"), ("event.ics", "VEVENT"),
                              ("two.ics", "2 VTODOs"), ("huge.ics", "larger than"), ("\(impostor.rawValue).ics", "named like the task")] {
            #expect(report.skipped.contains { $0.hasPrefix(file) && $0.contains(words) }, "\(file): \(reasons)")
        }
        #expect(report.skipped.allSatisfy { !$0.contains("\n") })
        #expect(try read("\(ours.id.rawValue).ics") == before)
        #expect(try read("malformed.ics").contains("SUMMARY x"))
        #expect(try store.task(TaskID.forVTodoUID("someone-else")) == nil)
    }

    @Test func aStaleBridgeWriteIsRefusedAndChangesNothing() throws {
        let (store, _) = try open()
        let task = try triaged(store, "t")
        _ = try store.edit(task.id, set: [(.title, .string("changed meanwhile"))])
        #expect(throws: StaleWrite.self) {
            try store.bridgeWrite(task.id, set: [(.title, .string("from the phone"))], expecting: [.title: task.versions[.title]],
                                  vdir: "id:v", memory: ["x": BridgeItem(uid: "x", file: "x.ics", hash: "")])
        }
        #expect(try store.task(task.id)?.title == "changed meanwhile")
        #expect(try store.bridgeItems(vdir: "id:v").isEmpty)
    }
}
