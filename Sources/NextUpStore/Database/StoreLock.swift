import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock across processes on one store: `flock` on the file
/// `nextup.lock` in the store folder (SQLite keeps its own `fcntl` locks on its
/// files, so the lock is a separate file). The kernel releases it when the
/// holder dies, even by SIGKILL.
public final class StoreLock: @unchecked Sendable {
    public let path: String
    private let fd: Int32

    public init(folder: URL, name: String = "nextup.lock") throws {
        path = folder.appendingPathComponent(name).path
        fd = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if fd < 0 { throw StoreError.notWritable(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { Glibc.close(fd) }

    /// Blocks until this process holds the lock.
    public func lockExclusive() throws {
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            if [ENOLCK, EOPNOTSUPP, ENOSYS, EINVAL].contains(errno) {
                throw StoreError.notWritable(path: (path as NSString).deletingLastPathComponent,
                                             reason: "its file system does not support file locks (\(reason)); keep the store on a local disk")
            }
            throw StoreError.database("cannot lock \(path): \(reason)")
        }
    }

    /// Takes the lock if free; false when another process holds it.
    public func tryLockExclusive() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    public func unlock() { _ = flock(fd, LOCK_UN) }

    /// Whether the file system holding `folder` has working file locks, both
    /// kinds: `flock` (this lock) and POSIX `fcntl` record locks (SQLite's).
    /// Some network file systems (NFS without its lock daemon, some FUSE
    /// mounts) refuse them; then several processes cannot share a store
    /// safely. Returns nil when both work, else the problem in words.
    /// Needs a writable folder; says nothing about a folder it cannot write.
    public static func lockProblem(in folder: URL) -> String? {
        let path = folder.appendingPathComponent("nextup.lock").path
        let fd = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        func words(_ call: String) -> String {
            "the file system of \(folder.path) does not support file locks (\(call): \(String(cString: strerror(errno)))); "
                + "nextup and SQLite need them to share the store between processes: keep the store on a local disk"
        }
        // Shared, not exclusive: a running nextup holding the lock is no problem.
        if flock(fd, LOCK_SH | LOCK_NB) != 0 {
            if errno != EWOULDBLOCK { return words("flock") }
        } else {
            _ = flock(fd, LOCK_UN)
        }
        var record = flock()
        record.l_type = Int16(F_RDLCK)
        record.l_whence = Int16(SEEK_SET)
        record.l_start = 0x7FFF_0000  // far from any byte SQLite locks, on our own lock file
        record.l_len = 1
        if fcntl(fd, F_SETLK, &record) != 0 {
            if errno != EAGAIN && errno != EACCES { return words("fcntl") }
        } else {
            record.l_type = Int16(F_UNLCK)
            _ = fcntl(fd, F_SETLK, &record)
        }
        return nil
    }
}
