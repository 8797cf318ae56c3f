import GRDB
import NextUpCore

/// Reading and writing a ``TaskItem`` as one row of the `task` table.
///
/// Versions are kept in one column in ``VersionsColumn``'s compact form;
/// `modified` is denormalised from them.
///
/// A task whose creation has not arrived yet (a peer's change to it came
/// first) is kept as a row with ``unbornCreated`` in its `created` column:
/// its changes are held and merged like any other, and the creation, when it
/// arrives, is merged into the same row. Every listing, count, export and
/// lookup reads only rows with ``ListSQL/born``.
enum TaskRow {
    /// The `created` column of a row whose `created` field has no version
    /// (no real creation time is negative).
    static let unbornCreated: Int64 = -1

    /// The known fields' columns, in field-table order, then the opaque
    /// registers (`extra`) and the versions.
    static let columns = "id, " + FieldSpec.table.map(\.column).joined(separator: ", ") + ", extra, versions"
    /// How many columns ``columns`` names.
    static let columnCount = FieldSpec.table.count + 3
    private static let extraIndex = FieldSpec.table.count + 1
    /// Each known field's column kind (a FieldSpec copied out per row and
    /// field retained every closure it holds).
    private static let columnKinds = FieldSpec.table.map { ($0.field, $0.kind) }
    private static let versionsIndex = FieldSpec.table.count + 2

    /// The task of `row` (its first ``columnCount`` columns are
    /// ``columns``), or nil for a row whose id is not a task id. Columns hold
    /// what was validated on the way in.
    static func decode(_ row: Row, replicas: inout VersionsColumn.Replicas, versions: TaskFilter.Versions = .all) -> TaskItem? {
        guard var t = decodeValues(row) else { return nil }
        read(versions, of: row[versionsIndex] as String? ?? "", into: &t, replicas: &replicas)
        return t
    }

    /// The task of `row` without its versions (``decode(_:replicas:versions:)``
    /// with `.none`).
    private static func decodeValues(_ row: Row) -> TaskItem? {
        guard let id = (row[0] as String?).flatMap(TaskID.init) else { return nil }
        var t = TaskItem(id: id)
        for (i, (field, kind)) in columnKinds.enumerated() {
            let value: FieldValue
            switch kind {
            case .text: value = (row[i + 1] as String?).map(FieldValue.string) ?? .null
            case .integer: value = (row[i + 1] as Int64?).map(FieldValue.int) ?? .null
            case .boolean: value = (row[i + 1] as Int64?).map { FieldValue.bool($0 != 0) } ?? .null
            }
            if field == .created, value == .int(unbornCreated) { continue }
            t.restore(field, to: value)
        }
        if let extra = row[extraIndex] as String? { t.extra = ExtraRegisters.decode(extra) }
        return t
    }

    /// Sets `t`'s versions from its row's versions `column`, as much of them as `versions` says.
    private static func read(_ versions: TaskFilter.Versions, of column: String, into t: inout TaskItem,
                             replicas: inout VersionsColumn.Replicas) {
        switch versions {
        case .all: t.versions = VersionsColumn.decode(column, replicas: &replicas)
        case .newest: if let (field, version) = VersionsColumn.newest(column, replicas: &replicas) { t.versions = [field: version] }
        case .none: break
        }
    }

