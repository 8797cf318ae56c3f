import GRDB
import NextUpCore

/// Reading and writing a ``TaskItem`` as one row of the `task` table.
///
/// Versions are kept in one column, `field:<16 hex>@<replica>` joined by
/// commas, parsed without JSON for speed; `modified` is denormalised from them.
enum TaskRow {
    static let columns = "id, title, notes, urgency, importance, duration, category, due, completed_at, next_up, deleted, created, source, external_id, versions"

    static func decode(_ row: Row) -> TaskItem? {
        guard let id = TaskID(row[0] as String) else { return nil }
        var t = TaskItem(id: id)
        t.title = row[1]
        t.notes = row[2]
        t.urgency = (row[3] as String?).flatMap(Urgency.init(rawValue:))
        t.importance = (row[4] as Int?).flatMap(Importance.init(rawValue:))
        t.duration = (row[5] as Int?).flatMap { try? TaskDuration(minutes: $0) }
        t.category = row[6]
        t.due = (row[7] as String?).flatMap { try? DueDate.parse($0) }
        t.completedAt = row[8]
        t.nextUpPosition = row[9]
        t.deleted = row[10] as Bool
        t.created = row[11]
        t.source = row[12]
        t.externalID = row[13]
        t.versions = decodeVersions(row[14])
        return t
    }

    static func decodeVersions(_ text: String) -> [TaskField: Version] {
        var out: [TaskField: Version] = [:]
        for entry in text.split(separator: ",") {
            guard let colon = entry.firstIndex(of: ":"),
                  let field = TaskField(rawValue: String(entry[..<colon])),
                  let version = Version(encoded: String(entry[entry.index(after: colon)...])) else { continue }
            out[field] = version
        }
        return out
    }

    static func encodeVersions(_ versions: [TaskField: Version]) -> String {
        versions.sorted { $0.key < $1.key }.map { "\($0.key.rawValue):\($0.value.encoded)" }.joined(separator: ",")
    }

    /// Inserts or replaces the row of `task`.
    static func save(_ t: TaskItem, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO task (\(columns), modified)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
                t.id.rawValue, t.title, t.notes, t.urgency?.rawValue, t.importance?.rawValue, t.duration?.minutes,
                t.category, t.due?.description, t.completedAt, t.nextUpPosition, t.deleted, t.created,
                t.source, t.externalID, encodeVersions(t.versions), t.modified.rawValue,
            ])
    }

    static func fetchOne(_ db: Database, id: TaskID) throws -> TaskItem? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM task WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id.rawValue]).flatMap(decode)
    }

    static func fetchAll(_ db: Database, where clause: String = "1", arguments: StatementArguments = [], order: String? = nil) throws -> [TaskItem] {
        var sql = "SELECT \(columns) FROM task WHERE \(clause)"
        if let order { sql += " ORDER BY \(order)" }
        var out: [TaskItem] = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            if let t = decode(row) { out.append(t) }
        }
        return out
    }
}
