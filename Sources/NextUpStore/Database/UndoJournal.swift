import GRDB
import NextUpCore

/// The undo journal: for each of this store's most recent local changes made
/// through an intent-named write (add, edit, done, delete, …, from the command
/// line or the TUI), the task, the kind of change, per field the value before
/// and the version the change left, and the versions it replaced. An import
/// with `--overwrite` is journaled as one group (an entry per task it
/// changed or made, all with its time), taken back whole; one that touched
/// more tasks than the journal keeps leaves a single entry saying so. A
/// series step (done or skip on an occurrence) is journaled as one group too:
/// the occurrence it closed and the successor it made, taken back together. Other
/// imports, merges and undos are not journaled. The newest ``limit``
/// entries are kept.
///
/// Contract: an entry is taken back (``TaskStore/undoLastChange()``) only if
/// every field it wrote still holds the version it left; the entry is spent
/// either way, so the next undo reaches the change before it. Once taken
/// back, the next older entry for the same field, if it left the version this
/// change replaced, expects what the undo left instead — so several undos walk
/// back through several changes of one field.
enum UndoJournal {
    static let limit = 200

    enum Kind: String {
        /// The task was made by the change: undoing it deletes it (restorable).
        case add
        /// Fields were set: undoing writes their earlier values back.
        case edit
        /// Fields an `import --overwrite` set: like ``edit``, with the rest of its group.
        case importEdit = "import"
        /// A task an `import --overwrite` made: like ``add``, with the rest of its group.
        case importAdd = "import-add"
        /// An `import --overwrite` too large for the journal: it cannot be taken back.
        case importTooLarge = "import-too-large"

        /// The occurrence a series step (done, skip) closed: like ``edit``, with its successor.
        case stepEdit = "step"
        /// The successor a series step made: like ``add``, with the occurrence it closed.
        case stepAdd = "step-add"

        /// Whether entries of this kind belong to an import's group.
        var isImport: Bool { self == .importEdit || self == .importAdd || self == .importTooLarge }
        /// Whether entries of this kind belong to a series step's group.
        var isStep: Bool { self == .stepEdit || self == .stepAdd }
    }

    struct Entry {
        let seq: Int64
        let task: TaskID
        let kind: Kind
        /// Per field: the value before, and the version the change left.
        var changes: [FieldChange]
        /// Per field: the version the change replaced (nil: never written).
        let prior: [TaskField: Version?]
        /// When the change was made (the group's time, for an import).
        let at: Int64
    }

    /// Records one change: `before` is the task as it was, `changes` what the
    /// write made (empty: nothing is recorded).
    static func record(_ kind: Kind, before: TaskItem, changes: [FieldChange], at now: Int64, _ db: Database) throws {
        guard !changes.isEmpty else { return }
        // Stored in the outbox's entry shape: the value is the one before,
        // the version the one after.
        let entries = changes.map { FieldChange(task: $0.task, field: $0.field, value: before.value(of: $0.field), version: $0.version) }
        let prior = changes.map { "\($0.field.rawValue)=\(before.versions[$0.field]?.encoded ?? "")" }.joined(separator: ",")
        try db.cachedStatement(sql: "INSERT INTO undo_journal(task_id, kind, changes, prior, at) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [before.id.rawValue, kind.rawValue, ChangeListJSON.encode(entries), prior, now])
        try db.cachedStatement(sql: "DELETE FROM undo_journal WHERE seq <= ?").execute(arguments: [db.lastInsertedRowID - Int64(limit)])
    }

    /// The newest entry, removed from the journal.
    static func takeNewest(_ db: Database) throws -> Entry? {
        while let row = try Row.fetchOne(db, sql: "SELECT seq, task_id, kind, changes, prior, at FROM undo_journal ORDER BY seq DESC LIMIT 1") {
            try db.execute(sql: "DELETE FROM undo_journal WHERE seq = ?", arguments: [row["seq"] as Int64])
            if let entry = entry(row) { return entry }
        }
        return nil
    }

    /// The newest change, removed from the journal: one entry, or every
    /// entry of the import or series step it belongs to (newest first).
    static func takeNewestChange(_ db: Database) throws -> [Entry] {
        guard let newest = try takeNewest(db) else { return [] }
        guard newest.kind.isImport || newest.kind.isStep else { return [newest] }
        var group = [newest]
        let rows = try Row.fetchAll(db, sql: "SELECT seq, task_id, kind, changes, prior, at FROM undo_journal WHERE seq < ? ORDER BY seq DESC",
                                    arguments: [newest.seq])
        for row in rows {
            guard let entry = entry(row), entry.kind.isImport == newest.kind.isImport, entry.kind.isStep == newest.kind.isStep,
                  entry.at == newest.at else { break }
            // A step is one closing and at most one successor.
            if newest.kind.isStep, group.contains(where: { $0.kind == entry.kind }) { break }
            try db.execute(sql: "DELETE FROM undo_journal WHERE seq = ?", arguments: [entry.seq])
            group.append(entry)
        }
        return group
    }

    /// Records what an `import --overwrite` did: per task, the task before
    /// (nil: the import made it) and the changes it made; all under one
    /// time, as one group. More tasks than the journal keeps: one entry
    /// saying it cannot be taken back.
    static func recordImport(_ changed: [(before: TaskItem, made: Bool, changes: [FieldChange])], at now: Int64, _ db: Database) throws {
        let changed = changed.filter { !$0.changes.isEmpty }
        guard let first = changed.first else { return }
        if changed.count > limit {
            try record(.importTooLarge, before: first.before, changes: first.changes, at: now, db)
            return
        }
        for task in changed { try record(task.made ? .importAdd : .importEdit, before: task.before, changes: task.changes, at: now, db) }
    }

    /// After `done` was taken back, leaving `versions`: relinks the next older
    /// entry of each field it wrote (see the contract).
    static func relink(after done: Entry, leaving versions: [TaskField: Version], _ db: Database) throws {
        var pending = done.prior
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, task_id, kind, changes, prior, at FROM undo_journal WHERE task_id = ? ORDER BY seq DESC",
                                       arguments: [done.task.rawValue])
        while !pending.isEmpty, let row = try rows.next() {
            guard var older = entry(row) else { continue }
            var touched = false
            for i in older.changes.indices {
                let field = older.changes[i].field
                guard let prior = pending[field] else { continue }
                pending[field] = nil
                if older.changes[i].version == prior, let left = versions[field] {
                    older.changes[i] = FieldChange(task: older.task, field: field, value: older.changes[i].value, version: left)
                    touched = true
                }
            }
            if touched {
                try db.execute(sql: "UPDATE undo_journal SET changes = ? WHERE seq = ?",
                               arguments: [ChangeListJSON.encode(older.changes), older.seq])
            }
        }
    }

    private static func entry(_ row: Row) -> Entry? {
        let changes = ChangeListJSON.decode(task: row["task_id"], changes: row["changes"])
        guard let kind = Kind(rawValue: row["kind"]), let first = changes.first else { return nil }
        var prior: [TaskField: Version?] = [:]
        for pair in (row["prior"] as String).split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let field = TaskField(rawValue: String(parts[0])) else { continue }
            prior[field] = parts[1].isEmpty ? .some(nil) : Version(encoded: String(parts[1])).map { .some($0) }
        }
        return Entry(seq: row["seq"], task: first.task, kind: kind, changes: changes, prior: prior, at: row["at"])
    }
}