    /// Inserts or replaces the row of `task`, as written by the transaction
    /// numbered `written` (``nextWritten(_:)``, read once per transaction).
    ///
    /// - Parameter versions: the row's `versions` column when the caller has
    ///   it encoded already (it must be `VersionsColumn.encode(t.versions)`:
    ///   a new task's first edit, whose outbox entry is the same text).
    static func save(_ t: TaskItem, _ db: Database, written: Int64, versions: String? = nil) throws {
        assert(versions == nil || versions == VersionsColumn.encode(t.versions), "versions text given for a row is not its versions")
        var values: [(any DatabaseValueConvertible)?] = [t.id.rawValue]
        values.reserveCapacity(columnCount + 3)
        for (field, _) in columnKinds {
            if field == .created, t.versions[.created] == nil {
                values.append(unbornCreated)
                continue
            }
            switch t.value(of: field) {
            case .null: values.append(nil)
            case .string(let s): values.append(s)
            case .int(let n): values.append(n)
            case .bool(let b): values.append(b)
            case .json(let text): values.append(text)
            }
        }
        values.append(t.extra.isEmpty ? nil : ExtraRegisters.encode(t.extra))
        values.append(versions ?? VersionsColumn.encode(t.versions))
        values.append(t.modified.rawValue)
        values.append(TextMatch.fold(t.title))
        values.append(written)
        // The values match the statement's placeholders by construction: no
        // check of their count is needed (GRDB's unchecked binding).
        let statement = try db.cachedStatement(sql: insertSQL)
        statement.setUncheckedArguments(StatementArguments(values))
        try statement.execute()
    }

    /// Every row carries `title_fold` (schema v6): its title folded by
    /// ``TextMatch/fold(_:)``, what the lists' title filter reads; and
    /// `written` (schema v15).
    private static let insertSQL = "INSERT OR REPLACE INTO task (\(columns), modified, title_fold, written) VALUES ("
        + Array(repeating: "?", count: columnCount + 3).joined(separator: ", ") + ")"

    /// The number of a transaction that writes rows: one greater than every
    /// row's `written` when it begins, so that a reader that saw the table
    /// before finds each row it writes by `written` (``TaskStore/lists(sort:narrowing:keepDone:nowMillis:since:)``).
    /// Read it before the task table's indexes are dropped for a bulk load.
    static func nextWritten(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(written), 0) + 1 FROM task") ?? 1
    }

    static func fetchOne(_ db: Database, id: TaskID) throws -> TaskItem? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM task WHERE id = ?")
        var replicas = VersionsColumn.Replicas()
        return try Row.fetchOne(statement, arguments: [id.rawValue]).flatMap { decode($0, replicas: &replicas) }
    }

    /// The rows of `ids` that exist, in no particular order: one statement
    /// per 500 ids instead of a lookup each.
    static func fetchAll(_ db: Database, ids: some Collection<TaskID>) throws -> [TaskItem] {
        var out: [TaskItem] = []
        out.reserveCapacity(ids.count)
        var rest = ids[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(500)
            rest = rest.dropFirst(chunk.count)
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            out += try fetchAll(db, where: "id IN (\(marks))", arguments: StatementArguments(chunk.map(\.rawValue)))
        }
        return out
    }

    /// The tasks of the rows `clause` admits, without their versions
    /// (``TaskFilter/Versions/none``), each beside its versions column as
    /// the row holds it (``StoredVersions``); `reserving` as in
    /// ``fetchAll(_:where:arguments:order:versions:reserving:)``.
    static func fetchAllWithStoredVersions(_ db: Database, where clause: String, order: String,
                                           reserving: Int) throws -> (tasks: [TaskItem], versions: [StoredVersions]) {
        var tasks: [TaskItem] = [], stored: [StoredVersions] = []
        tasks.reserveCapacity(reserving)
        stored.reserveCapacity(reserving)
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM task WHERE \(clause) ORDER BY \(order)")
        while let row = try rows.next() {
            guard let t = decodeValues(row) else { continue }
            tasks.append(t)
            stored.append(StoredVersions(column: row[versionsIndex] as String? ?? ""))
        }
        return (tasks, stored)
    }

    /// The tasks of the rows `clause` admits; `reserving` is room for that
    /// many made at once (a whole table's read grows no array).
    static func fetchAll(_ db: Database, where clause: String = "1", arguments: StatementArguments = [], order: String? = nil,
                         versions: TaskFilter.Versions = .all, reserving: Int = 0) throws -> [TaskItem] {
        var sql = "SELECT \(columns) FROM task WHERE \(clause)"
        if let order { sql += " ORDER BY \(order)" }
        var out: [TaskItem] = []
        out.reserveCapacity(reserving)
        var replicas = VersionsColumn.Replicas()
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            if let t = decode(row, replicas: &replicas, versions: versions) { out.append(t) }
        }
        return out
    }
}
