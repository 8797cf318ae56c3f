import Foundation
import GRDB
import NextUpCore

/// One write transaction's view of the replica: its id and hybrid clock, read
/// once from `meta` and saved back at the end, so that many tasks can be
/// written in one transaction (an import of 100,000) at the cost of one.
///
/// Contract: ``write(_:to:timestamp:)`` is the only place local versions are
/// made. It is conditional — a field already holding the value is skipped —
/// and every version it makes is greater than every version the store holds
/// for that field, so an edit made after seeing a value always wins over it.
struct WriteSession {
    let db: Database
    let replica: ReplicaID
    let now: Int64
    private(set) var clock: HybridClock

    init(_ db: Database, physical: any PhysicalClock) throws {
        self.db = db
        self.replica = try TaskStore.replicaID(db)
        let last = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'clock'").flatMap { Int64($0) } ?? 0
        self.clock = HybridClock(last: HybridTimestamp(rawValue: last))
        self.now = physical.nowMillis()
    }

    /// Writes `fields` to `task` where they differ, saves the row and records
    /// the changes in the outbox. Returns the changes made (empty: nothing).
    ///
    /// - Parameter timestamp: use this physical time for the versions of a
    ///   task being created from an import (keeps `modified` across
    ///   export/import); the clock still moves past it. A time beyond the
    ///   sane future (``HybridClock/maxAhead``) is not used: the version is
    ///   then made from the clock as for any edit.
    mutating func write(_ fields: [(TaskField, FieldValue)], to task: inout TaskItem, timestamp: Int64? = nil) throws -> [FieldChange] {
        // A field never written holds its default (unset, empty, not
        // deleted); asking for that value is no change either.
        let differing = fields.filter { field, value in task.value(of: field) != value }
        guard !differing.isEmpty else { return [] }
        for (field, value) in differing where !field.accepts(value) {
            throw TaskInputError("'\(Sanitizer.visible(value.description))' is not a valid \(field.rawValue)")
        }
        if let newest = task.versions.values.max() { clock.observe(newest.timestamp) }
        let ts: HybridTimestamp
        if let timestamp, task.versions.isEmpty, !HybridClock.isBeyondSaneFuture(HybridTimestamp(millis: timestamp), now: now) {
            // A new task from an import keeps its recorded time; the clock moves past it.
            ts = HybridTimestamp(millis: timestamp)
            clock.observe(ts)
        } else {
            ts = clock.tick(now: now)
        }
        let version = Version(timestamp: ts, replica: replica)
        var changes: [FieldChange] = []
        for (field, value) in differing {
            task.set(field, to: value)
            task.versions[field] = version
            changes.append(FieldChange(task: task.id, field: field, value: value, version: version))
        }
        try TaskRow.save(task, db)
        try Outbox.append(changes, task: task.id, db)
        return changes
    }

    /// Saves the clock; call once before the transaction commits.
    func finish() throws {
        try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'clock'", arguments: [String(clock.last.rawValue)])
    }
}
