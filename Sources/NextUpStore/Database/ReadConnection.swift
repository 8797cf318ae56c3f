import GRDBSQLite

/// A second connection to a store's file, opened read-only, for the half
/// of a whole-set read done on another thread while the store's own
/// connection reads the other half (``TaskStore/taskRows(where:halvesFrom:beforeSecondSnapshot:)``).
///
/// Contract: it never writes and never waits on a lock (SQLite's busy
/// answer is an error here, and its caller then reads with the store's
/// connection alone); a failure is thrown as ``StoreError/database(_:)``
/// with SQLite's message. It is used by one thread at a time, and closing
/// it (deinit) ends its read transaction.
final class ReadConnection {
    private var db: OpaquePointer?

    init(path: String) throws {
        // No mutex of its own (one thread at a time uses it): with one,
        // every column read took and released it.
        let opened = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK else {
            let reason = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            db = nil
            throw StoreError.database(reason)
        }
    }

    deinit { sqlite3_close_v2(db) }

    /// `PRAGMA data_version`: moves when another connection has committed
    /// since this one last read. Read in a read transaction, it says whether
    /// anything was committed between an earlier read and that transaction's
    /// snapshot.
    func dataVersion() throws -> Int64 {
        var version: Int64 = 0
        try forEachRow("PRAGMA data_version") { version = sqlite3_column_int64($0, 0) }
        return version
    }

    /// Begins a read transaction and takes its snapshot (a transaction's
    /// snapshot is taken by its first read, not by `BEGIN`).
    func beginRead() throws {
        try forEachRow("BEGIN") { _ in }
        try forEachRow("SELECT 1 FROM task LIMIT 1") { _ in }
    }

    /// Runs `sql` with `argument` bound to its one parameter (when given),
    /// handing `body` the statement on each row.
    func forEachRow(_ sql: String, argument: String? = nil, _ body: (OpaquePointer) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure() }
        defer { sqlite3_finalize(statement) }
        if let argument {
            guard sqlite3_bind_text(statement, 1, argument, -1, Self.transient) == SQLITE_OK else { throw failure() }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: try body(statement)
            case SQLITE_DONE: return
            default: throw failure()
            }
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: the bound text is copied.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    private func failure() -> StoreError { StoreError.database(String(cString: sqlite3_errmsg(db))) }
}
