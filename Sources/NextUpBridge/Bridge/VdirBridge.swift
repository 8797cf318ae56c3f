import Foundation
import NextUpCore
import NextUpStore
import Synchronization

/// The phone bridge (DESIGN.md §5b): keeps a vdir — one `<uid>.ics` VTODO
/// file per task, the folder vdirsyncer keeps in step with a CalDAV server —
/// and the store in step, both ways, one ``cycle()`` at a time.
///
/// One cycle, in order:
/// 1. **Read.** Every `.ics` file whose bytes differ from what the bridge last
///    wrote or read for it is parsed (``VTodoView/init(vtodo:zone:)``; a
///    master VTODO with `RECURRENCE-ID` overrides is one item, the master
///    bridged) and diffed against that memory
///    (``VTodoView/changes(since:task:now:)``); only the properties that
///    changed become one versioned edit of the task, written through
///    ``NextUpStore/TaskStore/bridgeWrite(_:set:creating:expecting:vdir:memory:)``
///    with the versions the bridge read (a concurrent edit makes it look
///    again next cycle, never overwrite) and the new memory in the same
///    transaction. The calendar is a replica of its own: a phone change is
///    merged under (the file's `LAST-MODIFIED`, else `DTSTAMP`, a floating
///    one read as local time; ``NextUpCore/ReplicaID/calendar``), so every
///    machine that takes it writes the same version, and a property changed
///    on both sides goes to the newer change (``take``). A VTODO made elsewhere
///    becomes a task whose id derives from its `UID`
///    (``NextUpCore/TaskID/forVTodoUID(_:)``), `external_id` the `UID`. A
///    file the bridge never saw, for a task the store already has, is
///    diffed against the task, each property by the same newer-change rule.
/// 2. **Vanished.** A file the bridge had seen and that is gone soft-deletes
///    its task (restorable; it syncs like any delete), under
///    ``NextUpCore/ReplicaID/calendarRemoval``. An empty vdir that
///    held files (an unmounted disk, a vdirsyncer reset) is reported and the
///    cycle stops there; when more than ``massDeletionFiles`` files and more
///    than a fifth of the known ones vanish in one cycle, nothing is deleted
///    and the cycle says why, unless it runs with `acceptDeletions`.
/// 3. **Write.** Every task whose file does not say what the task says is
///    written, atomically: the file as it is, with only the properties whose
///    nextup value differs patched in (``ICalComponent/patched(_:for:zone:)``),
///    so a phone item nextup never changed is never rewritten; a new task
///    gets `<uid>.ics`; a deleted task keeps its file as `STATUS:CANCELLED`
///    and gets none if it has none, except a task removed on the phone
///    (deleted under the calendar-removal id, by this machine or another):
///    its file is removed, so vdirsyncer does not send it back; a restored
///    one gets its file back. A
///    file whose ``FileStamp`` moved since this cycle looked at it (a client
///    wrote it meanwhile) is not written over: the next cycle reads it first.
///
/// A series is one file under its `UID`, its live occurrence's; how each
/// phone's way of completing an occurrence is read is `BridgeCycle+Series`.
///
/// Bad files — malformed, not UTF-8, larger than ``maxFileBytes``, holding a
/// VEVENT, several VTODOs that are not one item, or named `<id>.ics` for a
/// task of this store while holding another `UID` — are skipped with one
/// line each and never written over; the rest is bridged. A cycle with
/// nothing new writes no file and nothing to the store. The memory lives in
/// the store under the vdir's identity (its marker file,
/// ``VdirFolder/identity()``), so it follows the folder whatever its path's
/// spelling, and a folder that is not this vdir never touches it.
public final class VdirBridge: Sendable {
    public let store: TaskStore
    public let folder: VdirFolder
    /// The largest `.ics` file read: room for the longest notes a task may
    /// hold (512 KiB of UTF-8, up to twice that escaped), not for a 10 MB
    /// attachment.
    public static let maxFileBytes = 4 << 20

    /// More vanished files than this (and more than a fifth of the known
    /// ones) in one cycle delete nothing until accepted.
    public static let massDeletionFiles = 5
    private let running = Mutex<Void>(())
    /// Held during a cycle, so that the cycles of two processes on one store
    /// (a TUI and `nextup sync`) never overlap either.
    private let lock: StoreLock?

    /// The name of the lock file in the store folder.
    public static let lockFileName = "vdir.lock"

    /// Called between a cycle's reading and its writing (tests: a client
    /// writing a file meanwhile).
    let afterReading: (@Sendable () -> Void)?
    /// The person's time zone (floating times, UTC due times).
    public let zone: LocalZone

