import GRDB
import GRDBSQLite

/// The parameters of one execution of a prepared statement, bound straight
/// through SQLite's C API, left to right.
///
/// GRDB's `StatementArguments` boxes every value in an existential and
/// looks up its conformance at run time; for the writes made once per task
/// (a row, an outbox entry — 100,000 of each in an import) that was a fifth
/// of the write. Values are bound as GRDB binds them: `Bool` as the integer
/// 0 or 1, nil as NULL, text as its UTF-8 — copied into a stack buffer of
/// ``arenaBytes`` for the one execution and bound in place there
/// (`SQLITE_STATIC`), or, past that buffer, copied by SQLite
/// (`SQLITE_TRANSIENT`: a malloc and a free per text, most of what binding
/// a row cost).
///
/// Contract: ``execute(_:_:)`` binds exactly the statement's parameter count
/// or throws before running it; the statement runs through GRDB (its
/// observation and error handling), and its bindings are cleared before
/// ``execute(_:_:)`` returns or throws (no binding outlives the buffer).
struct SQLiteBindings {
    private let raw: OpaquePointer
    private var index: Int32 = 1
    /// Where texts are bound in place, and how much of it they take.
    private let arena: UnsafeMutableRawBufferPointer
    private var used = 0

    private init(_ raw: OpaquePointer, arena: UnsafeMutableRawBufferPointer) {
        self.raw = raw
        self.arena = arena
    }

    /// The bytes of text one execution binds in place (on the stack: the
    /// standard library allocates a temporary buffer of at most 1,024 bytes
    /// there). A task row's texts usually fit.
    static let arenaBytes = 1_024

    /// Runs `statement` once with the parameters `bind` sets, in order.
    /// `arenaBytes` above ``arenaBytes`` (a statement inserting many rows)
    /// takes its buffer from the heap, once per execution.
    static func execute(_ statement: Statement, arenaBytes: Int = arenaBytes, _ bind: (inout SQLiteBindings) throws -> Void) throws {
        // Resets the statement, clears its bindings and marks them as set, so
        // that GRDB's execute() runs it with the values bound below.
        statement.setUncheckedArguments([])
        try withUnsafeTemporaryAllocation(byteCount: arenaBytes, alignment: 1) { arena in
            let raw = statement.sqliteStatement
            // Texts bound in place point into `arena`: none stays bound once it is gone.
            defer { sqlite3_clear_bindings(raw) }
            var bindings = SQLiteBindings(raw, arena: arena)
            try bind(&bindings)
            guard bindings.index - 1 == sqlite3_bind_parameter_count(raw) else {
                throw DatabaseError(resultCode: .SQLITE_RANGE, message: "bound \(bindings.index - 1) of \(sqlite3_bind_parameter_count(raw)) parameters", sql: statement.sql)
            }
            try statement.execute()
        }
    }

    private mutating func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "binding parameter \(index)") }
        index += 1
    }

    /// Binds `text` (nil: NULL).
    mutating func text(_ text: String?) throws {
        guard var text else { return try null() }
        let (raw, index, arena, used) = (raw, index, arena, used)
        var taken = 0
        let code = text.withUTF8 { bytes -> Int32 in
            // An empty buffer may have no address, which SQLite would read as NULL.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(raw, index, "", 0, Self.transient) }
            guard bytes.count <= arena.count - used, let start = arena.baseAddress else {
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(raw, index, $0, Int32(bytes.count), Self.transient)
                }
            }
            let copy = start + used
            copy.copyMemory(from: base, byteCount: bytes.count)
            taken = bytes.count
            return sqlite3_bind_text(raw, index, copy.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)  // SQLITE_STATIC
        }
        try check(code)
        self.used += taken
    }

    /// Binds the UTF-8 text `bytes` where it is (`SQLITE_STATIC`): the
    /// caller keeps them alive until ``execute(_:arenaBytes:_:)`` returns.
    mutating func text(inPlace bytes: UnsafeRawBufferPointer) throws {
        // An empty buffer may have no address, which SQLite would read as NULL.
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return try check(sqlite3_bind_text(raw, index, "", 0, Self.transient)) }
        try check(sqlite3_bind_text(raw, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil))  // SQLITE_STATIC
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
