import Foundation
import GRDB
import NextUpCore

/// One write transaction's view of the replica: its id and hybrid clock, read
/// once from `meta` and saved back at the end, so that many tasks can be
/// written in one transaction (an import of 100,000) at the cost of one.
///
/// Contract: ``write(_:to:timestamp:expecting:)`` persists what Core's
/// ``LocalEdit`` (the one place local versions are made) returns: conditional,
/// after what it saw, checked against the version its caller saw.
struct WriteSession {
    let db: Database
    let replica: ReplicaID
    let now: Int64
    private(set) var clock: HybridClock
    /// The row and outbox statements, prepared once per session.
    private var statements = Statements()

    /// Statements a session runs once per task, kept instead of looked up
    /// by their SQL in GRDB's cache each time (hashing the row's long
    /// INSERT for every task), and the outbox entries not yet written: they
    /// go in ``Outbox/entriesPerStatement`` at a time, the rest when the
    /// session finishes — all in the session's transaction, in order, so
    /// the outbox ends the same. Nothing in a session reads the outbox.
    private struct Statements {
        private var rowStatement: Statement?
        private var rowsStatement: Statement?
        private var outboxStatement: Statement?
        private var rowsEntriesStatement: Statement?
        private var pending: [(TaskID, String)] = []

        mutating func row(_ db: Database) throws -> Statement {
            if let rowStatement { return rowStatement }
            let made = try TaskRow.insertStatement(db)
            rowStatement = made
            return made
        }

        mutating func rows(_ db: Database) throws -> Statement {
            if let rowsStatement { return rowsStatement }
            let made = try TaskRow.insertStatement(db, rows: WriteSession.rowsPerStatement)
            rowsStatement = made
            return made
        }

        /// The outbox statement for the entries of ``rows(_:)``'s rows.
        mutating func rowsEntries(_ db: Database) throws -> Statement {
            if let rowsEntriesStatement { return rowsEntriesStatement }
            let made = try Outbox.insertStatement(db, entries: WriteSession.rowsPerStatement)
            rowsEntriesStatement = made
            return made
        }

        mutating func append(_ entry: String, task: TaskID, _ db: Database) throws {
            pending.append((task, entry))
            guard pending.count == Outbox.entriesPerStatement else { return }
            if outboxStatement == nil { outboxStatement = try Outbox.insertStatement(db, entries: Outbox.entriesPerStatement) }
            try Outbox.append(pending, with: outboxStatement!)
            pending.removeAll(keepingCapacity: true)
        }

        /// Writes the entries still pending, one statement for all.
        mutating func flush(_ db: Database) throws {
            guard !pending.isEmpty else { return }
            try Outbox.append(pending, with: try Outbox.insertStatement(db, entries: pending.count))
            pending.removeAll()
        }
    }

    init(_ db: Database, physical: any PhysicalClock) throws {
        self.db = db
        self.replica = try TaskStore.replicaID(db)
        let last = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'clock'").flatMap { Int64($0) } ?? 0
        self.clock = HybridClock(last: HybridTimestamp(rawValue: last))
        self.now = physical.nowMillis()
    }

    /// Writes `fields` to `task` where they differ (Core's ``LocalEdit``),
    /// saves the row and records the changes in the outbox. Returns the
    /// changes made (empty: nothing).
    ///
    /// - Parameters:
    ///   - timestamp: for a task being created from an import, the time its
    ///     record was last modified (see ``LocalEdit/apply(_:to:clock:replica:now:importedAt:expecting:)``).
    ///   - expecting: per field, the version the caller saw; a field that
    ///     moved on since throws ``StaleWrite`` and nothing is written.
    mutating func write(_ fields: [(TaskField, FieldValue)], to task: inout TaskItem, timestamp: Int64? = nil,
                        expecting: [TaskField: Version?] = [:]) throws -> [FieldChange] {
        let fresh = task.versions.isEmpty
        // In place: the task and the clock change only when the edit is made.
        let changes = try LocalEdit.apply(fields, to: &task, clock: &clock, replica: replica, now: now,
                                          importedAt: timestamp, expecting: expecting)
        guard !changes.isEmpty else { return [] }
        let entry = Outbox.entry(changes)
        // A task that had no version holds exactly this edit's: its row's
        // versions column is the outbox entry's text, encoded once.
        try TaskRow.save(task, with: try statements.row(db), versions: fresh ? entry : nil)
        try statements.append(entry, task: task.id, db)
        return changes
    }

