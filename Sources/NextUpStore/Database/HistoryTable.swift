import Foundation
import GRDB
import NextUpCore

/// The `history` table (schema v14): what a task's row does not hold of its
/// history — the values its fields held before (each with its version and
/// note) — and the notes (origin, seen version) of the values it holds.
///
/// Invariants:
/// - **The row is the newest entry.** A field's current value and version are
///   read from the task's row only. A row here with `value` NULL is the note
///   of the field's current entry; one with a value is a replaced (or
///   superseded on arrival) entry. A local write or a merge that replaces a
///   current entry moves its value here in the same transaction.
/// - **Notes stored once per edit when they can be.** A row with field `''`
///   is the note of every field of that version that has no row of its own
///   (a new task's first values: one row per task, not one per field).
/// - **Replicas ids stored once.** A version is (`stamp`, `machine`), the
///   machine an integer key into the `machine` table; so is a seen version
///   (`seen_machine` 0: the field had never been written; `seen_stamp` NULL:
///   unknown).
/// - **Order-free.** Meeting a change again joins the notes
///   (``ChangeNote/joined(_:)``), so replicas that met the same changes in
///   any order hold the same entries, `received` aside: this machine's clock
///   when a change made elsewhere first arrived (NULL for this machine's own
///   changes and unknown ones), indexed only where set.
enum HistoryTable {
    /// Replica ids and their integer keys, read once per use.
    struct Machines {
        private(set) var ids: [ReplicaID: Int64] = [:]
        private(set) var replicas: [Int64: ReplicaID] = [:]

        static func load(_ db: Database) throws -> Machines {
            var machines = Machines()
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, replica FROM machine")) {
                if let replica = ReplicaID(row[1] as String) { machines.add(row[0], replica) }
            }
            return machines
        }

        private mutating func add(_ id: Int64, _ replica: ReplicaID) {
            ids[replica] = id
            replicas[id] = replica
        }

        /// The key of `replica`, added to the table when new.
        mutating func id(_ replica: ReplicaID, _ db: Database) throws -> Int64 {
            if let id = ids[replica] { return id }
            try db.execute(sql: "INSERT OR IGNORE INTO machine(replica) VALUES (?)", arguments: [replica.rawValue])
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM machine WHERE replica = ?", arguments: [replica.rawValue])!
            add(id, replica)
            return id
        }

        func version(_ stamp: Int64?, _ machine: Int64?) -> Version? {
            guard let stamp, let machine, let replica = replicas[machine] else { return nil }
            return Version(timestamp: HybridTimestamp(rawValue: stamp), replica: replica)
        }

        func note(origin: String?, seenStamp: Int64?, seenMachine: Int64?) -> ChangeNote? {
            let origin = origin.flatMap(ChangeOrigin.init(rawValue:))
            let seen: ChangeNote.Seen? = switch (seenStamp, seenMachine) {
            case (nil, _): nil
            case (_, 0?): .nothing
            case (let stamp, let machine): version(stamp, machine).map { .version($0) }
            }
            return origin == nil && seen == nil ? nil : ChangeNote(origin: origin, seen: seen)
        }

