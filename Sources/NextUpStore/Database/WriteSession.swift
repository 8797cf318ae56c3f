import Foundation
import GRDB
import NextUpCore

/// One write transaction's view of the replica: its id and hybrid clock, read
/// once from `meta` and saved back at the end, so that many tasks can be
/// written in one transaction (an import) at the cost of one.
///
/// Contract: ``write(_:to:timestamp:expecting:)`` persists what Core's
/// ``LocalEdit`` (the one place local versions are made) returns: conditional,
/// after what it saw, checked against the version its caller saw.
struct WriteSession {
    let db: Database
    let replica: ReplicaID
    let now: Int64
    /// The number every row this session writes carries (``TaskRow/nextWritten(_:)``).
    let written: Int64
    private(set) var clock: HybridClock
    /// Where the writes of this session are made (their history's origin).
    var origin: ChangeOrigin
    /// The history's writer, made at the session's first history write.
    private var history: HistoryTable.Writer?
    /// The outbox entries of this session's writes, inserted at ``finish()``
    /// or as they add up.
    private var outbox = Outbox.Writer()
    /// This session's last local change, kept in `meta` at commit.
    private var lastOwnChange: (task: TaskID, version: Version)?

    init(_ db: Database, physical: any PhysicalClock, origin: ChangeOrigin = .command) throws {
        self.db = db
        self.origin = origin
        self.replica = try TaskStore.replicaID(db)
        let last = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'clock'").flatMap { Int64($0) } ?? 0
        self.now = physical.nowMillis()
        self.written = try TaskRow.nextWritten(db)
        self.clock = HybridClock(last: HybridTimestamp(rawValue: last)).reined(now: now)
    }

    /// Writes `fields` to `task` where they differ (Core's ``LocalEdit``),
    /// saves the row and records the changes in the outbox and the history
    /// (each with the version the field held before: its seen version).
    /// Returns the changes made (empty: nothing).
    ///
    /// - Parameters:
    ///   - timestamp: for a task being created from an import, the time its
    ///     record was last modified (see ``LocalEdit/apply(_:to:clock:replica:now:importedAt:expecting:)``).
    ///   - expecting: per field, the version the caller saw; a field that
    ///     moved on since throws ``StaleWrite`` and nothing is written.
    mutating func write(_ fields: [(TaskField, FieldValue)], to task: inout TaskItem, timestamp: Int64? = nil,
                        expecting: [TaskField: Version?] = [:]) throws -> [FieldChange] {
        let fresh = task.versions.isEmpty
        let before = task
        // A write of a task that holds one tag in two spellings (added on two
        // machines at once) clears the later ones (``TaskItem/tagNames``).
        var fields = fields
        let duplicates = task.duplicateTagSpellings
        if !duplicates.isEmpty, fields.contains(where: { task.value(of: $0.0) != $0.1 }) {
            fields += duplicates.filter { name in !fields.contains { $0.0 == .tag(name) } }.map { (.tag($0), .bool(false)) }
        }
        // In place: the task and the clock change only when the edit is made.
        var changes = try LocalEdit.apply(fields, to: &task, clock: &clock, replica: replica, now: now,
                                          importedAt: timestamp, expecting: expecting)
        guard !changes.isEmpty else { return [] }
        for i in changes.indices { changes[i].note = .local(origin, held: before.versions[changes[i].field], taskHadVersions: !fresh) }
        if history == nil { history = try HistoryTable.Writer(db) }
        try HistoryTable.recordLocal(changes, before: before, &history!, db)
        lastOwnChange = (task.id, changes[0].version)
        let entry = Outbox.entry(changes)
        // A task that had no version holds exactly this edit's: its row's
        // versions column is the outbox entry's text, encoded once.
        try TaskRow.save(task, db, written: written, versions: fresh ? entry : nil)
        try outbox.append(entry, task: task.id, db)
        return changes
    }

    /// Merges changes that carry their own versions (an import of an export:
    /// a lossless restore) with Core's ``Merge``, saves the row and records
    /// the changes that won in the outbox, versions unchanged, so that they
    /// are published like local ones. The clock moves past them.
    ///
    /// `carried` (a phone's changes): every change met, applied or not, is
    /// recorded with its value and published carried (``Outbox/carried(_:)``),
    /// once — one the history already holds is not again.
    mutating func merge(_ changes: [FieldChange], into task: inout TaskItem, carried: Bool = false) throws -> [FieldChange] {
        var applied: [FieldChange] = []
        var recorded: [FieldChange] = []
        let before = task
        for change in changes {
            if Merge.apply(change, to: &task) == .applied {
                applied.append(change)
                recorded.append(change)
                clock.observe(change.version.timestamp, now: now)
            } else if carried, before.versions[change.field] != change.version, try !HistoryTable.holds(change, db) {
                recorded.append(change)
            }
        }
        guard !recorded.isEmpty else { return [] }
        // Without a note of their own: another machine made them, and its log says how.
        if history == nil { history = try HistoryTable.Writer(db) }
        try history!.flush(db)
        try HistoryTable.recordMerge(recorded, before: [task.id: before], after: [task.id: task], received: now, &history!.machines, db)
        if !applied.isEmpty { try TaskRow.save(task, db, written: written) }
        try outbox.append(carried ? Outbox.carried(recorded) : Outbox.entry(applied), task: task.id, db)
        return applied
    }

    /// Saves the clock; call once before the transaction commits.
    mutating func finish() throws {
        try outbox.flush(db)
        try history?.flush(db)
        if let last = lastOwnChange {
            try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('history.last_own', ?)",
                           arguments: ["\(last.task.rawValue) \(last.version.encoded)"])
        }
        try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'clock'", arguments: [String(clock.last.rawValue)])
    }
}
