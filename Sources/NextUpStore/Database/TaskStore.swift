import Foundation
import GRDB
import Synchronization
import NextUpCore
#if canImport(Glibc)
import Glibc
#endif

/// The shared store: one SQLite file (WAL) per user, used at once by the TUI,
/// the sync thread and every command-line call (DESIGN.md §3).
///
/// Contract:
/// - Every mutation goes through this type's intent-named methods
///   (`TaskStore+Writes.swift`), each one transaction that assigns versions
///   from the hybrid clock kept in the database, writes values and versions
///   together, and records the local change in the `outbox` for sync.
/// - Writes are conditional: setting a field to the value it already has
///   changes nothing — no version, no `modified` change, no outbox entry.
/// - A file that is not a nextup database, or comes from a newer schema, is
///   refused before anything is written to it.
public final class TaskStore: Sendable {
    public let location: StoreLocation
    /// The store's connection (WAL mode is a property of the file, so other
    /// processes still read while this one writes). Only this module's
    /// extensions touch it; every other module — tests included — goes
    /// through the intent-named methods.
    let database: DatabaseQueue
    let clock: any PhysicalClock
    /// Why the store can only be read (a read-only mount, a folder this
    /// user cannot write); nil for a store opened for writing.
    public let readOnlyReason: String?
    /// Where this handle's local writes are made, as their history says
    /// (``write(as:)``; a command's by default); an import and the phone
    /// bridge name their own.
    public var origin: ChangeOrigin { originLock.withLock { $0 } }
    private let originLock = Mutex(ChangeOrigin.command)

    init(location: StoreLocation, database: DatabaseQueue, clock: any PhysicalClock, readOnlyReason: String? = nil) {
        self.location = location
        self.database = database
        self.clock = clock
        self.readOnlyReason = readOnlyReason
    }

    /// Records this handle's later local writes as made from `origin` (the
    /// TUI's connection: `.tui`).
    public func write(as origin: ChangeOrigin) {
        originLock.withLock { $0 = origin }
    }