    public convenience init(store: TaskStore, folder: URL, zone: LocalZone = .system) {
        self.init(store: store, folder: folder, zone: zone, afterReading: nil)
    }

    init(store: TaskStore, folder: URL, zone: LocalZone = .system, afterReading: (@Sendable () -> Void)?,
         fileClock: @escaping @Sendable () -> Int64 = VdirFolder.systemClock,
         beforeReplacing: (@Sendable (String) -> Void)? = nil) {
        self.store = store
        self.folder = VdirFolder(url: folder, clock: fileClock, beforeReplacing: beforeReplacing)
        self.zone = zone
        self.afterReading = afterReading
        lock = try? StoreLock(folder: store.location.folder, name: Self.lockFileName)
    }

    /// Runs one cycle (cycles on one store never overlap, in this process or
    /// across processes: they hold `vdir.lock` in the store folder).
    ///
    /// - Throws: ``BridgeError`` when the vdir is missing or unreadable;
    ///   store errors.
    ///
    /// - Parameter readAll: read every file, even one whose ``FileStamp``
    ///   says it is what the bridge last saw (`nextup sync --full`).
    /// - Parameter acceptDeletions: delete the tasks of vanished files even
    ///   when many vanished at once.
    public func cycle(now: Int64? = nil, readAll: Bool = false, acceptDeletions: Bool = false) throws -> BridgeReport {
        try running.withLock { _ in
            try lock?.lockExclusive()
            defer { lock?.unlock() }
            var cycle = try BridgeCycle(bridge: self, now: now ?? Int64(Date().timeIntervalSince1970 * 1000))
            cycle.readAll = readAll
            cycle.acceptDeletions = acceptDeletions
            return try cycle.run()
        }
    }

    /// The memory key of this vdir: its identity, made (marker written) on
    /// first use; a memory kept under its path before it had one is taken over.
    func vdirKey(create: Bool) throws -> String? {
        if let id = folder.identity() { return "id:" + id }
        guard create else { return nil }
        let id = try folder.makeIdentity()
        let key = "id:" + id
        let spellings = Set([folder.url.path, folder.url.resolvingSymlinksInPath().path])
        for path in spellings.sorted() { try store.renameBridgeVdir(from: "path:" + path, to: key) }
        return key
    }
}

/// One cycle's working state (see ``VdirBridge``).
struct BridgeCycle {
    let bridge: VdirBridge
    let now: Int64
    var report = BridgeReport()
    /// The memory key of the vdir (its identity).
    var vdir = ""
    /// The memory as the cycle goes, by UID.
    var items: [String: BridgeItem] = [:]
    /// The memory as stored.
    var stored: [String: BridgeItem] = [:]
    var tasks: [TaskID: TaskItem] = [:]
    var names: [String] = []
    /// UIDs whose file is in the folder now (readable or not), and its name.
    var fileOf: [String: String] = [:]
    /// UIDs whose file must not be written this cycle (unreadable, or a change retried).
    var blocked: Set<String> = []
    /// The bytes of files read this cycle, by UID.
    var contents: [String: [UInt8]] = [:]
    /// Read every file, stamps or not.
    var readAll = false
    /// Delete for vanished files even when many vanished at once.
    var acceptDeletions = false
    /// Each file's stamp when this cycle looked at it: a file that moved on
    /// since is not written over (a client wrote it meanwhile; the next
    /// cycle reads it first).
    var seenStamps: [String: FileStamp] = [:]
    /// The live occurrence of each series, by series id (``indexSeries()``).
    var liveOf: [TaskID: TaskID] = [:]

    var store: TaskStore { bridge.store }
    var folder: VdirFolder { bridge.folder }

    init(bridge: VdirBridge, now: Int64) throws {
        self.bridge = bridge
        self.now = now
    }

    /// The memory updates not saved yet.
    var pending: [String: BridgeItem?] {
        var out: [String: BridgeItem?] = [:]
        for uid in Set(items.keys).union(stored.keys) where items[uid] != stored[uid] { out[uid] = .some(items[uid]) }
        return out
    }

