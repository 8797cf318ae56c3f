import Foundation
import GRDB
import NextUpCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading the history (``HistoryTable``), restoring a value from it, the
/// machine's name, and what arrived from other machines since this one last
/// looked. None of these is on the path of a list, a count or a key.
extension TaskStore {
    /// Every history entry of task `id`: the table's, and the task's current
    /// registers (a change made before the history was kept has only those).
    public func historyEntries(of id: TaskID) throws -> [HistoryEntry] {
        try database.read { db in try Self.historyEntries(of: id, db) }
    }

    static func historyEntries(of id: TaskID, _ db: Database) throws -> [HistoryEntry] {
        try HistoryTable.entries(of: id, task: TaskRow.fetchOne(db, id: id), HistoryTable.Machines.load(db), db)
    }

    /// The history of task `id` as people read it (``TaskHistory/lines(_:)``).
    public func history(of id: TaskID) throws -> [TaskHistory.Line] {
        TaskHistory.lines(try historyEntries(of: id))
    }

    /// Writes the value of the history entry named by `handle` back into its
    /// field, as a new local edit — only while the field still holds the
    /// version it held when the handle was shown (the stale-write rule).
    ///
    /// - Throws: ``HistoryRestoreError`` (no such entry, a field that cannot
    ///   be restored, or one that moved on since), ``StaleWrite`` when it
    ///   moved on between the look-up and the write.
    public func restoreHistoryEntry(_ id: TaskID, handle: String) throws -> WriteResult {
        let lines = try history(of: id)
        switch TaskHistory.find(handle, in: lines) {
        case .none:
            throw HistoryRestoreError.noEntry(handle: handle, task: id)
        case .stale(let entry, let now):
            throw HistoryRestoreError.movedOn(field: entry.field, task: id, current: now.entry.value)
        case .entry(let entry, let current):
            guard Self.restorable(entry.field) else { throw HistoryRestoreError.notRestorable(field: entry.field) }
            return try edit(id, set: [(entry.field, entry.value)], expecting: [entry.field: current])
        }
    }

    /// Whether a field's earlier value can be written back: what a person
    /// edits (the `edit` options, tags, done, deleted, Next Up); not the
    /// task's identity (created, source, external id) nor opaque fields.
    public static func restorable(_ field: TaskField) -> Bool {
        if field.tagName != nil { return true }
        if [.done, .deleted, .nextUp].contains(field) { return true }
        return FieldSpec.table.contains { $0.field == field && $0.option != nil }
    }

    // MARK: Machine name