    /// Opens (creating on first use) the store at `location`.
    ///
    /// A store that exists but cannot be written (a read-only mount, a
    /// snapshot, a folder of another user's) is opened for reading only:
    /// every read works, every write fails with ``StoreError/notWritable(path:reason:)``
    /// and changes nothing; no lock file or side file is made.
    /// A store whose creation was cut short (a kill during the very first
    /// command: SQLite's file holds no table of nextup's yet) is finished.
    ///
    /// - Throws: ``StoreError`` — never leaves a foreign or newer file changed.
    public static func open(_ location: StoreLocation, clock: any PhysicalClock = SystemClock()) throws -> TaskStore {
        if let reason = readOnlyReason(location) { return try openReadOnly(location, reason: reason, clock: clock) }
        try prepareFolder(location.folder)
        let path = location.databaseURL.path
        let lock = try StoreLock(folder: location.folder)
        try lock.lockExclusive()
        defer { lock.unlock() }

        let existed = FileManager.default.fileExists(atPath: path)
        if existed && !OpenStores.shared.isOpen(path) {
            try preflight(path: path)
        } else {
            let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
            if fd < 0 && errno != EEXIST {
                throw StoreError.notWritable(path: location.folder.path, reason: String(cString: strerror(errno)))
            }
            if fd >= 0 { Glibc.close(fd) }
        }

        var config = Configuration()
        config.busyMode = .timeout(30)
        config.label = "nextup"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // A single connection, not a pool: GRDB's pool writes (creates and
        // drops a table) on every open to make a WAL file exist, which would
        // make every read-only command a write that wakes every watcher.
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
            let now = clock.nowMillis()
            // One read answers for a store that needs nothing (every open
            // but the first of a new version): the migrator, the clock
            // check and the journal mode each cost a transaction of their own.
            let ready = try queue.read { db in
                try verifyOpened(db, path: path)
                return try isReady(db, now: now)
            }
            if !ready {
                // WAL first: the migrations of a new store then commit
                // without a sync each.
                try queue.writeWithoutTransaction { db in
                    try StoreSchema.setPageSizeIfEmpty(db)
                    if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                        try db.execute(sql: "PRAGMA journal_mode = WAL")
                    }
                }
                try StoreSchema.migrator.migrate(queue)
                try repairFarFutureVersionsIfNeeded(queue, now: now)
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, folder: location.folder.path)
        }
        // Only when needed: a chmod, even to the same mode, is an inotify
        // IN_ATTRIB event, and every read-only command (a shell prompt's
        // `nextup count` once a second) would wake every watcher of the store
        // and hold their debouncers at their maximum delay.
        for suffix in ["", "-wal", "-shm"] {
            var info = stat()
            if stat(path + suffix, &info) == 0, info.st_mode & 0o777 != 0o600 { chmod(path + suffix, 0o600) }
        }
        OpenStores.shared.retain(path)
        return TaskStore(location: location, database: queue, clock: clock)
    }

    deinit {
        // Close first, so the path counts as open until SQLite let go of it.
        try? database.close()
        OpenStores.shared.release(location.databaseURL.path)
    }

    /// This store's replica id (changes only when the store is found copied).
    public func replicaID() throws -> ReplicaID {
        try database.read { db in try Self.replicaID(db) }
    }

    static func replicaID(_ db: Database) throws -> ReplicaID {
        guard let raw = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'replica_id'"),
              let id = ReplicaID(raw) else { throw StoreError.database("the store has no replica id") }
        return id
    }

    /// A number that changes whenever *another* connection (another process,
    /// or another store object) commits to the database: `PRAGMA data_version`
    /// on one fixed connection. Cheap; poll it when a watcher says "maybe".
    public func dataVersion() throws -> Int {
        try database.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    /// A pair that moves whenever anything changes the tasks, whoever wrote:
    /// ``dataVersion()`` for other connections' commits and SQLite's
    /// `total_changes()` for this store object's own writes (which
    /// `data_version` does not count — the sync engine may write through
    /// this connection too). Equal pairs: nothing was written in between, so
    /// a listing read at the first is still the listing.
    public func writeMark() throws -> [Int] {
        try database.writeWithoutTransaction { db in
            [try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0, db.totalChangesCount]
        }
    }

    /// The page cache of this store's connection, in KiB (SQLite's
    /// `cache_size`, as a positive number of KiB). A large merge or import
    /// raises it for its own transaction only; this reads it back.
    public func pageCacheKiB() throws -> Int {
        let raw = try database.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0 }
        return raw < 0 ? -raw : raw * 4
    }

    /// SQLite's page cache for a write of `count` records: 32 MB when the
    /// write is large, only for the duration of `body` (the connection goes
    /// back to its previous cache afterwards, even when `body` throws).
    ///
    /// Large writes visit rows in id order (``inRowOrder(_:)``), so the
    /// table is walked once; the cache holds the indexes' pages and the tail
    /// being appended, instead of spilling them to the WAL and reading them
    /// back. SQLite allocates the cache only as pages are used.
    func withPageCache<T>(forRecords count: Int, _ db: Database, _ body: () throws -> T) throws -> T {
        guard count > Self.largeWriteRecords else { return try body() }
        let previous = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -32768")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(previous)") }
        return try body()
    }

    /// The order of rows in the task table's B-tree (SQLite compares TEXT
    /// keys byte by byte): a ``TaskID`` orders as its canonical text.
    static func rowPrecedes(_ a: TaskID, _ b: TaskID) -> Bool {
        a < b
    }

    /// The positions of `ids` in the table's row order; equal ids in the
    /// order of their positions.
    static func rowOrder(_ ids: [TaskID]) -> [Int] {
        ids.indices.sorted { ids[$0] != ids[$1] ? rowPrecedes(ids[$0], ids[$1]) : $0 < $1 }
    }

    /// `ids` in the table's row order.
    static func inRowOrder(_ ids: some Collection<TaskID>) -> [TaskID] {
        let ids = Array(ids)
        return rowOrder(ids).map { ids[$0] }
    }

    /// How many records make a write "large" (see ``withPageCache(forRecords:_:_:)``).
    static let largeWriteRecords = 1_000

    /// The newest schema version of the open store.
    public func schemaVersion() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    /// Whether the file system holding `folder` has no room for one more
    /// SQLite page or two (what an I/O error on a full disk looks like).
    static func diskIsFull(_ folder: String) -> Bool {
        var fs = statvfs()
        guard statvfs(folder, &fs) == 0 else { return false }
        return UInt64(fs.f_bavail) * UInt64(fs.f_frsize) < 64 * 1024
    }

    // MARK: - Opening

    /// Why an existing store cannot be written (the system's words for its
    /// folder or its file); nil when it can, or when there is no store yet.
    static func readOnlyReason(_ location: StoreLocation) -> String? {
        let path = location.databaseURL.path
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        if access(location.folder.path, W_OK | X_OK) != 0 || access(path, W_OK) != 0 {
            return String(cString: strerror(errno))
        }
        return nil
    }

    /// Opens a store that cannot be written, for reading only. With no
    /// `-wal` file (a store closed cleanly) the file is opened as immutable:
    /// SQLite then needs no shared-memory file, which it could not create.
    /// With one, SQLite reads it through the `-shm` file beside it.
    static func openReadOnly(_ location: StoreLocation, reason: String, clock: any PhysicalClock) throws -> TaskStore {
        let path = location.databaseURL.path
        if !OpenStores.shared.isOpen(path) { try preflight(path: path) }
        var wal = stat()
        let walHoldsChanges = stat(path + "-wal", &wal) == 0 && wal.st_size > 0
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(30)
        config.label = "nextup"
        let target = walHoldsChanges ? path : "file:\(uriEscaped(path))?immutable=1"
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: target, configuration: config)
            let current = try queue.read { db in
                try verifyOpened(db, path: path)
                return try Int32.fetchOne(db, sql: "PRAGMA application_id") == StoreSchema.applicationID
                    && Int.fetchOne(db, sql: "PRAGMA user_version") == StoreSchema.currentVersion
            }
            guard current else {
                throw StoreError.notWritable(path: location.folder.path, reason: "\(reason), and the store must first be "
                    + "upgraded to this nextup's schema; open it once where it can be written")
            }
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_CANTOPEN && walHoldsChanges {
                throw StoreError.notWritable(path: location.folder.path, reason: "\(reason), and its last changes are still "
                    + "in \(StoreLocation.databaseName)-wal without the -shm file SQLite needs to read them; copy the store folder somewhere writable to read it")
            }
            throw Self.storeError(error, path: path, folder: location.folder.path)
        }
        OpenStores.shared.retain(path)
        return TaskStore(location: location, database: queue, clock: clock, readOnlyReason: reason)
    }

    /// `path` for an SQLite URI filename: `%`, `?` and `#` escaped.
    static func uriEscaped(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
            .replacingOccurrences(of: "#", with: "%23")
    }

    static func prepareFolder(_ folder: URL) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw StoreError.notWritable(path: folder.path, reason: "it is a file, not a folder") }
        } else {
            // mkdir -p, each new level 0700, reporting the system's reason.
            var path = ""
            for part in folder.path.split(separator: "/") {
                path += "/" + part
                if mkdir(path, 0o700) != 0 && errno != EEXIST {
                    throw StoreError.notWritable(path: folder.path, reason: String(cString: strerror(errno)))
                }
            }
        }
        if access(folder.path, W_OK | X_OK) != 0 {
            throw StoreError.notWritable(path: folder.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Checks an existing file without opening it with SQLite (which could
    /// leave side files): the 100-byte SQLite header holds the magic string,
    /// the schema cookie (offset 40), `user_version` (60) and
    /// `application_id` (68), all big-endian.
    static func preflight(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.notWritable(path: path, reason: "cannot read the file")
        }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        try? handle.close()
        if header.isEmpty { return }  // an empty file is an empty database
        guard header.count == 100, header[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) else {
            throw StoreError.notANextupDatabase(path: path)
        }
        func int32(_ at: Int) -> Int32 {
            Int32(bitPattern: header[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let userVersion = Int(int32(60)), appID = int32(68)
        if appID != StoreSchema.applicationID {
            if appID != 0 || userVersion != 0 { throw StoreError.notANextupDatabase(path: path) }
            // A blank SQLite file, a store whose creation was cut short, or
            // another program's file: ``verifyOpened(_:path:)`` tells them
            // apart by their tables, reading only.
            return
        }
        if userVersion > StoreSchema.currentVersion {
            throw StoreError.newerSchema(path: path, found: userVersion, supported: StoreSchema.currentVersion)
        }
    }

    /// The same checks inside the database (the header on disk can lag behind
    /// the WAL), before any migration writes. A file that is not marked as
    /// nextup's is taken only when it is blank or holds nothing but the
    /// migrator's own empty table (a creation cut short before its first
    /// migration committed): the migrations then finish it.
    static func verifyOpened(_ db: Database, path: String) throws {
        let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if appID != StoreSchema.applicationID {
            let names = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master"))
            guard appID == 0, userVersion == 0, names.isSubset(of: ["grdb_migrations", "sqlite_autoindex_grdb_migrations_1"]) else {
                throw StoreError.notANextupDatabase(path: path)
            }
            if !names.isEmpty, try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") != 0 {
                throw StoreError.notANextupDatabase(path: path)
            }
        } else if userVersion > StoreSchema.currentVersion {
            throw StoreError.newerSchema(path: path, found: userVersion, supported: StoreSchema.currentVersion)
        }
    }

    /// Whether the open store needs no write before use: it is nextup's, at
    /// this build's schema version (every migration sets `user_version` in
    /// its own transaction, so that version means every migration ran), in
    /// WAL mode, with a sane saved clock.
    static func isReady(_ db: Database, now: Int64) throws -> Bool {
        guard try Int32.fetchOne(db, sql: "PRAGMA application_id") == StoreSchema.applicationID,
              try Int.fetchOne(db, sql: "PRAGMA user_version") == StoreSchema.currentVersion,
              try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else { return false }
        return try !needsFarFutureRepair(db, now: now)
    }

    /// A database failure in plain words: never SQLite's text or SQL.
    static func storeError(_ error: DatabaseError, path: String, folder: String) -> StoreError {
        let location = StoreLocation(folder: URL(fileURLWithPath: folder))
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return isMarkedAsNextup(path) ? .damaged(path: path) : .notANextupDatabase(path: path)
        case .SQLITE_IOERR where diskIsFull(folder):
            // SQLite reports a full disk met while growing its shared-memory
            // or WAL file as an I/O error: say what it is.
            return .notWritable(path: folder, reason: "the disk is full; free some space and try again")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            return .notWritable(path: folder, reason: readOnlyReason(location) ?? "the file cannot be opened for writing")
        case .SQLITE_IOERR:
            return .notWritable(path: folder, reason: "the disk reported an input/output error")
        case .SQLITE_FULL:
            // This transaction wrote nothing; earlier ones (a sync's merged batches) stay.
            return .notWritable(path: folder, reason: "the disk is full; free some space and try again")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .database("another nextup held the store for too long; try again")
        default:
            return .database("an unexpected database failure (SQLite result code \(error.resultCode.primaryResultCode.rawValue)) in \(path)")
        }
    }

    /// Whether the file's SQLite header carries nextup's application id (a
    /// store open in this process was checked when opened: its header is
    /// not read again, see ``OpenStores``).
    static func isMarkedAsNextup(_ path: String) -> Bool {
        if OpenStores.shared.isOpen(path) { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 72)) ?? Data())
        guard header.count == 72 else { return false }
        return header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } == UInt32(bitPattern: StoreSchema.applicationID)
    }
}
