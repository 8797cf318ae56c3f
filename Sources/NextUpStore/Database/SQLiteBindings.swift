import GRDB
import GRDBSQLite

/// The parameters of one execution of a prepared statement, bound straight
/// through SQLite's C API, left to right.
///
/// GRDB's `StatementArguments` boxes every value in an existential and
/// looks up its conformance at run time; for the writes made once per task
/// (a row, an outbox entry — 100,000 of each in an import) that was a fifth
/// of the write. Values are bound as GRDB binds them: text copied by SQLite
/// (`SQLITE_TRANSIENT`), `Bool` as the integer 0 or 1, nil as NULL.
///
/// Contract: ``execute(_:_:)`` binds exactly the statement's parameter count
/// or throws before running it; the statement runs through GRDB (its
/// observation and error handling), and its bindings are cleared before the
/// next use.
struct SQLiteBindings {
    private let raw: OpaquePointer
    private var index: Int32 = 1

    private init(_ raw: OpaquePointer) { self.raw = raw }

    /// Runs `statement` once with the parameters `bind` sets, in order.
    static func execute(_ statement: Statement, _ bind: (inout SQLiteBindings) throws -> Void) throws {
        // Resets the statement, clears its bindings and marks them as set, so
        // that GRDB's execute() runs it with the values bound below.
        statement.setUncheckedArguments([])
        var bindings = SQLiteBindings(statement.sqliteStatement)
        try bind(&bindings)
        guard bindings.index - 1 == sqlite3_bind_parameter_count(bindings.raw) else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "bound \(bindings.index - 1) of \(sqlite3_bind_parameter_count(bindings.raw)) parameters", sql: statement.sql)
        }
        try statement.execute()
    }

    private mutating func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "binding parameter \(index)") }
        index += 1
    }

    /// Binds `text` (nil: NULL).
    mutating func text(_ text: String?) throws {
        guard var text else { return try null() }
        let (raw, index) = (raw, index)
        let code = text.withUTF8 { bytes -> Int32 in
            // An empty buffer may have no address, which SQLite would read as NULL.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(raw, index, "", 0, Self.transient) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(raw, index, $0, Int32(bytes.count), Self.transient)
            }
        }
        try check(code)
    }

    /// Binds `n` (nil: NULL).
    mutating func int(_ n: Int64?) throws {
        guard let n else { return try null() }
        try check(sqlite3_bind_int64(raw, index, n))
    }

    /// Binds `b` as 0 or 1, as GRDB does (nil: NULL).
    mutating func bool(_ b: Bool?) throws {
        try int(b.map { $0 ? 1 : 0 })
    }

    mutating func null() throws {
        try check(sqlite3_bind_null(raw, index))
    }

    /// SQLite copies the text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
