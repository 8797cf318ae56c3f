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
///    wrote or read for it is parsed (``VTodoView/init(vtodo:)``) and diffed
///    against that memory (``VTodoView/changes(since:task:now:)``); only the
///    properties that changed become one versioned edit of the task, written
///    through ``NextUpStore/TaskStore/bridgeWrite(_:set:creating:expecting:state:)``
///    with the versions the bridge read (a concurrent edit makes it look
///    again next cycle, never overwrite) and the new memory in the same
///    transaction. A VTODO made elsewhere becomes a task whose id derives
///    from its `UID` (``NextUpCore/TaskID/forVTodoUID(_:)``), `external_id`
///    the `UID`. A file the bridge never saw, for a task the store already
///    has, is adopted: the store's values stand.
/// 2. **Vanished.** A file the bridge had seen and that is gone soft-deletes
///    its task (restorable; it syncs like any delete). An empty vdir that
///    held files (an unmounted disk, a vdirsyncer reset) is reported and the
///    cycle stops there: nothing is deleted, nothing written.
/// 3. **Write.** Every task whose file does not say what the task says (or
///    lacks an `X-NEXTUP-…` property) is written, atomically, keeping the
///    properties the bridge does not manage; a new task gets `<uid>.ics`; a
///    deleted task keeps its file as `STATUS:CANCELLED` and gets none if it
///    has none; a restored one gets its file back. A file whose
///    ``FileStamp`` moved since this cycle looked at it (a client wrote it
///    meanwhile) is not written over: the next cycle reads it first.
///
/// Bad files — malformed, not UTF-8, larger than ``maxFileBytes``, holding a
/// VEVENT, several VTODOs, or named `<id>.ics` for a task of this store while
/// holding another `UID` — are skipped with one line each and never written
/// over; the rest is bridged. A cycle with nothing new writes no file and
/// nothing to the store. The memory lives in the store, so it is per store,
/// and is forgotten when the vdir's path changes (a new folder starts afresh:
/// its files are adopted, none of its absences deletes anything).
public final class VdirBridge: Sendable {
    public let store: TaskStore
    public let folder: VdirFolder
    /// The largest `.ics` file read: room for the longest notes a task may
    /// hold (512 KiB of UTF-8, up to twice that escaped), not for a 10 MB
    /// attachment.
    public static let maxFileBytes = 4 << 20

    static let folderKey = TaskStore.bridgeKeyPrefix + "folder"
    static let itemPrefix = TaskStore.bridgeKeyPrefix + "item."
    private let running = Mutex<Void>(())
    /// Held during a cycle, so that the cycles of two processes on one store
    /// (a TUI and `nextup sync`) never overlap either.
    private let lock: StoreLock?

    /// The name of the lock file in the store folder.
    public static let lockFileName = "vdir.lock"

    /// Called between a cycle's reading and its writing (tests: a client
    /// writing a file meanwhile).
    let afterReading: (@Sendable () -> Void)?

    public convenience init(store: TaskStore, folder: URL) {
        self.init(store: store, folder: folder, afterReading: nil)
    }

    init(store: TaskStore, folder: URL, afterReading: (@Sendable () -> Void)?) {
        self.store = store
        self.folder = VdirFolder(url: folder)
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
    public func cycle(now: Int64? = nil, readAll: Bool = false) throws -> BridgeReport {
        try running.withLock { _ in
            try lock?.lockExclusive()
            defer { lock?.unlock() }
            var cycle = try BridgeCycle(bridge: self, now: now ?? Int64(Date().timeIntervalSince1970 * 1000))
            cycle.readAll = readAll
            return try cycle.run()
        }
    }
}

/// One cycle's working state (see ``VdirBridge``).
struct BridgeCycle {
    let bridge: VdirBridge
    let now: Int64
    var report = BridgeReport()
    var items: [String: BridgeFileState] = [:]
    var stored: [String: String]
    var pendingState: [String: String?] = [:]
    var tasks: [TaskID: TaskItem] = [:]
    var names: [String] = []
    /// UIDs whose file is in the folder now (readable or not), and its name.
    var fileOf: [String: String] = [:]
    /// UIDs whose file must not be written this cycle (unreadable, or a change retried).
    var blocked: Set<String> = []
    /// Calendars parsed this cycle, by UID (to keep what the bridge does not manage).
    var parsed: [String: ICalComponent] = [:]
    /// Read every file, stamps or not.
    var readAll = false
    /// Each file's stamp when this cycle looked at it: a file that moved on
    /// since is not written over (a client wrote it meanwhile; the next
    /// cycle reads it first).
    var seenStamps: [String: FileStamp] = [:]
    /// New stamps of files read this cycle whose bytes had not changed (a
    /// touch, an identical rewrite, a memory from before stamps): saved only
    /// when the cycle writes to the store anyway, so a quiet cycle stays quiet.
    var restamped: [String: FileStamp] = [:]

