import Foundation
import GRDB
import NextUpCore

extension TaskStore {
    /// The rows `condition` (SQL; nil: every row) keeps, in id order, each
    /// copied as stored (``TaskRowBuffer``): `export`'s and `list --json`'s
    /// whole-set read.
    ///
    /// A store of ``halvesFrom`` bytes or more is read in two halves at once,
    /// split at an id between its first and last: the lower half through the
    /// store's connection, the upper through a second one on another thread
    /// (``ReadConnection``), both in one snapshot. The second connection's
    /// snapshot is the first's when nothing was committed between a read it
    /// made before the first's transaction began and its own transaction
    /// (`PRAGMA data_version` unmoved); otherwise — or when it cannot open,
    /// begin or finish its half — the store's connection reads that half
    /// too. Either way the rows are those of one snapshot.
    ///
    /// `halvesFrom` and `beforeSecondSnapshot` (called after the store's
    /// connection has taken its snapshot, before the second takes its own)
    /// are for tests.
    func taskRows(where condition: String?, halvesFrom: Int = TaskStore.halvesFrom,
                  beforeSecondSnapshot: () -> Void = {}) throws -> TaskRowBuffer {
        let select = "SELECT \(TaskRow.columns) FROM task WHERE \(condition.map { "(\($0))" } ?? "1")"
        let path = location.databaseURL.path
        // The second connection's first read comes before the store's
        // transaction takes its snapshot: a commit after that read and
        // before the second's own snapshot moves its data version.
        var info = stat()
        let large = stat(path, &info) == 0 && Int(info.st_size) >= halvesFrom
        let second = large ? try? ReadConnection(path: path) : nil
        let before = try? second?.dataVersion()
        return try database.read { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0, pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let bytes = pages * pageSize
            func scan(_ range: String, _ argument: String?) throws -> TaskRowBuffer {
                let rows = TaskRowBuffer(byteCapacity: bytes)
                let statement = try db.makeStatement(sql: "\(select)\(range) ORDER BY id")
                let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(argument.map { [$0] } ?? []))
                while try cursor.next() != nil { rows.append(statement.sqliteStatement) }
                return rows
            }
            guard let second, let before, let split = try Self.splitID(db) else { return try scan("", nil) }
            beforeSecondSnapshot()
            guard (try? second.beginRead()) != nil, (try? second.dataVersion()) == before else { return try scan("", nil) }
            let (upper, lower) = try SideBySide.run({ () -> TaskRowBuffer? in
                let rows = TaskRowBuffer(byteCapacity: bytes)
                do {
                    try second.forEachRow("\(select) AND id >= ? ORDER BY id", argument: split) { rows.append($0) }
                } catch {
                    return nil
                }
                return rows
            }, {
                try scan(" AND id < ?", split)
            })
            lower.join(try upper ?? scan(" AND id >= ?", split))
            return lower
        }
    }

    /// The store size (bytes) from which ``taskRows(where:halvesFrom:beforeSecondSnapshot:)`` reads in two
    /// halves (about 25,000 tasks): below it, the second connection and its
    /// thread cost what the half saves (export of 10,000, a 6 MB store: 2 ms
    /// slower in halves).
    static var halvesFrom: Int { 16 << 20 }

    /// An id between the store's first and last ids, as the midpoint of
    /// their first eight hex digits (``rowKey(_:)``'s leading 32 bits; random
    /// ids: about half the rows on either side), written as those eight
    /// digits; nil when either is not a task id, or they share them. Any
    /// split reads every row once; only the halves' balance depends on it.
    static func splitID(_ db: Database) throws -> String? {
        func head(_ id: String?) -> UInt64? { id.flatMap(TaskID.init).map { rowKey($0).0 >> 32 } }
        // Two queries: SQLite finds a lone min() or max() of the key at an
        // end of the tree, but scans the table for both in one.
        guard let low = head(try String.fetchOne(db, sql: "SELECT min(id) FROM task")),
              let high = head(try String.fetchOne(db, sql: "SELECT max(id) FROM task")), high > low else { return nil }
        let middle = String(low + (high - low + 1) / 2, radix: 16)
        return String(repeating: "0", count: 8 - middle.count) + middle
    }
}
