import Foundation
import GRDB
import NextUpCore

/// The local change log: every change this replica makes, appended in the same
/// transaction as the change itself, in commit order. Sync uploads from it and
/// prunes what it uploaded. Remote changes merged in are never recorded here.
///
/// Since schema v5 an entry names the fields a write changed and the version
/// each got (``VersionsColumn``'s form), not their values: the task row holds
/// the value. Contract of reading (``TaskStore/outbox(after:limit:)``): a
/// field is read as a change only while the row still holds the version the
/// entry names, with the row's value — which is then exactly the value that
/// write left. A field that moved on since (a later local write, recorded by
/// its own later entry, or a newer change merged from another replica, which
/// that replica publishes) is superseded, and skipped: publishing it could
/// never change what any replica converges to, as its version loses to the
/// one that replaced it everywhere.
///
/// A phone's changes are the exception (``carried(_:)``): their entry holds
/// their values (``ChangeListJSON``'s form), and they are published whether
/// they still stand or not — a phone change that lost, or that a later edit
/// replaced, still tells every machine when the calendar held that value
/// (``TaskStore/bridgeWrite(_:set:versions:creating:expecting:vdir:memory:)``).
public enum Outbox {
    static func append(_ changes: [FieldChange], task: TaskID, _ db: Database) throws {
        guard !changes.isEmpty else { return }
        try append(entry(changes), task: task, db)
    }

    /// Appends the entry `text` (``entry(_:)``) of a write to `task`.
    static func append(_ text: String, task: TaskID, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO outbox(task_id, changes) VALUES (?, ?)").execute(arguments: [task.rawValue, text])
    }

    /// A write session's entries, held until ``flush(_:)`` and then inserted
    /// in the order they were added, many rows per statement: an import
    /// writes one entry per task.
    struct Writer {
        private var pending: [(any DatabaseValueConvertible)?] = []
        private static let rowsPerInsert = 250

        /// Adds the entry `text` (``Outbox/entry(_:)``) of a write to `task`.
        mutating func append(_ text: String, task: TaskID, _ db: Database) throws {
            pending.append(task.rawValue)
            pending.append(text)
            if pending.count == Self.rowsPerInsert * 2 { try flush(db) }
        }

        /// Inserts the held entries; call before the transaction commits.
        mutating func flush(_ db: Database) throws {
            guard !pending.isEmpty else { return }
            let statement = try db.cachedStatement(sql: "INSERT INTO outbox(task_id, changes) VALUES "
                + Array(repeating: "(?, ?)", count: pending.count / 2).joined(separator: ", "))
            // Two values per placeholder pair, by construction.
            statement.setUncheckedArguments(StatementArguments(pending))
            try statement.execute()
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// The text of the entry recording `changes` (not empty).
    static func entry(_ changes: [FieldChange]) -> String {
        // One version for all (a local edit): no dictionary to build.
        let version = changes[0].version
        return changes.allSatisfy({ $0.version == version })
            ? VersionsColumn.encode(changes.lazy.map(\.field), at: version)
            : VersionsColumn.encode(Dictionary(changes.map { ($0.field, $0.version) }, uniquingKeysWith: { _, later in later }))
    }

    /// The text of the entry publishing `changes` (not empty) with their
    /// values, standing or not.
    static func carried(_ changes: [FieldChange]) -> String {
        ChangeListJSON.encode(changes)
    }

    /// The changes entry `text` of a write to `task` publishes: a carried
    /// entry's as they are; another's still standing in `row` (the task, nil
    /// when it is gone).
    static func published(_ text: String, task: String, row: TaskItem?) -> [FieldChange] {
        text.hasPrefix("[") ? ChangeListJSON.decode(task: task, changes: text) : standing(VersionsColumn.decode(text), in: row)
    }

    /// The versions entry `text` names.
    static func versions(_ text: String, task: String) -> [Version] {
        text.hasPrefix("[") ? ChangeListJSON.decode(task: task, changes: text).map(\.version) : Array(VersionsColumn.decode(text).values)
    }

    /// The changes of one entry still standing in `task` (the row, nil when
    /// it is gone).
    static func standing(_ refs: [TaskField: Version], in task: TaskItem?) -> [FieldChange] {
        guard let task else { return [] }
        return refs.sorted { $0.key < $1.key }.compactMap { field, version in
            task.versions[field] == version ? FieldChange(task: task.id, field: field, value: task.value(of: field), version: version) : nil
        }
    }
}

extension TaskStore {
    /// One recorded local write: its sequence number and its changes.
    public struct OutboxRecord: Sendable, Equatable {
        public let seq: Int64
        public let changes: [FieldChange]
    }

    /// Local changes recorded after `seq`, oldest first, at most `limit`.
    public func outbox(after seq: Int64, limit: Int = .max) throws -> [OutboxRecord] {
        try database.read { db in try Self.outbox(db, after: seq, limit: limit) }
    }

    /// Each entry with the changes of it still standing in its task's row
    /// (``Outbox``): one query joining the entries to their rows; each change
    /// with the note its history holds.
    static func outbox(_ db: Database, after seq: Int64, limit: Int = .max) throws -> [OutboxRecord] {
        var out: [OutboxRecord] = []
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(TaskRow.columns), seq, changes, task_id FROM outbox LEFT JOIN task ON task.id = outbox.task_id
            WHERE seq > ? ORDER BY seq LIMIT ?
            """, arguments: [seq, limit])
        let seqIndex = TaskRow.columnCount
        var replicas = VersionsColumn.Replicas()
        let machines = try HistoryTable.Machines.load(db)
        while let row = try rows.next() {
            let task = (row[0] as String?) == nil ? nil : TaskRow.decode(row, replicas: &replicas)
            var changes = Outbox.published(row[seqIndex + 1], task: row[seqIndex + 2], row: task)
            // Each with its note (origin, seen version), which the log carries for the history.
            for i in changes.indices {
                changes[i].note = try HistoryTable.note(task: changes[i].task, field: changes[i].field, version: changes[i].version, machines, db)
            }
            out.append(OutboxRecord(seq: row[seqIndex], changes: changes))
        }
        return out
    }

    /// Entries naming a version later than `limit` (the far-future repair).
    static func outboxEntries(_ db: Database, namingVersionsAfter limit: HybridTimestamp) throws -> [Int64] {
        var out: [Int64] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, changes, task_id FROM outbox")
        while let row = try rows.next() {
            if Outbox.versions(row[1], task: row[2]).contains(where: { $0.timestamp > limit }) { out.append(row[0]) }
        }
        return out
    }

    /// The number of local changes recorded after `seq`.
    public func outboxCount(after seq: Int64) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE seq > ?", arguments: [seq]) ?? 0 }
    }

    /// Forgets recorded local changes up to and including `seq` (they are safe
    /// in this replica's log).
    public func pruneOutbox(through seq: Int64) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM outbox WHERE seq <= ?", arguments: [seq]) }
    }
}