    var store: TaskStore { bridge.store }
    var folder: VdirFolder { bridge.folder }

    init(bridge: VdirBridge, now: Int64) throws {
        self.bridge = bridge
        self.now = now
        stored = try bridge.store.bridgeState()
    }

    static func key(_ uid: String) -> String { VdirBridge.itemPrefix + uid }

    mutating func remember(_ uid: String, _ state: BridgeFileState?) -> String? {
        items[uid] = state
        let value = state?.storedText
        if stored[Self.key(uid)] != value { pendingState[Self.key(uid)] = .some(value) } else { pendingState[Self.key(uid)] = nil }
        return value
    }

    mutating func run() throws -> BridgeReport {
        try folder.checkAvailable()
        let path = folder.url.path
        if stored[VdirBridge.folderKey] != path {
            for key in stored.keys where key.hasPrefix(VdirBridge.itemPrefix) { pendingState[key] = .some(nil) }
            pendingState[VdirBridge.folderKey] = .some(path)
        } else {
            for (key, value) in stored where key.hasPrefix(VdirBridge.itemPrefix) {
                if let state = BridgeFileState(storedText: value) {
                    items[String(key.dropFirst(VdirBridge.itemPrefix.count))] = state
                }
            }
        }
        names = try folder.itemNames()
        let held = items.values.filter { !$0.gone }.count
        if names.isEmpty, held > 0 {
            report.notices.append("the vdir \(path) is empty but held \(held) task file\(held == 1 ? "" : "s"): nothing deleted (is it unmounted, or was vdirsyncer reset?)")
            return report
        }
        for task in try store.allTasks() { tasks[task.id] = task }
        readFiles()
        deleteVanished()
        bridge.afterReading?()
        writeFiles()
        if !pendingState.isEmpty {
            for (uid, stamp) in restamped.sorted(by: { $0.key < $1.key }) {
                guard var state = items[uid], !state.gone, state.file == fileOf[uid] else { continue }
                state.stamp = stamp
                _ = remember(uid, state)
            }
        }
        let state = pendingState
        if !state.isEmpty { try store.saveBridgeState(state) }
        return report
    }

    // MARK: 1. Read