    mutating func run() throws -> BridgeReport {
        try folder.checkAvailable()
        let path = folder.url.path
        names = try folder.itemNames()
        if names.isEmpty, folder.identity() == nil {
            // An empty folder without a marker where a vdir the bridge knows
            // was: that vdir unmounted or reset, not a new one.
            let spellings = Set([path, folder.url.resolvingSymlinksInPath().path])
            if let (_, known) = try store.bridgeVdirs().first(where: { spellings.contains($0.value.path) && $0.value.files > 0 }) {
                report.notices.append("the vdir \(path) is empty but held \(known.files) task file\(known.files == 1 ? "" : "s"): nothing deleted (is it unmounted, or was vdirsyncer reset?)")
                return report
            }
        }
        guard let key = try bridge.vdirKey(create: true) else { return report }
        vdir = key
        try store.saveBridgeVdirPath(path, vdir: vdir)
        stored = try store.bridgeItems(vdir: vdir)
        items = stored
        let held = items.values.filter { !$0.gone }.count
        if names.isEmpty, held > 0 {
            report.notices.append("the vdir \(path) is empty but held \(held) task file\(held == 1 ? "" : "s"): nothing deleted (is it unmounted, or was vdirsyncer reset?)")
            return report
        }
        for task in try store.allTasks() { tasks[task.id] = task }
        indexSeries()
        readFiles()
        deleteVanished()
        bridge.afterReading?()
        writeFiles()
        // What only saves work (a new stamp of an unchanged file, a file found
        // up to date, bytes of a memory from before they were kept) is saved
        // only when the cycle writes anyway, so a quiet cycle stays quiet.
        let state = pending
        let loud = state.contains { uid, item in
            guard let item, var old = stored[uid] else { return true }
            old.stamp = item.stamp
            old.checked = item.checked
            if old.base == nil { old.base = item.base }
            return old != item
        }
        if loud { try store.saveBridgeItems(state, vdir: vdir) }
        return report
    }

    // MARK: 1. Read

    mutating func readFiles() {
        var uidOfFile: [String: String] = [:]
        for (uid, item) in items where !item.gone { uidOfFile[item.file] = uid }
        // Known files first: a phone's completion is taken before a new item
        // that may be its next occurrence (``joinsSeries(_:file:)``).
        for name in names.filter({ uidOfFile[$0] != nil }) + names.filter({ uidOfFile[$0] == nil }) {
            let known = uidOfFile[name]
            func skip(_ why: String) {
                report.skipped.append("\(Sanitizer.visible(name)): \(Sanitizer.visible(why))")
                if let known { fileOf[known] = name; blocked.insert(known) }
            }
            // Stat first, read second: a write after the stat moves the
            // stamp on, so the next cycle reads the file again.
            let (seen, stamp) = folder.stamps(name)
            seenStamps[name] = seen
            if !readAll, let known, let item = items[known], item.lastSeen != nil, let stamp, item.stamp == stamp.stored {
                fileOf[known] = name
                continue
            }
            let bytes: [UInt8]
            switch folder.read(name, limit: VdirBridge.maxFileBytes) {
            case .tooLarge(let size): skip("larger than \(VdirBridge.maxFileBytes / 1024 / 1024) MiB (\(size) bytes)"); continue
            case .failed(let why): skip(why); continue
            case .bytes(let b): bytes = b
            }
            let hash = SHA1.hex(bytes)
            if let known, var item = items[known], item.hash == hash {
                fileOf[known] = name
                if item.lastSeen == nil { item.base = bytes }  // a memory from before the bytes were kept
                item.stamp = stamp?.stored
                items[known] = item
                contents[known] = bytes
                continue
            }
            let view: VTodoView
            let lastModified: Int64?
            let record: VersionRecord
            switch Self.item(bytes, zone: bridge.zone) {
            case .failure(let why): skip(why.message); continue
            case .success(let read): (view, lastModified, record) = read
            }
            let uid = view.uid
            if let unheld = Self.unheldCategories(bytes).first {
                report.notices.append("\(Sanitizer.visible(name)): the category \"\(Sanitizer.visible(String(unheld.prefix(40))))…\" is more than nextup holds; it stays in the file, not in the task")
            }
            if let tzid = Self.unknownDueZone(bytes) {
                report.notices.append("\(Sanitizer.visible(name)): its due time's zone \"\(Sanitizer.visible(String(tzid.prefix(40))))\" is unknown here; the date is read as written")
            }
            let stem = String(name.dropLast(4))
            if stem != uid, let named = TaskID(stem), named.rawValue == stem, tasks[named] != nil || items[stem] != nil {
                skip("named like the task \(named.short) but holds the UID \(Sanitizer.visible(uid))")
                continue
            }
            if let other = fileOf[uid] {
                skip("holds the UID \(Sanitizer.visible(uid)), which \(other) holds too")
                continue
            }
            fileOf[uid] = name
            contents[uid] = bytes
            take(view, record: record, file: name, bytes: bytes, hash: hash, lastModified: lastModified, stamp: stamp)
        }
    }

