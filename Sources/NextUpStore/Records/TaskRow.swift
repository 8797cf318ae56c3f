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
        try save(t, with: try insertStatement(db), versions: versions)
    }

    /// The statement ``save(_:with:versions:)`` runs (a writer of many rows
    /// keeps it, instead of looking its SQL up in GRDB's cache per row).
    static func insertStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: insertSQL)
    }

    /// ``save(_:_:versions:)`` through `statement`, which is ``insertStatement(_:)``.
    static func save(_ t: TaskItem, with statement: Statement, versions: String? = nil) throws {
        assert(versions == nil || versions == VersionsColumn.encode(t.versions), "versions text given for a row is not its versions")
        let (titleFold, extra) = (TextMatch.fold(t.title), t.extra.isEmpty ? nil : ExtraRegisters.encode(t.extra))
        let versions = versions ?? VersionsColumn.encode(t.versions)
        try SQLiteBindings.execute(statement) { b in
            try bind(&b, id: t.id, titleFold: titleFold, extra: extra, versions: versions, modified: t.modified) { t.value(of: $0) }
        }
    }

    /// The row of a task created by one edit — Core's
    /// ``LocalEdit/create(_:clock:replica:now:importedAt:)``: `fields` are the
    /// values that differ from a new task's, every one at `version` — made
    /// without the ``TaskItem``, and ready to insert (``insert(_:with:)``):
    /// a writer of many new tasks (an import) makes rows on one thread while
    /// another inserts them. The row's values are packed (``PackedValues``):
    /// first its outbox entry (the id and the versions column), then its
    /// columns as ``TaskRow``'s one binding gives them.
    ///
    /// Contract: inserted, it is the row ``save(_:with:versions:)`` writes for
    /// `TaskItem(id:)` with `fields` restored and every one at `version`; its
    /// outbox entry (``appendOutboxEntries(_:with:)``) is that edit's.
    struct NewRow: Sendable {
        private let values: PackedValues
        /// The outbox entry's values, then the row's.
        private static let entry = 0..<2
        private var row: Range<Int> { 2..<values.count }

        init(id: TaskID, fields: [(TaskField, FieldValue)], version: Version) {
            values = PackedValues(Unpacked(id: id, fields: fields, version: version))
        }

        /// The task's id.
        var id: TaskID { TaskID(values.text(at: 0)!)! }
        /// `VersionsColumn.encode(fields, at: version)`: also the outbox entry of the edit.
        var versions: String { values.text(at: 1)! }

        /// Inserts the row through `statement`, which is ``TaskRow/insertStatement(_:)``.
        func insert(with statement: Statement) throws {
            try SQLiteBindings.execute(statement) { try values.bind(&$0, row) }
        }

        /// Inserts `rows` with one statement, `statement`: ``TaskRow/insertStatement(_:rows:)``
        /// for their number (one execution instead of one per row: SQLite's
        /// cost of starting and ending a statement was a tenth of an import).
        /// Texts are bound where the rows hold them.
        static func insert(_ rows: some Collection<NewRow>, with statement: Statement) throws {
            try SQLiteBindings.execute(statement, arenaBytes: 0) { b in
                for row in rows { try row.values.bind(&b, row.row) }
            }
        }

        /// Appends the outbox entries of `rows`' edits, in order, with one
        /// statement: `Outbox.insertStatement(_:entries:)` for their number.
        static func appendOutboxEntries(_ rows: some Collection<NewRow>, with statement: Statement) throws {
            try SQLiteBindings.execute(statement, arenaBytes: 0) { b in
                for row in rows { try row.values.bind(&b, entry) }
            }
        }

        /// The values before they are packed.
        private struct Unpacked: Packable {
            let id: TaskID
            /// Each known field's value, by its place in the field table; nil: a new task's.
            let known: [FieldValue?]
            let extra: String?
            let versions: String
            let modified: HybridTimestamp
            let titleFold: String

            init(id: TaskID, fields: [(TaskField, FieldValue)], version: Version) {
                var known = [FieldValue?](repeating: nil, count: FieldSpec.table.count)
                var extra: [TaskField: FieldValue] = [:]
                for (field, value) in fields {
                    if let index = field.tableIndex { known[index] = value } else { extra[field] = value }
                }
                self.id = id
                self.known = known
                self.extra = extra.isEmpty ? nil : ExtraRegisters.encode(extra)
                versions = VersionsColumn.encode(fields.lazy.map(\.0), at: version)
                modified = version.timestamp
                titleFold = TextMatch.fold(known[TaskField.title.tableIndex!]?.stringValue ?? "")
            }

            func pack<Values: ParameterValues>(_ values: inout Values) throws(Values.Failure) {
                try values.text(id.rawValue)
                try values.text(versions)
                try TaskRow.bind(&values, id: id, titleFold: titleFold, extra: extra, versions: versions, modified: modified) {
                    known[$0.tableIndex!] ?? TaskItem.newTaskValue(of: $0)
                }
            }
        }
    }

    /// The one binding of a row: each known field's column as its kind,
    /// then the opaque registers, the versions, `modified` and the title's
    /// fold — through SQLite's C API (``SQLiteBindings``), or packed to be
    /// bound later (``PackedValues``).
    private static func bind<Values: ParameterValues>(_ b: inout Values, id: TaskID, titleFold: String, extra: String?, versions: String,
                                                      modified: HybridTimestamp, value: (TaskField) -> FieldValue) throws(Values.Failure) {
        try b.text(id.rawValue)
        for (field, _) in columnKinds {
            switch value(field) {
            case .null: try b.null()
            case .string(let s): try b.text(s)
            case .int(let n): try b.int(n)
            case .bool(let v): try b.bool(v)
            }
        }
        try b.text(extra)
        try b.text(versions)
        try b.int(modified.rawValue)
        try b.text(titleFold)
    }

    /// Every row carries `title_fold` (schema v6): its title folded by
    /// ``TextMatch/fold(_:)``, what the lists' title filter reads.
    private static let insertSQL = sql(insertingRows: 1)

    /// The statement ``NewRow/insert(_:with:)`` runs for `rows` rows.
    static func insertStatement(_ db: Database, rows: Int) throws -> Statement {
        try db.cachedStatement(sql: sql(insertingRows: rows))
    }

    private static func sql(insertingRows rows: Int) -> String {
        let values = "(" + Array(repeating: "?", count: FieldSpec.table.count + 5).joined(separator: ", ") + ")"
        return "INSERT OR REPLACE INTO task (\(columns), modified, title_fold) VALUES "
            + Array(repeating: values, count: rows).joined(separator: ", ")
    }

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