    /// This machine's name as the history and other machines show it: the
    /// name set with ``setMachineName(_:)``, else the host name.
    public func machineName() throws -> String {
        if let name = try database.read({ db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'machine_name'") }) { return name }
        return Self.hostName()
    }

    /// Names this machine (nil: back to the host name). A name is 1…40
    /// characters, no control characters, trimmed.
    public func setMachineName(_ name: String?) throws {
        try writeSession { session in
            if let name {
                guard let parsed = MachineName.parse(name) else { throw TaskInputError("a machine name is 1 to 40 characters, without control characters") }
                try session.db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('machine_name', ?)", arguments: [parsed])
            } else {
                try session.db.execute(sql: "DELETE FROM meta WHERE key = 'machine_name'")
            }
        }
    }

    /// The host name (`gethostname`), "this machine" when there is none.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this machine" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return MachineName.parse(name) ?? "this machine"
    }

    // MARK: While you were away

    /// One change another machine (or the phone) made, as it arrived here.
    public struct ArrivedChange: Sendable, Equatable {
        public let task: TaskID
        public let title: String
        public let entry: HistoryEntry
        /// This machine's clock when it arrived (ms).
        public let received: Int64
    }

    /// Changes made elsewhere (not under this replica's id) that arrived
    /// after `since` (ms, this machine's clock), oldest first, at most
    /// `limit`, of tasks that are shown (born, not hidden).
    public func arrivedChanges(since: Int64, limit: Int = 1_000) throws -> [ArrivedChange] {
        try database.read { db in
            let me = try Self.replicaID(db)
            let machines = try HistoryTable.Machines.load(db)
            let decoder = JSONDecoder()
            var out: [ArrivedChange] = []
            var tasks: [TaskID: TaskItem?] = [:]
            var listed = Set<String>()
            let rows = try Row.fetchCursor(db, sql: """
                SELECT * FROM history WHERE received IS NOT NULL AND received > ? AND machine <> coalesce((SELECT id FROM machine WHERE replica = ?), 0)
                ORDER BY received, task_id, field
                """, arguments: [since, me.rawValue])
            while let row = try rows.next(), out.count < limit {
                guard let id = TaskID(row["task_id"] as String), let held = HistoryTable.held(row, machines, decoder: decoder) else { continue }
                if tasks[id] == nil {
                    tasks[id] = .some(try TaskRow.fetchAll(db, where: "id = ? AND \(ListSQL.born) AND \(ListSQL.shown)", arguments: [id.rawValue]).first)
                }
                guard let task = tasks[id] ?? nil else { continue }
                // A value held here, else the row's values of that version (its note's field, or every field of the edit).
                var entries: [HistoryEntry] = []
                if let field = held.field, let value = held.value {
                    entries = [HistoryEntry(field: field, value: value, version: held.version, note: held.note)]
                } else {
                    let fields = held.field.map { [$0] } ?? task.versions.keys.sorted()
                    entries = fields.filter { task.versions[$0] == held.version }
                        .map { HistoryEntry(field: $0, value: task.value(of: $0), version: held.version, note: held.note) }
                }
                for entry in entries where listed.insert("\(id.rawValue) \(entry.field.rawValue) \(entry.version.encoded)").inserted {
                    out.append(ArrivedChange(task: id, title: task.title, entry: entry, received: held.received ?? 0))
                }
            }
            return Array(out.prefix(limit))
        }
    }

    /// What arrived from other machines and the phone, by task: the one
    /// summary `nextup changes` prints and the TUI's "while you were away"
    /// shows.
    public struct Arrivals: Sendable, Equatable {
        /// One task and its changes that arrived, as history lines (each with
        /// the value it replaced and its race mark), newest first.
        public struct Task: Sendable, Equatable {
            public let id: TaskID
            public let title: String
            public let lines: [TaskHistory.Line]
            /// Each field's newest version (what a line's handle names with it).
            public let current: [TaskField: Version]
        }

        /// Since when (ms, this machine's clock; 0: since ever).
        public let since: Int64
        /// The tasks, in the order their first change arrived.
        public let tasks: [Task]
        /// The changes listed, all tasks together.
        public var count: Int { tasks.reduce(0) { $0 + $1.lines.count } }
        /// When the newest of them arrived (nil: none): what looking at them
        /// marks seen (when the limit cut the list, the newest of all that arrived).
        public let newest: Int64?
        /// Whether more arrived than the limit let through.
        public let cut: Bool
    }

    /// What arrived after `since` (ms, this machine's clock), or since this
    /// machine last looked (``lastLooked()``) when `since` is nil. Reading
    /// does not move the mark: ``markSeen(_:)`` does, once they were shown.
    public func arrivals(since: Int64? = nil, limit: Int = 1_000) throws -> Arrivals {
        let from = try since ?? lastLooked()
        let arrived = try arrivedChanges(since: from, limit: limit + 1)
        let cut = arrived.count > limit
        var order: [TaskID] = []
        var byTask: [TaskID: [ArrivedChange]] = [:]
        for change in arrived.prefix(limit) {
            if byTask[change.task] == nil { order.append(change.task) }
            byTask[change.task, default: []].append(change)
        }
        let tasks = try order.map { id in
            let wanted = Set(byTask[id]!.map { Self.entryKey($0.entry) })
            let history = try history(of: id)
            return Arrivals.Task(id: id, title: byTask[id]![0].title,
                                 lines: history.filter { wanted.contains(Self.entryKey($0.entry)) },
                                 current: TaskHistory.currentVersions(history))
        }
        return Arrivals(since: from, tasks: tasks, newest: cut ? try newestArrival() : arrived.map(\.received).max(), cut: cut)
    }

    private static func entryKey(_ entry: HistoryEntry) -> String { "\(entry.field.rawValue)\u{0}\(entry.version.encoded)" }

    /// Marks `arrivals` seen: the next ``arrivals(since:)`` without a date
    /// starts after the newest of them.
    public func markSeen(_ arrivals: Arrivals) throws {
        if let newest = arrivals.newest { try markLooked(through: newest) }
    }

    /// When this machine last looked at what arrived (ms, its clock); 0 never.
    public func lastLooked() throws -> Int64 {
        try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'history_looked'").flatMap { Int64($0) } ?? 0 }
    }

    /// Marks what arrived up to `time` as seen (never moves the mark back).
    public func markLooked(through time: Int64) throws {
        guard time > (try lastLooked()) else { return }
        try writeSession { session in
            try session.db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('history_looked', ?)", arguments: [String(time)])
        }
    }

    /// The newest arrival time in the history (ms, this machine's clock); 0 when none.
    public func newestArrival() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT max(received) FROM history WHERE received IS NOT NULL") ?? 0 }
    }
}

/// Why a history entry was not restored, in one plain line.
public enum HistoryRestoreError: Error, Equatable, CustomStringConvertible {
    case noEntry(handle: String, task: TaskID)
    case notRestorable(field: TaskField)
    case movedOn(field: TaskField, task: TaskID, current: FieldValue)

    public var description: String {
        switch self {
        case .noEntry(let handle, let task):
            "task \(task.short) has no history entry '\(Sanitizer.visible(handle))' (nextup show \(task.short) --history lists them)"
        case .notRestorable(let field):
            "the \(field.spokenName) of a task is not restored from its history"
        case .movedOn(let field, let task, let current):
            "the \(field.spokenName) of \(task.short) changed since that history was shown: it is now \(field.words(for: current)); show the history again"
        }
    }
}