    /// The view of an item's master VTODO, its `LAST-MODIFIED` (ms) and its
    /// record of nextup's versions, or why the bridge skips it (one line).
    static func item(_ bytes: [UInt8], zone: LocalZone) -> Result<(VTodoView, Int64?, VersionRecord), ICalParseError> {
        do {
            let roots = try ICalComponent.parse(bytes)
            let calendar = roots.first { $0.name == "VCALENDAR" }
            let todos = roots.flatMap { $0.name == "VTODO" ? [$0] : $0.components.filter { $0.name == "VTODO" } }
            guard let calendar, let master = calendar.masterVTodoIndex else {
                if todos.isEmpty {
                    let event = roots.contains { $0.name == "VEVENT" || $0.components.contains { $0.name == "VEVENT" } }
                    return .failure(ICalParseError(event ? "holds a VEVENT, not a VTODO (events are not tasks)" : "holds no VTODO"))
                }
                if todos.count == 1 { return .failure(ICalParseError("its VTODO is not inside a VCALENDAR")) }
                return .failure(ICalParseError("holds \(todos.count) VTODOs that are not one task and its overrides; a vdir item is one"))
            }
            let todo = calendar.components[master]
            let view = try VTodoView(vtodo: todo, zone: zone)
            return .success((view, changedAt(todo, zone: zone), VersionRecord(todo)))
        } catch {
            return .failure(error)
        }
    }

    /// When a VTODO was last changed (ms): its `LAST-MODIFIED`, else its
    /// `DTSTAMP` (RFC 5545: outside a scheduling message, the time the
    /// object was last revised); a floating time in the person's zone.
    static func changedAt(_ todo: ICalComponent, zone: LocalZone) -> Int64? {
        (todo.property("LAST-MODIFIED") ?? todo.property("DTSTAMP")).flatMap {
            ICalDate.instant($0.value.trimmingCharacters(in: .whitespaces), zone: zone)
        }
    }

