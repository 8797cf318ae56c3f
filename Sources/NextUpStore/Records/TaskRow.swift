import GRDB
import NextUpCore

/// Reading and writing a ``TaskItem`` as one row of the `task` table.
///
/// Versions are kept in one column, `field:<16 hex>@<replica>` joined by
/// commas, parsed without JSON for speed; `modified` is denormalised from them.
enum TaskRow {
    /// The known fields' columns, in field-table order, then the opaque
    /// registers (`extra`) and the versions.
    static let columns = "id, " + FieldSpec.table.map(\.column).joined(separator: ", ") + ", extra, versions"
    private static let extraIndex = FieldSpec.table.count + 1
    private static let versionsIndex = FieldSpec.table.count + 2

    static func decode(_ row: Row) -> TaskItem? {
        guard let id = TaskID(row[0] as String) else { return nil }
        var t = TaskItem(id: id)
        for (i, spec) in FieldSpec.table.enumerated() {
            let value: FieldValue
            switch (spec.kind, row[i + 1] as DatabaseValue) {
            case (_, .null): value = .null
            case (.text, let v): value = String.fromDatabaseValue(v).map(FieldValue.string) ?? .null
            case (.integer, let v): value = Int64.fromDatabaseValue(v).map(FieldValue.int) ?? .null
            case (.boolean, let v): value = .bool(Bool.fromDatabaseValue(v) ?? false)
            }
            // Columns hold what was validated on the way in.
            t.restore(spec.field, to: value)
        }
        if let extra = row[extraIndex] as String? { t.extra = ExtraRegisters.decode(extra) }
        t.versions = decodeVersions(row[versionsIndex])
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
        // `field` may itself hold ':' (tag elements): the version is the 16
        // hex digits before the last '@' (replica ids have none).
        var at = end - 1
        while at > start && bytes[at] != UInt8(ascii: "@") { at -= 1 }
        let colon = at - 17
        guard colon > start, bytes[colon] == UInt8(ascii: ":"),
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
        let statement = try db.cachedStatement(sql: insertSQL)
        var arguments: [(any DatabaseValueConvertible)?] = [t.id.rawValue]
        arguments.reserveCapacity(FieldSpec.table.count + 4)
        for spec in FieldSpec.table {
            switch t.value(of: spec.field) {
            case .null: arguments.append(nil)
            case .string(let s): arguments.append(s)
            case .int(let n): arguments.append(n)
            case .bool(let b): arguments.append(b)
            }
        }
        arguments.append(t.extra.isEmpty ? nil : ExtraRegisters.encode(t.extra))
        arguments.append(encodeVersions(t.versions))
        arguments.append(t.modified.rawValue)
        arguments.append(TextMatch.fold(t.title))
        try statement.execute(arguments: StatementArguments(arguments))
    }

    /// Every row carries `title_fold` (schema v5): its title folded by
    /// ``TextMatch/fold(_:)``, what the lists' title filter reads.
    private static let insertSQL = """
        INSERT OR REPLACE INTO task (\(columns), modified, title_fold)
        VALUES (\(Array(repeating: "?", count: FieldSpec.table.count + 5).joined(separator: ", ")))
        """

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
