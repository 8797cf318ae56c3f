import Foundation
import GRDB
import NextUpCore
#if canImport(Glibc)
import Glibc
#endif

extension TaskStore {
    /// Opens the store at `location` with `records` imported into it
    /// (``importTasks(_:overwrite:)``, the same import, the same result).
    ///
    /// A store that does not exist yet — a first import, the usual way in
    /// from another tool — is built whole beside its place and then moved in:
    /// written once, without a rollback journal or a write-ahead log (a
    /// store in WAL mode writes every page twice, to the log and back), and
    /// synced to disk once before it takes the store's name.
    ///
    /// Contract: the result is the store ``open(_:clock:)`` then
    /// ``importTasks(_:overwrite:)`` would leave, row for row; no process
    /// ever sees a half-built store. The store's lock (``StoreLock``) is held
    /// from the check that no store exists until the built one has its name,
    /// so another nextup opening the store waits for it and then opens the
    /// whole store; the name is taken with `link`, which never replaces a
    /// file. A failed import (a bad record, a full disk) leaves no store and
    /// no building file behind (the store's folder and its lock file, made
    /// first, stay). When a store exists already, this is
    /// ``open(_:clock:)`` then ``importTasks(_:overwrite:)``.
    public static func openImporting(_ location: StoreLocation, _ records: consuming [TaskJSON], overwrite: Bool = false,
                                     clock: any PhysicalClock = SystemClock()) throws -> (store: TaskStore, summary: ImportSummary) {
        var pending: [TaskJSON]? = consume records
        return try openImporting(location, overwrite: overwrite, clock: clock) { pending.take()! }
    }

    /// ``openImporting(_:_:overwrite:clock:)`` with the records `reading`
    /// gives, called once: while a store that does not exist yet is made
    /// (its migrations), on another thread; else before the store is opened.
    /// The store's lock is held while a new store is built, reading
    /// included: give a reading that ends by itself (a file, not a terminal
    /// or a pipe another program may hold open). When both fail, the
    /// reading's error is thrown.
    public static func openImporting(_ location: StoreLocation, overwrite: Bool = false, clock: any PhysicalClock = SystemClock(),
                                     reading: () throws -> [TaskJSON]) throws -> (store: TaskStore, summary: ImportSummary) {
        try openImporting(location, overwrite: overwrite, clock: clock, planned: { planned(try reading()) })
    }

    /// ``openImporting(_:overwrite:clock:reading:)`` with records the
    /// reading planned as it read them (``planned(_:)``, in file order).
    public static func openImporting(_ location: StoreLocation, overwrite: Bool = false, clock: any PhysicalClock = SystemClock(),
                                     planned reading: () throws -> [PlannedRecord]) throws -> (store: TaskStore, summary: ImportSummary) {
        if let summary = try importBuildingStore(location, reading: reading, overwrite: overwrite, clock: clock) {
            return (try open(location, clock: clock), summary)
        }
        let planned = try reading()
        let store = try open(location, clock: clock)
        return (store, try store.importTasks(planned: planned, overwrite: overwrite))
    }

    /// The name a store is built under before it takes ``StoreLocation/databaseName``
    /// (a leftover of an import that was killed is removed by the next one).
    static let buildingName = StoreLocation.databaseName + ".building"

    /// The import into a store built beside its place (see
    /// ``openImporting(_:_:overwrite:clock:)``); nil, with nothing read yet,
    /// when a store exists already.
    private static func importBuildingStore(_ location: StoreLocation, reading: () throws -> [PlannedRecord], overwrite: Bool,
                                            clock: any PhysicalClock) throws -> ImportSummary? {
        try prepareFolder(location.folder)
        let path = location.databaseURL.path
        let lock = try StoreLock(folder: location.folder)
        try lock.lockExclusive()
        defer { lock.unlock() }
        // Under the lock, which every open that creates the store holds too.
        guard !exists(path), !exists(path + "-wal"), !OpenStores.shared.isOpen(path) else { return nil }
        let building = location.folder.appendingPathComponent(buildingName).path
        removeBuildingFiles(building)
        var moved = false
        defer { if !moved { removeBuildingFiles(building) } }
        let fd = Glibc.open(building, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.notWritable(path: location.folder.path, reason: String(cString: strerror(errno))) }
        Glibc.close(fd)

        let summary: ImportSummary
        let early = EarlySync(building)
        defer { early.wait() }
        do {
            // The records are read and planned (on another thread) while the
            // new store is made.
            let (planned, queue) = try SideBySide.run(reading) {
                var config = Configuration()
                config.label = "nextup-building"
                let queue = try DatabaseQueue(path: building, configuration: config)
                // Nobody else can see this file: nothing to roll back to (a
                // failure throws the file away) and nothing to sync until the end.
                try queue.writeWithoutTransaction { db in
                    try StoreSchema.setPageSizeIfEmpty(db)
                    try db.execute(sql: "PRAGMA journal_mode = OFF")
                    try db.execute(sql: "PRAGMA synchronous = OFF")
                }
                try StoreSchema.migrator.migrate(queue)
                return queue
            }
            // The store object writes through `queue`; it counts as one of
            // this process's opens of the store's path until it is gone.
            OpenStores.shared.retain(path)
            do {
                let store = TaskStore(location: location, database: queue, clock: clock)
                // What the import wrote so far goes to disk while the indexes
                // are built; the sync below has only the rest to write.
                summary = try store.importTasks(planned: consume planned, overwrite: overwrite, bulkInsertRows: bulkInsertRows,
                                                rowsWritten: { early.start() })
                // The store's mode, kept in the file; the log and its index
                // go again when this last connection closes.
                try queue.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
                store.closeBeforeExit()
            }
        } catch let error as DatabaseError {
            throw storeError(error, path: path, folder: location.folder.path)
        }
        // On disk before it has the store's name: a crash never leaves a
        // store with its pages still in memory.
        early.wait()
        try syncToDisk(building, folder: location.folder.path)
        if link(building, path) != 0 {
            guard errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == ENOSYS else {
                throw StoreError.notWritable(path: location.folder.path, reason: "cannot name the new store: \(String(cString: strerror(errno)))")
            }
            // A file system without hard links: under the lock, no other
            // nextup makes the store, so a rename is as safe.
            guard !exists(path), rename(building, path) == 0 else {
                throw StoreError.notWritable(path: location.folder.path, reason: "cannot name the new store: \(String(cString: strerror(errno)))")
            }
        }
        moved = true
        unlink(building)
        try syncToDisk(location.folder.path, folder: location.folder.path)
        return summary
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The building file and any file SQLite made beside it.
    private static func removeBuildingFiles(_ building: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(building + suffix) }
    }

    private static func syncToDisk(_ path: String, folder: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.notWritable(path: folder, reason: String(cString: strerror(errno))) }
        defer { Glibc.close(fd) }
        if fsync(fd) != 0 && errno != EINVAL {
            throw StoreError.notWritable(path: folder, reason: String(cString: strerror(errno)))
        }
    }
}

/// A sync of a file to disk on a thread of its own, started when asked
/// (at most once) and waited for.
private final class EarlySync: @unchecked Sendable {
    private let path: String
    private let done = DispatchSemaphore(value: 0)
    private var started = false

    init(_ path: String) { self.path = path }

    func start() {
        guard !started else { return }
        started = true
        let (path, done) = (path, done)
        OwnThread.start {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                _ = fdatasync(fd)
                Glibc.close(fd)
            }
            done.signal()
        }
    }

    /// Returns once a started sync is over (at once when none was started).
    func wait() {
        guard started else { return }
        started = false
        done.wait()
    }
}
