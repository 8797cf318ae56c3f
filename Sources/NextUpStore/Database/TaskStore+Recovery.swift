import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// A damaged store: found (`doctor`) and set aside (`nextup recover`).
extension TaskStore {
    /// Why the open store is damaged, in plain words; nil when SQLite's
    /// quick check reads every page back as it was written.
    public func damage() -> String? {
        do {
            let found = try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            return found == ["ok"] ? nil : StoreError.damaged(path: location.databaseURL.path).description
        } catch let error as DatabaseError {
            return Self.storeError(error, path: location.databaseURL.path, folder: location.folder.path).description
        } catch {
            return "\(error)"
        }
    }

    /// Whether the store at `location` is damaged: it cannot be opened as
    /// a nextup store for that reason, or its pages do not read back.
    /// A store that does not exist, or that is foreign or newer, is not.
    public static func isDamaged(_ location: StoreLocation) -> Bool {
        guard FileManager.default.fileExists(atPath: location.databaseURL.path) else { return false }
        do {
            return try open(location).damage() != nil
        } catch StoreError.damaged {
            return true
        } catch {
            return false
        }
    }

    /// The id of another process that has the store open, if any. Each
    /// SQLite connection to a store in WAL mode holds a shared lock on one
    /// byte of the `-shm` file (128, SQLite's "DMS" lock) for as long as it
    /// is open; a process that asks for a conflicting lock is told who holds
    /// it (locks of this process are never reported).
    public static func processHoldingOpen(_ location: StoreLocation) -> Int32? {
        let fd = Glibc.open(location.databaseURL.path + "-shm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var probe = Glibc.flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = 128
        probe.l_len = 1
        guard fcntl(fd, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) else { return nil }
        return probe.l_pid
    }

    /// Moves the store's files aside in its folder, under a name that says
    /// when (`nextup-damaged-<UTC time>.sqlite`, with its `-wal` and `-shm`
    /// beside it, so SQLite can still open them together); nothing is
    /// deleted. Holds the store's lock meanwhile. Returns the new path.
    public static func setAside(_ location: StoreLocation, now: Date = Date()) throws -> String {
        let lock = try StoreLock(folder: location.folder)
        try lock.lockExclusive()
        defer { lock.unlock() }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        var base = location.folder.appendingPathComponent("nextup-damaged-\(formatter.string(from: now)).sqlite").path
        var n = 1
        while FileManager.default.fileExists(atPath: base) {
            n += 1
            base = location.folder.appendingPathComponent("nextup-damaged-\(formatter.string(from: now))-\(n).sqlite").path
        }
        let path = location.databaseURL.path
        // The side files first: the main file's name is what makes a store.
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, base + suffix) == 0 else {
                throw StoreError.notWritable(path: location.folder.path, reason: String(cString: strerror(errno)))
            }
        }
        return base
    }
}