    /// The `CATEGORIES` names of an item's master VTODO that nextup cannot
    /// hold as a category or a tag (too long): kept in the file, said once
    /// per change of the file.
    static func unheldCategories(_ bytes: [UInt8]) -> [String] {
        guard let calendar = (try? ICalComponent.parse(bytes))?.first(where: { $0.name == "VCALENDAR" }),
              let master = calendar.masterVTodoIndex else { return [] }
        return calendar.components[master].properties("CATEGORIES").flatMap(\.textList)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && (try? TaskText.category($0)) == nil }
    }

    /// The `TZID` of an item's master `DUE` when the zone database does not
    /// know it (the date is read as written): said once per change of the file.
    static func unknownDueZone(_ bytes: [UInt8]) -> String? {
        guard let calendar = (try? ICalComponent.parse(bytes))?.first(where: { $0.name == "VCALENDAR" }),
              let master = calendar.masterVTodoIndex, let due = calendar.components[master].property("DUE") else { return nil }
        return ICalDate.unknownZone(due)
    }

    /// The view of the bytes the bridge last saw for `uid`, and when they
    /// say they were last changed, when known.
    func remembered(_ uid: String) -> (view: VTodoView, changedAt: Int64?, record: VersionRecord)? {
        guard let bytes = items[uid]?.lastSeen, case .success(let read) = Self.item(bytes, zone: bridge.zone) else { return nil }
        return read
    }

    /// Applies what the file changed since the bridge last saw it.
    ///
    /// The calendar is a replica of its own (``NextUpCore/ReplicaID/calendar``):
    /// the file is its state at `changedAt` (its `LAST-MODIFIED`, else
    /// `DTSTAMP`). Invariants:
    /// - A phone change is a field whose file value differs from the task's
    ///   and either differs from the file as the bridge last saw it, or
    ///   replaces a value the task took from the calendar at an earlier time
    ///   (the phone changed it again: a reopen after another machine took
    ///   the completion). A field the file did not change is never taken,
    ///   whatever its time: `LAST-MODIFIED` covers the whole item.
    /// - A phone change is merged under (`changedAt`, calendar), a completion
    ///   under its `COMPLETED` when that is earlier and after the file as
    ///   last seen: every
    ///   machine that takes it writes the same value under the same version
    ///   (idempotent, in any order), a nextup edit made after it wins by the
    ///   ordinary merge, and it wins over every edit made before it.
    /// - Without a usable time — none, beyond the sane future, or not later
    ///   than the time of the file as last seen (a client that does not move
    ///   it) — a phone change is a local edit now, unless nextup changed the
    ///   field since the bridge last saw the file (then nextup's stays). One
    ///   made in the same second as the file as last seen (`LAST-MODIFIED`
    ///   holds whole seconds), to a field the task took from the calendar in
    ///   that second, is the calendar's, just after that take.
    /// - A file the bridge never saw, for a task it has, is compared with the
    ///   task: each differing field is a phone change; so is a field whose
    ///   value the file's record proves the phone changed, when the bridge
    ///   has not read that change (the file as last seen may hold the same
    ///   value, from before a write the task took from another machine).
    /// - A changed field whose value the file's ``VersionRecord`` names is
    ///   not the phone's: it is a store's value, merged under the version
    ///   recorded (so it loses to any later edit, whatever `LAST-MODIFIED`
    ///   says), quietly; so is an unchanged value the record names under a
    ///   newer version than the task's (the same value takes that version).
    /// - A value the store last took from the calendar, with no store's
    ///   later write of the field reaching the file since (its record names
    ///   no newer entry), dates from that take (the phone held it since), not
    ///   from a later `LAST-MODIFIED`: a nextup edit made after the take wins.
    /// - A value the task holds already, that the record proves the phone set
    ///   after a store's write of another value (one this machine may not have
    ///   heard of), is merged under the phone's version: it beats that write
    ///   on every machine.
    /// - A phone change that loses to the task's newer value is merged all the
    ///   same, to lose: it is kept and published (``NextUpStore/TaskStore/bridgeWrite(_:set:versions:creating:expecting:vdir:memory:)``),
    ///   so other machines date that value from this read.
    mutating func take(_ view: VTodoView, record: VersionRecord, file: String, bytes: [UInt8], hash: String, lastModified: Int64?, stamp: FileStamp?) {
        let uid = view.uid
        if tasks[TaskID.forVTodoUID(uid)] == nil, joinsSeries(view, file: file) { return }
        let id = fileTask(uid)
        let task = tasks[id]
        let previous = items[uid]
        let memory = task == nil ? nil : remembered(uid)
        let rememberedView = memory?.view
        let base = rememberedView ?? task.map { VTodoView(task: $0) }
        /// Fields the phone set back to the task's value after a store's write of another one.
        var setBack: [(TaskField, FieldValue)] = []
        var calendarTime: Int64?
        if let lastModified, !HybridClock.isBeyondSaneFuture(HybridTimestamp(millis: lastModified), now: now),
           memory == nil || lastModified > memory?.changedAt ?? .min {
            calendarTime = lastModified
        }
        var fields = view.changes(since: base, task: task, now: calendarTime ?? now)
        if task == nil, TaskID(uid)?.rawValue != uid {
            fields.append((.source, .string(TaskID.vtodoSource)))
            fields.append((.externalID, .string(uid)))
        }
        if let task, let calendarTime {
            // (A client that dropped the X- properties said nothing about them.)
            var filled = rememberedView.map { view.filling(from: $0) } ?? view
            let named = Set(fields.map(\.0))
            // Tags are the categories but the category: without X-NEXTUP-CATEGORY on either
            // side that is the task's (or the one this file sets), not whichever name comes first.
            if filled[.category] == nil {
                let category = fields.last { $0.0 == .category }.map(\.1) ?? task.value(of: .category)
                filled.extensions[VTodoView.Extension.category.rawValue] = category.stringValue ?? ""
            }
            /// A value the task took from the calendar earlier, that the file no longer holds.
            func takenEarlier(_ field: TaskField) -> Bool {
                task.versions[field].map { $0.replica.isCalendarValue && $0.timestamp.millis < calendarTime } ?? false
            }
            /// A change the file's record proves (it names another value) that this bridge has not
            /// read: the phone's, though the file as last seen held the same value (the task took
            /// another machine's write since). A file without X-NEXTUP-CATEGORY does not say which
            /// name is the category.
            func provenUnread(_ field: TaskField) -> Bool {
                guard field != .category || view[.category] != nil, record.differs(field, in: filled) else { return false }
                let key = VersionRecord.digest(field)
                guard let memory, memory.record.entries[key] == record.entries[key] else { return true }
                return VersionRecord.value(of: field, in: memory.view) != VersionRecord.value(of: field, in: filled)
            }
            for field in Set(task.versions.keys).union(VersionRecord.fields(of: view)).sorted()
            where !named.contains(field) && (takenEarlier(field) || provenUnread(field)) {
                guard var value = filled.fieldValue(field) else { continue }
                // The same value as the task's, that the record proves the phone set after another
                // machine's write of the field: the task's value, under the phone's later version
                // (that write, which this machine may not have heard of yet, is older).
                if value == VTodoView.comparable(task, field) {
                    if provenUnread(field) { setBack.append((field, task.value(of: field))) }
                    continue
                }
                if field == .done, value == .int(0) { value = .int(now) }
                fields.append((field, value))
            }
        }
        fields = Self.startingSeries(fields, view: view, task: task ?? TaskItem(id: id))
        var steps = 0
        if let task { (steps, fields) = seriesSteps(view, base: rememberedView, bytes: bytes, live: task, fields: fields) }
        if let task { fields = fields.filter { task.value(of: $0.0) != $0.1 } + setBack }
        var versions: [TaskField: Version] = [:]
        // Values a store wrote: their own versions, not the phone's. (An
        // entry that already named another value than the file held when
        // last seen is stale: the phone set the field back since.)
        fields = fields.filter { field, value in
            guard let recorded = record.version(of: field, in: view), VersionRecord.value(of: field, in: view) == value else { return true }
            if let memory, memory.record.entries[VersionRecord.digest(field)]?.version == recorded,
               VersionRecord.value(of: field, in: memory.view) != VersionRecord.value(of: field, in: view) { return true }
            if let held = task?.versions[field], held >= recorded { return false }
            versions[field] = recorded
            return true
        }
        // A value the file held when last seen too, that its record names
        // under a newer version than the task's (a merge that proved a phone
        // change, or a store's write): merged under that version, so it wins
        // over what came between — the same value takes the newer version.
        // A value the calendar only held gives no date (``ReplicaID/calendarHeld``);
        // an occurrence's completion goes through its series.
        if let task {
            for field in TaskField.known where versions[field] == nil && !fields.contains(where: { $0.0 == field }) {
                guard let recorded = record.version(of: field, in: view), recorded.replica != .calendarHeld,
                      let value = view.fieldValue(field), task.versions[field].map({ $0 < recorded }) ?? true else { continue }
                let same = VTodoView.comparable(task, field) == value
                guard same || task.occurrence == nil else { continue }
                fields.append((field, same ? task.value(of: field) : value))
                versions[field] = recorded
            }
        }
        if let calendarTime {
            // A phone change the store took from the calendar already dates from that take.
            var takes: [TaskField: VersionRecord.Entry] = [:]
            if task != nil, !record.entries.isEmpty {
                do {
                    takes = VersionRecord.calendarTakes(try store.historyEntries(of: id))
                } catch {
                    report.skipped.append("\(Sanitizer.visible(file)): \(Sanitizer.visible("\(error)"))")
                    return
                }
            }
            // A completion dates from its COMPLETED when that falls after the file as last seen:
            // a later edit of another property moves LAST-MODIFIED, not the completion.
            let completed = view.completedAt.flatMap { $0 > 0 && $0 < calendarTime && $0 > memory?.changedAt ?? .min ? $0 : nil }
            var kept: [String] = []
            fields = fields.filter { field, value in
                if versions[field] != nil { return true }
                let at = field == .done ? completed ?? calendarTime : calendarTime
                let taken = record.takenVersion(of: field, in: view, taken: takes)
                var version = taken ?? Version(timestamp: HybridTimestamp(millis: at), replica: .calendar)
                // A change the record proves came after the entry it names (within the same second of LAST-MODIFIED too).
                if taken == nil, record.differs(field, in: view), let entry = record.entries[VersionRecord.digest(field)], entry.version >= version {
                    version = Version(timestamp: entry.version.timestamp.successor, replica: .calendar)
                }
                if let task, let held = task.versions[field], held >= version {
                    // (The task's own value, already under a newer version: nothing to say.)
                    if task.value(of: field) == value { return false }
                    kept.append(field.rawValue)
                }
                // A change that loses is merged all the same: other machines learn when the phone held the value.
                versions[field] = version
                return true
            }
            if !kept.isEmpty, rememberedView != nil {
                report.kept += 1
                report.notices.append("\(Sanitizer.visible(file)): kept nextup's newer \(kept.joined(separator: ", ")) (changed on both sides)")
            }
        } else if let task, let base {
            var kept: [String] = []
            fields = fields.filter { field, _ in
                guard versions[field] == nil, let seen = base.fieldValue(field), VTodoView.comparable(task, field) != seen || rememberedView == nil else { return true }
                if let lastModified, lastModified > task.versions[field]?.timestamp.millis ?? 0 { return true }
                kept.append(field.rawValue)
                return false
            }
            if !kept.isEmpty, rememberedView != nil {
                report.kept += 1
                report.notices.append("\(Sanitizer.visible(file)): kept nextup's newer \(kept.joined(separator: ", ")) (changed on both sides)")
            }
            // The phone changed the field again within the second its LAST-MODIFIED names (whole
            // seconds), after the task took it from that second: the change dates just after that,
            // not from now (which a next phone edit in that second would lose to).
            if let lastModified, let memory, lastModified == memory.changedAt {
                for (field, _) in fields where versions[field] == nil {
                    guard let held = task.versions[field], held.replica.isCalendarValue,
                          (lastModified..<lastModified + 1_000).contains(held.timestamp.millis) else { continue }
                    versions[field] = Version(timestamp: held.timestamp.successor, replica: .calendar)
                }
            }
        }
        var expecting: [TaskField: Version?] = [:]
        for (field, _) in fields { expecting[field] = .some(task?.versions[field]) }
        items[uid] = BridgeItem(uid: uid, file: file, hash: hash, stamp: stamp?.stored, base: bytes)
        guard !fields.isEmpty || steps > 0 else { return }
        do {
            if !fields.isEmpty {
                // With occurrences to complete, the memory is saved after them (at the cycle's end).
                let result = try store.bridgeWrite(id, set: fields, versions: versions, creating: task == nil, expecting: expecting,
                                                   vdir: vdir, memory: steps > 0 ? [:] : [uid: items[uid]])
                if steps == 0 { stored[uid] = items[uid] }
                tasks[id] = result.task
                if task == nil { report.created += 1 } else if result.isChange, steps == 0 { report.updated += 1 }
            }
            if steps > 0 {
                try completeOccurrences(from: id, steps)
                report.updated += 1
            }
        } catch let stale as StaleWrite {
            report.notices.append("\(Sanitizer.visible(file)): \(stale.field.rawValue) changed meanwhile in nextup; looked at again next cycle")
            forget(uid, restoring: previous)
        } catch {
            report.skipped.append("\(Sanitizer.visible(file)): \(Sanitizer.visible("\(error)"))")
            forget(uid, restoring: previous)
        }
    }

    /// Undoes the memory of a file whose change was not written.
    mutating func forget(_ uid: String, restoring previous: BridgeItem?) {
        items[uid] = previous
        blocked.insert(uid)
    }

    // MARK: 2. Vanished

    mutating func deleteVanished() {
        let vanished = items.sorted(by: { $0.key < $1.key }).filter { !$0.value.gone && fileOf[$0.key] == nil }
        let known = items.values.filter { !$0.gone }.count
        if !acceptDeletions, Self.tooManyVanished(vanished.count, of: known) {
            report.notices.append(Self.massDeletionNotice(vanished.count, of: known, path: folder.url.path))
            for (uid, _) in vanished { blocked.insert(uid) }
            return
        }
        for (uid, item) in vanished {
            var gone = item
            gone.gone = true
            let id = fileTask(uid)
            guard let task = tasks[id], !task.deleted else {
                items[uid] = gone
                continue
            }
            items[uid] = gone
            let seen: [TaskField: Version?] = [.deleted: task.versions[.deleted]]
            // The calendar's removal, noticed now (a vdir keeps no time of it).
            var at = HybridTimestamp(millis: now)
            if let held = task.versions[.deleted]?.timestamp, held >= at { at = held.successor }
            let removal = Version(timestamp: at, replica: .calendarRemoval)
            do {
                let result = try store.bridgeWrite(id, set: [(.deleted, .bool(true))], versions: [.deleted: removal], expecting: seen,
                                                   vdir: vdir, memory: [uid: gone])
                stored[uid] = gone
                tasks[id] = result.task
                report.deleted += 1
            } catch {
                report.notices.append("\(Sanitizer.visible(item.file)) was removed, but \(task.id.short) changed meanwhile; looked at again next cycle")
                forget(uid, restoring: item)
            }
        }
    }

    /// Whether `count` files vanishing of `known` is more than a cycle deletes unasked.
    static func tooManyVanished(_ count: Int, of known: Int) -> Bool {
        count > VdirBridge.massDeletionFiles && count * 5 > known
    }

    static func massDeletionNotice(_ count: Int, of known: Int, path: String) -> String {
        "\(count) of the \(known) task files in the vdir \(path) vanished at once: nothing deleted (a vdirsyncer reset, or another collection?); if they were meant to go, run `nextup sync --accept-deletions`"
    }

    // MARK: 3. Write

    mutating func writeFiles() {
        var taken = Set(names)
        for id in tasks.keys.sorted() {
            guard let task = tasks[id] else { continue }
            // A series has one file: its live occurrence's.
            if let occurrence = task.occurrence, liveOf[occurrence.series] != id { continue }
            let uid = fileUID(task)
            if blocked.contains(uid) { continue }
            let remembered = items[uid]
            let present = fileOf[uid]
            if present == nil, task.deleted { continue }
            if let present, task.deleted, task.versions[.deleted]?.replica == .calendarRemoval {
                // Removed on the phone (another machine saw it go): removed
                // here too, not written back as CANCELLED.
                removeFile(present, uid: uid)
                continue
            }
            // Neither the task nor the file moved since the file said what the task says.
            if let present, let remembered, remembered.file == present, contents[uid] == nil,
               remembered.checked == task.modified.rawValue { continue }
            // The file as it is (or was, when a client removed it).
            var current = present.flatMap { _ in contents[uid] ?? remembered?.lastSeen }
            if current == nil, let present, case .bytes(let bytes) = folder.read(present, limit: VdirBridge.maxFileBytes) { current = bytes }
            if present == nil { current = remembered?.lastSeen }
            let text: String
            if let current {
                if let patched = ICalComponent.patched(current, for: task, zone: bridge.zone) {
                    text = patched
                } else if present == nil {
                    text = String(decoding: current, as: UTF8.self)
                } else {
                    if var item = items[uid], item.file == present {
                        item.checked = task.modified.rawValue
                        items[uid] = item
                    }
                    continue
                }
            } else {
                text = ICalComponent.vtodoCalendar(for: task, uid: uid, sequence: 0).serialized()
            }
            var name = present ?? remembered?.file ?? Self.fileName(uid, id: task.occurrence?.series ?? id)
            if present == nil, taken.contains(name) {
                name = id.rawValue + ".ics"
                if taken.contains(name) { report.skipped.append("\(Sanitizer.visible(name)): another item has the name of \(id.short)'s file"); continue }
            }
            if let present, folder.stamp(present) != seenStamps[present] {
                report.notices.append("\(Sanitizer.visible(present)) changed while the bridge ran: not written over; read again next cycle")
                continue
            }
            do {
                guard try folder.write(text, to: name, ifStill: present.flatMap { seenStamps[$0] }) else {
                    report.notices.append("\(Sanitizer.visible(name)) changed while the bridge ran: not written over; read again next cycle")
                    continue
                }
            } catch {
                report.skipped.append("\(Sanitizer.visible(name)): \(Sanitizer.visible("\(error)"))")
                continue
            }
            taken.insert(name)
            report.written += 1
            let bytes = Array(text.utf8)
            var item = remembered ?? BridgeItem(uid: uid, file: name, hash: "")
            item.file = name
            item.hash = SHA1.hex(bytes)
            item.gone = false
            item.stamp = folder.stamps(name).kept?.stored
            item.written = Array((item.written + [bytes]).suffix(BridgeItem.writtenKept))
            item.checked = task.modified.rawValue
            items[uid] = item
        }
    }

    /// Removes the file of a task the phone removed, unless a client wrote
    /// it since this cycle looked at it; the memory says it is gone.
    mutating func removeFile(_ name: String, uid: String) {
        if folder.stamp(name) != seenStamps[name] {
            report.notices.append("\(Sanitizer.visible(name)) changed while the bridge ran: not removed; read again next cycle")
            return
        }
        do {
            try folder.remove(name)
        } catch {
            report.skipped.append("\(Sanitizer.visible(name)): \(Sanitizer.visible("\(error)"))")
            return
        }
        report.removed += 1
        var item = items[uid] ?? BridgeItem(uid: uid, file: name, hash: "")
        item.gone = true
        item.stamp = nil
        items[uid] = item
    }

    /// `<uid>.ics` when the `UID` makes a safe file name, else `<id>.ics`.
    static func fileName(_ uid: String, id: TaskID) -> String {
        let safe = !uid.isEmpty && uid.utf8.count <= 200 && !uid.hasPrefix(".")
            && uid.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.@".unicodeScalars.contains($0) }
        return (safe ? uid : id.rawValue) + ".ics"
    }
}
