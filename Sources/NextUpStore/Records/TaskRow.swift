import GRDB
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

    static func decode(_ row: Row) -> TaskItem? {
        var replicas = VersionsColumn.Replicas()
        return decode(row, replicas: &replicas)
    }

    /// ``decode(_:)``, with the replica ids of earlier rows at hand, reading
    /// as much of the versions as `versions` says (``TaskFilter/Versions``).
    static func decode(_ row: Row, replicas: inout VersionsColumn.Replicas, versions: TaskFilter.Versions = .all) -> TaskItem? {
        guard let id = TaskID(row[0] as String) else { return nil }
        var t = TaskItem(id: id)
        for (i, (field, kind)) in columnKinds.enumerated() {
            // Each column read as its own type (SQLite's column functions
            // directly, no DatabaseValue in between); columns hold what was
            // validated on the way in.
            let value: FieldValue
            switch kind {
            case .text: value = (row[i + 1] as String?).map(FieldValue.string) ?? .null
            case .integer: value = (row[i + 1] as Int64?).map(FieldValue.int) ?? .null
            case .boolean: value = (row[i + 1] as Bool?).map(FieldValue.bool) ?? .null
            }
            t.restore(field, to: value)
        }
        if let extra = row[extraIndex] as String? { t.extra = ExtraRegisters.decode(extra) }
        switch versions {
        case .all: t.versions = VersionsColumn.decode(row[versionsIndex], replicas: &replicas)
        case .newest: if let (field, version) = VersionsColumn.newest(row[versionsIndex], replicas: &replicas) { t.versions = [field: version] }
        case .none: break
        }
        return t
    }

    /// Inserts or replaces the row of `task`.
    static func save(_ t: TaskItem, _ db: Database) throws {
        // Bound through SQLite's C API (``SQLiteBindings``), each column as
        // its field's kind; SQLite copies the text.
        try SQLiteBindings.execute(try db.cachedStatement(sql: insertSQL)) { b in
            try b.text(t.id.rawValue)
            for (field, _) in columnKinds {
                switch t.value(of: field) {
                case .null: try b.null()
                case .string(let s): try b.text(s)
                case .int(let n): try b.int(n)
                case .bool(let v): try b.bool(v)
                }
            }
            try b.text(t.extra.isEmpty ? nil : ExtraRegisters.encode(t.extra))
            try b.text(VersionsColumn.encode(t.versions))
            try b.int(t.modified.rawValue)
            try b.text(TextMatch.fold(t.title))
        }
    }

    /// Every row carries `title_fold` (schema v6): its title folded by
    /// ``TextMatch/fold(_:)``, what the lists' title filter reads.
    private static let insertSQL = """
        INSERT OR REPLACE INTO task (\(columns), modified, title_fold)
        VALUES (\(Array(repeating: "?", count: FieldSpec.table.count + 5).joined(separator: ", ")))
        """

    static func fetchOne(_ db: Database, id: TaskID) throws -> TaskItem? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM task WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id.rawValue]).flatMap(decode)
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
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            if let t = decode(row, replicas: &replicas, versions: versions) { out.append(t) }
        }
        return out
    }
}