        /// `seen_stamp`, `seen_machine` of a note's seen version.
        mutating func seenColumns(_ seen: ChangeNote.Seen?, _ db: Database) throws -> (Int64?, Int64?) {
            switch seen {
            case nil: (nil, nil)
            case .nothing: (0, 0)
            case .version(let version): (version.timestamp.rawValue, try id(version.replica, db))
            }
        }
    }

    // MARK: Writing

    /// A write session's history writer: the machine keys, and the notes of
    /// new tasks not yet inserted (one multi-row insert per many tasks).
    struct Writer {
        var machines: Machines
        private var pending: [DatabaseValueConvertible?] = []
        fileprivate static let rowsPerInsert = 200

        init(_ db: Database) throws { machines = try Machines.load(db) }

        /// Inserts the pending notes; call before reading the table and before commit.
        mutating func flush(_ db: Database) throws {
            var rest = pending[...]
            while !rest.isEmpty {
                let chunk = rest.prefix(Self.rowsPerInsert * 4)
                rest = rest.dropFirst(chunk.count)
                let rows = chunk.count / 4
                let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO history(task_id, field, stamp, machine, origin) VALUES "
                    + Array(repeating: "(?, '', ?, ?, ?)", count: rows).joined(separator: ", "))
                statement.setUncheckedArguments(StatementArguments(Array(chunk)))
                try statement.execute()
            }
            pending.removeAll(keepingCapacity: true)
        }

        fileprivate mutating func addEditNote(_ task: TaskID, stamp: Int64, machine: Int64, origin: ChangeOrigin?) {
            pending += [task.rawValue, stamp, machine, origin?.rawValue]
        }
    }

    /// Records a local write: `changes` (new versions, each with its note)
    /// made to a task that was `before`. The values they replaced move here;
    /// the notes are stored once per edit when the task was new.
    static func recordLocal(_ changes: [FieldChange], before: TaskItem, _ writer: inout Writer, _ db: Database) throws {
        guard let first = changes.first else { return }
        let machine = try writer.machines.id(first.version.replica, db)
        if before.versions.isEmpty,
           changes.allSatisfy({ $0.version == first.version && $0.note?.seen == nil && $0.note?.origin == first.note?.origin }) {
            writer.addEditNote(first.task, stamp: first.version.timestamp.rawValue, machine: machine, origin: first.note?.origin)
            return
        }
        try writer.flush(db)
        for change in changes {
            if let old = before.versions[change.field] {
                try moveToHistory(before.id, change.field, version: old, value: before.value(of: change.field), &writer.machines, db)
            }
        }
        for change in changes {
            try insertNote(change.task, change.field.rawValue, stamp: change.version.timestamp.rawValue,
                           machine: try writer.machines.id(change.version.replica, db), change.note, received: nil, &writer.machines, db)
        }
    }

    /// Records a merge: `changes` met (each with the note its log gave),
    /// which turned the tasks `before` into `after`. A change that now
    /// stands keeps its note here; one that lost on arrival, and each value
    /// a change replaced, is kept with its value.
    static func recordMerge(_ changes: [FieldChange], before: [TaskID: TaskItem], after: [TaskID: TaskItem],
                            received: Int64, _ machines: inout Machines, _ db: Database) throws {
        guard !changes.isEmpty else { return }
        // A log's changes come in runs of one edit (one task, one version):
        // each run's task is looked up once, not once per change.
        let runs = editRuns(changes)
        // The values the merge replaced: each field whose version moved.
        if !before.isEmpty {
            var moved = Set<FieldKey>()
            for run in runs {
                guard let old = before[changes[run.lowerBound].task] else { continue }
                let now = after[old.id]?.versions
                for change in changes[run] {
                    guard let oldVersion = old.versions[change.field], now?[change.field] != oldVersion,
                          moved.insert(FieldKey(task: change.task, field: change.field)).inserted else { continue }
                    try moveToHistory(change.task, change.field, version: oldVersion, value: old.value(of: change.field), &machines, db)
                }
            }
        }
        // Changes that stand, by edit, in the order the edits first come
        // (a log in id order writes the notes in the table's order).
        var edits: [(key: EditKey, changes: [Int])] = []
        var editIndex: [EditKey: Int] = [:]
        edits.reserveCapacity(runs.count)
        editIndex.reserveCapacity(runs.count)
        var joined = Set<TaskID>()
        for run in runs {
            let first = changes[run.lowerBound]
            let now = after[first.task]?.versions
            var index: Int?
            for i in run {
                guard now?[changes[i].field] == changes[i].version else {
                    try joinEntry(changes[i], value: changes[i].value, received: received, &machines, db)
                    joined.insert(first.task)
                    continue
                }
                if index == nil {
                    let key = EditKey(task: first.task, version: first.version)
                    if let known = editIndex[key] {
                        index = known
                    } else {
                        index = edits.count
                        editIndex[key] = edits.count
                        edits.append((key, []))
                    }
                }
                edits[index!].changes.append(i)
            }
        }
        // The notes of tasks that had no row: inserted together at the end.
        var newNotes: [DatabaseValue] = []
        newNotes.reserveCapacity(edits.count * 5)
        for (edit, group) in edits {
            let machine = try machines.id(edit.version.replica, db)
            let stamp = edit.version.timestamp.rawValue
            let note = changes[group[0]].note
            // A task that had no row has no history but what this merge wrote.
            let new = before[edit.task] == nil && !joined.contains(edit.task)
            let held = try !new && Row.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM history WHERE task_id = ? AND stamp = ? AND machine = ? LIMIT 1"),
                                                arguments: [edit.task.rawValue, stamp, machine]) != nil
            if !held, before[edit.task]?.versions.isEmpty ?? true,
               group.allSatisfy({ changes[$0].note?.seen == nil && changes[$0].note?.origin == note?.origin }) {
                if new {
                    newNotes += [edit.task.rawValue.databaseValue, stamp.databaseValue, machine.databaseValue,
                                 note?.origin?.rawValue.databaseValue ?? .null, received.databaseValue]
                } else {
                    try insertNote(edit.task, "", stamp: stamp, machine: machine, note, received: received, &machines, db)
                }
            } else {
                for i in group { try joinEntry(changes[i], value: nil, received: received, &machines, db) }
            }
        }
        var rest = newNotes[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(Writer.rowsPerInsert * 5)
            rest = rest.dropFirst(chunk.count)
            let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO history(task_id, field, stamp, machine, origin, received) VALUES "
                + Array(repeating: "(?, '', ?, ?, ?, ?)", count: chunk.count / 5).joined(separator: ", "))
            statement.setUncheckedArguments(StatementArguments(Array(chunk)))
            try statement.execute()
        }
    }

    /// `changes` cut into runs of one task and one version, in order.
    private static func editRuns(_ changes: [FieldChange]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        for i in changes.indices.dropFirst() where changes[i].task != changes[start].task || changes[i].version != changes[start].version {
            runs.append(start..<i)
            start = i
        }
        runs.append(start..<changes.count)
        return runs
    }

    private struct FieldKey: Hashable { let task: TaskID; let field: TaskField }
    private struct EditKey: Hashable { let task: TaskID; let version: Version }

    /// Keeps the value of an entry that no longer stands: its note row
    /// takes the value, or a row is made with the note of its edit.
    private static func moveToHistory(_ task: TaskID, _ field: TaskField, version: Version, value: FieldValue,
                                      _ machines: inout Machines, _ db: Database) throws {
        let machine = try machines.id(version.replica, db)
        let arguments: StatementArguments = [json(value), task.rawValue, field.rawValue, version.timestamp.rawValue, machine]
        try db.cachedStatement(sql: "UPDATE history SET value = ? WHERE task_id = ? AND field = ? AND stamp = ? AND machine = ? AND value IS NULL")
            .execute(arguments: arguments)
        guard db.changesCount == 0 else { return }
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO history(value, task_id, field, stamp, machine, origin, seen_stamp, seen_machine, received)
            SELECT ?1, ?2, ?3, ?4, ?5, origin, seen_stamp, seen_machine, received FROM history
                WHERE task_id = ?2 AND field = '' AND stamp = ?4 AND machine = ?5
            UNION ALL SELECT ?1, ?2, ?3, ?4, ?5, NULL, NULL, NULL, NULL
            LIMIT 1
            """).execute(arguments: arguments)
    }

    private static func insertNote(_ task: TaskID, _ field: String, stamp: Int64, machine: Int64, _ note: ChangeNote?,
                                   received: Int64?, _ machines: inout Machines, _ db: Database) throws {
        let (seenStamp, seenMachine) = try machines.seenColumns(note?.seen, db)
        let statement = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO history(task_id, field, stamp, machine, origin, seen_stamp, seen_machine, received)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        statement.setUncheckedArguments([task.rawValue, field, stamp, machine, note?.origin?.rawValue, seenStamp, seenMachine, received])
        try statement.execute()
    }

    /// Records one change met by a merge, joining the note held for it:
    /// `value` nil for a change that stands (its value is the row's).
    private static func joinEntry(_ change: FieldChange, value: FieldValue?, received: Int64,
                                  _ machines: inout Machines, _ db: Database) throws {
        let machine = try machines.id(change.version.replica, db)
        let stamp = change.version.timestamp.rawValue
        let held = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT field, origin, seen_stamp, seen_machine, value IS NULL FROM history
            WHERE task_id = ? AND stamp = ? AND machine = ? AND field IN (?, '') ORDER BY field DESC LIMIT 1
            """), arguments: [change.task.rawValue, stamp, machine, change.field.rawValue])
        let heldNote = held.flatMap { machines.note(origin: $0[1], seenStamp: $0[2], seenMachine: $0[3]) }
        let note: ChangeNote? = switch (heldNote, change.note) {
        case (let a?, let b?): a.joined(b)
        case (let a, let b): a ?? b
        }
        let (seenStamp, seenMachine) = try machines.seenColumns(note?.seen, db)
        if let held, (held[0] as String) == change.field.rawValue {
            guard note != heldNote else { return }
            try db.cachedStatement(sql: "UPDATE history SET origin = ?, seen_stamp = ?, seen_machine = ? WHERE task_id = ? AND field = ? AND stamp = ? AND machine = ?")
                .execute(arguments: [note?.origin?.rawValue, seenStamp, seenMachine, change.task.rawValue, change.field.rawValue, stamp, machine])
        } else if held == nil || note != heldNote || value != nil {
            try db.cachedStatement(sql: """
                INSERT INTO history(task_id, field, stamp, machine, value, origin, seen_stamp, seen_machine, received)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [change.task.rawValue, change.field.rawValue, stamp, machine, value.map(json),
                                         note?.origin?.rawValue, seenStamp, seenMachine, received])
        }
    }

    /// Whether the history holds `change` as a value of its field (one that
    /// lost, or that a later change replaced).
    static func holds(_ change: FieldChange, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM history JOIN machine ON machine.id = history.machine
                           WHERE task_id = ? AND field = ? AND stamp = ? AND machine.replica = ?)
            """), arguments: [change.task.rawValue, change.field.rawValue, change.version.timestamp.rawValue,
                              change.version.replica.rawValue]) ?? false
    }

    /// Whether `field` of task `id` held `value` before the value it holds
    /// (a value its history keeps).
    static func heldBefore(_ value: FieldValue, as field: TaskField, of id: TaskID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM history WHERE task_id = ? AND field = ? AND value = ?)"),
                          arguments: [id.rawValue, field.rawValue, json(value)]) ?? false
    }

    static func json(_ value: FieldValue) -> String {
        var bytes: [UInt8] = []
        JSONText.appendValue(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Reading

    /// The note held for one change; nil when none is held.
    static func note(task: TaskID, field: TaskField, version: Version, _ machines: Machines, _ db: Database) throws -> ChangeNote? {
        guard let machine = machines.ids[version.replica],
              let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT origin, seen_stamp, seen_machine FROM history
                WHERE task_id = ? AND stamp = ? AND machine = ? AND field IN (?, '') ORDER BY field DESC LIMIT 1
                """), arguments: [task.rawValue, version.timestamp.rawValue, machine, field.rawValue]) else { return nil }
        return machines.note(origin: row[0], seenStamp: row[1], seenMachine: row[2])
    }

    /// One row of the table, decoded.
    struct Held {
        let field: TaskField?
        let version: Version
        let value: FieldValue?
        let note: ChangeNote?
        /// When it arrived from elsewhere; nil for this machine's own and unknown ones.
        let received: Int64?
    }

    static func held(_ row: Row, _ machines: Machines, decoder: JSONDecoder) -> Held? {
        guard let version = machines.version(row["stamp"], row["machine"]) else { return nil }
        let fieldName: String = row["field"]
        var value: FieldValue?
        if let text = row["value"] as String? {
            guard let decoded = try? decoder.decode(FieldValue.self, from: Data(text.utf8)) else { return nil }
            value = decoded
        }
        return Held(field: fieldName.isEmpty ? nil : TaskField(rawValue: fieldName), version: version, value: value,
                    note: machines.note(origin: row["origin"], seenStamp: row["seen_stamp"], seenMachine: row["seen_machine"]),
                    received: row["received"])
    }

    /// Every entry of task `id` whose row is `task` (nil: no row): the
    /// values held here, and the row's current values with their notes.
    static func entries(of id: TaskID, task: TaskItem?, _ machines: Machines, _ db: Database) throws -> [HistoryEntry] {
        let decoder = JSONDecoder()
        var out: [HistoryEntry] = []
        var notes: [TaskField: [Version: ChangeNote]] = [:]
        var editNotes: [Version: ChangeNote] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM history WHERE task_id = ?"), arguments: [id.rawValue])
        while let row = try rows.next() {
            guard let held = held(row, machines, decoder: decoder) else { continue }
            if let field = held.field {
                if let value = held.value {
                    out.append(HistoryEntry(field: field, value: value, version: held.version, note: held.note))
                } else if let note = held.note {
                    notes[field, default: [:]][held.version] = note
                }
            } else if let note = held.note {
                editNotes[held.version] = note
            }
        }
        // Values moved here carry their edit's note already; a current one finds it by version.
        for i in out.indices where out[i].note == nil { out[i].note = editNotes[out[i].version] }
        if let task {
            for (field, version) in task.versions {
                out.append(HistoryEntry(field: field, value: task.value(of: field), version: version,
                                        note: notes[field]?[version] ?? editNotes[version]))
            }
        }
        return out
    }
}