    mutating func readFiles() {
        var uidOfFile: [String: String] = [:]
        for (uid, state) in items where !state.gone { uidOfFile[state.file] = uid }
        for name in names {
            let known = uidOfFile[name]
            func skip(_ why: String) {
                report.skipped.append("\(Sanitizer.visible(name)): \(Sanitizer.visible(why))")
                if let known { fileOf[known] = name; blocked.insert(known) }
            }
            // Stat first, read second: a write after the stat moves the
            // stamp on, so the next cycle reads the file again.
            let stamp = folder.stamp(name)
            seenStamps[name] = stamp
            if !readAll, let known, let state = items[known], let stamp, state.stamp == stamp {
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
            if let known, let state = items[known], state.hash == hash {
                fileOf[known] = name
                if let stamp { restamped[known] = stamp }
                continue
            }
            let calendar: ICalComponent
            let view: VTodoView
            let complete: Bool
            let sequence: Int
            let lastModified: Int64?
            do {
                let roots = try ICalComponent.parse(bytes)
                let todos = roots.flatMap { $0.name == "VTODO" ? [$0] : $0.components.filter { $0.name == "VTODO" } }
                guard todos.count == 1 else {
                    if todos.isEmpty {
                        let event = roots.contains { $0.name == "VEVENT" || $0.components.contains { $0.name == "VEVENT" } }
                        skip(event ? "holds a VEVENT, not a VTODO (events are not tasks)" : "holds no VTODO")
                    } else {
                        skip("holds \(todos.count) VTODOs; a vdir item is one")
                    }
                    continue
                }
                view = try VTodoView(vtodo: todos[0])
                complete = VTodoView.Extension.allCases.allSatisfy { view[$0] != nil }
                // Kept within 0…2³¹−2, so the next SEQUENCE always fits (RFC 5545 INTEGER).
                sequence = min(max(todos[0].property("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0, 0), Int(Int32.max) - 1)
                lastModified = todos[0].property("LAST-MODIFIED").flatMap { ICalDate.millis($0.value.trimmingCharacters(in: .whitespaces)) }
                calendar = roots.first { $0.name == "VCALENDAR" } ?? ICalComponent(name: "VCALENDAR", components: todos)
            } catch {
                skip(error.message)
                continue
            }
            let uid = view.uid
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
            parsed[uid] = calendar
            take(view, file: name, hash: hash, sequence: sequence, complete: complete, lastModified: lastModified, stamp: stamp)
        }
    }

    /// Applies what the file changed since the bridge last saw it.
    ///
    /// A property changed in the file *and* in nextup since the bridge last
    /// wrote the file is merged like an import: the file's value is taken
    /// only when its `LAST-MODIFIED` is later than the version of nextup's
    /// value; otherwise nextup's stays (and goes back to the file).
    mutating func take(_ view: VTodoView, file: String, hash: String, sequence: Int, complete: Bool, lastModified: Int64?,
                       stamp: FileStamp?) {
        let uid = view.uid
        let id = TaskID.forVTodoUID(uid)
        let task = tasks[id]
        var remembered = items[uid]
        if task == nil { remembered = nil }
        let before = remembered?.view ?? task.map(VTodoView.init(task:)) ?? view
        let state = BridgeFileState(file: file, hash: hash, view: view.filling(from: before),
                                    sequence: max(sequence, remembered?.sequence ?? 0), complete: complete, stamp: stamp)
        if let task, remembered == nil {
            // A file never seen, for a task the store has: adopted; the store's values stand.
            _ = remember(uid, state)
            _ = task
            return
        }
        var fields = view.changes(since: remembered?.view, task: task, now: now)
        if task == nil, TaskID(uid)?.rawValue != uid {
            fields.append((.source, .string(TaskID.vtodoSource)))
            fields.append((.externalID, .string(uid)))
        }
        if let task { fields = fields.filter { task.value(of: $0.0) != $0.1 } }
        if let task, let remembered {
            var kept: [String] = []
            fields = fields.filter { field, _ in
                guard let seen = remembered.view.fieldValue(field), VTodoView.comparable(task, field) != seen else { return true }
                if let lastModified, lastModified > task.versions[field]?.timestamp.millis ?? 0 { return true }
                kept.append(field.rawValue)
                return false
            }
            if !kept.isEmpty {
                report.kept += 1
                report.notices.append("\(Sanitizer.visible(file)): kept nextup's newer \(kept.joined(separator: ", ")) (changed on both sides)")
            }
        }
        var expecting: [TaskField: Version?] = [:]
        for (field, _) in fields { expecting[field] = .some(task?.versions[field]) }
        let encoded = remember(uid, state)
        guard !fields.isEmpty else { return }
        do {
            let result = try store.bridgeWrite(id, set: fields, creating: task == nil, expecting: expecting,
                                               state: [Self.key(uid): encoded])
            pendingState[Self.key(uid)] = nil
            stored[Self.key(uid)] = encoded
            tasks[id] = result.task
            if task == nil { report.created += 1 } else if result.isChange { report.updated += 1 }
        } catch let stale as StaleWrite {
            report.notices.append("\(Sanitizer.visible(file)): \(stale.field.rawValue) changed meanwhile in nextup; looked at again next cycle")
            forget(uid, restoring: remembered)
        } catch {
            report.skipped.append("\(Sanitizer.visible(file)): \(Sanitizer.visible("\(error)"))")
            forget(uid, restoring: remembered)
        }
    }

    /// Undoes ``remember(_:_:)`` for a file whose change was not written.
    mutating func forget(_ uid: String, restoring previous: BridgeFileState?) {
        items[uid] = previous
        pendingState[Self.key(uid)] = nil
        blocked.insert(uid)
    }

    // MARK: 2. Vanished

    mutating func deleteVanished() {
        for (uid, state) in items.sorted(by: { $0.key < $1.key }) where !state.gone && fileOf[uid] == nil {
            var gone = state
            gone.gone = true
            let id = TaskID.forVTodoUID(uid)
            guard let task = tasks[id], !task.deleted else {
                _ = remember(uid, gone)
                continue
            }
            let encoded = remember(uid, gone)
            let seen: [TaskField: Version?] = [.deleted: task.versions[.deleted]]
            do {
                let result = try store.bridgeWrite(id, set: [(.deleted, .bool(true))],
                                                   expecting: seen,
                                                   state: [Self.key(uid): encoded])
                pendingState[Self.key(uid)] = nil
                stored[Self.key(uid)] = encoded
                tasks[id] = result.task
                report.deleted += 1
            } catch {
                report.notices.append("\(Sanitizer.visible(state.file)) was removed, but \(task.id.short) changed meanwhile; looked at again next cycle")
                forget(uid, restoring: state)
            }
        }
    }

    // MARK: 3. Write

    mutating func writeFiles() {
        var taken = Set(names)
        for id in tasks.keys.sorted() {
            guard let task = tasks[id] else { continue }
            let uid = task.vtodoUID
            if blocked.contains(uid) { continue }
            let want = VTodoView(task: task)
            let remembered = items[uid]
            let present = fileOf[uid]
            if let present, let remembered, remembered.file == present, remembered.view == want, remembered.complete { continue }
            if present == nil, task.deleted { continue }
            var name = present ?? remembered?.file ?? Self.fileName(uid, id: id)
            if present == nil, taken.contains(name) {
                name = id.rawValue + ".ics"
                if taken.contains(name) { report.skipped.append("\(Sanitizer.visible(name)): another item has the name of \(id.short)'s file"); continue }
            }
            if let present, folder.stamp(present) != seenStamps[present] {
                report.notices.append("\(Sanitizer.visible(present)) changed while the bridge ran: not written over; read again next cycle")
                continue
            }
            var previous = parsed[uid]
            if previous == nil, let present, case .bytes(let bytes) = folder.read(present, limit: VdirBridge.maxFileBytes) {
                previous = (try? ICalComponent.parse(bytes))?.first { $0.name == "VCALENDAR" }
            }
            let sequence = remembered.map { min($0.sequence, Int(Int32.max) - 1) + 1 } ?? 0
            let text = ICalComponent.vtodoCalendar(for: task, sequence: sequence, previous: previous).serialized()
            do {
                try folder.write(text, to: name)
            } catch {
                report.skipped.append("\(Sanitizer.visible(name)): \(Sanitizer.visible("\(error)"))")
                continue
            }
            taken.insert(name)
            restamped[uid] = nil
            report.written += 1
            _ = remember(uid, BridgeFileState(file: name, hash: SHA1.hex(Array(text.utf8)), view: want, sequence: sequence,
                                              stamp: folder.stamp(name)))
        }
    }

    /// `<uid>.ics` when the `UID` makes a safe file name, else `<id>.ics`.
    static func fileName(_ uid: String, id: TaskID) -> String {
        let safe = !uid.isEmpty && uid.utf8.count <= 200 && !uid.hasPrefix(".")
            && uid.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.@".unicodeScalars.contains($0) }
        return (safe ? uid : id.rawValue) + ".ics"
    }
}
