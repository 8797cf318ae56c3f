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

    /// Parses `field:<16 hex>@<replica>,…` on UTF-8 bytes (every read of a
    /// task goes through here: splitting by `Character` and `Version(encoded:)`
    /// took 40% of `list --json` at 100,000 tasks). Malformed entries are
    /// skipped, as before.
    static func decodeVersions(_ text: String) -> [TaskField: Version] {
        var out: [TaskField: Version] = [:]
        var text = text
        text.withUTF8 { bytes in
            // Most fields of a task share one replica: parse its id once.
            var last: (range: Range<Int>, replica: ReplicaID)?
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                if let (field, version, range) = decodeVersion(bytes, start, end, last: last) {
                    out[field] = version
                    last = (range, version.replica)
                }
                start = end + 1
            }
        }
        return out
    }

    /// One `field:<16 hex>@<replica>` entry in `bytes[start..<end]`, and where
    /// its replica id sits; `last` is the previous entry's, reused when equal.
    private static func decodeVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                      last: (range: Range<Int>, replica: ReplicaID)?) -> (TaskField, Version, Range<Int>)? {
        var colon = start
        while colon < end && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        let at = colon + 17
        guard at < end, bytes[at] == UInt8(ascii: "@"),
              let field = TaskField(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<colon]), as: UTF8.self)) else { return nil }
        var raw: UInt64 = 0
        for i in (colon + 1)..<at {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            raw = raw << 4 | UInt64(digit)
        }
        guard raw <= UInt64(Int64.max) else { return nil }
        let range = (at + 1)..<end
        let replica: ReplicaID
        if let last, last.range.count == range.count,
           bytes[last.range].elementsEqual(bytes[range]) {
            replica = last.replica
        } else {
            guard let parsed = ReplicaID(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)) else { return nil }
            replica = parsed
        }
        return (field, Version(timestamp: HybridTimestamp(rawValue: Int64(raw)), replica: replica), range)
    }

    static func encodeVersions(_ versions: [TaskField: Version]) -> String {
        // Written on bytes: `field:<16 hex>@<replica>,…` (Version.encoded per
        // field) built with string interpolation took 7% of a large import.
        let hex = hexDigits
        var out: [UInt8] = []
        out.reserveCapacity(versions.count * 72)
        for (index, (field, version)) in versions.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: field.rawValue.utf8)
            out.append(UInt8(ascii: ":"))
            let raw = UInt64(bitPattern: version.timestamp.rawValue)
            for shift in stride(from: 60, through: 0, by: -4) { out.append(hex[Int((raw >> UInt64(shift)) & 0xF)]) }
            out.append(UInt8(ascii: "@"))
            out.append(contentsOf: version.replica.rawValue.utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

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
