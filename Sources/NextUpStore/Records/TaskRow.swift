import GRDB
import GRDBSQLite
import NextUpCore

/// Reading and writing a ``TaskItem`` as one row of the `task` table.
///
/// Versions are kept in one column in ``VersionsColumn``'s form, parsed
/// without JSON for speed; `modified` is denormalised from them.
enum TaskRow {
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

    /// The task of the row `statement` is on (its first ``columnCount``
    /// columns are ``columns``), or nil for a row whose id is not a task id.
    /// Each column is read as its own type through SQLite's C API (no
    /// `Row`, no `DatabaseValue` in between); columns hold what was validated
    /// on the way in.
    static func decode(_ statement: Statement, replicas: inout VersionsColumn.Replicas, versions: TaskFilter.Versions = .all) -> TaskItem? {
        let raw = statement.sqliteStatement
        func text(_ i: Int) -> String? {
            // NULL has no text; the bytes are asked for after the text, as SQLite wants.
            guard let bytes = sqlite3_column_text(raw, Int32(i)) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(raw, Int32(i)))), as: UTF8.self)
        }
        func integer(_ i: Int) -> Int64? { sqlite3_column_type(raw, Int32(i)) == SQLITE_NULL ? nil : sqlite3_column_int64(raw, Int32(i)) }
        guard let id = text(0).flatMap(TaskID.init) else { return nil }
        var t = TaskItem(id: id)
        for (i, (field, kind)) in columnKinds.enumerated() {
            let value: FieldValue
            switch kind {
            case .text: value = text(i + 1).map(FieldValue.string) ?? .null
            case .integer: value = integer(i + 1).map(FieldValue.int) ?? .null
            case .boolean: value = integer(i + 1).map { FieldValue.bool($0 != 0) } ?? .null
            }
            t.restore(field, to: value)
        }
        if let extra = text(extraIndex) { t.extra = ExtraRegisters.decode(extra) }
        let column = text(versionsIndex) ?? ""
        switch versions {
        case .all: t.versions = VersionsColumn.decode(column, replicas: &replicas)
        case .newest: if let (field, version) = VersionsColumn.newest(column, replicas: &replicas) { t.versions = [field: version] }
        case .none: break
        }
        return t
    }

    /// Inserts or replaces the row of `task`.
    ///
    /// - Parameter versions: the row's `versions` column when the caller has
    ///   it encoded already (it must be `VersionsColumn.encode(t.versions)`:
    ///   a new task's first edit, whose outbox entry is the same text).
    static func save(_ t: TaskItem, _ db: Database, versions: String? = nil) throws {
        assert(versions == nil || versions == VersionsColumn.encode(t.versions), "versions text given for a row is not its versions")
        var values: [(any DatabaseValueConvertible)?] = [t.id.rawValue]
        values.reserveCapacity(columnCount + 2)
        for (field, _) in columnKinds {
            switch t.value(of: field) {
            case .null: values.append(nil)
            case .string(let s): values.append(s)
            case .int(let n): values.append(n)
            case .bool(let b): values.append(b)
            }
        }
        values.append(t.extra.isEmpty ? nil : ExtraRegisters.encode(t.extra))
        values.append(versions ?? VersionsColumn.encode(t.versions))
        values.append(t.modified.rawValue)
        values.append(TextMatch.fold(t.title))
        try db.cachedStatement(sql: insertSQL).execute(arguments: StatementArguments(values))
    }

    /// Every row carries `title_fold` (schema v6): its title folded by
    /// ``TextMatch/fold(_:)``, what the lists' title filter reads.
    private static let insertSQL = "INSERT OR REPLACE INTO task (\(columns), modified, title_fold) VALUES ("
        + Array(repeating: "?", count: columnCount + 2).joined(separator: ", ") + ")"

    static func fetchOne(_ db: Database, id: TaskID) throws -> TaskItem? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM task WHERE id = ?")
        let cursor = try Row.fetchCursor(statement, arguments: [id.rawValue])
        var replicas = VersionsColumn.Replicas()
        return try cursor.next() == nil ? nil : decode(statement, replicas: &replicas)
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

    static func fetchAll(_ db: Database, where clause: String = "1", arguments: StatementArguments = [], order: String? = nil,
                         versions: TaskFilter.Versions = .all) throws -> [TaskItem] {
        var sql = "SELECT \(columns) FROM task WHERE \(clause)"
        if let order { sql += " ORDER BY \(order)" }
        var out: [TaskItem] = []
        var replicas = VersionsColumn.Replicas()
        let statement = try db.makeStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while try cursor.next() != nil {
            if let t = decode(statement, replicas: &replicas, versions: versions) { out.append(t) }
        }
        return out
    }
}