    /// Creates the task `id`, which has no row, from `fields` (Core's
    /// ``LocalEdit/create(_:clock:replica:now:importedAt:)``): saves its row
    /// and records the edit in the outbox — what ``write(_:to:timestamp:expecting:)``
    /// does for `TaskItem(id:)`, without making the task. Returns how many
    /// rows it wrote (0: every value was a new task's already; nothing written).
    mutating func create(_ id: TaskID, fields: [(TaskField, FieldValue)], timestamp: Int64? = nil) throws -> Int {
        guard let row = try Self.newRow(id, fields: fields, timestamp: timestamp, clock: &clock, replica: replica, now: now) else { return 0 }
        try insert(row)
        return 1
    }

    /// The row ``create(_:fields:timestamp:)`` inserts, made with `clock`
    /// (a session's, or a copy of it moved on by a thread making rows ahead
    /// of the one inserting them); nil when every value is a new task's.
    static func newRow(_ id: TaskID, fields: [(TaskField, FieldValue)], timestamp: Int64?, clock: inout HybridClock,
                       replica: ReplicaID, now: Int64) throws -> TaskRow.NewRow? {
        let (written, version) = try LocalEdit.create(fields, clock: &clock, replica: replica, now: now, importedAt: timestamp)
        return version.map { TaskRow.NewRow(id: id, fields: written, version: $0) }
    }

    /// ``newRow(_:fields:timestamp:clock:replica:now:)`` with its version
    /// handed out before (``LocalEdit/creationVersion(clock:replica:now:importedAt:)``,
    /// in the order the rows are written): no clock, so rows can be made on
    /// several threads. Nil when every value is a new task's.
    static func newRow(_ id: TaskID, fields: [(TaskField, FieldValue)], version: Version) throws -> TaskRow.NewRow? {
        let written = try LocalEdit.newTaskFields(fields)
        return written.isEmpty ? nil : TaskRow.NewRow(id: id, fields: written, version: version)
    }

    /// Inserts a new task's row made by ``newRow(_:fields:timestamp:clock:replica:now:)``
    /// and records its edit in the outbox (the entry is its versions column).
    mutating func insert(_ row: TaskRow.NewRow) throws {
        try row.insert(with: try statements.row(db))
        try statements.append(row.versions, task: row.id, db)
    }

    /// Inserts new tasks' rows made by ``newRow(_:fields:timestamp:clock:replica:now:)``
    /// with one statement (at most ``rowsPerStatement``, for which the
    /// statement is kept), and records their edits in the outbox.
    mutating func insert(_ rows: [TaskRow.NewRow]) throws {
        guard !rows.isEmpty else { return }
        let full = rows.count == Self.rowsPerStatement
        try TaskRow.NewRow.insert(rows, with: full ? try statements.rows(db) : try TaskRow.insertStatement(db, rows: rows.count))
        // Their entries follow any still pending, in order; bound from the rows.
        try statements.flush(db)
        try TaskRow.NewRow.appendOutboxEntries(rows, with: full ? try statements.rowsEntries(db) : try Outbox.insertStatement(db, entries: rows.count))
    }

    /// How many new rows a writer of many inserts with one statement.
    static let rowsPerStatement = 32

    /// Moves the clock on to `clock`, which made rows from this session's clock.
    mutating func advance(to clock: HybridClock) {
        self.clock = clock
    }

    /// Merges changes that carry their own versions (an import of an export:
    /// a lossless restore) with Core's ``Merge``, saves the row and records
    /// the changes that won in the outbox, versions unchanged, so that they
    /// are published like local ones. The clock moves past them.
    mutating func merge(_ changes: [FieldChange], into task: inout TaskItem) throws -> [FieldChange] {
        var applied: [FieldChange] = []
        for change in changes where Merge.apply(change, to: &task) == .applied {
            applied.append(change)
            clock.observe(change.version.timestamp)
        }
        guard !applied.isEmpty else { return [] }
        try TaskRow.save(task, with: try statements.row(db))
        try statements.append(Outbox.entry(applied), task: task.id, db)
        return applied
    }

    /// Writes the outbox entries still pending and saves the clock; call
    /// once before the transaction commits.
    mutating func finish() throws {
        try statements.flush(db)
        try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'clock'", arguments: [String(clock.last.rawValue)])
    }
}