extension TaskStore {
    /// The task of this replica's last change (nil: it made none).
    public func taskOfLastOwnChange() throws -> TaskItem? {
        guard let last = try lastOwnChange() else { return nil }
        return try database.read { db in try TaskRow.fetchOne(db, id: last.task) }
    }

    /// This replica's last local change (kept in `meta` by each write
    /// session that made one); nil when it made none since the history
    /// was kept.
    public func lastOwnChange() throws -> (task: TaskID, version: Version)? {
        try database.read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'history.last_own'") else { return nil }
            let parts = text.split(separator: " ")
            guard parts.count == 2, let task = TaskID(String(parts[0])), let version = Version(encoded: String(parts[1])) else { return nil }
            return (task, version)
        }
    }

    /// What a snapshot of this replica's log carries for `tasks` (a rewrite
    /// of its own log): per task, its registers, each with its note, then
    /// every earlier change its history holds (one group per version: one
    /// edit), so that a machine reading only the snapshot gets the same
    /// history. Each group is one log record (at most one change per field).
    public func snapshot(of tasks: [TaskItem]) throws -> [[FieldChange]] {
        guard !tasks.isEmpty else { return [] }
        return try database.read { db in
            let machines = try HistoryTable.Machines.load(db)
            var out: [[FieldChange]] = []
            for task in tasks {
                let entries = try HistoryTable.entries(of: task.id, task: task, machines, db)
                var notes: [TaskField: [Version: ChangeNote]] = [:]
                for entry in entries { if let note = entry.note { notes[entry.field, default: [:]][entry.version] = note } }
                let current = task.allChanges.map { change in
                    var noted = change
                    noted.note = notes[change.field]?[change.version]
                    return noted
                }
                if !current.isEmpty { out.append(current) }
                var earlier: [Version: [FieldChange]] = [:]
                for entry in entries where task.versions[entry.field].map({ entry.version < $0 }) ?? false {
                    earlier[entry.version, default: []].append(FieldChange(task: task.id, field: entry.field, value: entry.value, version: entry.version, note: entry.note))
                }
                for version in earlier.keys.sorted() { out.append(earlier[version]!) }
            }
            return out
        }
    }
}

extension TaskStore {
    /// Drops replaced values from the history (``HistoryTable``): per task
    /// and field, the oldest values that were made before `cutoff` (ms) and
    /// through which every other machine has merged their writer's changes
    /// (`mergedThrough`, by writer; `others` for writers not listed, nil:
    /// keep theirs) — all but the newest of them, and never one that the
    /// writer of a kept entry (but the oldest kept) had seen (its note's seen
    /// version), so that every value kept but the oldest still shows the
    /// value it replaced. Only a run from the
    /// field's oldest goes: every entry newer than one kept stays, so no
    /// kept entry's race mark changes. Current values (the row) and notes
    /// are never dropped. Returns how many values went.
    @discardableResult
    public func dropReplacedValues(before cutoff: Int64, mergedThrough: [ReplicaID: Int64], others: Int64?) throws -> Int {
        try writeSession { session in
            let db = session.db
            let machines = try HistoryTable.Machines.load(db)
            struct Held { let stamp: Int64; let machine: Int64; let version: Version; let seen: [Int64]? }
            struct Key: Hashable { let task: String; let field: String }
            var values: [Key: [Held]] = [:]
            var seenByNotes: [Key: Set<[Int64]>] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT task_id, field, stamp, machine, value IS NOT NULL, seen_stamp, seen_machine FROM history WHERE field <> ''
                """)
            while let row = try rows.next() {
                let key = Key(task: row[0], field: row[1])
                let seen: [Int64]? = (row[5] as Int64?).flatMap { stamp in (row[6] as Int64?).map { [stamp, $0] } }
                if row[4] as Bool {
                    let stamp: Int64 = row[2], machine: Int64 = row[3]
                    guard let version = machines.version(stamp, machine) else { continue }
                    values[key, default: []].append(Held(stamp: stamp, machine: machine, version: version, seen: seen))
                } else if let seen {
                    seenByNotes[key, default: []].insert(seen)
                }
            }
            var dropped = 0
            for (key, held) in values {
                let ordered = held.sorted { $0.version < $1.version }
                let run = ordered.prefix { value in
                    let time = value.version.timestamp.millis
                    guard time < cutoff, let through = mergedThrough[value.version.replica] ?? others else { return false }
                    return time <= through
                }
                // Keep the newest of the run, and every value the writer of a kept
                // entry but the oldest had seen (that entry's old value).
                var count = max(0, run.count - 1)
                while count > 0 {
                    let seen = seenByNotes[key, default: []].union(ordered[(count + 1)...].compactMap(\.seen))
                    guard let first = ordered[..<count].firstIndex(where: { seen.contains([$0.stamp, $0.machine]) }) else { break }
                    count = first
                }
                for value in ordered.prefix(count) {
                    try db.cachedStatement(sql: "DELETE FROM history WHERE task_id = ? AND field = ? AND stamp = ? AND machine = ?")
                        .execute(arguments: [key.task, key.field, value.stamp, value.machine])
                    dropped += 1
                }
            }
            return dropped
        }
    }
}
